import { readFileSync } from "node:fs";
import { join } from "node:path";
import { filesIn } from "./files.ts";
import { parseYaml } from "./yaml.ts";
import { sitegenError } from "./errors.ts";
import { PROJECT_FILES } from "./project.ts";
import type { SiteConfig } from "./config.ts";

/** Dotted key → text, for one locale. */
export type Dictionary = Map<string, string>;

/** Each locale's text as plain objects, as it is written into a file or inlined into a bundle (JSON). */
export function plainDictionaries(dictionaries: Record<string, Dictionary>): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(dictionaries).map(([locale, dictionary]) => [locale, Object.fromEntries(dictionary)]),
  );
}

export interface LocaleContent {
  locale: string;
  dictionary: Dictionary;
  /** The file that defines each key, for reports. */
  sources: Map<string, string>;
}

/**
 * The keyed text of one locale: every content/<code>/*.yaml, nested mappings flattened to dotted keys
 * ("hero.title"), and {name} replaced by site.yaml's plain-text value of that name ({brand}, {email}).
 */
export function loadLocaleContent(root: string, locale: string, site: SiteConfig): LocaleContent {
  const dir = `${PROJECT_FILES.content}/${locale}`;
  const files = filesIn(root, dir, ["yaml", "yml"]);
  if (files.length === 0) throw sitegenError("ContentMissing", { dir, locale });
  const dictionary: Dictionary = new Map();
  const sources = new Map<string, string>();
  const vars = siteVariables(site);
  for (const file of files) {
    const data = parseYaml(file, readFileSync(join(root, file), "utf8"));
    if (data === null || data === undefined) continue;
    if (typeof data !== "object" || Array.isArray(data))
      throw invalid(file, "", "the file must be a mapping of keys to text, starting with a key such as `hero:`.");
    for (const [key, value] of flatten(data as Record<string, unknown>, file)) {
      const first = sources.get(key);
      if (first) throw sitegenError("ContentDuplicateKey", { key, first, second: file });
      dictionary.set(key, interpolate(value, vars));
      sources.set(key, file);
    }
  }
  return { locale, dictionary, sources };
}

/** Nested mappings as [dotted key, text] pairs, in the file's order. */
function flatten(value: Record<string, unknown>, file: string, prefix = "", out: Pairs = []): Pairs {
  for (const key in value) {
    const child = value[key];
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (child !== null && typeof child === "object" && !Array.isArray(child)) {
      flatten(child as Record<string, unknown>, file, dotted, out);
    } else if (typeof child === "string") {
      out.push([dotted, child.replace(/\n+$/, "")]);
    } else if (typeof child === "number" || typeof child === "boolean") {
      out.push([dotted, String(child)]);
    } else {
      throw invalid(file, dotted, `holds ${Array.isArray(child) ? "a list" : String(child)}, where text was expected.`);
    }
  }
  return out;
}

type Pairs = [string, string][];

const invalid = (file: string, key: string, problem: string) => sitegenError("ContentInvalid", { file, key, problem });

/** The plain-text facts of site.yaml that text may refer to as {name}. */
export function siteVariables(site: SiteConfig): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [key, value] of Object.entries(site)) if (typeof value === "string") vars[key] = value;
  return vars;
}

export function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => vars[name] ?? match);
}

/** Keys some locale has and another lacks, per locale that lacks them. */
export function compareLocales(contents: LocaleContent[]): Record<string, string[]> {
  const all = new Set<string>();
  for (const c of contents) for (const key of c.dictionary.keys()) all.add(key);
  const missing: Record<string, string[]> = {};
  for (const c of contents) {
    const lacks = [...all].filter((key) => !c.dictionary.has(key)).sort();
    if (lacks.length) missing[c.locale] = lacks;
  }
  return missing;
}
