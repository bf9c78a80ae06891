/**
 * The built-in endpoints `sitegen serve` and `sitegen start` mount (handlers.ts), over the store openStore
 * picks for Node: PostgreSQL with DATABASE_URL, else SQLite; and what runs beside them in a Node process:
 * the delivery of notifications through the outbox, the retention purge, the double opt-in's confirmation.
 * The Cloudflare Pages worker mounts the same handlers over D1 instead (cloudflare.ts), the Netlify Function
 * over Netlify Blobs or PostgreSQL (netlify.ts).
 */
import type { SiteConfig } from "../generator/config.ts";
import type { ApiHandler } from "./forms.ts";
import { createHandlers, DEFAULT_SUBMISSIONS, localePrefixes } from "./handlers.ts";
import type { ApiLocale } from "./http.ts";
import { openStore, type Environment } from "./stores.ts";
import type { SubmissionSink, SubmissionStore } from "./store.ts";
import { DeliveryWorker, type Backoff, type DeliveryReport } from "./delivery.ts";
import { createDeliverers } from "./notify/deliverers.ts";
import { notifySettings, NotifyConfigError, outboxKinds, type NotificationsConfig } from "./notify/settings.ts";
import { createConfirmHandler, OptInTokens } from "./opt-in.ts";
import { localeFromField } from "./http.ts";

export type { ApiHandler, FormKind } from "./forms.ts";
export { createFormHandler, MAX_BODY_BYTES } from "./forms.ts";
export { createDetectLanguageHandler, detectLanguage } from "./detect-language.ts";
export { RateLimiter } from "./rate-limit.ts";
export type { SubmissionSink, SubmissionStore } from "./store.ts";
// For `sitegen submissions`, which reads what the endpoints stored through the same store.
export { openStore, storeKind, sqliteFile } from "./stores.ts";
export type { DeliveryReport } from "./delivery.ts";

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
  /** For tests: the retry schedule of failed notifications, and how often the background looks for due ones. */
  backoff?: Backoff;
  deliveryIntervalMs?: number;
}

/** How often the background work looks for notifications that are due (a shared database may get them from other processes). */
const DELIVERY_INTERVAL_MS = 5_000;
const DAY_MS = 86_400_000;
/** How long a double opt-in signup waits for its confirmation before it is erased (submissions.unconfirmedDays). */
const DEFAULT_UNCONFIRMED_DAYS = 7;
/** SUBMISSIONS_SECRET signs confirmation links: at least as long as a random 192-bit key in base64. */
const MIN_SECRET_LENGTH = 32;

/** What `sitegen start` and `sitegen serve` run beside the endpoints, and `sitegen submissions retry` uses. */
export interface ApiInstance {
  handlers: Record<string, ApiHandler>;
  /** Opens the store and applies its migrations now rather than at the first submission, so a server can fail at start. */
  ready(): Promise<void>;
  /**
   * Starts the background work: with submissions.retentionDays, the purge of older rows (at once, then
   * daily); then the outbox worker (at once, then at every interval and after each stored submission).
   */
  startBackground(): void;
  /** Stops it; deliveries in flight may finish within `graceMs`, then are cut and left due for the next start. */
  stopBackground(graceMs: number): Promise<void>;
  /** Sends every notification not yet delivered, due or waiting out its backoff (`sitegen submissions retry`). */
  retry(): Promise<DeliveryReport>;
  close(): Promise<void>;
}

/** Mountable only when it is a path on this site (not an absolute or protocol-relative URL). */
function isLocalPath(path: unknown): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}

/** Endpoint path (from site.endpoints) → handler, with the background work of a Node process. */
export function createApiHandlers(options: ApiOptions): ApiInstance {
  const { site, root, messages } = options;
  const now = options.now ?? Date.now;
  const env = options.env ?? globalThis.process?.env ?? {};
  const settings = site.submissions ?? DEFAULT_SUBMISSIONS;
  const extra = settings as { retentionDays?: unknown; doubleOptIn?: unknown; unconfirmedDays?: unknown };
  const retentionDays = Number(extra.retentionDays ?? 0);
  const unconfirmedDays = Number(extra.unconfirmedDays ?? DEFAULT_UNCONFIRMED_DAYS);
  // Settings that cannot work fail here, before a server listens and before a database is opened.
  const notify = notifySettings(site.notifications as NotificationsConfig | undefined, env);
  const optIn = extra.doubleOptIn === true ? doubleOptIn(site, env, notify.smtpUrl, unconfirmedDays, now) : undefined;
  const store = options.store ?? openStore(settings, env, root);
  const defaultLocale = site.locales.find((l) => l.prefix === "")?.code;
  const firmLocale = localeFromField(notify.locale ?? defaultLocale) ?? "pt";
  const { deliverers, close: closeDeliverers } = createDeliverers(notify, messages, firmLocale, { unconfirmedDays });
  const full = isStore(store) ? store : undefined;
  const worker = full
    ? new DeliveryWorker({
        store: full,
        deliverers,
        now,
        backoff: options.backoff,
        leaseMs: Math.max(300_000, notify.timeoutMs * 3),
        onFailure: ({ row, error, nextAttemptAt }) =>
          console.error(
            `sitegen: the ${row.kind} notification of ${row.submission_type} ${row.submission_id} failed (try ${row.attempts}): ${error}; next try at ${new Date(nextAttemptAt).toISOString()}`,
          ),
      })
    : undefined;
  const outbox = options.outbox ?? { newsletter: outboxKinds(notify, "newsletter"), contact: outboxKinds(notify, "contact") };
  let purgeTimer: ReturnType<typeof setInterval> | undefined;
  const purge = async () => {
    if (!full) return;
    try {
      // Contact messages only: a newsletter subscription lasts until the person leaves or asks to be erased.
      if (retentionDays > 0) await full.purgeOlderThan(retentionDays, now(), ["contact"]);
      // Signups never confirmed expire (there are none unless double opt-in is, or was, on).
      await full.purgeUnconfirmed(unconfirmedDays, now());
    } catch (error) {
      console.error(`sitegen: purging old submissions failed: ${(error as Error).message}`);
    }
  };

  const onStored = () => worker?.kick();
  const handlers = createHandlers({ site, messages, store, now, outbox, optIn, onStored });
  if (optIn && full) {
    handlers[optIn.path] = createConfirmHandler({
      tokens: optIn.tokens,
      store: full,
      localePrefix: localePrefixes(site),
      now,
      onStored,
      // The firm hears of a subscriber once confirmed.
      onConfirm: (claims, at) =>
        (outbox.newsletter ?? []).map((kind) => ({ kind, payload: { type: "newsletter", email: claims.email, locale: claims.locale, createdAt: at, suspect: false } })),
    });
  }
  return {
    handlers,
    ready: async () => store.ready?.(),
    startBackground() {
      const deliver = () => worker?.start(options.deliveryIntervalMs ?? DELIVERY_INTERVAL_MS);
      if (!full || purgeTimer) return deliver();
      purgeTimer = setInterval(() => void purge(), DAY_MS);
      purgeTimer.unref?.();
      // Purged first: nothing is sent about a submission that is past its retention period.
      void purge().finally(deliver);
    },
    async stopBackground(graceMs) {
      clearInterval(purgeTimer);
      purgeTimer = undefined;
      await worker?.stop(graceMs);
    },
    async retry() {
      if (!worker) return { delivered: [], failed: [] };
      return worker.retryAll();
    },
    async close() {
      clearInterval(purgeTimer);
      await worker?.stop(0);
      closeDeliverers();
      await store.close();
    },
  };
}

/**
 * submissions.doubleOptIn: the confirmation link's signer and the confirm endpoint's path. Refused at once
 * (before a server listens) without SUBMISSIONS_SECRET, an SMTP server to send the e-mail, or the endpoint.
 */
function doubleOptIn(site: SiteConfig, env: Environment, smtpUrl: string | undefined, unconfirmedDays: number, now: () => number) {
  const secret = env.SUBMISSIONS_SECRET ?? "";
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new NotifyConfigError(
      "SUBMISSIONS_SECRET",
      secret === ""
        ? "submissions.doubleOptIn is on in site.yaml, but SUBMISSIONS_SECRET is not set: the confirmation links cannot be signed."
        : `submissions.doubleOptIn is on in site.yaml, but SUBMISSIONS_SECRET has ${secret.length} characters, fewer than the ${MIN_SECRET_LENGTH} a signing key needs.`,
    );
  }
  if (!smtpUrl) throw new NotifyConfigError("SMTP_URL", "submissions.doubleOptIn is on in site.yaml, but SMTP_URL is not set: the confirmation e-mail cannot be sent.");
  const path = site.endpoints.newsletterConfirm;
  if (!isLocalPath(path)) {
    throw new NotifyConfigError("endpoints.newsletterConfirm", "submissions.doubleOptIn is on, but endpoints.newsletterConfirm in site.yaml is no path of this site (such as /api/newsletter/confirm).");
  }
  const tokens = new OptInTokens(secret);
  return {
    path,
    tokens,
    link: async (email: string, locale: ApiLocale) =>
      `${site.siteUrl}${path}?token=${await tokens.sign({ email, locale, expires: now() + unconfirmedDays * DAY_MS })}`,
  };
}

function isStore(store: SubmissionSink): store is SubmissionStore {
  const s = store as Partial<SubmissionStore>;
  return typeof s.claimOutbox === "function" && typeof s.markDelivered === "function" && typeof s.markFailed === "function" && typeof s.purgeOlderThan === "function";
}
