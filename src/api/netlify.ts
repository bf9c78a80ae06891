/**
 * The endpoints as one Netlify Function (v2, web-standard), which `sitegen build --target netlify` bundles
 * from this module: the same endpoints and notifications as `sitegen start` (edge.ts over endpoints.ts),
 * storing into Netlify Blobs (store `submissions`), or into PostgreSQL when the site's environment sets
 * DATABASE_URL; the notification settings from the same environment; e-mail with nodemailer, since a
 * Netlify Function runs on Node; and one delivery pass after each answer, kept alive by context.waitUntil.
 * It imports no SQLite, so the bundle holds no native module.
 */
import type { SiteConfig } from "../generator/config.ts";
import { BlobsIssueStore } from "./blobs-issues.ts";
import { createEdgeApi } from "./edge.ts";
import { createMailer } from "./notify/email.ts";
import { checkDatabaseUrl } from "./pg-url.ts";
import { PgSubmissionStore } from "./pg-store.ts";
import type { SubmissionSink } from "./store.ts";

/**
 * What Netlify passes a function besides the request: the visitor's address, and work that may go on after the answer.
 */
export interface NetlifyContext {
  ip?: string;
  waitUntil?: (promise: Promise<unknown>) => void;
}

type Environment = Readonly<Record<string, string | undefined>>;

export interface NetlifyOptions {
  site: SiteConfig;
  /** Each locale's text, as the build recorded it: locale → dotted key → text. */
  messages: Record<string, Record<string, string>>;
  /** Where DATABASE_URL and the notification settings are read; process.env by default. */
  env?: Environment;
  /** Another store (tests); by default PostgreSQL with DATABASE_URL, else Netlify Blobs. */
  store?: SubmissionSink;
}

export type NetlifyFunction = (request: Request, context: NetlifyContext) => Promise<Response>;

/** The store on Netlify: PostgreSQL when DATABASE_URL is set (a shared rate limit too), else Netlify Blobs. */
export function openNetlifyStore(env: Environment): SubmissionSink {
  const url = env.DATABASE_URL?.trim();
  return url ? new PgSubmissionStore(checkDatabaseUrl(url)) : new BlobsIssueStore();
}

/**
 * The endpoints' function, and `deliver`: one pass of the outbox, which the scheduled function runs every
 * few minutes, so a failed notification is retried even when no visitor posts or loads a page.
 */
export function createNetlifyFunction(options: NetlifyOptions): { handle: NetlifyFunction; deliver(): Promise<void> } {
  const env = () => options.env ?? globalThis.process?.env ?? {};
  const store = options.store ?? openNetlifyStore(env());
  // The scheduled function (sitegen-deliver) purges: a visitor's answer never waits on it.
  const api = createEdgeApi({ site: options.site, messages: options.messages, createMailer, purgeOnRequests: false });
  const handle: NetlifyFunction = async (request, context) => {
    // The rate limit counts per visitor: Netlify gives the address in the context, and a header the client
    // sent under the same name is replaced, never believed.
    const headers = new Headers(request.headers);
    headers.set("x-sitegen-remote-address", context?.ip ?? "");
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const forwarded = new Request(request.url, {
      method: request.method,
      headers,
      body: hasBody ? request.body : null,
      signal: request.signal,
      duplex: "half",
    } as RequestInit);
    const waitUntil = typeof context?.waitUntil === "function" ? context.waitUntil.bind(context) : undefined;
    const response = await api.handle(forwarded, { store, env: env(), waitUntil });
    return (
      response ?? new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } })
    );
  };
  return { handle, deliver: () => api.deliverDue({ store, env: env() }) };
}
