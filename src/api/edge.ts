/**
 * The endpoints on a host that runs code only while it answers a request (the Cloudflare Pages worker,
 * cloudflare.ts; the Netlify Function, netlify.ts): the same handlers, settings and outbox as `sitegen
 * start` (endpoints.ts), with no process left to run the delivery worker on a timer. Instead, once an
 * endpoint has answered, one pass of the worker runs in the background of that same request (the host's
 * `waitUntil` keeps it alive after the answer): it sends what the request stored, and whatever earlier
 * requests left due, failed ones included once their backoff is over; a host with scheduled runs (Netlify)
 * also calls deliverDue on a timer. The outbox's lease keeps two instances from sending one notification
 * twice. The purge of old rows runs the same way, once a day per instance (on a host with scheduled runs,
 * in those only).
 */
import type { SiteConfig } from "../generator/config.ts";
import { createEndpoints, type Endpoints } from "./endpoints.ts";
import { createHandlers } from "./handlers.ts";
import type { Messages } from "./http.ts";
import type { MailerFactory } from "./notify/mailer.ts";
import { NotifyConfigError, type Environment } from "./notify/settings.ts";
import type { SubmissionSink } from "./store.ts";
import { submissionSettings, type SubmissionSettings } from "./submission-settings.ts";

export interface EdgeApiOptions {
  site: SiteConfig;
  /** Each locale's text, as the build recorded it: locale → dotted key → text. */
  messages: Record<string, Record<string, string>>;
  /** The SMTP transport of the host's runtime. */
  createMailer: MailerFactory;
  /**
   * Whether requests run the daily purge (the default): a host with scheduled runs (Netlify) purges in those
   * instead, so that no visitor's answer waits on it where the runtime finishes background work first.
   */
  purgeOnRequests?: boolean;
  /** For tests: a clock. */
  now?: () => number;
}

export interface EdgeRequestContext {
  /** The store for this request's bindings; the same object while they do not change. */
  store: SubmissionSink;
  /** The host's environment: SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_WEBHOOK_URL, SUBMISSIONS_SECRET. */
  env: Environment;
  /**
   * Keeps the request's background work alive after its answer (ctx.waitUntil on Cloudflare, context.waitUntil on
   * Netlify).
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

export interface EdgeApi {
  /** The endpoint's answer, or undefined when the path is no endpoint. */
  handle(request: Request, context: EdgeRequestContext): Promise<Response | undefined>;
  /** One pass of the outbox with no request (a host's scheduled run): what is due is sent. */
  deliverDue(context: Omit<EdgeRequestContext, "waitUntil">): Promise<void>;
}

/** The variables that change what is sent; a change makes new endpoints (a new deployment's environment). */
const SETTINGS = ["SMTP_URL", "NOTIFY_EMAIL_TO", "NOTIFY_WEBHOOK_URL", "SUBMISSIONS_SECRET"] as const;
const DAY_MS = 86_400_000;

/**
 * While a setting cannot work (NotifyConfigError), the forms store nothing and answer as when the database
 * is down: 503 with the visitor's-language failure message, or the error page without JavaScript. Nothing
 * is stored that its notifications could not follow; the language detection still answers.
 */
function unavailable(
  site: SiteConfig,
  settings: SubmissionSettings,
  messages: Messages,
  error: NotifyConfigError,
): Endpoints {
  const refuse = () => Promise.reject(new Error(`the notification settings cannot work (${error.variable})`));
  const store = { addNewsletter: refuse, addContact: refuse, close: async () => {} };
  return {
    handlers: createHandlers({ site, settings, messages, store }),
    store: undefined,
    delivers: false,
    unconfirmedDays: 0,
    deliveryWorker: () => undefined,
    purge: async () => {},
    close() {},
  };
}

export function createEdgeApi(options: EdgeApiOptions): EdgeApi {
  const { site } = options;
  const now = options.now ?? Date.now;
  // As the build recorded them: SUBMISSIONS_DB and SUBMISSIONS_RATE_LIMIT are for a Node server's run.
  const settings = submissionSettings(site, {});
  const messages = {
    pt: new Map(Object.entries(options.messages.pt ?? {})),
    en: new Map(Object.entries(options.messages.en ?? {})),
  };
  // One set of endpoints per instance, store and settings: the in-memory rate limit lives as long as they do.
  let current: { store: SubmissionSink; key: string; endpoints: Endpoints; purgedAt: number } | undefined;

  const endpointsFor = (store: SubmissionSink, env: Environment) => {
    const key = JSON.stringify(SETTINGS.map((name) => env[name] ?? null));
    if (current?.store === store && current.key === key) return current;
    let endpoints: Endpoints;
    try {
      const { createMailer } = options;
      endpoints = createEndpoints({ site, settings, messages, env, now, createMailer, openStore: () => store });
    } catch (error) {
      if (!(error instanceof NotifyConfigError)) throw error;
      // Said once per instance; the message never holds a password or a webhook's address.
      console.error(`sitegen: the form endpoints cannot run: ${error.message} (${error.variable})`);
      endpoints = unavailable(site, settings, messages, error);
    }
    current?.endpoints.close();
    current = { store, key, endpoints, purgedAt: 0 };
    return current;
  };

  /** One pass of the outbox (and, once a day, the purge), after the answer. */
  const background = async (state: NonNullable<typeof current>, endpoints: Endpoints, purge: boolean) => {
    if (purge && now() - state.purgedAt >= DAY_MS) {
      state.purgedAt = now();
      // Purged first: nothing is sent about a submission that is past its retention period.
      await endpoints.purge();
    }
    // With no notifier configured nothing could be sent: what waits in the outbox stays there, untouched,
    // until one is (a site with no notifications reads no outbox on every request).
    if (!endpoints.delivers) return;
    try {
      await endpoints.deliveryWorker()?.runDue();
    } catch (error) {
      console.error(
        `sitegen: delivering notifications failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  return {
    async handle(request, context) {
      const state = endpointsFor(context.store, context.env);
      const { endpoints } = state;
      const handler = endpoints.handlers[new URL(request.url).pathname];
      if (!handler) return undefined;
      const response = await handler(request);
      const pass = background(state, endpoints, options.purgeOnRequests !== false);
      if (context.waitUntil) context.waitUntil(pass);
      else await pass;
      return response;
    },
    async deliverDue(context) {
      const state = endpointsFor(context.store, context.env);
      await background(state, state.endpoints, true);
    },
  };
}
