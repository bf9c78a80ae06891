import { CORE_SCHEMA, load, YAMLException } from "js-yaml";
import { YAML_FIELD, type EntryProblem } from "./error-catalogue.ts";
import { sitegenError } from "./errors.ts";

/**
 * The one YAML parser of sitegen (content, site.yaml, front matter): js-yaml with YAML 1.2's core schema,
 * so dates stay text and `yes` stays a word. A syntax error becomes YamlSyntaxError naming the file, line
 * and column, with the lines in question and a caret under the spot (js-yaml's own excerpt); it carries the
 * same as an entry's problem (SitegenError.data), for a build that lists every invalid entry at once.
 */
export function parseYaml(file: string, text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA, filename: file });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const mark = error.mark as { line: number; column: number; snippet?: string } | undefined;
    const place = { file, line: mark ? mark.line + 1 : undefined, column: mark ? mark.column + 1 : undefined };
    // As an entry's problem too, so that a build lists it with the other invalid entries (collections.ts).
    const problem: EntryProblem = { ...place, field: YAML_FIELD, problem: `cannot be read as YAML: ${error.reason}.` };
    throw sitegenError(
      "YamlSyntaxError",
      { ...place, reason: error.reason, excerpt: (mark?.snippet ?? "").replace(/\s+$/, "") },
      { cause: error, data: { problems: [problem] } },
    );
  }
}
