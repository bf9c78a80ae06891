/**
 * The built-in endpoints `sitegen serve` and `sitegen start` mount (handlers.ts), over the store openStore
 * picks for Node: PostgreSQL with DATABASE_URL, else SQLite. The Cloudflare Pages worker mounts the same
 * handlers over D1 instead (cloudflare.ts), the Netlify Function over Netlify Blobs or PostgreSQL (netlify.ts).
 */
import type { SiteConfig } from "../generator/config.ts";
import type { ApiHandler } from "./forms.ts";
import { createHandlers, DEFAULT_SUBMISSIONS } from "./handlers.ts";
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
export function createApiHandlers(options: ApiOptions): {
  handlers: Record<string, ApiHandler>;
  /** Opens the store and applies its migrations now rather than at the first submission, so a server can fail at start. */
  ready(): Promise<void>;
  close(): Promise<void>;
} {
  const { site, root, messages } = options;
  const store = options.store ?? openStore(site.submissions ?? DEFAULT_SUBMISSIONS, options.env ?? globalThis.process?.env ?? {}, root);
  const handlers = createHandlers({ site, messages, store, now: options.now, outbox: options.outbox });
  return { handlers, ready: async () => store.ready?.(), close: async () => store.close() };
}
