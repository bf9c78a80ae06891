import { parseDocument, YAMLError } from "yaml";
import { SitegenError } from "./errors.ts";

/** Parses YAML and turns a syntax error into one that names the file, line and column. */
export function parseYamlFile(file: string, text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) throw yamlError(file, error);
  return doc.toJS();
}

function yamlError(file: string, error: YAMLError): SitegenError {
  const pos = error.linePos?.[0];
  const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
  const firstLine = error.message.split("\n")[0];
  return new SitegenError(
    "YamlSyntaxError",
    `${where}: ${firstLine}`,
    "Fix the YAML at that line and column (check indentation, and quote text that contains ': ' or starts with '{').",
  );
}
