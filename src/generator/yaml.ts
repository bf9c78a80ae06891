import { CORE_SCHEMA, load, YAMLException } from "js-yaml";
import { sitegenError } from "./errors.ts";

/**
 * The one YAML parser of sitegen (content, site.yaml, front matter): js-yaml with YAML 1.2's core schema,
 * so dates stay text and `yes` stays a word. A syntax error becomes YamlSyntaxError naming the file, line
 * and column, with the lines in question and a caret under the spot (js-yaml's own excerpt).
 */
export function parseYaml(file: string, text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA, filename: file });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const mark = error.mark as { line: number; column: number; snippet?: string } | undefined;
    throw sitegenError(
      "YamlSyntaxError",
      {
        file,
        line: mark ? mark.line + 1 : undefined,
        column: mark ? mark.column + 1 : undefined,
        reason: error.reason,
        excerpt: (mark?.snippet ?? "").replace(/\s+$/, ""),
      },
      { cause: error },
    );
  }
}
