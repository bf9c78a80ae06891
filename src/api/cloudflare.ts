/**
 * The Cloudflare Pages worker (advanced mode: dist/_worker.js): the same endpoints and notifications as
 * `sitegen start` (edge.ts over endpoints.ts), over D1 (d1-store.ts) through the binding SUBMISSIONS, the
 * settings from the worker's environment (the project's variables and secrets), e-mail through nodemailer
 * (notify/email.ts, DKIM-signed as on Node) over workerd's sockets, and one delivery pass after each answer,
 * kept alive by ctx.waitUntil.
 * `sitegen build --target cloudflare` bundles this module with the build's configuration and text
 * (src/generator/targets/cloudflare.ts); dist/_routes.json sends only the endpoints' paths here, so Pages
 * serves every other file itself, with dist/_headers. Web-standard but for the mail transport, which runs on
 * the Node modules of workerd's nodejs_compat flag (set in the wrangler configuration the build writes).
 */
import type { SiteConfig } from "../generator/config.ts";
import { D1IssueStore } from "./d1-issues.ts";
import type { D1Database } from "./d1-store.ts";
import { createEdgeApi } from "./edge.ts";
import { D1 } from "./hosting.ts";
import { createMailer } from "./notify/email.ts";

/**
 * The bindings Pages gives the worker: the D1 database the project binds as SUBMISSIONS, the static files,
 * and the project's variables and secrets (SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_WEBHOOK_URL, SUBMISSIONS_SECRET).
 */
export interface PagesEnv {
  SUBMISSIONS?: D1Database;
  ASSETS: { fetch(request: Request): Promise<Response> };
  [variable: string]: unknown;
}

/** What Pages passes besides the request and the bindings: work that may go on after the answer. */
export interface PagesContext {
  waitUntil(promise: Promise<unknown>): void;
}

export interface PagesWorkerOptions {
  site: SiteConfig;
  /** Per locale: dotted key → text. */
  messages: Record<string, Record<string, string>>;
  /** The build's security headers (_headers), which Pages applies to static files only: the worker adds them itself. */
  headers: Record<string, string>;
}

/** The header the handlers read the client's address from (forms.ts clientAddress). */
const REMOTE_ADDRESS = "x-sitegen-remote-address";

/**
 * The request as the handlers expect it: the client's address from CF-Connecting-IP, which Cloudflare sets
 * on every request (a client's own value is replaced), never from anything the client sent.
 */
function withClientAddress(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete(REMOTE_ADDRESS);
  const address = request.headers.get("cf-connecting-ip");
  if (address) headers.set(REMOTE_ADDRESS, address);
  return new Request(request, { headers });
}

/**
 * A binding that is missing (the project has no D1 database bound as SUBMISSIONS): every store call fails, and says
 * why.
 */
const MISSING_BINDING: D1Database = {
  prepare() {
    throw new Error(
      "no D1 database is bound as SUBMISSIONS: bind one to the Pages project (see the README, Cloudflare Pages)",
    );
  },
  batch() {
    return Promise.reject(new Error("no D1 database is bound as SUBMISSIONS"));
  },
};

/** The project's variables as text: a binding of another kind under one of those names counts as unset. */
function variables(env: PagesEnv): Record<string, string | undefined> {
  const text: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === "string") text[name] = value;
  return text;
}

export function createPagesWorker(options: PagesWorkerOptions): {
  fetch(request: Request, env: PagesEnv, ctx?: PagesContext): Promise<Response>;
} {
  const api = createEdgeApi({ site: options.site, messages: options.messages, createMailer });
  // One store per binding, so it migrates once per isolate (the rate limit counts in D1, shared by all).
  let store: { db: D1Database; store: D1IssueStore } | undefined;
  const storeFor = (db: D1Database) => {
    if (store?.db !== db) store = { db, store: new D1IssueStore(db) };
    return store.store;
  };

  return {
    async fetch(request, env, ctx) {
      const response = await api.handle(withClientAddress(request), {
        store: storeFor((env[D1.binding] as D1Database | undefined) ?? MISSING_BINDING),
        env: variables(env),
        waitUntil: ctx ? (promise) => ctx.waitUntil(promise) : undefined,
      });
      // _routes.json sends only the endpoints here; anything else is a static file.
      if (!response) return env.ASSETS.fetch(request);
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(options.headers)) if (!headers.has(name)) headers.set(name, value);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
  };
}
