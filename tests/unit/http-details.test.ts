/**
 * The HTTP details of the Node server (`sitegen serve`, `sitegen start`): conditional requests on static
 * files (RFC 9110 §13), `Expect: 100-continue` refused before the body, the Host header checked on every
 * path (RFC 9112 §3.2), and Cross-Origin-Resource-Policy on every answer and in `_headers`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statSync } from "node:fs";
import { join } from "node:path";
import { hostFiles } from "../../src/generator/security-headers.ts";
import { makeTestSite, rawRequest, SERVER_KINDS, SITE, type TestSite } from "../site-server.ts";

let site: TestSite;
beforeAll(() => {
  site = makeTestSite();
});
afterAll(() => site.close());

const get = (port: number, path: string, headers = "", method = "GET") =>
  rawRequest(port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`);

describe.each(Object.entries(SERVER_KINDS))("under %s", (_name, extra) => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await site.serve(extra));
  });

  describe("conditional requests on static files", () => {
    it("answers If-Match with 412 unless it names the current entity tag or is *", async () => {
      for (const path of ["/about", "/assets/site.css"]) {
        const { etag } = (await get(port, path)).headers;
        expect(etag, path).toMatch(/^"/);
        expect((await get(port, path, 'If-Match: "nope"\r\n')).status, path).toBe(412);
        expect((await get(port, path, 'If-Match: "nope"\r\n', "HEAD")).status, path).toBe(412);
        expect((await get(port, path, `If-Match: "nope", ${etag}\r\n`)).status, path).toBe(200);
        expect((await get(port, path, "If-Match: *\r\n")).status, path).toBe(200);
        expect((await get(port, path, `If-Match: W/${etag}\r\n`)).status, `${path}: weak never matches`).toBe(412);
      }
    });

    const unmodifiedSince =
      "answers If-Unmodified-Since with 412 when the file changed after it, ignored beside If-Match";
    it(unmodifiedSince, async () => {
      const modified = statSync(join(site.dist, "about.html")).mtime;
      const before = new Date(modified.getTime() - 86_400_000).toUTCString();
      const after = new Date(modified.getTime() + 86_400_000).toUTCString();
      expect((await get(port, "/about", `If-Unmodified-Since: ${before}\r\n`)).status).toBe(412);
      expect((await get(port, "/about", `If-Unmodified-Since: ${after}\r\n`)).status).toBe(200);
      expect((await get(port, "/about", "If-Unmodified-Since: not a date\r\n")).status).toBe(200);
      expect((await get(port, "/about", `If-Match: *\r\nIf-Unmodified-Since: ${before}\r\n`)).status).toBe(200);
    });

    it("still answers 304 to If-None-Match and ignores preconditions on a not-found answer", async () => {
      const { etag } = (await get(port, "/assets/site.css")).headers;
      expect((await get(port, "/assets/site.css", `If-None-Match: ${etag}\r\n`)).status).toBe(304);
      expect((await get(port, "/missing", 'If-Match: "nope"\r\n')).status).toBe(404);
    });
  });

  describe("Expect: 100-continue", () => {
    it("answers 413 at once, without 100 Continue, when Content-Length is over the endpoint's limit", async () => {
      const answer = await rawRequest(
        port,
        "POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
          "Accept: application/json\r\nContent-Length: 100000000\r\nExpect: 100-continue\r\n\r\n",
      );
      expect(answer.text).not.toContain("100 Continue");
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe("close");
    });

    it("sends 100 Continue when the endpoint reads the body, then its answer", async () => {
      const body = JSON.stringify({ email: "continue@example.com", locale: "en" });
      const answer = await new Promise<string>((resolve, reject) => {
        import("node:net").then(({ connect }) => {
          const socket = connect(port, "127.0.0.1");
          let text = "";
          socket.setEncoding("utf8");
          socket.on("data", (d: string) => {
            // The body goes only once the server asked for it.
            if (!text.includes("100 Continue") && d.includes("100 Continue")) socket.write(body);
            text += d;
          });
          socket.on("error", reject);
          socket.on("close", () => resolve(text));
          socket.write(
            "POST /api/newsletter HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
              `Accept: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n` +
              "Connection: close\r\n\r\n",
          );
        }, reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    });
  });

  describe("the Host header", () => {
    const paths = ["/", "/assets/site.css", "/missing", "/api/contact", "/api/detect-language"];
    if (extra.health) paths.push("/healthz");

    it("answers 400 on every path to a request without Host, with two, or with one that is no host", async () => {
      const bad = ["Host: a b\r\n", "Host: evil.example/x\r\n", "Host: [::1\r\n", "Host: a:b:c\r\n", "Host: %00\r\n"];
      const cases = ["", "Host: \r\n", "Host: 127.0.0.1\r\nHost: evil.example\r\n", ...bad];
      for (const path of paths) {
        for (const host of cases) {
          const answer = await rawRequest(port, `GET ${path} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
          expect(answer.status, `${path} with ${JSON.stringify(host)}`).toBe(400);
          expect(answer.headers["cross-origin-resource-policy"]).toBe("same-origin");
        }
      }
    });

    it("answers a host name, an address with a port, and HTTP/1.0 without Host", async () => {
      for (const host of ["example.com", "127.0.0.1:4321", "[::1]:4321", "my_service:8080"]) {
        const answer = await rawRequest(port, `GET /about HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(answer.status, host).toBe(200);
      }
      expect((await rawRequest(port, "GET /about HTTP/1.0\r\n\r\n")).status).toBe(200);
    });
  });

  it("sends Cross-Origin-Resource-Policy: same-origin with every kind of answer", async () => {
    const answers = [
      await get(port, "/"),
      await get(port, "/assets/site.css"),
      await get(port, "/missing"),
      await get(port, "/about", "", "DELETE"),
      await get(port, "/about", "", "TRACE"),
      await get(port, "/about", 'If-Match: "nope"\r\n'),
      await get(port, "/api/detect-language"),
      await get(port, "/api/contact"),
      await rawRequest(port, "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"),
      await rawRequest(port, "GET /\x01 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 404, 405, 501, 412, 200, 405, 501, 400]);
    for (const answer of answers) expect(answer.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });
});

describe("_headers for static hosts", () => {
  it("sends Cross-Origin-Resource-Policy: same-origin on every path", () => {
    expect(hostFiles(SITE).headers).toMatch(/^\/\*\n(?: {2}.+\n)*? {2}Cross-Origin-Resource-Policy: same-origin\n/);
  });
});
