/**
 * The endpoints as one Netlify Function (v2, web-standard), which `sitegen build --target netlify` bundles
 * from this module: the same handlers as `sitegen start` (handlers.ts), storing into Netlify Blobs (store
 * `submissions`), or into PostgreSQL when the site's environment sets DATABASE_URL. It imports no SQLite,
 * so the bundle holds no native module.
 */
import type { SiteConfig } from "../generator/config.ts";
import { BlobsSubmissionStore } from "./blobs-store.ts";
import { createHandlers } from "./handlers.ts";
import { checkDatabaseUrl } from "./pg-url.ts";
import { PgSubmissionStore } from "./pg-store.ts";
import type { SubmissionSink } from "./store.ts";

/** What Netlify passes a function besides the request; only the visitor's address is used. */
export interface NetlifyContext {
  ip?: string;
}

export interface NetlifyOptions {
  site: SiteConfig;
  /** Each locale's text, as the build recorded it: locale → dotted key → text. */
  messages: Record<string, Record<string, string>>;
  /** Where DATABASE_URL is read; process.env by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Another store (tests); by default PostgreSQL with DATABASE_URL, else Netlify Blobs. */
  store?: SubmissionSink;
}

export type NetlifyFunction = (request: Request, context: NetlifyContext) => Promise<Response>;

/** The store on Netlify: PostgreSQL when DATABASE_URL is set (a shared rate limit too), else Netlify Blobs. */
export function openNetlifyStore(env: Readonly<Record<string, string | undefined>>): SubmissionSink {
  const url = env.DATABASE_URL?.trim();
  return url ? new PgSubmissionStore(checkDatabaseUrl(url)) : new BlobsSubmissionStore();
}

/** Endpoint paths this function answers, and the function. */
export function createNetlifyFunction(options: NetlifyOptions): { paths: string[]; handle: NetlifyFunction } {
  const messages = { pt: new Map(Object.entries(options.messages.pt ?? {})), en: new Map(Object.entries(options.messages.en ?? {})) };
  const store = options.store ?? openNetlifyStore(options.env ?? globalThis.process?.env ?? {});
  const handlers = createHandlers({ site: options.site, messages, store });
  const handle: NetlifyFunction = async (request, context) => {
    const handler = handlers[new URL(request.url).pathname];
    if (!handler) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    // The rate limit counts per visitor: Netlify gives the address in the context, and a header the client
    // sent under the same name is replaced, never believed.
    const headers = new Headers(request.headers);
    headers.set("x-sitegen-remote-address", context?.ip ?? "");
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    return handler(new Request(request.url, { method: request.method, headers, body: hasBody ? request.body : null, signal: request.signal, duplex: "half" } as RequestInit));
  };
  return { paths: Object.keys(handlers), handle };
}
