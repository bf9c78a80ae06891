import { entryProblemLine, YAML_FIELD, type EntryProblem, type Place } from "../error-catalogue.ts";
import type { Dictionary } from "../content.ts";
import { SitegenError, sitegenError } from "../errors.ts";
import { parseYaml } from "../yaml.ts";
import type { CollectionDefinition, FieldRule } from "../site-definition.ts";

/**
 * A collection entry's file: its text split into fields and Markdown body (parseEntry), and the fields
 * checked against the collection's schema (validate), each error naming the file, the field and its line.
 */

/**
 * A file's fields (front matter, or a YAML entry's fields without its `body`), its Markdown body, and the body's first
 * line.
 */
export interface SplitEntry {
  front: Record<string, unknown>;
  body: string;
  firstLine: number;
}

/**
 * An entry file's fields and Markdown body, a YAML error or a malformed file failing with the catalogue's error.
 * A schema that names `body` takes a YAML entry's `body` as a field like any other, unrendered.
 * `bodyOnly`: only the body of a Markdown file is wanted (its fields were read before).
 */
export function parseEntry(file: string, text: string, definition: CollectionDefinition, bodyOnly = false): SplitEntry {
  const bodyField = "body" in definition.schema;
  const parse = (yaml: string) => parseYaml(file, yaml);
  const invalid = (field: string, problem: string) => entryInvalid([{ file, field, problem }]);
  const markdown = file.endsWith(".md");
  let fields: unknown;
  let body = "";
  let firstLine = 0;
  if (markdown) {
    const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
    if (!match) throw invalid("(front matter)", "the file must start with front matter between two lines of ---.");
    // The body's first line in the file, for the line of an image in an error.
    firstLine = match[1].split("\n").length + 3;
    if (bodyOnly) return { front: {}, body: match[2], firstLine };
    // Parsed with the line of --- it starts on (a YAML document's own start marker), so that an error's
    // line and excerpt number the lines as the file does.
    fields = parse(`---\n${match[1]}`);
    body = match[2];
  } else {
    fields = parse(text);
  }
  if (!fields || typeof fields !== "object" || Array.isArray(fields))
    throw invalid("(front matter)", "must be a mapping of field names to values.");
  const { body: yamlBody, ...front } = fields as Record<string, unknown>;
  // A YAML entry may carry its text in `body` (Markdown), beside the fields of the schema; a schema that
  // names `body` itself takes it as a field like any other, unrendered.
  const bodyIsMarkdown = !markdown && !bodyField;
  if (bodyIsMarkdown && yamlBody !== undefined) {
    if (typeof yamlBody !== "string") throw invalid("body", "must be text (Markdown).");
    body = yamlBody;
  }
  return { front: bodyIsMarkdown ? front : (fields as Record<string, unknown>), body, firstLine };
}

/**
 * The front matter, checked field by field against the schema (unknown fields are an error too: usually a
 * typo). `place` says where a field is written, for the error. `inherits`: a file of another locale than the
 * default, which may leave out a required shared field (shared-fields.ts gives it the default's).
 */
export function validate(
  fields: Record<string, unknown>,
  schema: Record<string, FieldRule>,
  place: (field: string) => Place,
  dictionary: Dictionary,
  inherits = false,
): Record<string, unknown> {
  // Every problem of the entry is gathered, so that one build names them all instead of one per run.
  const problems: { field: string; problem: string }[] = [];
  const fail = (field: string, problem: string) => problems.push({ field, problem });
  for (const field of Object.keys(fields)) {
    if (!(field in schema))
      fail(field, `is not a field of this collection (its fields: ${Object.keys(schema).join(", ")}).`);
  }
  const data: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(schema)) {
    const value = fields[field];
    if (value === undefined || value === null || value === "") {
      if (rule.required && !(inherits && rule.shared)) fail(field, "is required and missing.");
      continue;
    }
    const problem = fieldProblem(value, rule, dictionary);
    if (problem) fail(field, problem);
    else data[field] = value;
  }
  if (problems.length) throw entryInvalid(problems.map(({ field, problem }) => ({ ...place(field), field, problem })));
  return data;
}

/** What is wrong with a field's value, if anything. */
function fieldProblem(value: unknown, rule: FieldRule, dictionary: Dictionary): string | undefined {
  switch (rule.type) {
    case "text":
    case "image":
      return typeof value === "string" ? undefined : `must be text, not ${JSON.stringify(value)}.`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `must be true or false, not ${JSON.stringify(value)}.`;
    case "number":
      return numberProblem(value, rule);
    case "date":
      return typeof value === "string" && isDate(value)
        ? undefined
        : `must be a date written YYYY-MM-DD, not ${JSON.stringify(value)}.`;
    case "reference":
      return typeof value === "string" && refers(dictionary, rule.to, value, rule.key)
        ? undefined
        : `"${String(value)}" is not one of ${known(dictionary, rule.to, rule.key)}.`;
    case "references": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
        return "must be a list of ids, such as [one, two].";
      const unknown = (value as string[]).filter((id) => !refers(dictionary, rule.to, id));
      if (unknown.length === 0) return undefined;
      return (
        `${unknown.map((id) => `"${id}"`).join(", ")} ${unknown.length === 1 ? "is not one of" : "are not among"} ` +
        `${known(dictionary, rule.to)}.`
      );
    }
  }
}

/** How many problems an error lists before it only counts the rest: a folder of broken files stays readable. */
const LISTED_PROBLEMS = 50;

/** EntryInvalid for one or more problems (of one entry or several): the first names its place, the others follow it. */
export function entryInvalid(problems: EntryProblem[]): SitegenError {
  const [first, ...others] = problems;
  const listed = others.slice(0, LISTED_PROBLEMS - 1).map(entryProblemLine);
  const unlisted = others.length - listed.length;
  if (unlisted > 0) listed.push(`...and ${unlisted} more ${unlisted === 1 ? "problem" : "problems"}.`);
  const syntax = problems.some((p) => p.field === YAML_FIELD);
  return sitegenError("EntryInvalid", { ...first, others: listed, syntax }, { data: { problems } });
}

/**
 * The problems an entry's error holds (EntryInvalid from entryInvalid, YamlSyntaxError from parseYaml), or undefined
 * for any other error.
 */
export function entryProblems(error: unknown): EntryProblem[] | undefined {
  return error instanceof SitegenError && (error.name === "EntryInvalid" || error.name === "YamlSyntaxError")
    ? (error.data as { problems?: EntryProblem[] } | undefined)?.problems
    : undefined;
}

/**
 * Where an entry's file writes a field: the line that starts with its key (front matter and YAML entries
 * keep their fields at the top level; a Markdown file's body is not looked at), or the file alone for a
 * field it does not write (a missing one).
 */
export function fieldPlace(file: string, text: string, field: string): Place {
  const lines = text.split("\n");
  const end = file.endsWith(".md") ? lines.findIndex((l, i) => i > 0 && /^---\r?$/.test(l)) : lines.length;
  const key = new RegExp(`^["']?${field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']?[ \t]*:`);
  const line = lines.slice(0, end < 0 ? lines.length : end).findIndex((l) => key.test(l));
  return line < 0 ? { file } : { file, line: line + 1, column: 1 };
}

/** What is wrong with a number field's value: "must be a number from 0 to 500, not "12" (write it without quotes)." */
function numberProblem(value: unknown, { min, max }: { min?: number; max?: number }): string | undefined {
  const fits = (n: number) => Number.isFinite(n) && !(n < (min ?? -Infinity)) && !(n > (max ?? Infinity));
  if (typeof value === "number" && fits(value)) return undefined;
  const range =
    min !== undefined && max !== undefined
      ? ` from ${min} to ${max}`
      : min !== undefined
        ? ` of at least ${min}`
        : max !== undefined
          ? ` of at most ${max}`
          : "";
  const quoted = typeof value === "string" && /\d/.test(value) && fits(Number(value));
  const shown = typeof value === "number" ? String(value) : JSON.stringify(value);
  return `must be a number${range}, not ${shown}${quoted ? " (write it without quotes)" : ""}.`;
}

function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Whether the text key `${to}.${id}` (or `${to}.${id}.${key}`) exists in the locale's text. */
function refers(dictionary: Dictionary, to: string, id: string, key?: string): boolean {
  return /^[\w-]+$/.test(id) && dictionary.has(key ? `${to}.${id}.${key}` : `${to}.${id}`);
}

/** The ids a reference may take, for the error message. */
function known(dictionary: Dictionary, to: string, key?: string): string {
  const ids = new Set<string>();
  for (const k of dictionary.keys()) {
    if (!k.startsWith(`${to}.`)) continue;
    const rest = k.slice(to.length + 1).split(".");
    if (key ? rest.length === 2 && rest[1] === key : rest.length === 1) ids.add(rest[0]);
  }
  return ids.size ? [...ids].join(", ") : `the ids under "${to}" in content (there are none)`;
}
