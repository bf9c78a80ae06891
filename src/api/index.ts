/**
 * The built-in endpoints `sitegen serve` and `sitegen start` mount: newsletter, contact and language
 * detection (handlers.ts), over the Node stores (stores.ts: PostgreSQL with DATABASE_URL, else SQLite).
 * Each is a web-standard `(Request) => Promise<Response>`; only the stores are Node-specific (the Netlify
 * target bundles netlify.ts instead, an edge deployment passes its own store).
 */
import type { SiteConfig } from "../generator/config.ts";
import { createHandlers, DEFAULT_SUBMISSIONS, type ApiEndpoints } from "./handlers.ts";
import { openStore, type Environment } from "./stores.ts";
import type { SubmissionSink } from "./store.ts";

export type { ApiHandler, FormKind } from "./forms.ts";
export { createFormHandler, MAX_BODY_BYTES } from "./forms.ts";
export { createDetectLanguageHandler, detectLanguage } from "./detect-language.ts";
export { RateLimiter } from "./rate-limit.ts";
export type { SubmissionSink, SubmissionStore } from "./store.ts";
// For `sitegen submissions`, which reads what the endpoints stored through the same store.
export { openStore, storeKind, sqliteFile } from "./stores.ts";

export interface ApiOptions {
  site: SiteConfig;
  root: string;
  /** per locale "pt" | "en": dotted key → text, from content/<locale>/*.yaml */
  messages: Record<"pt" | "en", Map<string, string>>;
  /** for tests: a clock */
  now?: () => number;
  /** Another store instead of the one openStore picks (PostgreSQL with DATABASE_URL, else SQLite). */
  store?: SubmissionSink;
  /** Where DATABASE_URL is read; process.env by default. */
  env?: Environment;
  /** Notifications queued in the outbox with each stored submission, per form (see FormHandlerOptions.outbox). */
  outbox?: Partial<Record<"newsletter" | "contact", readonly string[]>>;
}

/** Endpoint path (from site.endpoints, only those starting with "/") → handler. */
export function createApiHandlers(options: ApiOptions): ApiEndpoints {
  const settings = options.site.submissions ?? DEFAULT_SUBMISSIONS;
  const store = options.store ?? openStore(settings, options.env ?? globalThis.process?.env ?? {}, options.root);
  return createHandlers({ site: options.site, messages: options.messages, store, now: options.now, outbox: options.outbox });
}
