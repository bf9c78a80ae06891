import type * as JsYaml from "js-yaml";
import type * as Yaml from "yaml";
import { requireLazily } from "./lazy-require.ts";
import { SitegenError } from "./errors.ts";
import { parseSimpleYaml } from "./yaml-fast.ts";
import { cacheDir, generatorStamp, readCachedJson, sha1, writeCached } from "./build-cache.ts";

/**
 * Parsed YAML by the file's text, kept between builds (build-cache.ts): content rarely changes between two
 * builds. Values are kept as JSON text, so each use gets its own copy (JSON.parse) and the cache never
 * sees what a caller changes, with no deep copy on a first build. Active only inside a build.
 */
let cache: { file: string; stamp: string; stored: Record<string, string>; used: Record<string, string>; dirty: boolean } | null = null;

export function useYamlCache(root: string): void {
  const file = cacheDir(root, "yaml.json");
  // The generator's stamp is part of every key: a change to the parsers voids what they parsed.
  cache = { file, stamp: generatorStamp(root), stored: readCachedJson<Record<string, string>>(file) ?? {}, used: {}, dirty: false };
}

/** Writes what this build parsed (only that, so the file never grows past the content) and stops caching. */
export function saveYamlCache(): void {
  if (cache && (cache.dirty || Object.keys(cache.used).length !== Object.keys(cache.stored).length)) writeCached(cache.file, JSON.stringify(cache.used));
  cache = null;
}

/**
 * Parses YAML and turns a syntax error into one that names the file, line and column.
 *
 * Content files take the fast path (yaml-fast.ts: 10-15 ms for all 190 KB on a first build); anything
 * else goes to js-yaml (60-110 ms for the same text, where `yaml` took 250-300 ms). Both read YAML 1.2
 * with the core schema (dates stay strings, `yes` stays text) and give the same values for every content
 * file (tests/unit/i18n.test.ts, tests/unit/yaml-fast.test.ts). `yaml` is loaded only when a file is
 * broken, because its messages say more ("Missing closing "quote" rather than "deficient indentation").
 */
export function parseYamlFile(file: string, text: string): unknown {
  const key = cache ? sha1(`${cache.stamp}\0${file}\0${text}`) : "";
  const stored = cache?.stored[key];
  if (cache && typeof stored === "string") {
    try {
      const value: unknown = JSON.parse(stored);
      cache.used[key] = stored;
      return value;
    } catch {
      // A damaged entry is a miss.
    }
  }
  // The fast path reads content/'s kind of YAML exactly as js-yaml does, or steps aside (yaml-fast.ts).
  let value: unknown = parseSimpleYaml(text);
  if (value === undefined) {
    // Loaded only for a file the fast path stepped aside for (none of ours): 10 ms of start-up otherwise.
    const { CORE_SCHEMA, load, YAMLException } = requireLazily("js-yaml") as typeof JsYaml;
    try {
      value = load(text, { schema: CORE_SCHEMA, filename: file });
    } catch (error) {
      if (error instanceof YAMLException) throw yamlError(file, text, error);
      throw error;
    }
  }
  if (cache) {
    cache.used[key] = JSON.stringify(value);
    cache.dirty = true;
  }
  return value;
}

function yamlError(file: string, text: string, error: JsYaml.YAMLException): SitegenError {
  const { parseDocument } = requireLazily("yaml") as typeof Yaml;
  const detailed = parseDocument(text, { prettyErrors: true, uniqueKeys: true }).errors[0];
  const pos = detailed?.linePos?.[0] ?? (error.mark ? { line: error.mark.line + 1, col: error.mark.column + 1 } : undefined);
  const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
  // yaml's message is "<reason> at line L, column C:" and then the lines it points at, with a caret.
  const [first, ...frame] = detailed ? detailed.message.split("\n") : [error.reason];
  const reason = first.replace(/ at line \d+, column \d+:?$/, "");
  const excerpt = frame.filter((line) => line.trim()).map((line) => `\n    ${line}`).join("");
  return new SitegenError(
    "YamlSyntaxError",
    `${where}: ${reason}${excerpt}`,
    "Fix the YAML at that line and column (check indentation, and quote text that contains ': ' or starts with '{').",
  );
}
