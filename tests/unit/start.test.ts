/**
 * `sitegen start`, the production server, run as a child process the way a VM or a container runs it: from
 * a folder holding no content/ or src/, on a built dist only, configured by the environment.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createServer, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../src/api/sqlite-driver.ts";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { drainServer } from "../../src/server/drain.ts";
import { createSiteServer } from "../../src/server/server.ts";
import { hstsWanted, startPort } from "../../src/server/start.ts";
import { projectCopy, ROOT } from "../helpers.ts";
import { freePort, startProcess, type StartedServer } from "../start-process.ts";
import { startSmtpSink, startWebhook, until } from "../notify-sinks.ts";
import { SqliteSubmissionStore } from "../../src/api/sqlite-store.ts";

let dist: string;
const started: StartedServer[] = [];

beforeAll(async () => {
  dist = join(mkdtempSync(join(tmpdir(), "sitegen-start-")), "dist");
  await buildSite({ root: projectCopy(), outDir: dist });
});
afterAll(() => {
  for (const server of started) server.stop();
});

/** A fresh folder to run in: nothing of the project, as on a server that received only dist/. */
const emptyFolder = () => mkdtempSync(join(tmpdir(), "sitegen-start-cwd-"));

async function start(
  args: string[],
  env: Record<string, string | undefined>,
  cwd = emptyFolder(),
): Promise<StartedServer> {
  const server = await startProcess({ cwd, args: ["--host", "127.0.0.1", "--out", dist, ...args], env });
  started.push(server);
  return server;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: init.method ?? "GET", headers: init.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

const JSON_POST = { "content-type": "application/json", accept: "application/json" };

function rows(database: string, table: string): Record<string, unknown>[] {
  const db = openSqlite(database, { readonly: true });
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Resolves once a connection to the port is refused; rejects if it is still accepted after `tries` attempts. */
async function refused(port: number, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve("accepted")));
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    if (outcome === "ECONNREFUSED") return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`port ${port} still accepts connections`);
}

describe("sitegen start on a built dist", () => {
  let server: StartedServer;
  let database: string;

  beforeAll(async () => {
    const data = emptyFolder();
    database = join(data, "submissions.db");
    server = await start([], {
      PORT: String(await freePort()),
      HSTS: "1",
      SUBMISSIONS_DB: database,
      SUBMISSIONS_RATE_LIMIT: "2",
    });
  });
  afterAll(async () => {
    process.kill(server.child.pid!, "SIGTERM");
    expect(await server.exited()).toBe(0);
  });

  it("listens on PORT and serves pages with the security headers of _headers, plus HSTS when HSTS=1", async () => {
    expect(server.lines[0]).toMatchObject({ event: "listening", url: `http://127.0.0.1:${server.port}/`, hsts: true });
    const headers = readFileSync(join(dist, "_headers"), "utf8");
    for (const path of ["/", "/en/about"]) {
      const page = await send(server.port, path);
      expect(page.status, path).toBe(200);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      for (const name of [
        "Content-Security-Policy",
        "X-Content-Type-Options",
        "Referrer-Policy",
        "X-Frame-Options",
        "Permissions-Policy",
        "Cross-Origin-Opener-Policy",
      ]) {
        expect(headers, name).toContain(`  ${name}: ${page.headers[name.toLowerCase()]}\n`);
      }
      expect(page.headers["strict-transport-security"]).toBe("max-age=31536000");
    }
    const missing = await send(server.port, "/en/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('lang="en"');
    expect(missing.headers["strict-transport-security"]).toBe("max-age=31536000");
  });

  it('answers /healthz with 200 and {"status":"ok"}, never cached', async () => {
    const health = await send(server.port, "/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    expect(health.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(health.headers["cache-control"]).toBe("no-store");
    expect((await send(server.port, "/healthz", { method: "HEAD" })).status).toBe(200);
  });

  it("never serves what the build wrote for it in dist/_sitegen/", async () => {
    for (const path of ["/_sitegen/site.json", "/_sitegen/api.cjs"]) {
      expect(existsSync(join(dist, path))).toBe(true);
      expect((await send(server.port, path)).status, path).toBe(404);
    }
  });

  it("stores form posts in SUBMISSIONS_DB and applies SUBMISSIONS_RATE_LIMIT", async () => {
    for (const email of ["one@example.com", "two@example.com"]) {
      const r = await send(server.port, "/api/newsletter", {
        method: "POST",
        headers: JSON_POST,
        body: JSON.stringify({ email }),
      });
      expect(r.status, r.body).toBe(200);
      expect(JSON.parse(r.body).ok).toBe(true);
    }
    const third = await send(server.port, "/api/newsletter", {
      method: "POST",
      headers: JSON_POST,
      body: JSON.stringify({ email: "three@example.com" }),
    });
    expect(third.status).toBe(429);
    expect(rows(database, "newsletter").map((r) => r.email)).toEqual(["one@example.com", "two@example.com"]);
  });

  const logsJsonLines =
    "logs one JSON line per request on stdout: time, method, path without the query, status, bytes, duration, remote " +
    "address";
  it(logsJsonLines, async () => {
    const before = server.lines.length;
    const page = await send(server.port, "/about?email=someone%40example.com&utm=x");
    await send(server.port, "/api/newsletter?from=footer", {
      method: "POST",
      headers: JSON_POST,
      body: JSON.stringify({ email: "logged@example.com" }),
    });
    // A line is written when the connection is done with its request, which may be just after the client has its
    // answer.
    const find = () => [
      server.lines.find((l) => l.path === "/about"),
      server.lines.slice(before).find((l) => l.method === "POST"),
    ];
    for (let i = 0; i < 100 && find().includes(undefined); i++) await new Promise((r) => setTimeout(r, 20));
    const [get, post] = find() as Record<string, unknown>[];
    expect(Object.keys(get).sort()).toEqual(["bytes", "durationMs", "method", "path", "remote", "status", "time"]);
    expect(get).toMatchObject({
      method: "GET",
      path: "/about",
      status: 200,
      bytes: Buffer.byteLength(page.body),
      remote: "127.0.0.1",
    });
    expect(Date.parse(String(get.time))).toBeGreaterThan(Date.now() - 60_000);
    expect(get.durationMs).toEqual(expect.any(Number));
    expect(post).toMatchObject({ method: "POST", path: "/api/newsletter", status: 429 });
    // Neither the query nor the body of any request reaches the log.
    expect(server.lines.map((l) => JSON.stringify(l)).join("\n")).not.toMatch(/@|utm|footer/);
    expect(server.lines.every((l) => !("unparsed" in l))).toBe(true);
    expect(server.stderr()).toBe("");
  });
});

describe("stopping sitegen start", () => {
  it("on SIGTERM refuses new connections, finishes the post still arriving, closes the store and exits 0", async () => {
    const database = join(emptyFolder(), "submissions.db");
    const server = await start(["--port", "0"], { SUBMISSIONS_DB: database, PORT: undefined, HSTS: undefined });
    // Opens the store, so there is something to close.
    expect(
      (
        await send(server.port, "/api/newsletter", {
          method: "POST",
          headers: JSON_POST,
          body: JSON.stringify({ email: "first@example.com" }),
        })
      ).status,
    ).toBe(200);

    // A post whose body is still arriving when the signal comes.
    const body = JSON.stringify({ email: "in-flight@example.com" });
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    let answer = "";
    socket.setEncoding("utf8").on("data", (d: string) => (answer += d));
    const closed = new Promise((r) => socket.once("close", r));
    socket.write(
      "POST /api/newsletter HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        `Accept: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    // The request is in flight once the server holds it: the log of the earlier post shows it is serving.
    await new Promise((r) => setTimeout(r, 300));

    process.kill(server.child.pid!, "SIGTERM");
    await refused(server.port);
    expect(server.child.exitCode).toBe(null);
    socket.end(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toContain('"ok":true');

    expect(await server.exited()).toBe(0);
    // SQLite removes the write-ahead log when its last connection closes: the store was closed.
    expect(existsSync(`${database}-wal`)).toBe(false);
    expect(rows(database, "newsletter").map((r) => r.email)).toEqual(["first@example.com", "in-flight@example.com"]);
    const events = server.lines.filter((l) => l.event).map((l) => l.event);
    expect(events).toEqual(["listening", "stopping", "stopped"]);
    expect(server.lines.find((l) => l.event === "stopped")).toMatchObject({ cutConnections: 0 });
    expect(server.lines.filter((l) => l.method === "POST").map((l) => l.status)).toEqual([200, 200]);
  });

  it("cuts a request that is still unfinished after --shutdown-timeout, then exits 0", async () => {
    const server = await start(["--port", "0", "--shutdown-timeout", "1"], {
      SUBMISSIONS_DB: join(emptyFolder(), "submissions.db"),
    });
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    socket.on("error", () => {});
    const closed = new Promise((r) => socket.once("close", r));
    // Announces a body it never sends.
    socket.write(
      "POST /api/newsletter HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Content-Length: 100\r\n\r\n{",
    );
    await new Promise((r) => setTimeout(r, 300));
    process.kill(server.child.pid!, "SIGTERM");
    expect(await server.exited(10_000)).toBe(0);
    await closed;
    // The grace period given is the flag's; that the cut waits for it is the next test's (on a fake clock).
    expect(server.lines.find((l) => l.event === "stopping")).toMatchObject({ signal: "SIGTERM", graceMs: 1000 });
    expect(server.lines.find((l) => l.event === "stopped")).toMatchObject({ cutConnections: 1 });
  });

  it("waits the whole grace period before cutting a request still unfinished, then cuts it", async () => {
    const server = createServer(() => {}); // holds every request: its body never ends
    const port = await new Promise<number>((r) =>
      server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)),
    );
    const held = new Promise((r) => server.once("request", r));
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    const closed = new Promise((r) => socket.once("close", r));
    socket.write("POST /api/newsletter HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{");
    await held;
    const open = () => new Promise<number>((r) => server.getConnections((_e, count) => r(count)));
    // Only the timers are fake: the sockets stay real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    try {
      const drain = drainServer(server, 1000);
      await vi.advanceTimersByTimeAsync(999);
      expect(await open()).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await drain.done).toBe(1);
    } finally {
      vi.useRealTimers();
      server.closeAllConnections();
      server.close();
    }
    await closed;
    expect(await open()).toBe(0);
  }, 10_000);

  const passesDatabaseUrl =
    "passes DATABASE_URL to the site's endpoints, loads them from dist alone, and awaits their close() on SIGINT";
  it(passesDatabaseUrl, async () => {
    // A site whose endpoints report what they see and note when they are closed.
    const project = projectCopy();
    const marker = join(emptyFolder(), "closed");
    writeFileSync(
      join(project, "src", "api", "index.ts"),
      [
        'import { writeFileSync } from "node:fs";',
        "export function createApiHandlers({ site, messages }: " +
          "{ site: { endpoints: Record<string, string> }; messages: Record<string, Map<string, string>> }) {",
        "  const handler = async () => " +
          'Response.json({ databaseUrl: process.env.DATABASE_URL, text: messages.en.get("api.method") });',
        "  return {",
        "    handlers: { [site.endpoints.detectLanguage]: handler },",
        "    close: () => new Promise<void>((done) => " +
          `setTimeout(() => { writeFileSync(${JSON.stringify(marker)}, "closed"); done(); }, 200)),`,
        "  };",
        "}",
      ].join("\n"),
    );
    const own = join(mkdtempSync(join(tmpdir(), "sitegen-start-")), "dist");
    await buildSite({ root: project, outDir: own });
    const databaseUrl = "postgres://sitegen:secret@127.0.0.1:1/leads";
    const server = await startProcess({
      cwd: emptyFolder(),
      args: ["--host", "127.0.0.1", "--port", "0", "--out", own],
      env: { DATABASE_URL: databaseUrl, HSTS: undefined },
    });
    started.push(server);
    const r = await send(server.port, "/api/detect-language");
    expect(JSON.parse(r.body)).toEqual({
      databaseUrl,
      text: "This address only accepts submissions from the website forms.",
    });
    // Without --hsts or HSTS, no Strict-Transport-Security: plain HTTP must stay usable.
    expect(r.headers["strict-transport-security"]).toBeUndefined();
    process.kill(server.child.pid!, "SIGINT");
    expect(await server.exited()).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe("closed");
  });
});

describe("start's settings", () => {
  it("takes the port from --port, else PORT, else 4321, and HSTS from --hsts or HSTS=1", () => {
    expect(startPort(8081, { PORT: "9000" })).toBe(8081);
    expect(startPort(undefined, { PORT: "9000" })).toBe(9000);
    expect(startPort(undefined, { PORT: " " })).toBe(4321);
    expect(startPort(undefined, {})).toBe(4321);
    expect(hstsWanted(true, {})).toBe(true);
    expect(hstsWanted(false, { HSTS: "1" })).toBe(true);
    expect(hstsWanted(false, { HSTS: "true" })).toBe(true);
    expect(hstsWanted(false, { HSTS: "0" })).toBe(false);
    expect(hstsWanted(false, {})).toBe(false);
  });

  it("answers the health path with 503 once the server is draining", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-health-"));
    mkdirSync(join(dir, "dist"));
    let ok = true;
    const { loadSiteConfig } = await import("../../src/generator/config.ts");
    const { ROOT } = await import("../helpers.ts");
    const site = createSiteServer({
      outDir: join(dir, "dist"),
      site: loadSiteConfig(ROOT),
      health: { path: "/healthz", ok: () => ok },
    });
    await new Promise<void>((r) => site.server.listen(0, "127.0.0.1", r));
    const port = (site.server.address() as { port: number }).port;
    try {
      expect((await send(port, "/healthz")).status).toBe(200);
      ok = false;
      const draining = await send(port, "/healthz");
      expect(draining.status).toBe(503);
      expect(JSON.parse(draining.body)).toEqual({ status: "shutting down" });
      expect(draining.headers["x-content-type-options"]).toBe("nosniff");
      expect((await send(port, "/healthz", { method: "POST" })).status).toBe(405);
    } finally {
      await site.close();
    }
  });
});

describe("sitegen start and the leads' notifications", () => {
  const deliversLeadsInBackground =
    "delivers each lead by e-mail and webhook in the background, and finishes a delivery in flight on SIGTERM";
  it(deliversLeadsInBackground, async () => {
    const smtp = await startSmtpSink();
    const hook = await startWebhook();
    // Long enough for the signal to arrive while the webhook is still waited for, short of the grace period.
    hook.delayMs = 1_500;
    try {
      const database = join(emptyFolder(), "submissions.db");
      const server = await start(["--port", "0", "--shutdown-timeout", "8"], {
        SUBMISSIONS_DB: database,
        PORT: undefined,
        HSTS: undefined,
        SMTP_URL: smtp.url,
        NOTIFY_EMAIL_TO: "leads@firma.example.com",
        NOTIFY_WEBHOOK_URL: hook.url,
      });
      const lead = {
        firstName: "Bruno",
        lastName: "Lima",
        email: "bruno@example.com",
        message: "Quero falar sobre um projeto.",
        locale: "pt",
      };
      const r = await send(server.port, "/api/contact", {
        method: "POST",
        headers: JSON_POST,
        body: JSON.stringify(lead),
      });
      expect(r.status, r.body).toBe(200);
      await until(() => hook.arrived === 1 && smtp.mails.length === 1, 10_000, "the e-mail and the webhook call");
      expect(hook.bodies).toEqual([]);

      process.kill(server.child.pid!, "SIGTERM");
      expect(await server.exited()).toBe(0);
      expect(hook.bodies).toMatchObject([
        { event: "contact", text: "Novo contato pelo site: Bruno Lima", submission: lead },
      ]);
      expect(smtp.mails[0]).toMatchObject({
        to: ["leads@firma.example.com"],
        subject: "Novo contato pelo site: Bruno Lima",
      });
      expect(rows(database, "outbox").map((o) => [o.kind, o.attempts, o.last_error, typeof o.delivered_at])).toEqual([
        ["email", 1, null, "string"],
        ["webhook", 1, null, "string"],
      ]);
    } finally {
      await smtp.close();
      await hook.close();
    }
  });

  const sendsOutboxAtStart =
    "sends at start what an earlier run left in the outbox, and erases contact messages older than " +
    "submissions.retentionDays";
  it(sendsOutboxAtStart, async () => {
    const hook = await startWebhook();
    try {
      const database = join(emptyFolder(), "submissions.db");
      const store = new SqliteSubmissionStore(database);
      const day = 86_400_000;
      const contact = (email: string, createdAt: string) => ({
        firstName: "A",
        lastName: "B",
        email,
        company: null,
        message: "m",
        locale: "pt",
        createdAt,
      });
      // The site's site.yaml keeps contact messages for 730 days.
      await store.addContact(contact("old@example.com", new Date(Date.now() - 800 * day).toISOString()), [
        { kind: "webhook", payload: { type: "contact", email: "old@example.com" } },
      ]);
      await store.addContact(contact("left@example.com", new Date(Date.now() - 2 * day).toISOString()), [
        { kind: "webhook", payload: { type: "contact", ...contact("left@example.com", "2026-01-01T00:00:00.000Z") } },
      ]);
      // A subscription lasts until the person leaves: the purge is for contact messages.
      await store.addNewsletter({
        email: "reader@example.com",
        locale: "pt",
        createdAt: new Date(Date.now() - 800 * day).toISOString(),
      });
      await store.close();

      const server = await start(["--port", "0"], {
        SUBMISSIONS_DB: database,
        PORT: undefined,
        HSTS: undefined,
        NOTIFY_WEBHOOK_URL: hook.url,
      });
      await until(
        () => hook.bodies.length === 1 && rows(database, "contact").length === 1,
        10_000,
        "the delivery and the purge",
      );
      expect(rows(database, "contact").map((r) => r.email)).toEqual(["left@example.com"]);
      expect(rows(database, "newsletter").map((r) => r.email)).toEqual(["reader@example.com"]);
      expect(hook.bodies).toMatchObject([{ submission: { email: "left@example.com" } }]);
      process.kill(server.child.pid!, "SIGTERM");
      expect(await server.exited()).toBe(0);
    } finally {
      await hook.close();
    }
  });

  it("opens the database before listening: one it cannot open stops the start with a catalogued error", async () => {
    const folder = emptyFolder();
    mkdirSync(join(folder, "submissions.db"));
    await expect(
      start(["--port", "0"], { SUBMISSIONS_DB: join(folder, "submissions.db"), PORT: undefined, HSTS: undefined }),
    ).rejects.toThrow(/exited \(1\) before listening[^]*DatabaseUnreadable: Cannot read the database/);
  });

  const runsSubmissionsCommands =
    "runs the submissions commands on a server that holds only dist/, reading the store the server writes";
  it(runsSubmissionsCommands, async () => {
    // As in the container image: the working folder holds dist/ and no content/ nor src/.
    const app = emptyFolder();
    cpSync(dist, join(app, "dist"), { recursive: true });
    const env = { PORT: undefined, HSTS: undefined, SUBMISSIONS_DB: undefined, DATABASE_URL: undefined };
    const server = await start(["--port", "0", "--out", join(app, "dist")], env, app);
    const post = await send(server.port, "/api/contact", {
      method: "POST",
      headers: JSON_POST,
      body: JSON.stringify({
        firstName: "Ana",
        lastName: "Souza",
        email: "Ana@Exemplo.com.br",
        message: "Quero falar sobre IA.",
        locale: "pt",
      }),
    });
    expect(post.status, post.body).toBe(200);
    process.kill(server.child.pid!, "SIGTERM");
    expect(await server.exited()).toBe(0);

    const sitegen = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "submissions", ...args], {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, ...env },
        timeout: 60_000,
      });
    const listed = sitegen("--type", "contact", "--format", "json");
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((r: { email: string; message: string }) => [r.email, r.message])).toEqual([
      ["Ana@Exemplo.com.br", "Quero falar sobre IA."],
    ]);
    const exported = sitegen("export", "--email", "ana@exemplo.com.br");
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout).contact.map((r: { first_name: string }) => r.first_name)).toEqual(["Ana"]);
    const deleted = sitegen("delete", "--email", "ana@exemplo.com.br");
    expect(deleted.status, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(
      "Erased everything stored about ana@exemplo.com.br (LGPD art. 18): newsletter: 0 rows, contact: 1 row",
    );
    // Where site.yaml puts the file, under the working folder, as the server put it.
    expect(rows(join(app, ".data", "submissions.db"), "contact")).toEqual([]);
  });

  it("erases an address from every file of the SQLite store while the server holds it open", async () => {
    const app = emptyFolder();
    cpSync(dist, join(app, "dist"), { recursive: true });
    const database = join(app, "erase.db");
    const env = { PORT: undefined, HSTS: undefined, DATABASE_URL: undefined, SUBMISSIONS_DB: database };
    const server = await start(
      ["--port", "0", "--out", join(app, "dist")],
      { ...env, SUBMISSIONS_RATE_LIMIT: "100" },
      app,
    );
    const erased = "apagar.me@exemplo.com.br";
    const kept = "fica.aqui@exemplo.com.br";
    const contact = (email: string, message: string) =>
      send(server.port, "/api/contact", {
        method: "POST",
        headers: JSON_POST,
        body: JSON.stringify({ firstName: "Ana", lastName: "Souza", email, message, locale: "pt" }),
      });
    for (const message of ["Primeira mensagem.", "Segunda mensagem.", "Terceira mensagem."])
      expect((await contact(erased, message)).status).toBe(200);
    const newsletter = await send(server.port, "/api/newsletter", {
      method: "POST",
      headers: JSON_POST,
      body: JSON.stringify({ email: erased.toUpperCase() }),
    });
    expect(newsletter.status).toBe(200);
    expect((await contact(kept, "Esta fica.")).status).toBe(200);

    const deleted = spawnSync(
      process.execPath,
      [join(ROOT, "bin", "sitegen.js"), "submissions", "delete", "--email", erased],
      { cwd: app, encoding: "utf8", env: { ...process.env, ...env }, timeout: 60_000 },
    );
    expect(deleted.status, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain("newsletter: 1 row, contact: 3 rows");

    // The server still runs and holds the database open.
    expect(server.child.exitCode).toBeNull();
    const files = [database, `${database}-wal`, `${database}-shm`].filter((file) => existsSync(file));
    expect(files).toContain(database);
    const bytes = files.map((file) => readFileSync(file).toString("latin1").toLowerCase()).join("\n");
    // The search can find an address: the one kept is there.
    expect(bytes).toContain(kept);
    expect(bytes).not.toContain(erased);
    expect(bytes).not.toContain("apagar.me");
    expect((await contact(kept, "Depois da exclusão.")).status).toBe(200);
  });
});
