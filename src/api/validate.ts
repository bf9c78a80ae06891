/**
 * Validation of the two forms. Every field is trimmed; only strings are accepted; control characters other
 * than tab, line feed and carriage return (and lone UTF-16 surrogates, which cannot be stored as UTF-8) are
 * refused with the field's message. Everything else (quotes, angle brackets, emoji, right-to-left marks) is
 * accepted and stored verbatim through bound parameters.
 */

export const LIMITS = {
  email: 254,
  emailLocalPart: 64,
  firstName: 100,
  lastName: 100,
  company: 200,
  message: 5000,
} as const;

/** C0 controls except \t \n \r, DEL, C1 controls, and unpaired surrogates (matched alone under the u flag). */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/u;

const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
/** local@domain.tld: no spaces, angle brackets, quotes or other delimiters; dotted labels; a TLD of 2+ letters (or punycode). */
const EMAIL = new RegExp(String.raw`^[^\s@<>()[\]\\,;:"]+@(?:${LABEL}\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)$`, "iu");

export function isValidEmail(email: string): boolean {
  if (email.length > LIMITS.email || FORBIDDEN.test(email) || !EMAIL.test(email)) return false;
  const local = email.slice(0, email.lastIndexOf("@"));
  return local.length <= LIMITS.emailLocalPart && !local.startsWith(".") && !local.endsWith(".") && !local.includes("..");
}

/** Field name → reads a raw value from the parsed body (own properties only). */
export type FieldReader = (name: string) => unknown;

/** Why a field failed; the handler maps each to a message key. */
export type FieldProblem = "required" | "invalid" | "tooLong";

export interface Validated<T> {
  values: T;
  problems: Partial<Record<keyof T & string, FieldProblem>>;
}

interface TextRule {
  required: boolean;
  max: number;
}

/** undefined / null / "" (after trim) count as absent; any non-string is invalid. */
function text(raw: unknown, rule: TextRule): { value: string; problem?: FieldProblem } {
  if (raw === undefined || raw === null) return rule.required ? { value: "", problem: "required" } : { value: "" };
  if (typeof raw !== "string") return { value: "", problem: "invalid" };
  const value = raw.trim();
  if (value === "") return rule.required ? { value, problem: "required" } : { value };
  if (FORBIDDEN.test(value)) return { value, problem: "invalid" };
  if (value.length > rule.max) return { value, problem: "tooLong" };
  return { value };
}

function email(raw: unknown): { value: string; problem?: FieldProblem } {
  const result = text(raw, { required: true, max: LIMITS.email });
  if (result.problem) return result.problem === "tooLong" ? { value: result.value, problem: "invalid" } : result;
  return isValidEmail(result.value) ? result : { value: result.value, problem: "invalid" };
}

export interface NewsletterFields {
  email: string;
}

export function validateNewsletter(read: FieldReader): Validated<NewsletterFields> {
  const e = email(read("email"));
  return { values: { email: e.value }, problems: e.problem ? { email: e.problem } : {} };
}

export interface ContactFields {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  message: string;
}

export function validateContact(read: FieldReader): Validated<ContactFields> {
  const results = {
    firstName: text(read("firstName"), { required: true, max: LIMITS.firstName }),
    lastName: text(read("lastName"), { required: true, max: LIMITS.lastName }),
    email: email(read("email")),
    company: text(read("company"), { required: false, max: LIMITS.company }),
    message: text(read("message"), { required: true, max: LIMITS.message }),
  };
  const values = {} as ContactFields;
  const problems: Partial<Record<keyof ContactFields, FieldProblem>> = {};
  for (const [name, result] of Object.entries(results) as [keyof ContactFields, { value: string; problem?: FieldProblem }][]) {
    values[name] = result.value;
    if (result.problem) problems[name] = result.problem;
  }
  return { values, problems };
}
