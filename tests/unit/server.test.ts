import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { createSiteServer, type SiteServer } from "../../src/server/server.ts";
import { projectCopy, parseHtml } from "../helpers.ts";

let server: SiteServer;
let port: number;
let stylesheet: string;

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), "sitegen-server-")), "dist");
  // Twins on, as `sitegen serve` builds them (fast).
  const result = await buildSite({ root: projectCopy(), outDir: out, precompress: "fast" });
  stylesheet = "/" + result.assets.find((a) => a.file.endsWith(".css"))!.file;
  server = createSiteServer({ outDir: out, site: result.site });
  await new Promise<void>((r) => server.server.listen(0, "127.0.0.1", r));
  port = (server.server.address() as { port: number }).port;
});
afterAll(() => server.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the path goes on the wire exactly as written (fetch would normalise it). */
function get(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: init.method ?? "GET", headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("sitegen serve", () => {
  it("answers canonical extensionless URLs with 200 HTML, no-cache and the security headers", async () => {
    for (const path of ["/", "/en", "/about", "/en/services/advisory", "/industries/financial-services"]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.headers["content-type"]).toMatch(/^text\/html/);
      expect(r.headers["cache-control"]).toBe("no-cache");
      expect(r.headers["content-security-policy"]).toMatch(/script-src 'self' 'inline-speculation-rules'(;|$)/);
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["referrer-policy"]).toBeTruthy();
    }
  });

  it("answers unknown paths with 404 and the not-found page of the path's language", async () => {
    const pt = await get("/nao-existe");
    expect(pt.status).toBe(404);
    expect(parseHtml(pt.body).querySelector("html")!.getAttribute("lang")).toBe("pt-BR");
    const en = await get("/en/does-not-exist/deeper");
    expect(en.status).toBe(404);
    expect(parseHtml(en.body).querySelector("html")!.getAttribute("lang")).toBe("en");
    expect((await get("/industries/manufacturing")).status).toBe(404);
    expect((await get("/_headers")).status).toBe(404);
    // What the build writes for sitegen start is in dist, and never served.
    for (const path of ["/_sitegen/site.json", "/_sitegen/api.cjs", "/_sitegen"]) {
      const hidden = await get(path);
      expect(hidden.status, path).toBe(404);
      expect(hidden.body, path).not.toContain("createApiHandlers");
      expect(hidden.body, path).not.toContain('"messages"');
    }
    expect((await get("/404")).status).toBe(404);
  });

  it("serves hashed assets with a year of immutable cache, ETag and 304", async () => {
    const first = await get(stylesheet);
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toMatch(/text\/css/);
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const second = await get(stylesheet, { headers: { "if-none-match": etag } });
    expect(second.status).toBe(304);
    expect(second.body).toBe("");
  });

  it("compresses with brotli or gzip when asked", async () => {
    expect((await get("/about", { headers: { "accept-encoding": "br" } })).headers["content-encoding"]).toBe("br");
    expect((await get("/about", { headers: { "accept-encoding": "gzip" } })).headers["content-encoding"]).toBe("gzip");
    expect((await get("/about")).headers["content-encoding"]).toBeUndefined();
    expect((await get("/nao-existe", { headers: { "accept-encoding": "br" } })).headers["content-encoding"]).toBe("br");
  });

  it("never serves a file outside dist, answers 400 to malformed URLs, and keeps running", async () => {
    for (const path of [
      "/../package.json",
      "/%2e%2e/package.json",
      "/..%2fpackage.json",
      "/..\\package.json",
      "/%00",
      "/%E0%A4%A",
      "/assets/%2e%2e/%2e%2e/package.json",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.body).not.toContain('"name": "sitegen"');
    }
    expect((await get("/")).status).toBe(200);
  });

  it("answers 405 to unsupported methods and 301 to old URL forms", async () => {
    const r = await get("/about", { method: "DELETE" });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toContain("GET");
    expect((await get("/about", { method: "POST" })).status).toBe(405);
    const head = await get("/about", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    const moved = await get("/en/about/");
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe("/en/about");
  });
});
