/**
 * A Node server as `sitegen serve` and `sitegen start` make it, over a small hand-made dist (two pages, a
 * stylesheet, the not-found page) and the site's real endpoints on a SQLite file, for tests of HTTP itself.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSiteConfig, type SiteConfig } from "../src/generator/config.ts";
import { loadLocaleContent } from "../src/generator/content.ts";
import { createSiteServer, type ServerOptions, type SiteServer } from "../src/server/server.ts";
import { createApiHandlers } from "../src/api/index.ts";
import { ROOT } from "./helpers.ts";

export const SITE = loadSiteConfig(ROOT);

/** The options `sitegen serve` (watch mode) and `sitegen start` add to the server. */
export const SERVER_KINDS: Record<string, Partial<ServerOptions>> = {
  "sitegen serve": { liveReload: true },
  "sitegen start": {
    headers: { "Strict-Transport-Security": "max-age=31536000" },
    health: { path: "/healthz", ok: () => true },
  },
};

export interface TestSite {
  dir: string;
  dist: string;
  api: ReturnType<typeof createApiHandlers>;
  /** A server over the dist and the endpoints, listening on a free loopback port. */
  serve(extra: Partial<ServerOptions>): Promise<{ server: SiteServer; port: number }>;
  close(): Promise<void>;
}

export function makeTestSite(): TestSite {
  const dir = mkdtempSync(join(tmpdir(), "sitegen-http-"));
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
  const messages = {
    pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
    en: loadLocaleContent(ROOT, "en", SITE).dictionary,
  };
  const api = createApiHandlers({ site, root: ROOT, messages });
  const servers: SiteServer[] = [];
  return {
    dir,
    dist,
    api,
    async serve(extra) {
      const server = createSiteServer({ outDir: dist, site: SITE, api: api.handlers, ...extra });
      servers.push(server);
      await new Promise<void>((r) => server.server.listen(0, "127.0.0.1", r));
      return { server, port: (server.server.address() as { port: number }).port };
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RawAnswer {
  /** Every byte the server sent, interim answers (100 Continue) included. */
  text: string;
  /** The final answer's status and headers (names lower-cased; the last of each name). */
  status: number;
  headers: Record<string, string>;
}

/**
 * Writes `request` as is on a fresh connection and collects what comes back until the server closes it
 * (or `endAfterMs` passes, when the test's request leaves the connection open on purpose).
 */
export function rawRequest(port: number, request: string, endAfterMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => socket.destroy(), endAfterMs);
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const finals = text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => !/^HTTP\/1\.1 1\d\d /.test(part));
      const head = finals[0]?.slice(0, finals[0].indexOf("\r\n\r\n")) ?? "";
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
      if (!status) return reject(new Error(`no final status line in ${JSON.stringify(text)}`));
      const headers: Record<string, string> = {};
      for (const line of head.split("\r\n").slice(1)) {
        const at = line.indexOf(":");
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ text, status: Number(status[1]), headers });
    });
    socket.write(request);
  });
}
