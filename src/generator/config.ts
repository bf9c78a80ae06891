import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseYaml } from "./yaml.ts";
import { sitegenError } from "./errors.ts";
import { PROJECT_FILES } from "./project.ts";
import type { LocaleConfig } from "./locales.ts";

export type { LocaleConfig } from "./locales.ts";

/**
 * content/site.yaml: the facts the generator itself needs (the address, the locales, where the endpoints
 * answer), plus whatever else the site keeps there, passed through as written: facts for its pages (brand,
 * e-mail, phone...), which content refers to as {name} when they are plain text, and the settings of its
 * endpoints, which its own code reads (src/api, through the plug-in point: plugin.ts).
 */
export interface SiteConfig {
  siteUrl: string;
  /** The default locale (prefix "") first, then the others in site.yaml's order. */
  locales: LocaleConfig[];
  endpoints: Record<string, string>;
  /** The image a page without one of its own shows when shared (Open Graph), relative to content/site.yaml. */
  socialImage?: string;
  /**
   * Paths of the site's address that another server answers (an application at /app): the build's link check
   * (links.ts) takes a link under one of them as leading somewhere.
   */
  servedElsewhere: string[];
  [fact: string]: unknown;
}

export interface ConfigOverrides {
  /** --site-url, which wins over SITE_URL, which wins over site.yaml. */
  siteUrl?: string;
}

/** `env` is where SITE_URL is read. */
export function loadSiteConfig(root: string, overrides: ConfigOverrides = {}, env = process.env): SiteConfig {
  const file = PROJECT_FILES.config;
  const path = join(root, file);
  if (!existsSync(path)) throw sitegenError("ConfigMissing", { file: path });
  const data = parseYaml(file, readFileSync(path, "utf8"));
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw invalid(file, "(file)", "the file is empty or not a mapping of names to values.");
  const raw = data as Record<string, unknown>;
  // The organization's schema.org type in the JSON-LD: one word, as schema.org names it.
  if (raw.organizationType !== undefined && !/^[A-Z][A-Za-z]*$/.test(String(raw.organizationType)))
    throw invalid(file, "organizationType", "must be a schema.org type, such as Organization, Bakery or Store.");
  const siteUrl =
    overrides.siteUrl !== undefined
      ? normaliseSiteUrl(overrides.siteUrl, "--site-url")
      : env.SITE_URL
        ? normaliseSiteUrl(env.SITE_URL, "SITE_URL")
        : normaliseSiteUrl(requireText(raw, "siteUrl", file), `siteUrl in ${file}`);
  return {
    ...raw,
    siteUrl,
    locales: readLocales(raw.locales, file),
    endpoints: readEndpoints(raw.endpoints, file),
    socialImage: raw.socialImage === undefined ? undefined : requireText(raw, "socialImage", file),
    servedElsewhere: readPaths(raw.servedElsewhere, file),
  };
}

function requireText(raw: Record<string, unknown>, field: string, file: string): string {
  const value = raw[field];
  if (typeof value !== "string" || !value.trim()) throw invalid(file, field, "missing, or not text.");
  return value;
}

const invalid = (file: string, field: string, problem: string) =>
  sitegenError("ConfigInvalid", { file, field, problem });

/** Validated locales, the default one first. */
function readLocales(value: unknown, file: string): LocaleConfig[] {
  const bad = (field: string, problem: string) => invalid(file, field, problem);
  if (!Array.isArray(value) || value.length === 0) throw bad("locales", "must be a list with at least one locale.");
  const locales = value.map((item, i) => {
    const field = `locales[${i}]`;
    if (!item || typeof item !== "object") throw bad(field, "must be a mapping with code, lang, ogLocale and prefix.");
    const l = item as Record<string, unknown>;
    for (const key of ["code", "lang", "ogLocale"]) {
      if (typeof l[key] !== "string" || !(l[key] as string).trim())
        throw bad(`${field}.${key}`, "missing, or not text.");
    }
    if (!/^[a-z][a-z0-9-]*$/i.test(l.code as string))
      throw bad(`${field}.code`, `"${l.code}" must be letters, digits and hyphens (it names a folder of content/).`);
    const prefix = l.prefix ?? "";
    if (typeof prefix !== "string" || (prefix !== "" && !/^\/[a-z0-9-]+$/i.test(prefix)))
      throw bad(
        `${field}.prefix`,
        `"${String(prefix)}" must be "" (the default locale) or "/" and a word, such as "/de".`,
      );
    return { code: l.code as string, lang: l.lang as string, ogLocale: l.ogLocale as string, prefix };
  });
  const defaults = locales.filter((l) => l.prefix === "");
  if (defaults.length !== 1)
    throw bad("locales", `exactly one locale must have prefix "" (the default); ${defaults.length} do.`);
  for (const key of ["code", "prefix"] as const) {
    const seen = new Set<string>();
    for (const l of locales) {
      if (seen.has(l[key])) throw bad("locales", `two locales share the ${key} "${l[key]}".`);
      seen.add(l[key]);
    }
  }
  return [defaults[0], ...locales.filter((l) => l !== defaults[0])];
}

function readEndpoints(value: unknown, file: string): Record<string, string> {
  if (value === undefined) return {};
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw invalid(file, "endpoints", "must be a mapping of names to paths or URLs.");
  for (const [name, target] of Object.entries(value)) {
    if (typeof target !== "string")
      throw invalid(file, `endpoints.${name}`, "must be a path (/api/...) or an absolute URL.");
  }
  return value as Record<string, string>;
}

/** servedElsewhere: a list of paths, each starting with "/" (a trailing "/" is dropped). */
function readPaths(value: unknown, file: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((p) => typeof p !== "string" || !p.startsWith("/")))
    throw invalid(file, "servedElsewhere", 'must be a list of paths, each starting with "/", such as /app.');
  return (value as string[]).map((p) => p.replace(/\/+$/, "") || "/");
}

/** The base address without a trailing slash; a bad value fails early, naming where it came from. */
export function normaliseSiteUrl(value: string, option: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw sitegenError("SiteUrlInvalid", { value, option });
  return url.origin + url.pathname.replace(/\/+$/, "");
}
