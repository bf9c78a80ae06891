/**
 * Language detection (spec §4), an island only the two home pages carry and the runtime mounts only when
 * no language is stored, so no other page downloads it. It asks the detection endpoint through the data
 * cache (3 retries with backoff, 5-minute cache), or, with no endpoint configured, reads the browser's
 * languages; then it reports the answer (or null on failure) in a `sitegen:language-detected` event. What
 * to do with the answer (redirect or not, what to store) is the runtime's decision, in main.ts.
 */
import type { Mount } from "./runtime/island.ts";
import { cachedQuery } from "./runtime/query.ts";
import type { Language } from "./runtime/language.ts";

export const DETECTED_EVENT = "sitegen:language-detected";

// Not imported from language.ts: sharing a module with the runtime would cost every page one more chunk.
const isLanguage = (value: unknown): value is Language => value === "pt" || value === "en";

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

/**
 * An attempt that has not answered by then counts as failed (and is retried): a hung endpoint must not leave
 * detection pending forever.
 */
export const DETECTION_TIMEOUT_MS = 5000;

/** Asks the detection endpoint through the data cache (3 retries with backoff, 5-minute cache). */
export function detectLanguage(endpoint: string): Promise<Language> {
  return cachedQuery(`detect-language:${endpoint}`, async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), DETECTION_TIMEOUT_MS);
    const response = await fetch(endpoint, { headers: { Accept: "application/json" }, signal: controller.signal });
    if (!response.ok) throw new Error(`Language detection answered ${response.status}`);
    const body = (await response.json()) as { language?: unknown };
    if (!isLanguage(body.language)) throw new Error("Language detection gave no language");
    return body.language;
  });
}

export const mount: Mount = (_element, props) => {
  const endpoint = typeof props.endpoint === "string" && props.endpoint ? props.endpoint : null;
  const report = (language: Language | null) => dispatchEvent(new CustomEvent(DETECTED_EVENT, { detail: language }));
  if (!endpoint) report(languageFromBrowser(navigator.languages));
  else detectLanguage(endpoint).then(report, () => report(null));
};
