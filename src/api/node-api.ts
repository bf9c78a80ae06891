/**
 * The built-in endpoints `sitegen serve` and `sitegen start` mount (createApiHandlers, which index.ts hands
 * the generator), with their notifications and double opt-in (endpoints.ts, e-mail with nodemailer), over the
 * store openStore picks for Node: PostgreSQL with DATABASE_URL, else SQLite; and what runs beside them in a
 * Node process: the outbox worker on a timer and the daily retention purge. The Cloudflare Pages worker
 * mounts the same endpoints over D1 (cloudflare.ts), the Netlify Function over Netlify Blobs or PostgreSQL
 * (netlify.ts), each delivering after its requests (edge.ts).
 */
import type { SiteConfig } from "../generator/config.ts";
import type { ApiHandler } from "./forms.ts";
import { openStore, type Environment } from "./stores.ts";
import type { SubmissionSink } from "./store.ts";
import type { Backoff, DeliveryReport } from "./delivery.ts";
import { createEndpoints } from "./endpoints.ts";
import { createMailer } from "./notify/email.ts";
import { submissionSettings } from "./submission-settings.ts";

export interface ApiOptions {
  site: SiteConfig;
  root: string;
  /** per locale "pt" | "en": dotted key → text, from content/<locale>/*.yaml */
  messages: Record<"pt" | "en", Map<string, string>>;
  /** for tests: a clock */
  now?: () => number;
  /** Another store instead of the one openStore picks (PostgreSQL with DATABASE_URL, else SQLite). */
  store?: SubmissionSink;
  /**
   * Where DATABASE_URL, SUBMISSIONS_DB, SUBMISSIONS_RATE_LIMIT and the notification settings are read (process.env).
   */
  env?: Environment;
  /** Notifications queued in the outbox with each stored submission, per form (see FormHandlerOptions.outbox). */
  outbox?: Partial<Record<"newsletter" | "contact", readonly string[]>>;
  /** For tests: the retry schedule of failed notifications, and how often the background looks for due ones. */
  backoff?: Backoff;
  deliveryIntervalMs?: number;
}

/**
 * How often the background work looks for notifications that are due (a shared database may get them from other
 * processes).
 */
const DELIVERY_INTERVAL_MS = 5_000;
const DAY_MS = 86_400_000;

/** What `sitegen start` and `sitegen serve` run beside the endpoints, and `sitegen submissions retry` uses. */
export interface ApiInstance {
  handlers: Record<string, ApiHandler>;
  /**
   * Opens the store and applies its migrations now rather than at the first submission, so a server can fail at start.
   */
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

/** Endpoint path (from site.endpoints) → handler, with the background work of a Node process. */
export function createApiHandlers(options: ApiOptions): ApiInstance {
  const { site, root, messages } = options;
  const now = options.now ?? Date.now;
  const env = options.env ?? globalThis.process?.env ?? {};
  // Settings that cannot work fail here, before a server listens; the store is opened only once they pass.
  const settings = submissionSettings(site, env);
  let store: SubmissionSink | undefined;
  const endpoints = createEndpoints({
    site,
    settings,
    messages,
    env,
    now,
    createMailer,
    outbox: options.outbox,
    backoff: options.backoff,
    onStored: () => worker?.kick(),
    openStore: () => (store = options.store ?? openStore(settings, env, root)),
  });
  const { handlers } = endpoints;
  const full = endpoints.store;
  const worker = endpoints.deliveryWorker();
  let purgeTimer: ReturnType<typeof setInterval> | undefined;
  const purge = () => endpoints.purge();

  return {
    handlers,
    ready: async () => store?.ready?.(),
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
      endpoints.close();
      await store?.close();
    },
  };
}
