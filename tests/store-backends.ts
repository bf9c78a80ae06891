/**
 * The stores the shared suite (tests/unit/stores.test.ts) runs against, each able to give a fresh database,
 * a database in an older layout holding known rows, and raw SQL on it to check what the store did.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync } from "node:fs";
import { submissionsProject } from "./helpers.ts";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSqlite } from "../src/api/sqlite-driver.ts";
import pg from "pg";
import { migratePg } from "../src/api/pg-migrations.ts";
import { openStore, type Environment } from "../src/api/stores.ts";
import type { SubmissionStore } from "../src/api/store.ts";
import { queryOnce, startPgCluster, type PgCluster } from "./pg-cluster.ts";
import { Miniflare } from "miniflare";
import type { D1Database, D1PreparedStatement } from "../src/api/d1-store.ts";
import { D1IssueStore } from "../src/api/d1-issues.ts";
import { getStore } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
import { BLOBS_STORE_NAME } from "../src/api/blobs-store.ts";
import { BlobsIssueStore } from "../src/api/blobs-issues.ts";
import { onLoopback } from "./netlify-dev.ts";

/** One database to test: how to select it, open its store, and look inside. */
export interface Place {
  /** Selects this database for openStore and sitegen submissions; undefined for a store they do not open (Blobs). */
  env: Environment;
  /** A project folder whose content/site.yaml stores into this database (for sitegen submissions). */
  root: string;
  settings: { database: string; rateLimitPerMinute: number; trustProxy: boolean; minFillSeconds: number };
  open(): SubmissionStore;
  /** SQL on the database; SQL stores only. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Rows stored in one table (one kind of blob), read without the store. */
  count(table: "newsletter" | "contact" | "outbox"): Promise<number>;
}

export interface Backend {
  name: string;
  /** A SQL database: numbered migrations, an older layout to migrate, `sitegen submissions` reading it. */
  sql: boolean;
  /** Several processes may share the store, so its rate limit must live in it. */
  shared: boolean;
  /**
   * Of two writes that race for one row, the database lets exactly one win (transactions and unique keys;
   * for Netlify Blobs, conditional writes). Netlify's local Blobs server does not: it checks the condition
   * (If-None-Match, If-Match), then writes, with other requests served in between, so the tests of races
   * cannot run against it alone (blobsBackend puts a queue of writes in front of it).
   */
  serialisesConflicts: boolean;
  start(): Promise<void>;
  stop(): void | Promise<void>;
  fresh(): Promise<Place>;
  /**
   * A database in the layout of the store's previous release, holding OLDER_ROWS; absent for a store with no earlier
   * release.
   */
  older?(): Promise<Place>;
  /** Whether `sitegen submissions` can read it from the command line (D1 is read with wrangler instead). */
  command: boolean;
}

/** Rows as the previous layout held them: what a migration must keep. */
export const OLDER_ROWS = {
  newsletter: [
    { email: "Early@Example.com", locale: "pt", created_at: "2025-03-01T10:00:00.000Z", suspect: 0 },
    { email: "bot@example.com", locale: "en", created_at: "2025-03-02T10:00:00.000Z", suspect: 1 },
  ],
  contact: [
    {
      first_name: "Ana",
      last_name: "Souza",
      email: "ana@example.com",
      company: null,
      message: "Olá, mundo",
      locale: "pt",
      created_at: "2025-03-03T10:00:00.000Z",
      suspect: 0,
    },
  ],
};

/** The layout every SQLite file had before migrations were numbered. */
export const SQLITE_LAYOUT_BEFORE_MIGRATIONS =
  "\n" +
  "CREATE TABLE IF NOT EXISTS newsletter (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE, " +
  "locale TEXT NOT NULL, created_at TEXT NOT NULL, suspect INTEGER NOT NULL DEFAULT 0);\n" +
  "CREATE TABLE IF NOT EXISTS contact (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, " +
  "email TEXT NOT NULL, company TEXT, message TEXT NOT NULL, locale TEXT NOT NULL, created_at TEXT NOT NULL, " +
  "suspect INTEGER NOT NULL DEFAULT 0);\n";

const project = (database: string) => submissionsProject(database, 5);

const settingsFor = (database: string) => ({ database, rateLimitPerMinute: 5, trustProxy: false, minFillSeconds: 2 });

export function sqliteBackend(): Backend {
  const place = (): Place => {
    const file = join(mkdtempSync(join(tmpdir(), "sitegen-sqlite-")), "data", "submissions.db");
    const root = project(file);
    const env: Environment = {};
    return {
      env,
      root,
      settings: settingsFor(file),
      open: () => openStore(settingsFor(file), env, root),
      async count(table) {
        return Number((await this.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
      },
      async query(sql) {
        const db = openSqlite(file);
        try {
          const statement = db.prepare(sql);
          return /^\s*(SELECT|PRAGMA|WITH)\b|\bRETURNING\b/i.test(sql)
            ? (statement.all() as Record<string, unknown>[])
            : (statement.run(), []);
        } finally {
          db.close();
        }
      },
    };
  };
  return {
    name: "SQLite",
    sql: true,
    shared: false,
    command: true,
    serialisesConflicts: true,
    async start() {},
    stop() {},
    async fresh() {
      return place();
    },
    async older() {
      const p = place();
      const file = p.settings.database;
      mkdirSync(dirname(file), { recursive: true });
      const db = openSqlite(file);
      db.exec(SQLITE_LAYOUT_BEFORE_MIGRATIONS);
      for (const r of OLDER_ROWS.newsletter)
        db.prepare("INSERT INTO newsletter (email, locale, created_at, suspect) VALUES (?, ?, ?, ?)").run(
          r.email,
          r.locale,
          r.created_at,
          r.suspect,
        );
      for (const r of OLDER_ROWS.contact) {
        db.prepare(
          "INSERT INTO contact (first_name, last_name, email, company, message, locale, created_at, suspect) " +
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(r.first_name, r.last_name, r.email, r.company, r.message, r.locale, r.created_at, r.suspect);
      }
      db.close();
      return p;
    },
  };
}

export function postgresBackend(): Backend {
  let cluster: PgCluster | undefined;
  const place = async (): Promise<Place> => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start (see the first failure)");
    const url = await cluster.createDatabase();
    const root = project(".data/unused.db");
    const env: Environment = { DATABASE_URL: url };
    const query = (sql: string) => queryOnce(url, sql);
    return {
      env,
      root,
      settings: settingsFor(".data/unused.db"),
      open: () => openStore(settingsFor(".data/unused.db"), env, root),
      count: async (table) => Number((await query(`SELECT count(*) AS n FROM ${table}`))[0].n),
      query,
    };
  };
  return {
    name: "PostgreSQL",
    sql: true,
    shared: true,
    command: true,
    serialisesConflicts: true,
    async start() {
      cluster = await startPgCluster();
    },
    stop() {
      cluster?.stop();
    },
    fresh: place,
    async older() {
      const p = await place();
      const pool = new pg.Pool({ connectionString: p.env.DATABASE_URL });
      try {
        // The first migration alone: the layout before the outbox and the shared rate limit.
        await migratePg(pool, 1);
        for (const r of OLDER_ROWS.newsletter) {
          await pool.query(
            "INSERT INTO newsletter (email, email_key, locale, created_at, suspect) VALUES ($1, lower($1), $2, $3, $4)",
            [r.email, r.locale, r.created_at, r.suspect === 1],
          );
        }
        for (const r of OLDER_ROWS.contact) {
          await pool.query(
            "INSERT INTO contact (first_name, last_name, email, email_key, company, message, locale, created_at, " +
              "suspect) VALUES ($1, $2, $3, lower($3), $4, $5, $6, $7, $8)",
            [r.first_name, r.last_name, r.email, r.company, r.message, r.locale, r.created_at, r.suspect === 1],
          );
        }
      } finally {
        await pool.end();
      }
      return p;
    },
  };
}

/**
 * The D1 binding with at most `max` calls in flight between Node and workerd. The store still receives every
 * call at once; only Miniflare's loopback transport waits, as its connections reset under a thousand
 * simultaneous requests on a loaded machine (inside workerd, a binding has no such transport).
 */
function throughGate(db: D1Database, max: number): D1Database {
  let running = 0;
  const waiting: (() => void)[] = [];
  const gate = async <T>(call: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await call();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  type Gated = D1PreparedStatement & { inner: D1PreparedStatement };
  const wrap = (inner: D1PreparedStatement): Gated =>
    ({
      inner,
      bind: (...values) => wrap(inner.bind(...values)),
      all: () => gate(() => inner.all()),
      run: () => gate(() => inner.run()),
    }) as Gated;
  return {
    prepare: (sql) => wrap(db.prepare(sql)),
    batch: (statements) => gate(() => db.batch(statements.map((s) => (s as Gated).inner))),
  };
}

/** D1 databases one Miniflare holds, one per fresh place: Miniflare fixes its bindings when it starts. */
const D1_PLACES = 16;

/**
 * D1 as Cloudflare's local runtime has it: Miniflare (wrangler's own, with its workerd) and its D1 bindings,
 * reached from Node through Miniflare's proxy, as wrangler's getPlatformProxy does.
 */
export function d1Backend(): Backend {
  let miniflare: Miniflare | undefined;
  let used = 0;
  return {
    name: "D1",
    sql: true,
    shared: true,
    serialisesConflicts: true,
    command: false,
    async start() {
      const bindings = Array.from({ length: D1_PLACES }, (_, i) => `DB${i}`);
      miniflare = new Miniflare({
        modules: true,
        script: "export default { fetch: () => new Response(null, { status: 404 }) };",
        d1Databases: bindings,
      });
      await miniflare.ready;
    },
    async stop() {
      await miniflare?.dispose();
    },
    async fresh() {
      if (!miniflare) throw new Error("Miniflare did not start (see the first failure)");
      if (used >= D1_PLACES) throw new Error(`more than ${D1_PLACES} fresh D1 databases asked for: raise D1_PLACES`);
      const db = (await miniflare.getD1Database(`DB${used++}`)) as unknown as D1Database;
      const gated = throughGate(db, 16);
      const open = () => new D1IssueStore(gated);
      return {
        env: {},
        root: project(".data/unused.db"),
        settings: settingsFor(".data/unused.db"),
        open,
        async count(table) {
          return Number((await db.prepare(`SELECT count(*) AS n FROM ${table}`).all()).results[0].n);
        },
        async query(sql) {
          return (await db.prepare(sql).all()).results;
        },
      };
    },
  };
}

/**
 * In front of Netlify's local Blobs server, writes (PUT, DELETE) applied one at a time. That server checks a
 * write's condition (If-None-Match, If-Match) and then writes, serving other requests in between, so two
 * racing conditional writes can both pass; Netlify's service applies the condition as part of the write,
 * which is what the store relies on and what this queue restores. Reads pass straight through.
 */
async function oneWriteAtATime(target: string): Promise<{ url: string; close(): void }> {
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.entries(req.headers).flatMap(([k, v]) =>
      typeof v === "string" ? [[k, v] as [string, string]] : [],
    );
    const forward = () =>
      fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
    try {
      const answer =
        req.method === "PUT" || req.method === "DELETE"
          ? ((queue = queue.then(forward, forward)) as Promise<Response>)
          : forward();
      const response = await answer;
      const body = Buffer.from(await response.arrayBuffer());
      res
        .writeHead(
          response.status,
          [...response.headers].filter(([k]) => k !== "content-length" && k !== "transfer-encoding").flat(),
        )
        .end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * Netlify Blobs through its local server (`@netlify/blobs/server`, the one Netlify's local runtime runs),
 * each place a site of its own. No SQL: no migrations nor older layout, and `sitegen submissions` does not
 * read it (Netlify's CLI does).
 */
export function blobsBackend(): Backend {
  let server: BlobsServer | undefined;
  let front: { url: string; close(): void } | undefined;
  const token = randomBytes(16).toString("hex");
  let sites = 0;
  const place = async (): Promise<Place> => {
    if (!front) throw new Error("the local Blobs server did not start (see the first failure)");
    const url = front.url;
    const siteID = `site-${++sites}`;
    const store = () =>
      getStore({ name: BLOBS_STORE_NAME, siteID, token, edgeURL: url, uncachedEdgeURL: url, consistency: "strong" });
    return {
      env: {},
      root: project(".data/unused.db"),
      settings: settingsFor(".data/unused.db"),
      open: () => new BlobsIssueStore(store()),
      async count(table) {
        return (await store().list({ prefix: `${table}/` })).blobs.length;
      },
      async query() {
        throw new Error("Netlify Blobs has no SQL");
      },
    };
  };
  return {
    name: "Netlify Blobs",
    sql: false,
    shared: true,
    serialisesConflicts: true,
    async start() {
      server = new BlobsServer({ directory: mkdtempSync(join(tmpdir(), "sitegen-blobs-")), token });
      const { port } = await onLoopback(() => server!.start());
      front = await oneWriteAtATime(`http://127.0.0.1:${port}`);
    },
    stop() {
      front?.close();
      void server?.stop();
    },
    command: false,
    fresh: place,
  };
}
