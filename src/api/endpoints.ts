/**
 * The endpoints with everything that makes a lead reach people, wired once for every runtime: the
 * notification settings (the environment over site.yaml's defaults), the outbox kinds queued with each
 * submission, the double opt-in (its signed links and its confirm endpoint), the deliverers, and the outbox
 * worker that sends what is due. `sitegen serve` and `sitegen start` (node-api.ts) run that worker on a timer;
 * the Cloudflare Pages worker and the Netlify Function (edge.ts) run one pass of it after each request. The
 * mail transport (nodemailer, in every runtime) is given by the runtime's entry module.
 *
 * Web-standard only, as handlers.ts: the transport is given, never imported here.
 */
import type { SiteConfig } from "../generator/config.ts";
import { DeliveryWorker, type Backoff } from "./delivery.ts";
import type { ApiHandler } from "./forms.ts";
import { createHandlers, localePrefixes } from "./handlers.ts";
import { localeFromField, type ApiLocale, type Messages } from "./http.ts";
import { createDeliverers, type MailerFactory } from "./notify/deliverers.ts";
import {
  notifySettings,
  NotifyConfigError,
  outboxKinds,
  type Environment,
  type NotificationsConfig,
} from "./notify/settings.ts";
import { createConfirmHandler, OptInTokens } from "./opt-in.ts";
import { createIssuesHandler, MAX_ISSUES_BODY } from "./newsletter-issues.ts";
import { isValidEmail } from "./validate.ts";
import { isIssueStore, type SubmissionSink, type SubmissionStore } from "./store.ts";
import type { SubmissionSettings } from "./submission-settings.ts";
import { createUnsubscribeHandler, UnsubscribeTokens } from "./unsubscribe.ts";

export interface EndpointsOptions {
  site: SiteConfig;
  /** site.yaml's `submissions` block, read (submission-settings.ts) with the overrides of the runtime that serves. */
  settings: SubmissionSettings;
  messages: Messages;
  /** The store, opened once the settings passed their checks (so a server that cannot run opens no database). */
  openStore: () => SubmissionSink;
  /** SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_WEBHOOK_URL and SUBMISSIONS_SECRET are read here. */
  env: Environment;
  /** The SMTP transport of this runtime. */
  createMailer: MailerFactory;
  now?: () => number;
  /** Notifications queued in the outbox with each stored submission, per form; by default, what is configured. */
  outbox?: Partial<Record<"newsletter" | "contact", readonly string[]>>;
  /** The retry schedule of failed notifications (DEFAULT_BACKOFF of delivery.ts unless a test sets one). */
  backoff?: Backoff;
  /** Called once a submission with notifications is stored, so that a delivery runs now. */
  onStored?: () => void;
  /** Told of each failed delivery; by default it is logged. */
  onFailure?: ConstructorParameters<typeof DeliveryWorker>[0]["onFailure"];
}

export interface Endpoints {
  handlers: Record<string, ApiHandler>;
  /** The store with an outbox (every store but a test's sink), which the worker and the purge use. */
  store: SubmissionStore | undefined;
  /** A worker over the outbox, or none when the store has no outbox. A runtime may make one per request. */
  deliveryWorker(): DeliveryWorker | undefined;
  /** Whether any notifier is configured (SMTP_URL or NOTIFY_WEBHOOK_URL): without one, nothing could be sent. */
  delivers: boolean;
  unconfirmedDays: number;
  /**
   * Erases what is past its time: contact messages older than submissions.retentionDays (a newsletter
   * subscription lasts until the person leaves or asks to be erased), and signups never confirmed after
   * submissions.unconfirmedDays. Failures are logged, never thrown.
   */
  purge(): Promise<void>;
  /** Closes the mail transport. */
  close(): void;
}

const DAY_MS = 86_400_000;
/** How long a double opt-in signup waits for its confirmation before it is erased (submissions.unconfirmedDays). */
export const DEFAULT_UNCONFIRMED_DAYS = 7;
/** SUBMISSIONS_SECRET signs confirmation links: at least as long as a random 192-bit key in base64. */
const MIN_SECRET_LENGTH = 32;

/** Mountable only when it is a path on this site (not an absolute or protocol-relative URL). */
function isLocalPath(path: unknown): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}

function isStore(store: SubmissionSink): store is SubmissionStore {
  const s = store as Partial<SubmissionStore>;
  return (
    typeof s.claimOutbox === "function" &&
    typeof s.markDelivered === "function" &&
    typeof s.markFailed === "function" &&
    typeof s.purgeOlderThan === "function"
  );
}

/** Throws NotifyConfigError for a setting that cannot work, before anything is stored under it. */
export function createEndpoints(options: EndpointsOptions): Endpoints {
  const { site, settings, messages, env } = options;
  const now = options.now ?? Date.now;
  const retentionDays = settings.retentionDays ?? 0;
  const unconfirmedDays = settings.unconfirmedDays ?? DEFAULT_UNCONFIRMED_DAYS;
  const notify = notifySettings(site.notifications as NotificationsConfig | undefined, env);
  const optIn =
    settings.doubleOptIn === true ? doubleOptIn(site, env, notify.smtpUrl, unconfirmedDays, now) : undefined;
  const store = options.openStore();
  const defaultLocale = site.locales.find((l) => l.prefix === "")?.code;
  const firmLocale: ApiLocale = localeFromField(notify.locale ?? defaultLocale) ?? "pt";
  const { deliverers, close } = createDeliverers(notify, messages, firmLocale, {
    unconfirmedDays,
    createMailer: options.createMailer,
  });
  const full = isStore(store) ? store : undefined;
  const outbox = options.outbox ?? {
    newsletter: outboxKinds(notify, "newsletter"),
    contact: outboxKinds(notify, "contact"),
  };

  const handlers = createHandlers({ site, settings, messages, store, now, outbox, optIn, onStored: options.onStored });
  if (optIn && full) {
    handlers[optIn.path] = createConfirmHandler({
      tokens: optIn.tokens,
      store: full,
      localePrefix: localePrefixes(site),
      now,
      onStored: options.onStored,
      // The firm hears of a subscriber once confirmed.
      onConfirm: (claims, at) =>
        (outbox.newsletter ?? []).map((kind) => ({
          kind,
          payload: { type: "newsletter", email: claims.email, locale: claims.locale, createdAt: at, suspect: false },
        })),
    });
  }
  const leaving = full ? unsubscribeSetup(site, env) : undefined;
  if (leaving && full) {
    const langOf = (code: ApiLocale) => site.locales.find((l) => l.code === code)?.lang ?? code;
    handlers[leaving.path] = createUnsubscribeHandler({
      tokens: leaving.tokens,
      store: full,
      messages,
      localePrefix: localePrefixes(site),
      lang: { pt: langOf("pt"), en: langOf("en") },
    });
  }
  const onFailure =
    options.onFailure ??
    (({ row, error, nextAttemptAt }) =>
      console.error(
        `sitegen: the ${row.kind} notification of ${row.submission_type} ${row.submission_id} ` +
          `failed (try ${row.attempts}): ${error}; next try at ${new Date(nextAttemptAt).toISOString()}`,
      ));
  const worker = () =>
    full
      ? new DeliveryWorker({
          store: full,
          deliverers,
          now,
          backoff: options.backoff,
          leaseMs: Math.max(300_000, notify.timeoutMs * 3),
          onFailure,
          onRefusal: ({ row, error }) =>
            console.error(
              `sitegen: the ${row.kind} notification of ${row.submission_type} ${row.submission_id} was refused ` +
                `for good: ${error}; nothing more is sent to that address`,
            ),
        })
      : undefined;
  const issuesPath = site.endpoints.newsletterIssues;
  if (leaving && full && isIssueStore(full) && isLocalPath(issuesPath)) {
    const unsubscribeEmail = (site.newsletter as { unsubscribeEmail?: unknown } | undefined)?.unsubscribeEmail;
    handlers[issuesPath] = Object.assign(
      createIssuesHandler({
        site,
        secret: env.SUBMISSIONS_SECRET!,
        store: full,
        copies: {
          siteUrl: site.siteUrl,
          links: leaving,
          ...(typeof unsubscribeEmail === "string" && isValidEmail(unsubscribeEmail.trim())
            ? { unsubscribeEmail: unsubscribeEmail.trim() }
            : {}),
        },
        now,
        // A pass of its own, so its report holds what this pass failed or refused.
        deliver: async () => {
          const pass = worker()!;
          try {
            return await pass.runDue();
          } finally {
            await pass.stop(1000);
          }
        },
      }),
      // The Node server lets it read an issue's parts (its default cap is for forms).
      { maxBodyBytes: MAX_ISSUES_BODY },
    );
  }
  return {
    handlers,
    store: full,
    unconfirmedDays,
    delivers: Object.keys(deliverers).length > 0,
    async purge() {
      if (!full) return;
      try {
        if (retentionDays > 0) await full.purgeOlderThan(retentionDays, now(), ["contact"]);
        // There are none unless double opt-in is, or was, on.
        await full.purgeUnconfirmed(unconfirmedDays, now());
      } catch (error) {
        console.error(
          `sitegen: purging old submissions failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    deliveryWorker: worker,
    close,
  };
}

/** The secret that signs the links the site e-mails, refused when too short to be a key. */
export function signingSecret(env: Environment, purpose: string): string | undefined {
  const secret = env.SUBMISSIONS_SECRET ?? "";
  if (secret === "") return undefined;
  if (secret.length < MIN_SECRET_LENGTH)
    throw new NotifyConfigError(
      "SUBMISSIONS_SECRET",
      `SUBMISSIONS_SECRET has ${secret.length} characters, fewer than the ${MIN_SECRET_LENGTH} a signing key ` +
        `needs: ${purpose} cannot be signed.`,
    );
  return secret;
}

/**
 * The newsletter's unsubscribe links (unsubscribe.ts): their signer and the endpoint's path, when
 * SUBMISSIONS_SECRET is set and endpoints.newsletterUnsubscribe is a path of this site. Without the secret
 * no link can be signed, and no issue can be sent either (sitegen newsletter send refuses to).
 */
export function unsubscribeSetup(
  site: SiteConfig,
  env: Environment,
): { path: string; tokens: UnsubscribeTokens } | undefined {
  const path = site.endpoints.newsletterUnsubscribe;
  if (path === undefined) return undefined;
  const secret = signingSecret(env, "the newsletter's unsubscribe links");
  if (secret === undefined) return undefined;
  if (!isLocalPath(path))
    throw new NotifyConfigError(
      "endpoints.newsletterUnsubscribe",
      "endpoints.newsletterUnsubscribe in site.yaml is no path of this site (such as /api/newsletter/unsubscribe): " +
        "the unsubscribe links could not reach the endpoints.",
    );
  return { path, tokens: new UnsubscribeTokens(secret) };
}

/**
 * submissions.doubleOptIn: the confirmation link's signer and the confirm endpoint's path. Refused at once
 * (before a server listens, or before an edge runtime stores a signup) without SUBMISSIONS_SECRET, an SMTP
 * server to send the e-mail, or the endpoint.
 */
function doubleOptIn(
  site: SiteConfig,
  env: Environment,
  smtpUrl: string | undefined,
  unconfirmedDays: number,
  now: () => number,
) {
  const secret = env.SUBMISSIONS_SECRET ?? "";
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new NotifyConfigError(
      "SUBMISSIONS_SECRET",
      secret === ""
        ? "submissions.doubleOptIn is on in site.yaml, but SUBMISSIONS_SECRET is not set: " +
            "the confirmation links cannot be signed."
        : `submissions.doubleOptIn is on in site.yaml, but SUBMISSIONS_SECRET has ${secret.length} characters, ` +
            `fewer than the ${MIN_SECRET_LENGTH} a signing key needs.`,
      "submissions.doubleOptIn",
    );
  }
  if (!smtpUrl)
    throw new NotifyConfigError(
      "SMTP_URL",
      "submissions.doubleOptIn is on in site.yaml, but SMTP_URL is not set: the confirmation e-mail cannot be sent.",
    );
  const path = site.endpoints.newsletterConfirm;
  if (!isLocalPath(path)) {
    throw new NotifyConfigError(
      "endpoints.newsletterConfirm",
      "submissions.doubleOptIn is on, but endpoints.newsletterConfirm in site.yaml is no path of this site " +
        "(such as /api/newsletter/confirm).",
    );
  }
  const tokens = new OptInTokens(secret);
  return {
    path,
    tokens,
    link: async (email: string, locale: ApiLocale) =>
      `${site.siteUrl}${path}?token=${await tokens.sign({ email, locale, expires: now() + unconfirmedDays * DAY_MS })}`,
  };
}
