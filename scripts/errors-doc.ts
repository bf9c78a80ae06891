/**
 * docs/errors.md, written from the error catalogue (src/generator/error-catalogue.ts): each error's name,
 * title, message and hint. `npm run docs:errors` writes the file (scripts/errors-doc.mjs) and
 * tests/unit/errors-doc.test.ts fails when the file differs from what errorsDoc() returns.
 *
 * A message or hint is a function of the error's parameters. Each parameter is shown as a placeholder
 * ({file}, {line}) unless a case below gives it a value: an error whose words change with a parameter
 * (a hint per kind of failure) gets one case per variant, each saying when it applies.
 */
import { ERRORS, type ErrorName } from "../src/generator/error-catalogue.ts";

interface Case {
  /** When this variant applies; absent for a single example. */
  when?: string;
  params: Record<string, unknown>;
}

const CASES: Partial<Record<ErrorName, Case[]>> = {
  ConfigInvalid: [
    { when: "a field of `locales` is wrong", params: { field: "locales[{i}].{key}" } },
    { when: "any other field is wrong", params: { field: "{field}" } },
  ],
  EntryInvalid: [
    { when: "one entry has one problem", params: { others: [] } },
    { when: "the file has no front matter", params: { field: "(front matter)", line: undefined, others: [] } },
    {
      when: "there are several problems, in one entry or many",
      params: { others: ["{file}:{line}:{column}, `{field}`: {problem}"], syntax: false },
    },
    {
      when: "there are several problems and a file's YAML cannot be read",
      params: { others: ["{file}:{line}:{column}, `(YAML)`: cannot be read as YAML: {reason}."], syntax: true },
    },
  ],
  OutputWriteFailed: [
    { when: "the disk is full (ENOSPC, EDQUOT)", params: { code: "ENOSPC" } },
    { when: "writing is not allowed (EACCES, EPERM, EROFS)", params: { code: "EACCES" } },
    { when: "the write fails for another reason", params: { code: "{code}" } },
  ],
  PortInUse: [{ params: { port: 4321 } }],
  NotificationSettingsInvalid: [
    { when: "a setting of content/site.yaml is wrong", params: { variable: "notifications.{field}" } },
    { when: "an environment variable is wrong", params: { variable: "{variable}" } },
  ],
  OptionValueInvalid: [
    { when: "the option has a default", params: { valid: ["{valid value}"], omitted: undefined } },
    { when: "the option may be left out", params: { valid: ["{valid value}"] } },
  ],
  EmailOptionInvalid: [
    { when: "`--email` is missing", params: { value: "" } },
    { when: "`--email` is not an address", params: {} },
  ],
  EntryTranslationMissing: [{ params: { others: [] } }],
  CollectionEmptyInLocale: [{ params: { others: [] } }],
};

/**
 * A parameter with no value in its case: it reads as `{name}` where it is placed in a text, and fails at
 * anything else (a comparison of numbers, a method call), which says that the error needs a case.
 */
function placeholder(name: string): object {
  return {
    [Symbol.toPrimitive](hint: string) {
      if (hint === "string") return `{${name}}`;
      throw new TypeError(`{${name}} is used as a value, not only placed in the text`);
    },
  };
}

function withPlaceholders(params: Record<string, unknown>): Record<string, unknown> {
  return new Proxy(params, {
    get: (target, key) => (typeof key !== "string" || key in target ? Reflect.get(target, key) : placeholder(key)),
  });
}

interface Variant {
  when?: string;
  message: string;
  hint: string;
}

function variants(name: ErrorName): Variant[] {
  const entry = ERRORS[name] as { message: (p: unknown) => string; hint: (p: unknown) => string };
  return (CASES[name] ?? [{ params: {} }]).map(({ when, params }) => {
    const p = withPlaceholders(params);
    try {
      return { when, message: entry.message(p), hint: entry.hint(p) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${name}: its words depend on a parameter (${reason}); give it a case in scripts/errors-doc.ts`);
    }
  });
}

/** Prose for Markdown: what the renderer would take as markup is escaped, except inside `code`. */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/[\\<*[\]]/g, (c) => (c === "<" ? "&lt;" : `\\${c}`))))
    .join("");
}

const block = (text: string) => ["```text", text, "```"].join("\n");

function section(name: ErrorName): string {
  const all = variants(name);
  const lines = [`## ${name}`, "", `**${ERRORS[name].title}**`, ""];
  const oneMessage = all.every((v) => v.message === all[0].message);
  if (oneMessage) lines.push(block(all[0].message), "");
  if (all.length === 1) {
    lines.push(`Hint: ${prose(all[0].hint)}`);
  } else if (oneMessage) {
    lines.push("Hint:", "", ...all.map((v) => `- ${v.when ? `${prose(v.when)}: ` : ""}${prose(v.hint)}`));
  } else {
    for (const v of all)
      lines.push(`When ${prose(v.when ?? "")}:`, "", block(v.message), "", `Hint: ${prose(v.hint)}`, "");
    lines.pop();
  }
  return lines.join("\n");
}

/** The whole of docs/errors.md. */
export function errorsDoc(): string {
  const names = Object.keys(ERRORS) as ErrorName[];
  const unknown = Object.keys(CASES).filter((name) => !(name in ERRORS));
  if (unknown.length)
    throw new Error(`scripts/errors-doc.ts has cases for errors the catalogue lacks: ${unknown.join(", ")}`);
  return [
    "# Errors",
    "",
    "<!-- Written by `npm run docs:errors` from src/generator/error-catalogue.ts: " +
      "edit the catalogue, not this file. -->",
    "",
    `Every failure sitegen reports is one of these ${names.length} errors. The CLI prints its name and title, then`,
    "what happened and where (a file with its line and column, a page and its route, or an option), then a hint,",
    "and exits with code 1:",
    "",
    block(
      "YamlSyntaxError: YAML syntax error\n" +
        "  content/en/home.yaml:3:9: unexpected end of the stream within a flow collection\n" +
        "  ...\n" +
        "  hint: Fix the YAML at that line and column: ...",
    ),
    "",
    "Below, a word in braces such as {file} stands for what the error names when it happens. Five of them are",
    "warnings unless `sitegen build --strict` is given: " +
      "[NoPages](#nopages), [MissingTranslations](#missingtranslations), [BrokenLinks](#brokenlinks),",
    "[EntryTranslationMissing](#entrytranslationmissing) and [CollectionEmptyInLocale](#collectionemptyinlocale).",
    "",
    "| Name | Title |",
    "|---|---|",
    ...names.map((name) => `| [${name}](#${name.toLowerCase()}) | ${prose(ERRORS[name].title)} |`),
    "",
    names.map(section).join("\n\n"),
    "",
  ].join("\n");
}
