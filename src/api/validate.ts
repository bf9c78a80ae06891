/**
 * Validation of the two forms. Every field is trimmed; only strings are accepted; control characters other
 * than tab, line feed and carriage return (and lone UTF-16 surrogates, which cannot be stored as UTF-8) are
 * refused with the field's message. Names and messages lose any bidi embedding, override or isolate control
 * (see stripBidiControls); addresses are stricter (see isValidEmail). Everything else (quotes, angle brackets,
 * emoji, right-to-left marks) is accepted and stored verbatim through bound parameters.
 */

export const LIMITS = {
  email: 254,
  emailLocalPart: 64,
  firstName: 100,
  lastName: 100,
  company: 200,
  message: 5000,
} as const;

/** The fields of the larger form (contact), whose limits together bound the size of any valid body. */
const BODY_FIELDS = ["firstName", "lastName", "email", "company", "message"] as const;

/**
 * The largest body a form endpoint reads, in bytes, derived from the field limits so that every submission
 * they admit fits. A limit counts UTF-16 code units, and no unit takes more than 3 bytes of UTF-8 (a CJK
 * character is 3 bytes for 1 unit; an emoji 4 bytes for 2); a form posted without JavaScript percent-encodes
 * each of those bytes as 3 ASCII bytes: 9 bytes per unit. JSON is never larger (6 bytes per unit, \uXXXX).
 * The envelope holds the field names, separators, locale, startedAt, the honeypot and whitespace that trimming
 * removes before the limits apply.
 */
const BYTES_PER_UNIT = 9;
const ENVELOPE_BYTES = 1024;
export const MAX_BODY_BYTES =
  BODY_FIELDS.reduce((sum, field) => sum + LIMITS[field], 0) * BYTES_PER_UNIT + ENVELOPE_BYTES;

/** C0 controls except \t \n \r, DEL, C1 controls, and unpaired surrogates (matched alone under the u flag). */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/u;

/**
 * Never part of an address a person types: controls, format characters (Cf: bidi controls, zero-width
 * characters, the soft hyphen, tags) and whatever Unicode says to ignore when displaying (Hangul fillers,
 * variation selectors). Each can make an address look like another one, or the same address be stored twice.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Bidi embedding, override and isolate controls: invisible, they reorder the text after them wherever it is
 * shown (the `sitegen submissions` listing, a spreadsheet, a mail client), so "gnp.exe" can read "exe.png".
 * Removed from names and messages rather than refused: the visitor cannot see them, so an error would name a
 * problem they cannot find, and a text pasted from a word processor may carry them innocently. Marks (U+200E,
 * U+200F) override nothing and stay.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

export function stripBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, "");
}

const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
/**
 * local@domain.tld: no spaces, angle brackets, quotes or other delimiters; dotted labels; a TLD of 2+ letters (or
 * punycode).
 */
const EMAIL = new RegExp(String.raw`^[^\s@<>()[\]\\,;:"]+@(?:${LABEL}\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)$`, "iu");

/** Expects the address trimmed and in NFC, as the validator stores it (see `email` below). */
export function isValidEmail(email: string): boolean {
  if (email.length > LIMITS.email || FORBIDDEN.test(email) || INVISIBLE.test(email) || !EMAIL.test(email)) return false;
  const local = email.slice(0, email.lastIndexOf("@"));
  return (
    local.length <= LIMITS.emailLocalPart && !local.startsWith(".") && !local.endsWith(".") && !local.includes("..")
  );
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
  /** Cleans a string before the checks; names and messages lose their bidi controls by default. */
  clean?: (raw: string) => string;
}

const cleanText = (raw: string) => stripBidiControls(raw).trim();
/** NFC: "joão" typed with a combining tilde is the same address as with a precomposed ã. */
const cleanEmail = (raw: string) => raw.trim().normalize("NFC");

/** undefined / null / "" (after cleaning) count as absent; any non-string is invalid. */
function text(raw: unknown, rule: TextRule): { value: string; problem?: FieldProblem } {
  if (raw === undefined || raw === null) return rule.required ? { value: "", problem: "required" } : { value: "" };
  if (typeof raw !== "string") return { value: "", problem: "invalid" };
  const value = (rule.clean ?? cleanText)(raw);
  if (value === "") return rule.required ? { value, problem: "required" } : { value };
  if (FORBIDDEN.test(value)) return { value, problem: "invalid" };
  if (value.length > rule.max) return { value, problem: "tooLong" };
  return { value };
}

function email(raw: unknown): { value: string; problem?: FieldProblem } {
  const result = text(raw, { required: true, max: LIMITS.email, clean: cleanEmail });
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
  for (const [name, result] of Object.entries(results) as [
    keyof ContactFields,
    { value: string; problem?: FieldProblem },
  ][]) {
    values[name] = result.value;
    if (result.problem) problems[name] = result.problem;
  }
  return { values, problems };
}
