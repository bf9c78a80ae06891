/**
 * The built-in endpoints over a given store: newsletter, contact and language detection, at the paths
 * site.yaml configures. Web-standard only (no Node API, no store of its own), so the same code is mounted by
 * `sitegen serve` and `sitegen start` (through node-api.ts, which opens SQLite or PostgreSQL) and bundled into
 * the Cloudflare Pages worker (cloudflare.ts, over D1) and the Netlify Function (netlify.ts, over Netlify
 * Blobs or PostgreSQL).
 */
import type { SiteConfig } from "../generator/config.ts";
import { withCors } from "./cors.ts";
import { createDetectLanguageHandler } from "./detect-language.ts";
import { createFormHandler, INVALID_PER_ACCEPTED, type ApiHandler, type FormHandlerOptions } from "./forms.ts";
import type { ApiLocale } from "./http.ts";
import { siteOrigins } from "./origin.ts";
import { RateLimiter } from "./rate-limit.ts";
import type { SubmissionSink } from "./store.ts";
import type { SubmissionSettings } from "./submission-settings.ts";

export interface HandlerOptions {
  site: SiteConfig;
  /** site.yaml's `submissions` block, read (submission-settings.ts). */
  settings: SubmissionSettings;
  /** per locale "pt" | "en": dotted key → text, from content/<locale>/*.yaml */
  messages: Record<"pt" | "en", Map<string, string>>;
  store: SubmissionSink;
  /** for tests: a clock */
  now?: () => number;
  /** Notifications queued in the outbox with each stored submission, per form (see FormHandlerOptions.outbox). */
  outbox?: Partial<Record<"newsletter" | "contact", readonly string[]>>;
  /** Double opt-in for the newsletter (see FormHandlerOptions.optIn). */
  optIn?: FormHandlerOptions["optIn"];
  /** Called once a submission with notifications is stored, so that a delivery worker sends them now. */
  onStored?: () => void;
}

/** The path prefix of each locale the endpoints answer in. */
export function localePrefixes(site: SiteConfig): Record<ApiLocale, string> {
  return {
    pt: site.locales.find((l) => l.code === "pt")?.prefix ?? "",
    en: site.locales.find((l) => l.code === "en")?.prefix ?? "/en",
  };
}

/**
 * The path an endpoint is mounted at: a path of site.yaml as it is; an absolute http(s) URL by its path, for
 * the deployment at that origin answers it (the site's pages being served elsewhere); nothing otherwise.
 */
export function endpointPath(endpoint: unknown): string | undefined {
  if (typeof endpoint !== "string") return undefined;
  if (endpoint.startsWith("/")) return endpoint.startsWith("//") ? undefined : endpoint;
  try {
    const url = new URL(endpoint);
    return url.protocol === "https:" || url.protocol === "http:" ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin of the site's pages when site.yaml's endpoints are on another one (see FormHandlerOptions.remotePages).
 */
function remotePages(site: SiteConfig): string | undefined {
  let pages: string;
  try {
    pages = new URL(site.siteUrl).origin;
  } catch {
    return undefined;
  }
  const elsewhere = Object.values(site.endpoints).some(
    (endpoint) => /^https?:\/\//i.test(endpoint) && new URL(endpoint).origin !== pages,
  );
  return elsewhere ? pages : undefined;
}

/** Endpoint path (from site.endpoints) → handler, each answering CORS for the site's own origins. */
export function createHandlers(options: HandlerOptions): Record<string, ApiHandler> {
  const { site, settings, messages, store } = options;
  const now = options.now ?? Date.now;
  // One budget per client across both forms: the limit is on submissions, whichever form sends them. Only
  // accepted ones count; refused posts have their own, larger budget (see src/api/forms.ts). A store shared
  // by several processes keeps the counts itself, so the limit holds whichever process a post reaches.
  const allowedOrigins = siteOrigins(site.siteUrl);
  const perMinute = settings.rateLimitPerMinute;
  const budget = (name: string, limit: number) =>
    store.rateLimiter?.(name, limit, 60_000) ?? new RateLimiter({ limit, windowMs: 60_000 });
  const limiter = budget("accepted", perMinute);
  const invalidLimiter = budget("refused", perMinute * INVALID_PER_ACCEPTED);
  const localePrefix = localePrefixes(site);
  const common = {
    messages,
    store,
    limiter,
    invalidLimiter,
    allowedOrigins,
    remotePages: remotePages(site),
    minFillMs: Math.max(0, settings.minFillSeconds) * 1000,
    trustProxy: settings.trustProxy,
    localePrefix,
    now,
    onStored: options.onStored,
  };

  const handlers: Record<string, ApiHandler> = {};
  const mount = (endpoint: string | undefined, handler: () => ApiHandler, methods: readonly string[]) => {
    const path = endpointPath(endpoint);
    if (path) handlers[path] = withCors(handler(), allowedOrigins, methods);
  };
  const { newsletter, contact, detectLanguage } = site.endpoints;
  mount(
    newsletter,
    () =>
      createFormHandler({ ...common, kind: "newsletter", outbox: options.outbox?.newsletter, optIn: options.optIn }),
    ["POST"],
  );
  mount(contact, () => createFormHandler({ ...common, kind: "contact", outbox: options.outbox?.contact }), ["POST"]);
  mount(detectLanguage, () => createDetectLanguageHandler(messages), ["GET", "HEAD"]);
  return handlers;
}
