import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseYamlFile } from "./yaml-file.ts";
import { SitegenError } from "./errors.ts";

export interface LocaleConfig {
  /** Short code used for content folders and storage: `pt`, `en`. */
  code: string;
  /** BCP 47 tag for `<html lang>` and hreflang: `pt-BR`, `en`. */
  lang: string;
  ogLocale: string;
  /** Path prefix: "" for the default locale, "/en" for English. */
  prefix: string;
}

export interface SiteConfig {
  brand: string;
  legalName: string;
  siteUrl: string;
  email: string;
  privacyEmail: string;
  phone: string;
  city: string;
  region: string;
  countryCode: string;
  foundingYear: string;
  locales: LocaleConfig[];
  endpoints: { newsletter: string; contact: string; detectLanguage: string };
  submissions: { database: string; rateLimitPerMinute: number; trustProxy: boolean; minFillSeconds: number };
  consent: { revision: number; lifetimeDays: number };
}

export interface ConfigOverrides {
  siteUrl?: string;
}

/** Reads content/site.yaml; the base address can be overridden by flag or by SITE_URL. */
export function loadSiteConfig(root: string, overrides: ConfigOverrides = {}): SiteConfig {
  const file = join(root, "content", "site.yaml");
  const data = parseYamlFile(file, readFileSync(file, "utf8")) as Partial<SiteConfig> | null;
  if (!data || typeof data !== "object") {
    throw new SitegenError("ConfigInvalid", `${file} is empty or not a mapping.`, "Start from the site.yaml in the repository.");
  }
  const required = ["brand", "siteUrl", "locales", "endpoints"] as const;
  for (const key of required) {
    if (data[key] === undefined) {
      throw new SitegenError("ConfigInvalid", `${file} has no \`${key}\`.`, `Add \`${key}:\` to site.yaml.`);
    }
  }
  const siteUrl = normaliseSiteUrl(overrides.siteUrl ?? process.env.SITE_URL ?? String(data.siteUrl));
  const locales = data.locales as LocaleConfig[];
  if (!Array.isArray(locales) || locales.length < 1 || locales[0].prefix !== "") {
    throw new SitegenError(
      "ConfigInvalid",
      `${file}: \`locales\` must list the default locale first, with prefix "".`,
      "See the locales block in the repository's site.yaml.",
    );
  }
  return { ...(data as SiteConfig), siteUrl, locales, submissions: submissionSettings(data.submissions) };
}

/**
 * Where submissions go and how many a client may send per minute. The environment may override both for
 * one run (SUBMISSIONS_DB, SUBMISSIONS_RATE_LIMIT), so a test or a load test needs no edited site.yaml.
 */
function submissionSettings(value: Partial<SiteConfig["submissions"]> | undefined): SiteConfig["submissions"] {
  const limit = Number(process.env.SUBMISSIONS_RATE_LIMIT ?? value?.rateLimitPerMinute ?? 5);
  return {
    database: process.env.SUBMISSIONS_DB ?? value?.database ?? ".data/submissions.db",
    rateLimitPerMinute: Number.isFinite(limit) && limit > 0 ? limit : 5,
    trustProxy: value?.trustProxy === true,
    minFillSeconds: Number(value?.minFillSeconds ?? 2),
  };
}

/** The base address without a trailing slash; a bad value fails early with the accepted form. */
export function normaliseSiteUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SitegenError("SiteUrlInvalid", `"${value}" is not an absolute URL.`, "Use the form https://www.example.com.br");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SitegenError("SiteUrlInvalid", `"${value}" must use http or https.`, "Use the form https://www.example.com.br");
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}
