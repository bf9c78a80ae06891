import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { listFiles } from "./list-files.ts";
import { parseYamlFile } from "./yaml-file.ts";
import { SitegenError } from "./errors.ts";
import type { SiteConfig } from "./config.ts";

/** Dotted key → text, for one locale. */
export type Dictionary = Map<string, string>;

export interface LocaleContent {
  locale: string;
  dictionary: Dictionary;
  /** Where each key was defined, so reports can point at a file. */
  sources: Map<string, string>;
}

/** Loads every content/<locale>/*.yaml file and flattens it to dotted keys. */
export function loadLocaleContent(root: string, locale: string, site: SiteConfig): LocaleContent {
  const dir = join(root, "content", locale);
  const files = listFiles(root, `content/${locale}`, [".yaml", ".yml"]).map((f) => join(root, f));
  if (files.length === 0) {
    throw new SitegenError("ContentMissing", `No YAML files in ${relative(root, dir) || dir}.`, `Create content/${locale}/common.yaml.`);
  }
  const dictionary: Dictionary = new Map();
  const sources = new Map<string, string>();
  const vars = siteVariables(site);
  for (const file of files) {
    const name = relative(root, file);
    const data = parseYamlFile(name, readFileSync(file, "utf8"));
    if (data === null || data === undefined) continue;
    if (typeof data !== "object" || Array.isArray(data)) {
      throw new SitegenError("ContentInvalid", `${name} must be a mapping of keys to text.`, "Start the file with a key, e.g. `hero:`.");
    }
    for (const [key, value] of flatten(data as Record<string, unknown>, name)) {
      const previous = sources.get(key);
      if (previous) {
        throw new SitegenError("ContentDuplicateKey", `The key "${key}" is defined in ${previous} and in ${name}.`, "Keep each key in one file.");
      }
      dictionary.set(key, interpolate(value, vars));
      sources.set(key, name);
    }
  }
  return { locale, dictionary, sources };
}

/** Nested mappings as [dotted key, text] pairs, in the file's order. */
function flatten(value: Record<string, unknown>, file: string, prefix = "", out: [string, string][] = []): [string, string][] {
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
      throw new SitegenError(
        "ContentInvalid",
        `${file}: "${dotted}" holds ${Array.isArray(child) ? "a list" : String(child)}; text was expected.`,
        "Use numbered keys (item1, item2, ...) instead of lists, and quote empty values.",
      );
    }
  }
  return out;
}

/** The plain-text facts of site.yaml that copy may refer to as {name}. */
export function siteVariables(site: SiteConfig): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [key, value] of Object.entries(site)) if (typeof value === "string") vars[key] = value;
  return vars;
}

export function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => vars[name] ?? match);
}

/** Keys present in one locale only, per locale that lacks them. */
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
