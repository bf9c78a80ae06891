/**
 * The language rules of paths, from site.yaml's `locales`: the default locale (prefix "") at unprefixed
 * paths, every other one under its prefix ("/de/about"). Pure functions of the locale list, so that
 * browser code (the not-found page's breadcrumbs, the language switcher) applies the same rules.
 */

export interface LocaleConfig {
  /** Short code: content folder (content/<code>/), storage, route paths by locale. */
  code: string;
  /** BCP 47 tag for `<html lang>` and hreflang: "de-DE", "fr". */
  lang: string;
  /** Open Graph locale: "de_DE", "fr_FR". */
  ogLocale: string;
  /** "" for the default locale, else "/" and a word: "/de". */
  prefix: string;
}

export type LocalePrefix = Pick<LocaleConfig, "code" | "prefix">;

/** Strips the query, the hash and a trailing slash (but keeps "/"), so "/about/" and "/about" name one page. */
export function normalisePath(path: string): string {
  const clean = path.split(/[?#]/)[0] || "/";
  return clean.length > 1 ? clean.replace(/\/+$/, "") || "/" : clean;
}

/** The locale whose prefix the path starts with; the default locale (prefix "") otherwise. */
export function localeOfPath<L extends LocalePrefix>(path: string, locales: readonly L[]): L {
  const p = normalisePath(path);
  const prefixed = locales.find((l) => l.prefix !== "" && (p === l.prefix || p.startsWith(`${l.prefix}/`)));
  return prefixed ?? defaultLocale(locales);
}

export function defaultLocale<L extends LocalePrefix>(locales: readonly L[]): L {
  return locales.find((l) => l.prefix === "") ?? locales[0];
}

/** The path without its locale prefix: "/de/about" → "/about", "/de" → "/". */
export function unprefixedPath(path: string, locales: readonly LocalePrefix[]): string {
  const p = normalisePath(path);
  const { prefix } = localeOfPath(p, locales);
  return p.slice(prefix.length) || "/";
}

/** An unprefixed path in a locale: ("/about", de) → "/de/about", ("/", de) → "/de", ("/", the default) → "/". */
export function localizedPath(path: string, locale: LocalePrefix): string {
  const p = normalisePath(path);
  if (!locale.prefix) return p;
  return p === "/" ? locale.prefix : `${locale.prefix}${p}`;
}

/** The same unknown path in another locale (spec: add or remove the prefix). */
export function switchPrefix(path: string, to: LocalePrefix, locales: readonly LocalePrefix[]): string {
  return localizedPath(unprefixedPath(path, locales), to);
}
