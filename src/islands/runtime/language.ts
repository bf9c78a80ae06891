import { readItem, STORAGE_KEYS, writeItem } from "./storage.ts";

export type Language = "pt" | "en";

/** Spec §2: English if the path starts with /en, otherwise Portuguese. */
export function languageOfPath(path: string): Language {
  return path === "/en" || path.startsWith("/en/") ? "en" : "pt";
}

const isLanguage = (value: unknown): value is Language => value === "pt" || value === "en";

export function storedLanguage(): Language | null {
  const value = readItem(STORAGE_KEYS.language);
  return isLanguage(value) ? value : null;
}

export function storeLanguage(language: Language): void {
  if (readItem(STORAGE_KEYS.language) !== language) writeItem(STORAGE_KEYS.language, language);
}
