/**
 * The stores the shared suite (tests/unit/stores.test.ts) runs against, each able to give a fresh database,
 * a database in an older layout holding known rows, and raw SQL on it to check what the store did.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { submissionsProject } from "./helpers.ts";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSqlite } from "../src/api/sqlite-driver.ts";
import pg from "pg";
import { migratePg } from "../src/api/pg-migrations.ts";
import { openStore, type Environment } from "../src/api/stores.ts";
import type { SubmissionStore } from "../src/api/store.ts";
import { startPgCluster, type PgCluster } from "./pg-cluster.ts";

/** One database to test: how to select it, open its store, and look inside. */
export interface Place {
  env: Environment;
  /** A project folder whose content/site.yaml stores into this database (for sitegen submissions). */
  root: string;
  settings: { database: string; rateLimitPerMinute: number; trustProxy: boolean; minFillSeconds: number };
  open(): SubmissionStore;
  query(sql: string): Promise<Record<string, unknown>[]>;
}

export interface Backend {
  name: string;
  /** Several processes may share the store, so its rate limit must live in it. */
  shared: boolean;
  start(): Promise<void>;
  stop(): void;
  fresh(): Promise<Place>;
  /** A database in the layout of the store's previous release, holding OLDER_ROWS. */
  older(): Promise<Place>;
}

/** Rows as the previous layout held them: what a migration must keep. */
export const OLDER_ROWS = {
  newsletter: [
    { email: "Early@Example.com", locale: "pt", created_at: "2025-03-01T10:00:00.000Z", suspect: 0 },
    { email: "bot@example.com", locale: "en", created_at: "2025-03-02T10:00:00.000Z", suspect: 1 },
  ],
  contact: [
    { first_name: "Ana", last_name: "Souza", email: "ana@example.com", company: null, message: "Olá, mundo", locale: "pt", created_at: "2025-03-03T10:00:00.000Z", suspect: 0 },
  ],
};

/** The layout every SQLite file had before migrations were numbered. */
export const SQLITE_LAYOUT_BEFORE_MIGRATIONS = `
CREATE TABLE IF NOT EXISTS newsletter (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE, locale TEXT NOT NULL, created_at TEXT NOT NULL, suspect INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS contact (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, email TEXT NOT NULL, company TEXT, message TEXT NOT NULL, locale TEXT NOT NULL, created_at TEXT NOT NULL, suspect INTEGER NOT NULL DEFAULT 0);
`;

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
      async query(sql) {
        const db = openSqlite(file);
        try {
          const statement = db.prepare(sql);
          return /^\s*(SELECT|PRAGMA|WITH)\b|\bRETURNING\b/i.test(sql) ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []);
        } finally {
          db.close();
        }
      },
    };
  };
  return {
    name: "SQLite",
    shared: false,
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
      for (const r of OLDER_ROWS.newsletter) db.prepare("INSERT INTO newsletter (email, locale, created_at, suspect) VALUES (?, ?, ?, ?)").run(r.email, r.locale, r.created_at, r.suspect);
      for (const r of OLDER_ROWS.contact) {
        db.prepare("INSERT INTO contact (first_name, last_name, email, company, message, locale, created_at, suspect) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
          r.first_name, r.last_name, r.email, r.company, r.message, r.locale, r.created_at, r.suspect,
        );
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
    return {
      env,
      root,
      settings: settingsFor(".data/unused.db"),
      open: () => openStore(settingsFor(".data/unused.db"), env, root),
      async query(sql) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(sql)).rows;
        } finally {
          await client.end();
        }
      },
    };
  };
  return {
    name: "PostgreSQL",
    shared: true,
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
          await pool.query("INSERT INTO newsletter (email, email_key, locale, created_at, suspect) VALUES ($1, lower($1), $2, $3, $4)", [r.email, r.locale, r.created_at, r.suspect === 1]);
        }
        for (const r of OLDER_ROWS.contact) {
          await pool.query(
            "INSERT INTO contact (first_name, last_name, email, email_key, company, message, locale, created_at, suspect) VALUES ($1, $2, $3, lower($3), $4, $5, $6, $7, $8)",
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
