/**
 * The built-in endpoints `sitegen serve` mounts: newsletter, contact and language detection, at the paths
 * site.yaml configures. Each is a web-standard `(Request) => Promise<Response>`; only the stores are
 * Node-specific (an edge deployment passes its own store, or builds its handlers with createFormHandler).
 */
import type { SiteConfig } from "../generator/config.ts";
import { createDetectLanguageHandler } from "./detect-language.ts";
import { createFormHandler, INVALID_PER_ACCEPTED, type ApiHandler } from "./forms.ts";
import type { ApiLocale } from "./http.ts";
import { siteOrigins } from "./origin.ts";
import { RateLimiter } from "./rate-limit.ts";
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

/** Mountable only when it is a path on this site (not an absolute or protocol-relative URL). */
function isLocalPath(path: unknown): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}

/** Endpoint path (from site.endpoints, only those starting with "/") → handler. */
export function createApiHandlers(options: ApiOptions): {
  handlers: Record<string, ApiHandler>;
  /** Opens the store and applies its migrations now rather than at the first submission, so a server can fail at start. */
  ready(): Promise<void>;
  close(): Promise<void>;
} {
  const { site, root, messages } = options;
  const now = options.now ?? Date.now;
  const settings = site.submissions ?? { database: ".data/submissions.db", rateLimitPerMinute: 5, trustProxy: false, minFillSeconds: 2 };
  const store = options.store ?? openStore(settings, options.env ?? globalThis.process?.env ?? {}, root);
  // One budget per client across both forms: the limit is on submissions, whichever form sends them. Only
  // accepted ones count; refused posts have their own, larger budget (see src/api/forms.ts). A store shared
  // by several processes keeps the counts itself, so the limit holds whichever process a post reaches.
  const perMinute = Number(settings.rateLimitPerMinute ?? 5);
  const budget = (name: string, limit: number) => store.rateLimiter?.(name, limit, 60_000) ?? new RateLimiter({ limit, windowMs: 60_000 });
  const limiter = budget("accepted", perMinute);
  const invalidLimiter = budget("refused", perMinute * INVALID_PER_ACCEPTED);
  const localePrefix: Record<ApiLocale, string> = {
    pt: site.locales.find((l) => l.code === "pt")?.prefix ?? "",
    en: site.locales.find((l) => l.code === "en")?.prefix ?? "/en",
  };
  const common = {
    messages,
    store,
    limiter,
    invalidLimiter,
    allowedOrigins: siteOrigins(site.siteUrl),
    minFillMs: Math.max(0, Number(settings.minFillSeconds ?? 0)) * 1000,
    trustProxy: settings.trustProxy === true,
    localePrefix,
    now,
  };

  const handlers: Record<string, ApiHandler> = {};
  const { newsletter, contact, detectLanguage } = site.endpoints;
  if (isLocalPath(newsletter)) handlers[newsletter] = createFormHandler({ ...common, kind: "newsletter", outbox: options.outbox?.newsletter });
  if (isLocalPath(contact)) handlers[contact] = createFormHandler({ ...common, kind: "contact", outbox: options.outbox?.contact });
  if (isLocalPath(detectLanguage)) handlers[detectLanguage] = createDetectLanguageHandler(messages);
  return { handlers, ready: async () => store.ready?.(), close: async () => store.close() };
}
