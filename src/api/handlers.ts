/**
 * The built-in endpoints over a given store: newsletter, contact and language detection, at the paths
 * site.yaml configures. Each is a web-standard `(Request) => Promise<Response>`. This module names no store,
 * so every deploy target bundles it with its own (index.ts: SQLite or PostgreSQL for `sitegen serve` and
 * `start`; netlify.ts: Netlify Blobs or PostgreSQL) and nothing else.
 */
import type { SiteConfig } from "../generator/config.ts";
import { createDetectLanguageHandler } from "./detect-language.ts";
import { createFormHandler, INVALID_PER_ACCEPTED, type ApiHandler } from "./forms.ts";
import type { ApiLocale } from "./http.ts";
import { siteOrigins } from "./origin.ts";
import { RateLimiter } from "./rate-limit.ts";
import type { SubmissionSink } from "./store.ts";

export const DEFAULT_SUBMISSIONS = { database: ".data/submissions.db", rateLimitPerMinute: 5, trustProxy: false, minFillSeconds: 2 };

export interface HandlerOptions {
  site: SiteConfig;
  /** per locale "pt" | "en": dotted key → text, from content/<locale>/*.yaml */
  messages: Record<"pt" | "en", Map<string, string>>;
  store: SubmissionSink;
  /** for tests: a clock */
  now?: () => number;
  /** Notifications queued in the outbox with each stored submission, per form (see FormHandlerOptions.outbox). */
  outbox?: Partial<Record<"newsletter" | "contact", readonly string[]>>;
}

export interface ApiEndpoints {
  handlers: Record<string, ApiHandler>;
  /** Opens the store and applies its migrations now rather than at the first submission, so a server can fail at start. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Mountable only when it is a path on this site (not an absolute or protocol-relative URL). */
export function isLocalPath(path: unknown): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}

/** Endpoint path (from site.endpoints, only those starting with "/") → handler. */
export function createHandlers(options: HandlerOptions): ApiEndpoints {
  const { site, messages, store } = options;
  const now = options.now ?? Date.now;
  const settings = site.submissions ?? DEFAULT_SUBMISSIONS;
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
