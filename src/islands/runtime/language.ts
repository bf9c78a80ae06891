import { readItem, STORAGE_KEYS, writeItem } from "./storage.ts";

/** A locale code of the site ("pt", "en"). */
export type Language = string;

/** Locale code → path prefix ("" for the default locale), as src/generator/locales.ts has them. */
export type LocalePrefixes = Record<string, string>;

/**
 * The site's locales, as the document shell writes them on <html data-locales> (from content/site.yaml),
 * so the browser follows the same rules as the build.
 */
export function siteLocales(): LocalePrefixes {
  return JSON.parse(document.documentElement.dataset.locales ?? "{}") as LocalePrefixes;
}

/*
 * The rules of src/generator/locales.ts (localeOfPath, switchPrefix) in a few lines of their own: every
 * page loads this runtime, and sharing the generator's module would cost every page one more chunk.
 * tests/unit/client-helpers.test.ts holds both to the same answers.
 */

/** The language of a path: the locale whose prefix it starts with, else the default one. */
export function languageOfPath(path: string, locales = siteLocales()): Language {
  const codes = Object.keys(locales);
  return (
    codes.find((c) => locales[c] && (path + "/").startsWith(locales[c] + "/")) ?? codes.find((c) => !locales[c]) ?? ""
  );
}

/** The same path in another language (add, swap or remove the prefix). */
export function pathInLanguage(path: string, language: Language, locales = siteLocales()): string {
  const target = locales[language];
  if (target === undefined) return path;
  const rest = path.slice(locales[languageOfPath(path, locales)].length) || "/";
  return target ? (rest === "/" ? target : target + rest) : rest;
}

export function storedLanguage(): Language | null {
  const value = readItem(STORAGE_KEYS.language);
  return value !== null && value in siteLocales() ? value : null;
}

export function storeLanguage(language: Language): void {
  if (readItem(STORAGE_KEYS.language) !== language) writeItem(STORAGE_KEYS.language, language);
}
