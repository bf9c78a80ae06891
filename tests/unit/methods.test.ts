/**
 * Every method on every kind of path gets a deliberate answer from the Node server, as `sitegen serve`
 * (watch mode, live reload) and `sitegen start` (health path, HSTS) configure it: 405 with Allow where
 * the path answers other methods, 501 for what no path implements, and nothing written to the error log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { makeTestSite, rawRequest, SERVER_KINDS, type TestSite } from "../site-server.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "BREW"];
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

let site: TestSite;
beforeAll(() => {
  site = makeTestSite();
});
afterAll(() => site.close());
afterEach(() => vi.restoreAllMocks());

function send(port: number, method: string, path: string) {
  const body = method === "POST" ? '{"email":"methods@example.com","locale":"en"}' : "";
  return rawRequest(
    port,
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
}

describe.each(Object.entries(SERVER_KINDS))("every method on every path under %s", (_name, extra) => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await site.serve(extra));
  });

  const paths = { ...EXPECTED };
  if (extra.health) paths["/healthz"] = { answers: { GET: 200, HEAD: 200 }, allow: "GET, HEAD" };
  if (extra.liveReload)
    paths["/__sitegen/reload.js"] = { answers: { GET: 200, HEAD: 200, OPTIONS: 204 }, allow: FILE_ALLOW };

  it.each(Object.entries(paths))("%s", async (path, { answers, allow }) => {
    const errors = vi.spyOn(console, "error");
    for (const method of METHODS) {
      const answer = await send(port, method, path);
      const seen = { status: answer.status, allow: answer.headers.allow };
      if (["TRACE", "CONNECT", "BREW"].includes(method)) {
        expect(seen.status, `${method} ${path}`).toBe(501);
      } else if (answers[method] === 204) {
        expect(seen, `${method} ${path}`).toEqual({ status: 204, allow });
      } else if (answers[method] !== undefined) {
        expect(seen.status, `${method} ${path}`).toBe(answers[method]);
      } else {
        expect(seen, `${method} ${path}`).toEqual({ status: 405, allow });
      }
    }
    expect(errors).not.toHaveBeenCalled();
  });
});
