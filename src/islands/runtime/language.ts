import { readItem, STORAGE_KEYS, writeItem } from "./storage.ts";
import { cachedQuery } from "./query.ts";

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

/** Spec §4: Portuguese if any browser language starts with pt or contains br, otherwise English. */
export function languageFromBrowser(languages: readonly string[] | undefined): Language {
  try {
    if (!languages) throw new Error("navigator.languages is unavailable");
    return languages.some((l) => {
      const tag = l.toLowerCase();
      return tag.startsWith("pt") || tag.includes("br");
    })
      ? "pt"
      : "en";
  } catch {
    console.warn("Language detection failed, defaulting to English");
    return "en";
  }
}

/** Asks the detection endpoint through the data cache (3 retries with backoff, 5-minute cache). */
export function detectLanguage(endpoint: string): Promise<Language> {
  return cachedQuery(`detect-language:${endpoint}`, async () => {
    const response = await fetch(endpoint, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(`Language detection answered ${response.status}`);
    const body = (await response.json()) as { language?: unknown };
    if (!isLanguage(body.language)) throw new Error("Language detection gave no language");
    return body.language;
  });
}

/**
 * Spec §4, on the home path only and when no language is stored: detect, and if the answer differs from
 * the URL's language, replace the history entry with the counterpart and store it. On failure keep and
 * store the URL's language, silently. Never redirect once the visitor has started interacting.
 */
export async function applyDetectedLanguage(options: {
  path: string;
  endpoint: string | null;
  counterpart: string;
  interacted: () => boolean;
  navigate: (path: string) => void;
}): Promise<void> {
  const current = languageOfPath(options.path);
  let detected: Language;
  try {
    detected = options.endpoint ? await detectLanguage(options.endpoint) : languageFromBrowser(navigator.languages);
  } catch {
    storeLanguage(current);
    return;
  }
  if (detected !== current && !options.interacted()) {
    storeLanguage(detected);
    options.navigate(options.counterpart + location.search + location.hash);
    return;
  }
  storeLanguage(current);
}
