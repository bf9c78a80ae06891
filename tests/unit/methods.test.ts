/**
 * Every method on every kind of path gets a deliberate answer from the Node server, as `sitegen serve`
 * (watch mode, live reload) and `sitegen start` (health path, HSTS) configure it: 405 with Allow where
 * the path answers other methods, 501 for what no path implements, and nothing written to the error log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { createSiteServer, type ServerOptions, type SiteServer } from "../../src/generator/server.ts";
import { createApiHandlers } from "../../src/api/index.ts";
import { ROOT } from "../helpers.ts";

const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "BREW"];

let dir: string;
let api: ReturnType<typeof createApiHandlers>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sitegen-methods-"));
  const dist = join(dir, "dist");
  mkdirSync(join(dist, "assets"), { recursive: true });
  const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body></body></html>`;
  writeFileSync(join(dist, "index.html"), page("Home"));
  writeFileSync(join(dist, "about.html"), page("About"));
  writeFileSync(join(dist, "404.html"), page("Not found"));
  writeFileSync(join(dist, "assets", "site.css"), "body{margin:0}");
  const site: SiteConfig = {
    ...SITE,
    submissions: { ...(SITE.submissions as object), database: join(dir, "submissions.db"), rateLimitPerMinute: 1000 },
  };
  api = createApiHandlers({ site, root: ROOT, messages: MESSAGES });
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

interface Answer {
  status: number;
  allow?: string;
}

/** One request written as is on a fresh connection (CONNECT and unknown methods included), its status and Allow. */
function send(port: number, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(text);
      if (!status) return reject(new Error(`${method} ${path}: no status line in ${JSON.stringify(text)}`));
      const allow = /\r\nallow: ([^\r]*)\r\n/i.exec(text.slice(0, text.indexOf("\r\n\r\n") + 2));
      resolve({ status: Number(status[1]), allow: allow?.[1] });
    });
    const body = method === "POST" ? '{"email":"methods@example.com","locale":"en"}' : "";
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

const FILE_ALLOW = "GET, HEAD, OPTIONS";

/** What each kind of path must answer, by method; any method not listed answers 405 with `allow`. */
const EXPECTED: Record<string, { answers: Record<string, number>; allow: string }> = {
  "/": { answers: { GET: 200, HEAD: 200, OPTIONS: 204 }, allow: FILE_ALLOW },
  "/about": { answers: { GET: 200, HEAD: 200, OPTIONS: 204 }, allow: FILE_ALLOW },
  "/assets/site.css": { answers: { GET: 200, HEAD: 200, OPTIONS: 204 }, allow: FILE_ALLOW },
  "/missing": { answers: { GET: 404, HEAD: 404, OPTIONS: 204 }, allow: FILE_ALLOW },
  "/api/newsletter": { answers: { POST: 200 }, allow: "POST" },
  "/api/contact": { answers: { POST: 422 }, allow: "POST" },
  "/api/detect-language": { answers: { GET: 200, HEAD: 200 }, allow: "GET, HEAD" },
};

const SERVERS: Record<string, Partial<ServerOptions>> = {
  "sitegen serve": { liveReload: true },
  "sitegen start": {
    headers: { "Strict-Transport-Security": "max-age=31536000" },
    health: { path: "/healthz", ok: () => true },
  },
};

describe.each(Object.entries(SERVERS))("every method on every path under %s", (_name, extra) => {
  let server: SiteServer;
  let port: number;

  beforeAll(async () => {
    server = createSiteServer({ outDir: join(dir, "dist"), site: SITE, api: api.handlers, ...extra });
    await new Promise<void>((r) => server.server.listen(0, "127.0.0.1", r));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const paths = { ...EXPECTED };
  if (extra.health) paths["/healthz"] = { answers: { GET: 200, HEAD: 200 }, allow: "GET, HEAD" };
  if (extra.liveReload)
    paths["/__sitegen/reload.js"] = { answers: { GET: 200, HEAD: 200, OPTIONS: 204 }, allow: FILE_ALLOW };

  it.each(Object.entries(paths))("%s", async (path, { answers, allow }) => {
    const errors = vi.spyOn(console, "error");
    for (const method of METHODS) {
      const answer = await send(port, method, path);
      if (["TRACE", "CONNECT", "BREW"].includes(method)) {
        expect(answer.status, `${method} ${path}`).toBe(501);
      } else if (answers[method] !== undefined) {
        expect(answer.status, `${method} ${path}`).toBe(answers[method]);
      } else {
        expect(answer, `${method} ${path}`).toEqual({ status: 405, allow });
      }
    }
    expect(errors).not.toHaveBeenCalled();
  });
});
