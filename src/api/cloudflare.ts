/**
 * The Cloudflare Pages worker (advanced mode: dist/_worker.js): the same handlers `sitegen start` mounts
 * (handlers.ts), over D1 (d1-store.ts) through the binding SUBMISSIONS. `sitegen build --target cloudflare`
 * bundles this module with the build's configuration and text (src/generator/targets/cloudflare.ts);
 * dist/_routes.json sends only the endpoints' paths here, so Pages serves every other file itself, with
 * dist/_headers. Web-standard only: it runs in workerd without Node compatibility.
 */
import type { SiteConfig } from "../generator/config.ts";
import { D1SubmissionStore, type D1Database } from "./d1-store.ts";
import type { ApiHandler } from "./forms.ts";
import { createHandlers } from "./handlers.ts";

/** The bindings Pages gives the worker: the D1 database the project binds as SUBMISSIONS, and the static files. */
export interface PagesEnv {
  SUBMISSIONS?: D1Database;
  ASSETS: { fetch(request: Request): Promise<Response> };
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

/** A binding that is missing (the project has no D1 database bound as SUBMISSIONS): every store call fails, and says why. */
const MISSING_BINDING: D1Database = {
  prepare() {
    throw new Error("no D1 database is bound as SUBMISSIONS: bind one to the Pages project (see the README, Cloudflare Pages)");
  },
  batch() {
    return Promise.reject(new Error("no D1 database is bound as SUBMISSIONS"));
  },
};

export function createPagesWorker(options: PagesWorkerOptions): { fetch(request: Request, env: PagesEnv): Promise<Response> } {
  const messages = {
    pt: new Map(Object.entries(options.messages.pt ?? {})),
    en: new Map(Object.entries(options.messages.en ?? {})),
  };
  // One set of handlers per isolate and binding, so its store migrates once (the rate limit counts in D1).
  let current: { db: D1Database; handlers: Record<string, ApiHandler> } | undefined;
  const handlersFor = (db: D1Database) => {
    if (current?.db !== db) current = { db, handlers: createHandlers({ site: options.site, messages, store: new D1SubmissionStore(db) }) };
    return current.handlers;
  };

  return {
    async fetch(request, env) {
      const handler = handlersFor(env.SUBMISSIONS ?? MISSING_BINDING)[new URL(request.url).pathname];
      // _routes.json sends only the endpoints here; anything else is a static file.
      if (!handler) return env.ASSETS.fetch(request);
      const response = await handler(withClientAddress(request));
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(options.headers)) if (!headers.has(name)) headers.set(name, value);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
  };
}
