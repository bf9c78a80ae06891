import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { createSiteServer, type SiteServer } from "../../src/server/server.ts";
import { ROOT, projectCopy, parseHtml } from "../helpers.ts";

/**
 * The static side of the server, as probing `sitegen serve` found it: dist/ changing under a running server,
 * Range and Accept-Encoding per RFC 9110, headers on every answer (Node's own included) and slow clients.
 * Each server runs over its own copy of dist, which the tests change.
 */
const work = mkdtempSync(join(tmpdir(), "sitegen-static-"));
const out = join(work, "dist");
const RANGE_FILE = "0123456789abcdef";
const BIG = Buffer.alloc(8 * 1024 * 1024, "sitegen ");
const TYPES: Record<string, string> = {
  "x.html": "text/html; charset=utf-8",
  "x.css": "text/css; charset=utf-8",
  "x.js": "text/javascript; charset=utf-8",
  "x.svg": "image/svg+xml",
  "x.xml": "application/xml; charset=utf-8",
  "x.txt": "text/plain; charset=utf-8",
  "x.json": "application/json; charset=utf-8",
  "x.ico": "image/x-icon",
  "x.png": "image/png",
  "x.jpg": "image/jpeg",
  "x.jpeg": "image/jpeg",
  "x.webp": "image/webp",
  "x.avif": "image/avif",
  "x.woff2": "font/woff2",
  "x.webmanifest": "application/manifest+json; charset=utf-8",
  "x.unknown": "application/octet-stream",
  noextension: "application/octet-stream",
};
let server: SiteServer;
let port: number;
let site: Awaited<ReturnType<typeof buildSite>>["site"];

beforeAll(async () => {
  const result = await buildSite({ root: projectCopy(), outDir: out, precompress: true });
  site = result.site;
  // Present from the start, so that only what a test is about differs from the server of before.
  writeFileSync(join(out, "range.txt"), RANGE_FILE);
  writeFileSync(join(out, "big.bin"), BIG);
  // Larger than loopback's socket buffers can hold, so the server is still reading it when it shrinks.
  writeFileSync(join(out, "shrinking.bin"), Buffer.alloc(32 * 1024 * 1024, "sitegen "));
  mkdirSync(join(out, "types"));
  for (const name of Object.keys(TYPES)) writeFileSync(join(out, "types", name), "x");
  // Short limits so the slow-client test takes a second, not the production half-minute.
  server = createSiteServer({ outDir: out, site, timeouts: { requestMs: 1500, headersMs: 1000, keepAliveMs: 3000 } });
  await new Promise<void>((r) => server.server.listen(0, "127.0.0.1", r));
  port = (server.server.address() as { port: number }).port;
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
  onData?: (chunk: Buffer) => void,
  to = port,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: to, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        onData?.(c);
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.on("error", reject);
    req.end();
  });
}

/**
 * Writes raw bytes on a new connection and collects whatever comes back until the server closes it, and
 * how many of the chunks had been written by then.
 */
function raw(chunks: string[], { gapMs = 0, maxMs = 5_000 } = {}): Promise<{ text: string; written: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, written: i });
    };
    const limit = setTimeout(done, maxMs);
    socket.on("data", (d) => (text += d.toString("latin1")));
    socket.on("close", done);
    socket.on("error", done);
    let i = 0;
    const next = () => {
      if (i >= chunks.length || socket.destroyed) return;
      socket.write(chunks[i++]);
      timer = setTimeout(next, gapMs);
    };
    socket.on("connect", next);
  });
}

function rawHeaders(text: string): { status: number; headers: Record<string, string> } {
  const [head] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines)
    headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
  return { status: Number(statusLine.split(" ")[1]), headers };
}

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>, label: string) {
  expect(headers["content-security-policy"], label).toMatch(/default-src 'self'/);
  expect(headers["x-content-type-options"], label).toBe("nosniff");
  expect(headers["x-frame-options"], label).toBe("DENY");
  expect(headers["referrer-policy"], label).toBe("strict-origin-when-cross-origin");
}

const file = (path: string) => readFileSync(join(out, path));

describe("a dist that changes under the running server", () => {
  const servesAfterFileMoved =
    "sitegen serve --no-watch answers 404 for a file moved out of dist and keeps serving (it used to die)";
  it(
    servesAfterFileMoved,
    async () => {
      const serveOut = join(work, "serve-dist");
      let stdout = "";
      let stderr = "";
      const child: ChildProcess = spawn(
        process.execPath,
        [
          join(ROOT, "bin", "sitegen.js"),
          "serve",
          "--no-watch",
          "--host",
          "127.0.0.1",
          "--port",
          "0",
          "--out",
          serveOut,
        ],
        {
          cwd: ROOT,
          env: { ...process.env, NO_COLOR: "1", SUBMISSIONS_DB: join(work, "serve.db") },
        },
      );
      child.stdout!.on("data", (d) => (stdout += d));
      child.stderr!.on("data", (d) => (stderr += d));
      let exited = false;
      child.on("exit", () => (exited = true));
      try {
        for (let waited = 0; !/Serving .* at http/.test(stdout); waited += 50) {
          if (exited || waited > 60_000)
            throw new Error(`sitegen serve did not start.\nstdout: ${stdout}\nstderr: ${stderr}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        const base = stdout.match(/at (http:\/\/127\.0\.0\.1:\d+)\//)![1];
        expect((await fetch(`${base}/robots.txt`)).status).toBe(200);

        renameSync(join(serveOut, "robots.txt"), join(work, "robots.txt.moved"));
        const gone = await fetch(`${base}/robots.txt`).catch((error: Error) => error);
        expect(gone instanceof Response ? gone.status : `${gone.message}\nstderr: ${stderr}`).toBe(404);
        expect(
          parseHtml(await (gone as Response).text())
            .querySelector("html")!
            .getAttribute("lang"),
        ).toBe("pt-BR");
        // Still alive and answering.
        expect((await fetch(`${base}/`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 100));
        expect(exited, stderr).toBe(false);
      } finally {
        child.kill("SIGTERM");
      }
    },
    90_000,
  );

  it("serves what a deploy adds and answers 404 for what it removed, hashed assets included", async () => {
    const assets = readdirSync(join(out, "assets"));
    const css = assets.find((name) => name.endsWith(".css"))!;
    expect((await get(`/assets/${css}`)).status).toBe(200);

    // A deploy: the old dist moves aside and a new one takes its place, with a new hashed stylesheet.
    renameSync(out, `${out}.old`);
    cpSync(`${out}.old`, out, { recursive: true });
    const renamed = css.replace(/\.css$/, ".NEW.css");
    for (const suffix of ["", ".br", ".gz"])
      renameSync(join(out, "assets", css + suffix), join(out, "assets", renamed + suffix));
    rmSync(`${out}.old`, { recursive: true });
    writeFileSync(join(out, "added.txt"), "new in this deploy");

    const old = await get(`/assets/${css}`);
    expect(old.status).toBe(404);
    expect(parseHtml(old.body.toString()).querySelector("html")!.getAttribute("lang")).toBe("pt-BR");
    const fresh = await get(`/assets/${renamed}`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(fresh.body.equals(file(`assets/${renamed}`))).toBe(true);
    const added = await get("/added.txt");
    expect(added.status).toBe(200);
    expect(added.body.toString()).toBe("new in this deploy");
    unlinkSync(join(out, "added.txt"));
    expect((await get("/added.txt")).status).toBe(404);
    expect((await get("/")).status).toBe(200);
  });

  it("sends a file whole when it is deleted while being sent, and keeps serving", async () => {
    // Once open, the file's bytes stay readable after its name is gone, so the answer completes.
    let removed = false;
    const reply = await get("/big.bin", {}, "GET", () => {
      if (!removed) {
        removed = true;
        unlinkSync(join(out, "big.bin"));
      }
    });
    expect(removed).toBe(true);
    expect(reply.status).toBe(200);
    expect(reply.body.equals(BIG)).toBe(true);
    expect((await get("/big.bin")).status).toBe(404);
  });

  const closesOnTruncatedFile =
    "closes the connection when a file is cut short in place while being sent, instead of leaving the client waiting";
  it(closesOnTruncatedFile, async () => {
    // A server whose own timeouts are far longer than the client's patience (get gives up after 10 s
    // without a byte): the connection can only end in time if the server closes it because of the file.
    const patient = createSiteServer({
      outDir: out,
      site,
      timeouts: { requestMs: 600_000, headersMs: 600_000, keepAliveMs: 600_000 },
    });
    await new Promise<void>((r) => patient.server.listen(0, "127.0.0.1", r));
    try {
      // As when a deploy copies over the files of a running dist: fewer bytes than the Content-Length promised.
      let truncated = false;
      const outcome = await get(
        "/shrinking.bin",
        {},
        "GET",
        () => {
          if (!truncated) {
            truncated = true;
            truncateSync(join(out, "shrinking.bin"), 1000);
          }
        },
        (patient.server.address() as { port: number }).port,
      ).then(
        (reply) => `answered ${reply.status} with ${reply.body.byteLength} bytes`,
        (error: Error) => error.message,
      );
      expect(truncated).toBe(true);
      expect(outcome).toMatch(/aborted|socket hang up|ECONNRESET/);
      expect((await get("/shrinking.bin")).body.byteLength).toBe(1000);
    } finally {
      await patient.close();
    }
  });
});

describe("Range requests (RFC 9110 §14)", () => {
  it("answers bytes=a-b, a- and the suffix -n with 206 and exactly those bytes", async () => {
    const cases: [string, string, string][] = [
      ["bytes=0-0", "0", "bytes 0-0/16"],
      ["bytes=2-5", "2345", "bytes 2-5/16"],
      ["bytes=10-", "abcdef", "bytes 10-15/16"],
      ["bytes=-1", "f", "bytes 15-15/16"],
      ["bytes=-3", "def", "bytes 13-15/16"],
      // A last position past the end stops at the end; a suffix longer than the file is the whole file.
      ["bytes=14-999", "ef", "bytes 14-15/16"],
      ["bytes=-100", RANGE_FILE, "bytes 0-15/16"],
      ["Bytes=3-4", "34", "bytes 3-4/16"],
    ];
    for (const [range, body, contentRange] of cases) {
      const r = await get("/range.txt", { range });
      expect(r.status, range).toBe(206);
      expect(r.body.toString(), range).toBe(body);
      expect(r.headers["content-range"], range).toBe(contentRange);
      expect(r.headers["content-length"], range).toBe(String(body.length));
      expect(r.headers["accept-ranges"], range).toBe("bytes");
      expect(r.headers["content-type"], range).toBe("text/plain; charset=utf-8");
      expectSecurityHeaders(r.headers, range);
    }
    expect((await get("/range.txt")).headers["accept-ranges"]).toBe("bytes");
  });

  it("sends the whole file with 200 for an invalid, multiple or non-byte range, and for HEAD", async () => {
    for (const range of [
      "bytes=5-1",
      "bytes=0-0,2-3",
      "items=0-1",
      "bytes=abc",
      "bytes=-",
      "bytes=1-2-3",
      "bytes=",
      "bytes=0x1-2",
    ]) {
      const r = await get("/range.txt", { range });
      expect(r.status, range).toBe(200);
      expect(r.body.toString(), range).toBe(RANGE_FILE);
      expect(r.headers["content-range"], range).toBeUndefined();
    }
    // Range is defined for GET only.
    const head = await get("/range.txt", { range: "bytes=0-0" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe("16");
  });

  it("answers 416 with Content-Range bytes */size to a range that starts past the end", async () => {
    for (const range of ["bytes=16-", "bytes=100-200", "bytes=-0"]) {
      const r = await get("/range.txt", { range });
      expect(r.status, range).toBe(416);
      expect(r.headers["content-range"], range).toBe("bytes */16");
      expectSecurityHeaders(r.headers, range);
    }
  });

  it("takes ranges from the uncompressed file even when the client accepts brotli", async () => {
    const html = file("about.html");
    const r = await get("/about", { range: "bytes=0-99", "accept-encoding": "br, gzip" });
    expect(r.status).toBe(206);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.headers["content-range"]).toBe(`bytes 0-99/${html.byteLength}`);
    expect(r.body.equals(html.subarray(0, 100))).toBe(true);
  });

  it("honours If-Range: the current ETag gets the range, any other validator the whole file", async () => {
    const etag = (await get("/range.txt")).headers.etag as string;
    expect(etag).toMatch(/^"/);
    const same = await get("/range.txt", { range: "bytes=0-1", "if-range": etag });
    expect(same.status).toBe(206);
    expect(same.body.toString()).toBe("01");
    for (const validator of ['"stale"', `W/${etag}`, "not a date"]) {
      const r = await get("/range.txt", { range: "bytes=0-1", "if-range": validator });
      expect(r.status, validator).toBe(200);
      expect(r.body.toString(), validator).toBe(RANGE_FILE);
    }
  });
});

describe("Accept-Encoding with q-values (RFC 9110 §12.5.3)", () => {
  const codingOf = async (acceptEncoding: string, path = "/about") =>
    (await get(path, { "accept-encoding": acceptEncoding })).headers["content-encoding"] ?? "identity";

  it("never sends a coding the client refused or did not name", async () => {
    const cases: [string, string][] = [
      ["br;q=0", "identity"],
      ["br;q=0, gzip", "gzip"],
      ["br; q=0.0, gzip;q=0.5", "gzip"],
      ["x-brotli-not", "identity"],
      ["gzip;q=0, br;q=0", "identity"],
      ["brotli", "identity"],
      // Nothing acceptable but identity refused: the header is disregarded rather than answering 406.
      ["identity;q=0", "identity"],
      ["*;q=0", "identity"],
      ["", "identity"],
    ];
    for (const [header, expected] of cases) expect(await codingOf(header), header).toBe(expected);
    expect(await codingOf("br;q=0", "/nao-existe")).toBe("identity");
    expect(await codingOf("x-brotli-not", "/nao-existe")).toBe("identity");
  });

  it("picks the most preferred acceptable coding, brotli on a tie", async () => {
    const cases: [string, string][] = [
      ["*", "br"],
      ["gzip, br", "br"],
      ["gzip;q=1.0, br;q=1", "br"],
      ["br;q=0.5, gzip", "gzip"],
      ["br;q=0, *", "gzip"],
      ["*;q=0.1, gzip;q=0.2", "gzip"],
      ["identity, gzip;q=0.5", "identity"],
      ["identity;q=0, gzip", "gzip"],
      ["BR", "br"],
      ["x-gzip", "gzip"],
    ];
    for (const [header, expected] of cases) expect(await codingOf(header), header).toBe(expected);
    expect(await codingOf("br;q=0.5, gzip", "/nao-existe")).toBe("gzip");
  });

  it("sends the twin's bytes with the original's type and Vary: Accept-Encoding", async () => {
    const r = await get("/about", { "accept-encoding": "br" });
    expect(r.body.equals(file("about.html.br"))).toBe(true);
    expect(r.headers["content-type"]).toMatch(/^text\/html; ?charset=utf-8$/);
    expect(r.headers.vary).toBe("Accept-Encoding");
    expect((await get("/robots.txt")).headers.vary).toBe("Accept-Encoding");
  });
});

describe("headers on every answer", () => {
  it("304 answers carry Cache-Control, ETag, Vary and the security headers", async () => {
    // A script: the deploy test above renames the stylesheet.
    const script = `/assets/${readdirSync(join(out, "assets")).find((name) => name.endsWith(".js"))}`;
    for (const [path, cache] of [
      [script, "public, max-age=31536000, immutable"],
      ["/en/about", "no-cache"],
      ["/robots.txt", "public, max-age=3600"],
    ]) {
      const first = await get(path, { "accept-encoding": "br" });
      expect(first.headers["cache-control"], path).toBe(cache);
      const again = await get(path, { "accept-encoding": "br", "if-none-match": first.headers.etag as string });
      expect(again.status, path).toBe(304);
      expect(again.body.byteLength).toBe(0);
      expect(again.headers["cache-control"], path).toBe(cache);
      expect(again.headers.etag, path).toBe(first.headers.etag);
      expect(again.headers.vary, path).toBe("Accept-Encoding");
      expectSecurityHeaders(again.headers, path);
      // A list that holds the tag, and the weak form of it, match as well (If-None-Match compares weakly).
      expect(
        (await get(path, { "accept-encoding": "br", "if-none-match": `"x", W/${first.headers.etag}` })).status,
        path,
      ).toBe(304);
    }
  });

  it("Node's own 400 and 431 answers carry the security headers", async () => {
    const bad = await raw(["GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNot a header\r\n\r\n"]);
    const badReply = rawHeaders(bad.text);
    expect(badReply.status).toBe(400);
    expectSecurityHeaders(badReply.headers, "400");
    expect(badReply.headers["cache-control"]).toBe("no-store");

    const huge = await raw([`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`]);
    const hugeReply = rawHeaders(huge.text);
    expect(hugeReply.status).toBe(431);
    expectSecurityHeaders(hugeReply.headers, "431");
    expect((await get("/")).status).toBe(200);
  });

  it("labels every kind of file in dist with its Content-Type", async () => {
    for (const [name, type] of Object.entries(TYPES)) {
      // x.html answers at its extensionless address.
      const r = await get(`/types/${name.replace(/\.html$/, "")}`);
      expect(r.status, name).toBe(200);
      expect(r.headers["content-type"], name).toBe(type);
      expect(r.headers["x-content-type-options"], name).toBe("nosniff");
    }
  });
});

describe("slow clients", () => {
  it("cuts off a client that trickles its headers, with 408 and the security headers", async () => {
    // A hundred header lines, one each 100 ms: ten seconds of headers against the server's one.
    const lines = [
      "GET / HTTP/1.1\r\n",
      "Host: 127.0.0.1\r\n",
      ...Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: ${i}\r\n`),
    ];
    const slow = await raw(lines, { gapMs: 100, maxMs: 20_000 });
    const reply = rawHeaders(slow.text);
    expect(reply.status).toBe(408);
    expectSecurityHeaders(reply.headers, "408");
    expect(reply.headers.connection).toBe("close");
    // Closed long before the client would have finished its headers.
    expect(slow.written).toBeLessThan(lines.length / 2);
    expect((await get("/")).status).toBe(200);
  });

  const defaultTimeouts =
    "by default allows half a minute per request, ten seconds for headers and five idle between requests";
  it(defaultTimeouts, async () => {
    const defaults = createSiteServer({ outDir: out, site });
    try {
      expect(defaults.server.requestTimeout).toBe(30_000);
      expect(defaults.server.headersTimeout).toBe(10_000);
      expect(defaults.server.keepAliveTimeout).toBe(5_000);
    } finally {
      await defaults.close();
    }
  });
});
