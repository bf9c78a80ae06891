/**
 * Which language a path is in, and its prefix (spec §2: English under /en, Portuguese unprefixed). Apart
 * from the route table (routes.ts, which re-exports these), so that an island can use them (the not-found
 * page's breadcrumbs) without shipping the table to the browser.
 */

export type LocaleCode = "pt" | "en";
export const LOCALES: readonly LocaleCode[] = ["pt", "en"];
export const EN_PREFIX = "/en";

/** Strips a trailing slash (but keeps "/"), so "/about/" and "/about" name the same page. */
export function normalisePath(path: string): string {
  const clean = path.split(/[?#]/)[0] || "/";
  return clean.length > 1 ? clean.replace(/\/+$/, "") || "/" : clean;
}

/** Spec: the language is English if the path starts with /en, otherwise Portuguese. */
export function localeOfPath(path: string): LocaleCode {
  const p = normalisePath(path);
  return p === EN_PREFIX || p.startsWith(EN_PREFIX + "/") ? "en" : "pt";
}

/** The path without its locale prefix: "/en/about" → "/about", "/en" → "/". */
export function unprefixedPath(path: string): string {
  const p = normalisePath(path);
  return localeOfPath(p) === "en" ? p.slice(EN_PREFIX.length) || "/" : p;
}

export function homePath(locale: LocaleCode): string {
  return locale === "en" ? EN_PREFIX : "/";
}
