/**
 * Load and crash tests of the form endpoints behind `sitegen start`, for each store (SQLite, PostgreSQL):
 * too long for every `npm test`, run by `npm run bench:load`. Everything targets 127.0.0.1, every loop is
 * bounded, and every process started is stopped.
 *
 * 1. Load: NEWSLETTER_POSTS newsletter signups and CONTACT_POSTS contact messages, CONCURRENCY at a time,
 *    with the rate limit raised (SUBMISSIONS_RATE_LIMIT) so that it refuses none: every post answered 200
 *    and stored, no other status.
 * 2. Crash: KILLS times, the server is killed with SIGKILL while posts are in flight, then started again on
 *    the same database: every post answered 200 before the kill is stored, and for SQLite the file passes
 *    `PRAGMA integrity_check`.
 *
 * 3. Limit: with the rate limit in place, a burst from one client gets exactly the limit's worth of 200s and
 *    429s for the rest, nothing else, and what was answered 200 is stored.
 *
 * Figures (throughput, latency percentiles, counts) are printed for the note, never asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite, pragmaValue } from "../../src/api/sqlite-driver.ts";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { projectCopy } from "../helpers.ts";
import { queryOnce, startPgCluster, type PgCluster } from "../pg-cluster.ts";
import { startProcess, type StartedServer } from "../start-process.ts";

const NEWSLETTER_POSTS = 10_000;
const CONTACT_POSTS = 10_000;
const CONCURRENCY = 200;
const KILLS = 3;
/** Posts answered before each kill: the kill lands while the rest are in flight. */
const ACKS_BEFORE_KILL = 1_500;
const POSTS_PER_KILL_ROUND = 4_000;
/** The rate limit of the burst test, per minute, and the burst sent from one client within that minute. */
const LIMIT = 50;
const BURST = 1_000;

let dist: string;
const servers: StartedServer[] = [];

beforeAll(async () => {
  dist = join(mkdtempSync(join(tmpdir(), "sitegen-load-")), "dist");
  await buildSite({ root: projectCopy(), outDir: dist });
});
afterAll(() => {
  for (const server of servers) server.stop();
});

interface Post {
  path: string;
  email: string;
  table: "newsletter" | "contact";
  body: Record<string, unknown>;
}

function posts(prefix: string, newsletter: number, contact: number): Post[] {
  const list: Post[] = [];
  // Interleaved, as real traffic mixes the two forms.
  for (let i = 0; i < Math.max(newsletter, contact); i++) {
    if (i < newsletter) {
      const email = `${prefix}-n${i}@load.example.com`;
      list.push({
        path: "/api/newsletter",
        email,
        table: "newsletter",
        body: { email, locale: i % 2 ? "en" : "pt", startedAt: Date.now() - 60_000 },
      });
    }
    if (i < contact) {
      const email = `${prefix}-c${i}@load.example.com`;
      list.push({
        path: "/api/contact",
        email,
        table: "contact",
        body: {
          firstName: "Carga",
          lastName: `Teste ${i}`,
          email,
          company: "Load test",
          message: `Mensagem de carga número ${i}: quero falar sobre IA.`,
          locale: "pt",
          startedAt: Date.now() - 60_000,
        },
      });
    }
  }
  return list;
}

interface Outcome {
  acknowledged: Post[];
  statuses: Map<string, number>;
  latencies: number[];
  ms: number;
}

/**
 * Sends `list` to `port`, `CONCURRENCY` at a time. `onAck` sees the count of 200 answers so far (the crash
 * test kills the server from there); a post whose connection dies counts under its error's code.
 */
async function send(port: number, list: Post[], onAck?: (acks: number) => void): Promise<Outcome> {
  const outcome: Outcome = { acknowledged: [], statuses: new Map(), latencies: [], ms: 0 };
  const count = (key: string) => outcome.statuses.set(key, (outcome.statuses.get(key) ?? 0) + 1);
  let next = 0;
  const began = performance.now();
  const worker = async () => {
    while (next < list.length) {
      const post = list[next++];
      const at = performance.now();
      try {
        const response = await fetch(`http://127.0.0.1:${port}${post.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(post.body),
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        count(String(response.status));
        outcome.latencies.push(performance.now() - at);
        if (response.status === 200) {
          outcome.acknowledged.push(post);
          onAck?.(outcome.acknowledged.length);
        }
      } catch (error) {
        count(`error ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  outcome.ms = performance.now() - began;
  return outcome;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function report(label: string, outcome: Outcome): void {
  const total = [...outcome.statuses.values()].reduce((a, b) => a + b, 0);
  const statuses = [...outcome.statuses].map(([s, n]) => `${s}: ${n}`).join(", ");
  const p50 = percentile(outcome.latencies, 50).toFixed(0);
  const p99 = percentile(outcome.latencies, 99).toFixed(0);
  console.log(
    `${label}: ${total} posts in ${(outcome.ms / 1000).toFixed(1)} s (${Math.round(total / (outcome.ms / 1000))}/s), ` +
      `latency p50 ${p50} ms, p99 ${p99} ms; ${statuses}`,
  );
}

interface StoreUnderTest {
  name: string;
  env: Record<string, string>;
  /** The lower-cased addresses stored in a table. */
  emails(table: "newsletter" | "contact"): Promise<Set<string>>;
  /** "ok" when the store's own consistency check passes. */
  integrity(): Promise<string>;
  close(): Promise<void>;
}

function sqliteStore(): StoreUnderTest {
  const file = join(mkdtempSync(join(tmpdir(), "sitegen-load-db-")), "submissions.db");
  return {
    name: "SQLite",
    env: { SUBMISSIONS_DB: file },
    async emails(table) {
      const db = openSqlite(file, { readonly: true });
      try {
        return new Set(
          (db.prepare(`SELECT email FROM ${table}`).all() as { email: string }[]).map((r) => r.email.toLowerCase()),
        );
      } finally {
        db.close();
      }
    },
    async integrity() {
      const db = openSqlite(file, { readonly: true });
      try {
        return String(pragmaValue(db, "integrity_check"));
      } finally {
        db.close();
      }
    },
    async close() {},
  };
}

async function postgresStore(cluster: PgCluster): Promise<StoreUnderTest> {
  const url = await cluster.createDatabase();
  const query = (sql: string) => queryOnce(url, sql);
  return {
    name: "PostgreSQL",
    env: { DATABASE_URL: url },
    async emails(table) {
      return new Set((await query(`SELECT email FROM ${table}`)).map((r) => String(r.email).toLowerCase()));
    },
    // PostgreSQL has no whole-database check like SQLite's; every table must still be readable in full
    // and its unique index must agree with its rows.
    async integrity() {
      const [{ dupes }] = await query("SELECT count(*) - count(DISTINCT email_key) AS dupes FROM newsletter");
      return Number(dupes) === 0 ? "ok" : `${dupes} duplicate newsletter addresses`;
    },
    async close() {},
  };
}

/** Raised so that the load test measures the store, not the limiter. */
const NO_LIMIT = 10_000_000;

async function startOn(store: StoreUnderTest, perMinute = NO_LIMIT): Promise<StartedServer> {
  const server = await startProcess({
    cwd: mkdtempSync(join(tmpdir(), "sitegen-load-cwd-")),
    args: ["--host", "127.0.0.1", "--port", "0", "--out", dist],
    env: { ...store.env, SUBMISSIONS_RATE_LIMIT: String(perMinute) },
  });
  servers.push(server);
  return server;
}

async function stop(server: StartedServer): Promise<void> {
  server.child.kill("SIGTERM");
  expect(await server.exited(30_000)).toBe(0);
}

async function missing(store: StoreUnderTest, acknowledged: Post[]): Promise<string[]> {
  const stored = { newsletter: await store.emails("newsletter"), contact: await store.emails("contact") };
  return acknowledged.filter((p) => !stored[p.table].has(p.email.toLowerCase())).map((p) => p.email);
}

function suite(make: () => Promise<StoreUnderTest>, cleanup: () => void = () => {}) {
  let store: StoreUnderTest;
  beforeAll(async () => {
    store = await make();
  });
  afterAll(async () => {
    await store?.close();
    cleanup();
  });

  const storesEveryPost =
    `stores every one of ${NEWSLETTER_POSTS} newsletter and ${CONTACT_POSTS} contact posts sent ${CONCURRENCY} at a ` +
    `time`;
  it(storesEveryPost, async () => {
    const server = await startOn(store);
    const outcome = await send(server.port, posts("load", NEWSLETTER_POSTS, CONTACT_POSTS));
    report(`${store.name} load`, outcome);
    await stop(server);
    expect(Object.fromEntries(outcome.statuses)).toEqual({ "200": NEWSLETTER_POSTS + CONTACT_POSTS });
    expect(await missing(store, outcome.acknowledged)).toEqual([]);
    expect((await store.emails("newsletter")).size).toBe(NEWSLETTER_POSTS);
    expect(await store.integrity()).toBe("ok");
  });

  it(`loses no acknowledged post when the server is killed with SIGKILL under load, ${KILLS} times`, async () => {
    const acknowledged: Post[] = [];
    for (let round = 1; round <= KILLS; round++) {
      const server = await startOn(store);
      let killed = false;
      const outcome = await send(
        server.port,
        posts(`kill${round}`, POSTS_PER_KILL_ROUND / 2, POSTS_PER_KILL_ROUND / 2),
        (acks) => {
          if (!killed && acks >= ACKS_BEFORE_KILL) {
            killed = true;
            server.child.kill("SIGKILL");
          }
        },
      );
      report(`${store.name} kill ${round}`, outcome);
      expect(killed).toBe(true);
      expect(await server.exited(30_000)).toBe("SIGKILL");
      acknowledged.push(...outcome.acknowledged);
      expect(await missing(store, acknowledged)).toEqual([]);
      expect(await store.integrity()).toBe("ok");
    }
    console.log(`${store.name}: ${acknowledged.length} posts acknowledged across ${KILLS} kills, all stored`);
    // The store opens again after the last kill and takes posts.
    const server = await startOn(store);
    const after = await send(server.port, posts("after", 10, 10));
    await stop(server);
    expect(Object.fromEntries(after.statuses)).toEqual({ "200": 20 });
  });

  it(`answers a burst from one client with the rate limit's ${LIMIT} acceptances and 429 for the rest`, async () => {
    const server = await startOn(store, LIMIT);
    const outcome = await send(server.port, posts("limit", BURST / 2, BURST / 2));
    report(`${store.name} limit ${LIMIT}/min`, outcome);
    await stop(server);
    expect(Object.fromEntries(outcome.statuses)).toEqual({ "200": LIMIT, "429": BURST - LIMIT });
    expect(await missing(store, outcome.acknowledged)).toEqual([]);
  });
}

describe("SQLite store under load", () => suite(async () => sqliteStore()));

describe("PostgreSQL store under load", () => {
  let cluster: PgCluster;
  suite(
    async () => {
      cluster = await startPgCluster();
      return postgresStore(cluster);
    },
    () => cluster?.stop(),
  );
});
