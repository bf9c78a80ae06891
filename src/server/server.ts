import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { createHash } from "node:crypto";
import type { Duplex } from "node:stream";
import type { SiteConfig } from "../generator/config.ts";
import { HTML_CACHE, securityHeaders } from "../generator/security-headers.ts";
import { isHiddenFile, parseRequestPath } from "./request-path.ts";
import { localeOfPath } from "../generator/locales.ts";
import { specialPageFile } from "../generator/pipeline/plan-pages.ts";
import type { ApiHandler } from "../generator/endpoints.ts";
import { acceptedCodings, staticFiles } from "./static-files.ts";
import { runApi } from "./run-api.ts";
import { sitegenError } from "../generator/errors.ts";
import { answerClientError, answerConnect } from "./raw-answer.ts";
import { FILE_METHODS, hostProblem, notImplemented } from "./request-checks.ts";
import { evaluatePreconditions } from "./preconditions.ts";

export type { ApiHandler } from "../generator/endpoints.ts";

export interface ServerOptions {
  outDir: string;
  site: SiteConfig;
  /** Endpoint path → handler, mounted before static files. */
  api?: Record<string, ApiHandler>;
  /** Adds the live-reload client to HTML pages (watch mode). */
  liveReload?: boolean;
  /** Largest request body read, in bytes, for any endpoint (the handlers check their own limits too). */
  maxBodyBytes?: number;
  /** Limits on slow clients, in milliseconds; tests shorten them. Defaults in DEFAULT_TIMEOUTS. */
  timeouts?: Partial<ServerTimeouts>;
  /** Sent with every answer besides the security headers (`sitegen start --hsts`: Strict-Transport-Security). */
  headers?: Record<string, string>;
  /** A health endpoint for load balancers and container platforms (`sitegen start`): 200 while ok() holds, else 503. */
  health?: { path: string; ok(): boolean };
}

export interface ServerTimeouts {
  /** The whole request, body included, must arrive within this. */
  requestMs: number;
  /** The request line and headers must arrive within this (at most requestMs). */
  headersMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
}

/**
 * Node's own limits let a client hold a connection for minutes by trickling bytes; a visitor's browser
 * sends a page request at once, and a form body is small, so these are far shorter.
 */
export const DEFAULT_TIMEOUTS: ServerTimeouts = { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 5_000 };

export interface SiteServer {
  server: Server;
  /**
   * Call after dist was replaced by a rebuild: tells open pages to reload (files are looked up on each request anyway).
   */
  refresh(): void;
  close(): Promise<void>;
}

const RELOAD_PATH = "/__sitegen/reload";
const RELOAD_SCRIPT = `new EventSource("${RELOAD_PATH}").addEventListener("reload",()=>location.reload());`;

/**
 * Starts listening; resolves with the port taken (0 picks a free one). A port already taken becomes
 * PortInUse, naming the command to run again with another port.
 */
export function listen(server: Server, port: number, host: string, command: string): Promise<number> {
  return new Promise((ready, fail) => {
    const onError = (error: NodeJS.ErrnoException) =>
      fail(error.code === "EADDRINUSE" ? sitegenError("PortInUse", { port, host, command }) : error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const address = server.address();
      ready(typeof address === "object" && address ? address.port : port);
    });
  });
}

export function createSiteServer(options: ServerOptions): SiteServer {
  const outDir = resolve(options.outDir);
  const headers = { ...securityHeaders(options.site), ...options.headers };
  const reloadClients = new Set<ServerResponse>();
  // Each locale's not-found and error pages: answers, never pages a visitor may open at an address of their own.
  const internalPages = new Set(
    options.site.locales.flatMap((l) => ["404", "500"].map((name) => `${l.prefix}/${name}`)),
  );
  const files = staticFiles(outDir);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  // The latest response on each connection, for the answer to a client error on it (answerClientError).
  const responses = new WeakMap<Duplex, ServerResponse>();

  const server = createServer(
    {
      // hostProblem answers a missing Host itself, with the headers every answer has.
      requireHostHeader: false,
      requestTimeout: timeouts.requestMs,
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      // Node checks the two limits above on a timer; checking often enough cuts a slow client off near its limit.
      connectionsCheckingInterval: Math.max(100, Math.min(timeouts.headersMs, timeouts.requestMs) / 4),
    },
    onRequest,
  );
  // `Expect: 100-continue` is handled as any request: only an endpoint that reads the body sends 100 (runApi).
  server.on("checkContinue", onRequest);
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // Node answers unparseable (400), oversized (431) and timed-out (408) requests itself, without our headers.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, headers, responses.get(socket)?.headersSent === true),
  );
  server.on("connect", (req: IncomingMessage, socket: Duplex) => answerConnect(req, socket, headers));

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    responses.set(req.socket, res);
    handle(req, res).catch((error) => {
      console.error(error);
      if (!res.headersSent) sendText(res, 500, "Internal server error");
      else res.destroy();
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const badHost = hostProblem(req);
    if (badHost) return sendText(res, 400, `Bad request: ${badHost}`);
    if (notImplemented(req.method ?? "GET")) return sendText(res, 501, "Not implemented");
    const target = parseRequestPath(req.url);
    if (target.kind === "bad") return sendText(res, 400, `Bad request: ${target.reason}`);
    if (target.kind === "redirect") {
      res.writeHead(301, { Location: target.location });
      return void res.end();
    }
    const { pathname } = target;
    const method = req.method ?? "GET";

    if (options.health && pathname === options.health.path) return sendHealth(req, res, options.health.ok());
    const api = options.api?.[pathname];
    // A handler may read larger bodies than the server's cap, when it says so (its own limit still holds).
    const own = (api as { maxBodyBytes?: unknown } | undefined)?.maxBodyBytes;
    if (api) return runApi(api, req, res, typeof own === "number" ? own : (options.maxBodyBytes ?? 64 * 1024));

    const reading = method === "GET" || method === "HEAD";
    if (options.liveReload && reading && pathname === RELOAD_PATH) return openReloadStream(req, res);
    if (options.liveReload && reading && pathname === `${RELOAD_PATH}.js`) {
      res.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" });
      return void res.end(RELOAD_SCRIPT);
    }

    if (method === "OPTIONS") {
      res.writeHead(204, { Allow: FILE_METHODS });
      return void res.end();
    }
    if (method !== "GET" && method !== "HEAD") {
      res.setHeader("Allow", FILE_METHODS);
      return sendText(res, 405, "Method not allowed");
    }
    if (isHiddenFile(pathname) || internalPages.has(pathname)) return notFound(req, res, pathname);
    const page = options.liveReload ? pageFile(pathname) : undefined;
    if (page && sendHtml(req, res, page, 200)) return;
    if (!(await files(req, res, pathname))) notFound(req, res, pathname);
  }

  function pageFile(pathname: string): string | undefined {
    const file = join(outDir, pathname === "/" ? "index.html" : `${pathname.slice(1)}.html`);
    return file.startsWith(outDir) && statSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
  }

  /**
   * Any other path shows the not-found page of the locale whose prefix it starts with (the default locale's elsewhere).
   */
  function notFound(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    const file = join(outDir, specialPageFile(localeOfPath(pathname, options.site.locales).prefix, "404"));
    if (!sendHtml(req, res, file, 404)) sendText(res, 404, "Not found");
  }

  /**
   * HTML read whole rather than streamed: not-found pages (status 404) and, in watch mode, pages with the
   * reload client. Returns false, having sent nothing, if the file is not there (dist may be mid-rebuild).
   */
  function sendHtml(req: IncomingMessage, res: ServerResponse, file: string, status: number): boolean {
    let body = readIfPresent(file);
    if (!body) return false;
    let encoding: string | undefined;
    if (options.liveReload) {
      body = Buffer.from(
        body.toString("utf8").replace("</head>", `<script type="module" src="${RELOAD_PATH}.js"></script></head>`),
      );
    } else {
      for (const coding of acceptedCodings(req.headers["accept-encoding"])) {
        if (coding === "identity") break;
        const twin = readIfPresent(file + (coding === "br" ? ".br" : ".gz"));
        if (twin) {
          body = twin;
          encoding = coding;
          break;
        }
      }
    }
    // Strong: a hash of the very bytes sent.
    const etag = `"${createHash("sha1").update(body).digest("base64url").slice(0, 16)}"`;
    const modified = statSync(file, { throwIfNoEntry: false })?.mtime;
    res.setHeader("Vary", "Accept-Encoding");
    if (modified) res.setHeader("Last-Modified", modified.toUTCString());
    const precondition =
      status === 200 ? evaluatePreconditions(req.headers, { etag, modifiedMs: modified?.getTime() }) : undefined;
    if (precondition) {
      res.writeHead(precondition, precondition === 304 ? { ETag: etag, "Cache-Control": HTML_CACHE } : {});
      res.end();
      return true;
    }
    res.writeHead(status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": body.byteLength,
      "Cache-Control": HTML_CACHE,
      ETag: etag,
      ...(encoding ? { "Content-Encoding": encoding } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  function openReloadStream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive" });
    res.write(": connected\n\n");
    reloadClients.add(res);
    req.on("close", () => reloadClients.delete(res));
  }

  return {
    server,
    refresh() {
      for (const client of reloadClients) client.write("event: reload\ndata: {}\n\n");
    },
    close() {
      for (const client of reloadClients) client.end();
      reloadClients.clear();
      return new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if (["ENOENT", "ENOTDIR", "EISDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
}

/** `{"status":"ok"}` with 200, or `{"status":"shutting down"}` with 503 once the server is draining. */
function sendHealth(req: IncomingMessage, res: ServerResponse, ok: boolean): void {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    return sendText(res, 405, "Method not allowed");
  }
  const body = JSON.stringify({ status: ok ? "ok" : "shutting down" });
  res.writeHead(ok ? 200 : 503, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(text);
}
