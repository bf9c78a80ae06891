import { parseDocument, YAMLError } from "yaml";
import { SitegenError } from "./errors.ts";
import { cacheDir, readCachedJson, sha1, writeCached } from "./build-cache.ts";

/**
 * Parsed YAML by the file's text, kept between builds (build-cache.ts): parsing is most of the content
 * stage, and content rarely changes between two builds. Active only inside a build (useYamlCache).
 */
let cache: { file: string; stored: Record<string, unknown>; used: Record<string, unknown>; dirty: boolean } | null = null;

export function useYamlCache(root: string): void {
  const file = cacheDir(root, "yaml.json");
  cache = { file, stored: readCachedJson<Record<string, unknown>>(file) ?? {}, used: {}, dirty: false };
}

/** Writes what this build parsed (only that, so the file never grows past the content) and stops caching. */
export function saveYamlCache(): void {
  if (cache && (cache.dirty || Object.keys(cache.used).length !== Object.keys(cache.stored).length)) writeCached(cache.file, JSON.stringify(cache.used));
  cache = null;
}

/** Parses YAML and turns a syntax error into one that names the file, line and column. */
export function parseYamlFile(file: string, text: string): unknown {
  const key = cache ? sha1(`${file}\0${text}`) : "";
  // Copies in and out: a caller may change what it gets (config overrides), and the cache must not see it.
  if (cache && key in cache.stored) return structuredClone((cache.used[key] = cache.stored[key]));
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) throw yamlError(file, error);
  const value = doc.toJS();
  if (cache) {
    cache.used[key] = structuredClone(value);
    cache.dirty = true;
  }
  return value;
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
