/**
 * The endpoints as a client on the network meets them through `sitegen serve`: bodies over the limit
 * answered in the visitor's language even while the client is still sending, the connection never held
 * open for long, and a malformed Host header refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { createSiteServer, type SiteServer } from "../../src/server/server.ts";
import { createApiHandlers, MAX_BODY_BYTES } from "../../src/api/index.ts";
import { ROOT } from "../helpers.ts";

const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
const t = (locale: "pt" | "en", key: string) => MESSAGES[locale].get(key)!;

let server: SiteServer;
let api: ReturnType<typeof createApiHandlers>;
let port: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sitegen-api-server-"));
  const site: SiteConfig = {
    ...SITE,
    submissions: { ...(SITE.submissions as object), database: join(dir, "submissions.db"), rateLimitPerMinute: 1000 },
  };
  api = createApiHandlers({ site, root: ROOT, messages: MESSAGES });
  // No pages needed: the endpoints are mounted before the static files.
  mkdirSync(join(dir, "dist"));
  server = createSiteServer({ outDir: join(dir, "dist"), site, api: api.handlers });
  await new Promise<void>((r) => server.server.listen(0, "127.0.0.1", r));
  port = (server.server.address() as { port: number }).port;
});
afterAll(async () => {
  await server.close();
  api.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  status?: number;
  headers?: IncomingHttpHeaders;
  body: string;
  /** Body bytes the client managed to write before the exchange ended. */
  sent: number;
  /** The client's socket error, if any (a reset after the answer is allowed for a client that never stops). */
  error?: string;
}

/** Posts `total` bytes of `chunk` repeated, written as fast as the socket takes them, and collects the answer. */
function stream(path: string, headers: Record<string, string>, chunk: Buffer, total: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: "", sent: 0 };
    const req = request({ host: "127.0.0.1", port, path, method: "POST", headers });
    let stopped = false;
    const finish = () => {
      if (stopped) return;
      stopped = true;
      resolve(outcome);
    };
    req.on("response", (res) => {
      outcome.status = res.statusCode;
      outcome.headers = res.headers;
      res.setEncoding("utf8");
      res.on("data", (d: string) => (outcome.body += d));
      res.on("error", () => {});
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      outcome.error = error.code ?? error.message;
      finish();
    });
    req.on("close", finish);
    const write = () => {
      while (!stopped && outcome.sent < total) {
        outcome.sent += chunk.byteLength;
        const more = req.write(chunk);
        if (!more) return void req.once("drain", write);
      }
      if (!stopped && outcome.sent >= total) req.end();
    };
    write();
  });
}

interface RawOutcome {
  status?: number;
  body: string;
  sent: number;
  error?: string;
  /** Body bytes the client had sent when the answer's first bytes came. */
  sentAtAnswer?: number;
}

/**
 * A client on a bare socket that the server cannot stop from sending: it writes `total` bytes of `chunk`
 * (chunked, or raw after a Content-Length the caller set), as fast as the socket takes them or one chunk
 * per `everyMs`, and either reads as it goes or only once it has sent everything. It never closes first.
 * With `answerFirst`, it sends one chunk and then nothing more until the server has begun to answer.
 */
function rawPost(o: {
  path: string;
  headers: Record<string, string>;
  chunk: Buffer;
  total: number;
  chunked?: boolean;
  everyMs?: number;
  readAfterSending?: boolean;
  answerFirst?: boolean;
}): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const outcome: RawOutcome = { body: "", sent: 0 };
    let answer = "";
    let closed = false;
    let onAnswer = () => {};
    const socket = connect(port, "127.0.0.1");
    socket.setEncoding("utf8");
    const read = (d: string) => {
      if (outcome.sentAtAnswer === undefined) {
        outcome.sentAtAnswer = outcome.sent;
        onAnswer();
      }
      answer += d;
    };
    if (!o.readAfterSending) socket.on("data", read);
    socket.on("error", (error: NodeJS.ErrnoException) => (outcome.error = error.code ?? error.message));
    socket.on("close", () => {
      closed = true;
      outcome.status = Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1]) || undefined;
      outcome.body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
      resolve(outcome);
    });
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      ...o.headers,
      ...(o.chunked ? { "transfer-encoding": "chunked" } : {}),
    });
    socket.write(`POST ${o.path} HTTP/1.1\r\n${head.map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`);
    const frame = o.chunked
      ? Buffer.concat([Buffer.from(`${o.chunk.byteLength.toString(16)}\r\n`), o.chunk, Buffer.from("\r\n")])
      : o.chunk;
    const write = () => {
      while (!closed && outcome.sent < o.total) {
        if (o.answerFirst && outcome.sent > 0 && outcome.sentAtAnswer === undefined) return void (onAnswer = write);
        outcome.sent += o.chunk.byteLength;
        const more = socket.write(frame);
        if (o.everyMs) return void setTimeout(write, o.everyMs);
        if (!more) return void socket.once("drain", write);
      }
      if (closed) return;
      if (o.chunked) socket.write("0\r\n\r\n");
      if (o.readAfterSending) socket.on("data", read);
    };
    write();
  });
}

/** A raw HTTP/1.1 exchange, so headers go on the wire exactly as written. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (answer += d));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const JSON_HEADERS = {
  "content-type": "application/json",
  accept: "application/json",
  "accept-language": "en-GB,en;q=0.9",
};

describe("bodies over the limit, through sitegen serve", () => {
  const declaredTooLarge =
    "answers a declared too-large JSON post with 413 JSON in the visitor's language, after reading what was sent";
  it(declaredTooLarge, async () => {
    const size = MAX_BODY_BYTES + 1;
    const r = await stream(
      "/api/newsletter",
      { ...JSON_HEADERS, "content-length": String(size) },
      Buffer.alloc(size, "x"),
      size,
    );
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(413);
    expect(r.headers?.["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(r.body)).toEqual({ ok: false, message: t("en", "api.tooLarge") });
    expect(r.headers?.["content-security-policy"]).toBeTruthy();
  });

  it("sends a too-large form post (no JavaScript) to the error page of the page's language with 303", async () => {
    const size = 200_000;
    const r = await stream(
      "/api/contact",
      {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html,application/xhtml+xml,*/*;q=0.8",
        referer: `http://127.0.0.1:${port}/en/contact`,
        "content-length": String(size),
      },
      Buffer.alloc(10_000, "a"),
      size,
    );
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(303);
    expect(r.headers?.location).toBe("/en/forms/error?reason=too-large");
  });

  const streamedTooLarge =
    "answers a client streaming a too-large body without Content-Length, which reads the answer only once it has " +
    "sent everything";
  it(streamedTooLarge, async () => {
    const r = await rawPost({
      path: "/api/contact",
      headers: { ...JSON_HEADERS, "accept-language": "pt-BR" },
      chunk: Buffer.alloc(4096, "a"),
      total: 300_000,
      chunked: true,
      readAfterSending: true,
    });
    expect(r.error).toBeUndefined();
    expect(r.sent).toBeGreaterThanOrEqual(300_000);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ ok: false, message: t("pt", "api.tooLarge") });
  });

  it("answers a client that never stops sending, then cuts it off", async () => {
    const total = 1024 * 1024 * 1024;
    const r = await rawPost({
      path: "/api/newsletter",
      headers: JSON_HEADERS,
      chunk: Buffer.alloc(64 * 1024, "a"),
      total,
      chunked: true,
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ ok: false, message: t("en", "api.tooLarge") });
    expect(r.sent).toBeLessThan(total);
  }, 30_000);

  it("answers a client that trickles a too-large body at once, and does not hold its connection open", async () => {
    const size = 10_000_000;
    const r = await rawPost({
      path: "/api/newsletter",
      headers: { ...JSON_HEADERS, "content-length": String(size) },
      chunk: Buffer.alloc(16, "a"),
      total: size,
      everyMs: 50,
      answerFirst: true,
    });
    expect(r.status).toBe(413);
    // At once: on the declared length, while the client waits after its first chunk (a server that read on
    // would never answer it).
    expect(r.sentAtAnswer).toBe(16);
    expect(JSON.parse(r.body).message).toBe(t("en", "api.tooLarge"));
    // Not held: the server closes the connection long before the client would have sent the whole body.
    expect(r.sent).toBeLessThan(size);
  }, 30_000);

  const admitsLongestForm =
    "admits the longest valid form sent without JavaScript, a 5,000-character message in Chinese, within the " +
    "server's own cap";
  it(admitsLongestForm, async () => {
    const body = new URLSearchParams({
      firstName: "王".repeat(100),
      lastName: "李".repeat(100),
      email: `${"邮".repeat(64)}@${"域".repeat(63)}.${"域".repeat(63)}.${"域".repeat(58)}.中国`,
      company: "公".repeat(200),
      message: "中".repeat(5000),
      locale: "pt",
    }).toString();
    const r = await stream(
      "/api/contact",
      {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
        "content-length": String(body.length),
      },
      Buffer.from(body),
      body.length,
    );
    expect(r.status).toBe(303);
    expect(r.headers?.location).toBe("/forms/contact-success");
  });

  it("answers 413 in the visitor's language when the server's own cap is below the handler's limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-api-cap-"));
    mkdirSync(join(dir, "dist"));
    const small = createSiteServer({ outDir: join(dir, "dist"), site: SITE, api: api.handlers, maxBodyBytes: 1000 });
    await new Promise<void>((r) => small.server.listen(0, "127.0.0.1", r));
    const other = (small.server.address() as { port: number }).port;
    try {
      const body = JSON.stringify({ email: "cap@x.com", pad: "x".repeat(2000) });
      const answer = await new Promise<{ status?: number; text: string }>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port: other,
            path: "/api/newsletter",
            method: "POST",
            headers: { ...JSON_HEADERS, "transfer-encoding": "chunked" },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d: string) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode, text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toEqual({ ok: false, message: t("en", "api.tooLarge") });
    } finally {
      await small.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the connection for the next request after an ordinary submission", async () => {
    const body = JSON.stringify({ email: "keep@x.com" });
    const r = await stream(
      "/api/newsletter",
      { ...JSON_HEADERS, "content-length": String(body.length) },
      Buffer.from(body),
      body.length,
    );
    expect(r.status).toBe(200);
    expect(r.headers?.connection).not.toBe("close");
  });
});

describe("a malformed Host header", () => {
  it("is refused with 400 before the endpoint sees the request", async () => {
    const body = JSON.stringify({ email: "host@x.com", locale: "en" });
    const post = await raw(
      "POST /api/newsletter HTTP/1.1\r\nHost: a b\r\nContent-Type: application/json\r\nAccept: application/json\r\n" +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(post).toMatch(/^HTTP\/1\.1 400 /);
    expect(post).toContain("Bad request: The Host header is not a host.");
  });
});
