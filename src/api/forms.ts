/**
 * The newsletter and contact endpoints: web-standard handlers over an injected store, so the same code runs
 * under `sitegen serve` and on an edge runtime.
 *
 * Order of checks for a POST: read the body (at most MAX_BODY_BYTES, derived from the field limits) and
 * parse it, then answer 429 (the client is past its cap of refused posts), 403 (posted from another site),
 * 415 (not JSON or urlencoded), 413, 400 (unreadable, or not UTF-8), silent success (honeypot filled;
 * nothing stored), 422 (per-field messages), 429 (past rateLimitPerMinute), 503 (the store failed) or
 * success (stored; marked `suspect` when sent implausibly fast). The body is read first so its `locale`
 * field can pick the language of every answer.
 *
 * Two budgets per client, shared by both forms. `limiter` counts only what was accepted (stored, or a
 * honeypot post answered as if it were), so a visitor fixing typos is never locked out by them.
 * `invalidLimiter` counts refused posts (403, 413, 415, 400, 422) at ten times that rate: a person
 * correcting a form needs a handful of tries, while a script probing the validator or flooding the endpoint
 * with junk is stopped, and once past that cap its valid posts wait too. Either limiter may keep its counts in
 * a shared store (PostgreSQL), so each is awaited.
 */
import {
  jsonResponse,
  localeFromAcceptLanguage,
  localeFromField,
  localeFromReferer,
  message,
  seeOther,
  textResponse,
  wantsJson,
  type ApiLocale,
  type Messages,
} from "./http.ts";
import { parseBody } from "./body.ts";
import { isCrossSite, pagesOrigin } from "./origin.ts";
import {
  MAX_BODY_BYTES,
  validateContact,
  validateNewsletter,
  type FieldProblem,
  type FieldReader,
} from "./validate.ts";
import { RateLimiter, type Limiter, type RateLimitResult } from "./rate-limit.ts";
import type { OutboxMessage, SubmissionSink } from "./store.ts";

export { MAX_BODY_BYTES };

/** The forms the endpoints answer, each stored in a table of its own (src/api/store.ts). */
export const FORM_KINDS = ["newsletter", "contact"] as const;
export type FormKind = (typeof FORM_KINDS)[number];
export type ApiHandler = (request: Request) => Promise<Response>;

/** Why a submission failed, as the `reason` of the error page's address. */
export type FailureReason = "invalid" | "rate-limited" | "too-large" | "malformed" | "unavailable" | "cross-site";

/** Refused posts a client may send per accepted one (see the top of this file). */
export const INVALID_PER_ACCEPTED = 10;

export interface FormHandlerOptions {
  kind: FormKind;
  messages: Messages;
  store: SubmissionSink;
  /**
   * Notifications to queue with each stored submission, by deliverer ("email", "webhook"), each carrying the
   * submission as its payload; none by default.
   */
  outbox?: readonly string[];
  /** Accepted submissions per client (rateLimitPerMinute). */
  limiter: Limiter;
  /** Refused posts per client; by default INVALID_PER_ACCEPTED times `limiter`'s limit, for this handler alone. */
  invalidLimiter?: Limiter;
  /** Origins whose pages may post here besides the endpoint's own host: the origin of site.yaml's siteUrl. */
  allowedOrigins?: ReadonlySet<string>;
  /**
   * The origin of the site's pages when they are served elsewhere (site.yaml's endpoints are absolute URLs on
   * another origin than siteUrl's): a plain form post's 303 goes back there. Undefined when the pages are
   * served beside the endpoints.
   */
  remotePages?: string;
  /** Submissions sent sooner than this after `startedAt` are stored marked `suspect`. */
  minFillMs: number;
  /** Take the client from the first X-Forwarded-For address (only behind a proxy you run). */
  trustProxy: boolean;
  /** Path prefix of each language's pages: { pt: "", en: "/en" }. */
  localePrefix: Record<ApiLocale, string>;
  now: () => number;
  maxBodyBytes?: number;
  /** Called after a submission with notifications was stored, so they go out now rather than at the next tick. */
  onStored?: () => void;
  /**
   * Double opt-in (newsletter only): the signup is stored unconfirmed, with the confirmation e-mail to the
   * subscriber as its only notification (the firm hears of it once confirmed, see src/api/opt-in.ts), and
   * the visitor is told to check their inbox.
   */
  optIn?: { link(email: string, locale: ApiLocale): Promise<string> };
}

const NO_STORE = { "Cache-Control": "no-store" };

/** The address of a redirect target page in a language. */
export function resultPath(prefix: string, page: string): string {
  return `${prefix}/forms/${page}`;
}

/** Who is asking, for the rate limit: the socket address, or the first X-Forwarded-For entry behind a trusted proxy. */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (first) return normaliseAddress(first);
  }
  return normaliseAddress(request.headers.get("x-sitegen-remote-address") ?? "") || "unknown";
}

function normaliseAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  // The same IPv4 client seen through a dual-stack socket.
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice(7) : lower;
}

/** The hidden honeypot field is filled: only a bot sees it. */
function honeypotFilled(read: FieldReader): boolean {
  const honeypot = read("website");
  return typeof honeypot === "string" ? honeypot.trim() !== "" : honeypot !== undefined && honeypot !== null;
}

/**
 * Sent sooner after the first keystroke than a person usually manages. Not proof: autofill and Enter can
 * take a person under the limit, so such a submission is stored, marked `suspect`, rather than dropped.
 * A missing or non-numeric startedAt (no JavaScript) is unknown, never suspect.
 */
function sentTooFast(read: FieldReader, now: number, minFillMs: number): boolean {
  const raw = read("startedAt");
  const startedAt =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  // startedAt comes from the browser's clock: a negative elapsed time means that clock runs ahead of ours,
  // which says nothing about the sender, so it counts as unknown.
  const elapsed = now - startedAt;
  return Number.isFinite(elapsed) && elapsed >= 0 && elapsed < minFillMs;
}

const PROBLEM_KEYS: Record<FormKind, Record<string, Record<FieldProblem, string>>> = {
  newsletter: {
    email: {
      required: "newsletter.emptyEmail",
      invalid: "newsletter.invalidEmail",
      tooLong: "newsletter.invalidEmail",
    },
  },
  contact: {
    firstName: {
      required: "contactForm.errors.firstName",
      invalid: "api.invalid",
      tooLong: "contactForm.errors.tooLong",
    },
    lastName: {
      required: "contactForm.errors.lastName",
      invalid: "api.invalid",
      tooLong: "contactForm.errors.tooLong",
    },
    email: {
      required: "contactForm.errors.email",
      invalid: "contactForm.errors.emailInvalid",
      tooLong: "contactForm.errors.emailInvalid",
    },
    company: { required: "api.invalid", invalid: "api.invalid", tooLong: "contactForm.errors.tooLong" },
    message: { required: "contactForm.errors.message", invalid: "api.invalid", tooLong: "contactForm.errors.tooLong" },
  },
};

/** Every message key the form endpoints may answer with (content/<locale>/forms.yaml must define each). */
export const API_MESSAGE_KEYS: readonly string[] = [
  ...new Set([
    ...Object.values(PROBLEM_KEYS).flatMap((fields) => Object.values(fields).flatMap((p) => Object.values(p))),
    ...["api.tooLarge", "api.malformed", "api.rateLimited", "api.method", "api.invalid", "api.crossSite"],
    ...[
      "newsletter.failure",
      "newsletter.successTitle",
      "newsletter.successMessage",
      "newsletter.pendingTitle",
      "newsletter.pendingMessage",
    ],
    ...["contactForm.failure", "contactForm.successTitle", "contactForm.successMessage"],
  ]),
];

const logFailure = (kind: FormKind, what: string, error: unknown) =>
  console.error(`sitegen: ${what} a ${kind} submission: ${error instanceof Error ? error.message : String(error)}`);

export function createFormHandler(options: FormHandlerOptions): ApiHandler {
  const { kind, messages, store, limiter, minFillMs, trustProxy, localePrefix, now } = options;
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const invalidLimiter =
    options.invalidLimiter ??
    new RateLimiter({ limit: limiter.limit * INVALID_PER_ACCEPTED, windowMs: limiter.windowMs });
  const allowedOrigins = options.allowedOrigins ?? new Set<string>();
  const remotePages = options.remotePages;
  const outboxKinds = options.outbox ?? [];
  const failureKey = kind === "newsletter" ? "newsletter.failure" : "contactForm.failure";
  const optIn = kind === "newsletter" ? options.optIn : undefined;
  const successKeys =
    kind === "contact"
      ? ["contactForm.successTitle", "contactForm.successMessage"]
      : optIn
        ? ["newsletter.pendingTitle", "newsletter.pendingMessage"]
        : ["newsletter.successTitle", "newsletter.successMessage"];
  const successPage = kind === "contact" ? "contact-success" : optIn ? "newsletter-pending" : "newsletter-success";
  const notifications = (entry: object): OutboxMessage[] =>
    outboxKinds.map((k) => ({ kind: k, payload: { type: kind, ...entry } }));

  /**
   * The accepted budget, or undefined when its store failed: the submission could not be stored either, so
   * the visitor is told to retry (503).
   */
  const countAccepted = async <T>(count: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await count();
    } catch (error) {
      logFailure(kind, "could not count", error);
      return undefined;
    }
  };
  /**
   * The refused budget: if its store fails, the post is answered as if under the cap, since nothing is stored for it.
   */
  const countRefused = async (
    count: () => RateLimitResult | Promise<RateLimitResult> | void | Promise<void>,
  ): Promise<RateLimitResult> => {
    try {
      return (await count()) ?? { allowed: true, retryAfter: 0 };
    } catch (error) {
      logFailure(kind, "could not count", error);
      return { allowed: true, retryAfter: 0 };
    }
  };

  return async function handleForm(request: Request): Promise<Response> {
    const json = wantsJson(request);
    // The result pages are the site's: on this origin, or on the pages' own when a page elsewhere posted here.
    const pages = pagesOrigin(request, allowedOrigins, remotePages);
    // The body's locale field (below), else the page the form was on, else the browser's languages, else pt.
    let locale: ApiLocale =
      localeFromReferer(request, localePrefix) ??
      localeFromAcceptLanguage(request.headers.get("accept-language")) ??
      "pt";
    const t = (key: string) => message(messages, locale, key);

    /** An error: JSON with its status for scripts, a redirect to the error page for plain form posts. */
    const fail = (
      status: number,
      reason: FailureReason,
      text: string,
      extra: { errors?: Record<string, string>; headers?: Record<string, string> } = {},
    ) =>
      json
        ? jsonResponse(
            status,
            { ok: false, message: text, ...(extra.errors ? { errors: extra.errors } : {}) },
            { ...NO_STORE, ...extra.headers },
          )
        : seeOther(`${pages}${resultPath(localePrefix[locale], "error")}?reason=${reason}`, {
            ...NO_STORE,
            ...extra.headers,
          });
    const succeed = () =>
      json
        ? jsonResponse(200, { ok: true, title: t(successKeys[0]), message: t(successKeys[1]) }, NO_STORE)
        : seeOther(`${pages}${resultPath(localePrefix[locale], successPage)}`, NO_STORE);
    /** Protocol errors keep their status even for form posts: no page of ours sends them. */
    const refuse = (status: number, text: string, headers: Record<string, string> = {}) =>
      json
        ? jsonResponse(status, { ok: false, message: text }, { ...NO_STORE, ...headers })
        : textResponse(status, `${text}\n`, { ...NO_STORE, ...headers });
    const unavailable = () => fail(503, "unavailable", t(failureKey), { headers: { "Retry-After": "60" } });

    try {
      if (request.method !== "POST") return refuse(405, t("api.method"), { Allow: "POST" });

      const time = now();
      const client = clientAddress(request, trustProxy);
      const parsed = await parseBody(request, limit);
      if (parsed.ok) locale = localeFromField(parsed.read("locale")) ?? locale;

      const tooMany = (retryAfter: number) =>
        fail(429, "rate-limited", t("api.rateLimited"), { headers: { "Retry-After": String(retryAfter) } });
      const probing = await countRefused(() => invalidLimiter.check(client, time));
      if (!probing.allowed) return tooMany(probing.retryAfter);
      /** A refused post counts against the cap of refused posts, never against the visitor's submissions. */
      const refused = async (response: Response) => (
        await countRefused(() => invalidLimiter.hit(client, time)),
        response
      );

      if (isCrossSite(request, allowedOrigins, trustProxy)) return refused(fail(403, "cross-site", t("api.crossSite")));
      if (!parsed.ok) {
        if (parsed.reason === "unsupported")
          return refused(
            refuse(415, t("api.malformed"), { Accept: "application/json, application/x-www-form-urlencoded" }),
          );
        if (parsed.reason === "too-large") return refused(fail(413, "too-large", t("api.tooLarge")));
        return refused(fail(400, "malformed", t("api.malformed")));
      }
      const { read } = parsed;
      // A bot learns nothing: the same answer as a success, counted like one, and nothing is stored.
      if (honeypotFilled(read)) {
        const rate = await countAccepted(() => limiter.hit(client, time));
        if (!rate) return unavailable();
        return rate.allowed ? succeed() : tooMany(rate.retryAfter);
      }
      const suspect = sentTooFast(read, time, minFillMs);

      const createdAt = new Date(time).toISOString();
      let problems: Partial<Record<string, FieldProblem>>;
      let save: () => unknown;
      if (kind === "newsletter") {
        const { values, problems: found } = validateNewsletter(read);
        problems = found;
        const entry = { email: values.email, locale, createdAt, suspect };
        save = optIn
          ? async () => {
              const link = await optIn.link(entry.email, locale);
              return store.addNewsletter({ ...entry, confirmed: false }, [
                { kind: "confirm", payload: { type: "newsletter", ...entry, link } },
              ]);
            }
          : () => store.addNewsletter(entry, notifications(entry));
      } else {
        const { values, problems: found } = validateContact(read);
        problems = found;
        const entry = { ...values, company: values.company === "" ? null : values.company, locale, createdAt, suspect };
        save = () => store.addContact(entry, notifications(entry));
      }
      const invalid = Object.entries(problems) as [string, FieldProblem][];
      if (invalid.length > 0) {
        const errors: Record<string, string> = {};
        for (const [field, problem] of invalid) errors[field] = t(PROBLEM_KEYS[kind][field][problem]);
        // One field (the newsletter): its own message says it best; several: the summary.
        return refused(fail(422, "invalid", kind === "newsletter" ? errors.email : t("api.invalid"), { errors }));
      }

      // Counted before the store is awaited, so concurrent posts cannot all slip under the limit.
      const rate = await countAccepted(() => limiter.hit(client, time));
      if (!rate) return unavailable();
      if (!rate.allowed) return tooMany(rate.retryAfter);
      try {
        // Stored before the answer is built: every acknowledged submission is in the database.
        await save();
      } catch (error) {
        // Nothing was kept, so nothing counts: the visitor may retry at once.
        await countAccepted(() => limiter.release(client, time));
        logFailure(kind, "could not store", error);
        return unavailable();
      }
      if (outboxKinds.length > 0 || optIn) options.onStored?.();
      return succeed();
    } catch (error) {
      // A bug, not bad input: log it and answer without crashing the server.
      console.error(`sitegen: the ${kind} endpoint failed:`, error);
      return fail(500, "unavailable", t(failureKey));
    }
  };
}
