/**
 * The built-in endpoints `sitegen serve` mounts: newsletter, contact and language detection, at the paths
 * site.yaml configures. Each is a web-standard `(Request) => Promise<Response>`; only the SQLite store is
 * Node-specific (an edge deployment builds its handlers with createFormHandler and its own store).
 */
import { resolve } from "node:path";
import type { SiteConfig } from "../generator/config.ts";
import { createDetectLanguageHandler } from "./detect-language.ts";
import { createFormHandler, INVALID_PER_ACCEPTED, type ApiHandler } from "./forms.ts";
import type { ApiLocale } from "./http.ts";
import { siteOrigins } from "./origin.ts";
import { RateLimiter } from "./rate-limit.ts";
import { SqliteSubmissionStore } from "./sqlite-store.ts";
import type { SubmissionStore } from "./store.ts";

export type { ApiHandler } from "./forms.ts";
export { createFormHandler, MAX_BODY_BYTES } from "./forms.ts";
export { createDetectLanguageHandler, detectLanguage } from "./detect-language.ts";
export { RateLimiter } from "./rate-limit.ts";
export type { SubmissionStore } from "./store.ts";

export interface ApiOptions {
  site: SiteConfig;
  root: string;
  /** per locale "pt" | "en": dotted key → text, from content/<locale>/*.yaml */
  messages: Record<"pt" | "en", Map<string, string>>;
  /** for tests: a clock */
  now?: () => number;
  /** Another store instead of the SQLite file of site.submissions.database. */
  store?: SubmissionStore;
}

/** Mountable only when it is a path on this site (not an absolute or protocol-relative URL). */
function isLocalPath(path: unknown): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}

/** Endpoint path (from site.endpoints, only those starting with "/") → handler. */
export function createApiHandlers(options: ApiOptions): { handlers: Record<string, ApiHandler>; close(): void } {
  const { site, root, messages } = options;
  const now = options.now ?? Date.now;
  const settings = site.submissions ?? { database: ".data/submissions.db", rateLimitPerMinute: 5, trustProxy: false, minFillSeconds: 2 };
  const store = options.store ?? new SqliteSubmissionStore(resolve(root, settings.database ?? ".data/submissions.db"));
  // One budget per client across both forms: the limit is on submissions, whichever form sends them. Only
  // accepted ones count; refused posts have their own, larger budget (see src/api/forms.ts).
  const perMinute = Number(settings.rateLimitPerMinute ?? 5);
  const limiter = new RateLimiter({ limit: perMinute, windowMs: 60_000 });
  const invalidLimiter = new RateLimiter({ limit: perMinute * INVALID_PER_ACCEPTED, windowMs: 60_000 });
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
  if (isLocalPath(newsletter)) handlers[newsletter] = createFormHandler({ ...common, kind: "newsletter" });
  if (isLocalPath(contact)) handlers[contact] = createFormHandler({ ...common, kind: "contact" });
  if (isLocalPath(detectLanguage)) handlers[detectLanguage] = createDetectLanguageHandler(messages);
  return { handlers, close: () => store.close() };
}
