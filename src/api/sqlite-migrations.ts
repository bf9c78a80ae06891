/**
 * The SQLite store's schema, as numbered migrations, shared by the SQLite file (src/api/sqlite-driver.ts) and D1
 * (Cloudflare's SQLite, src/api/d1-store.ts). Each is applied once, in order, in its own transaction, and
 * recorded in `schema_migrations`; a file made before migrations were numbered (no such table) goes through
 * all of them, the first one taking it as it is. Never edit a migration that has shipped: add one.
 *
 * A migration is a list of steps: SQL statements, which any SQLite runs, and functions, which carry over
 * the rows of a file made by an earlier release and need the file's driver. D1 runs the statements only: a D1
 * database is created by the D1 store, whose first use applies every migration to empty tables, so no row
 * ever needs carrying over there. A migration added later must therefore be statements alone
 * (tests/unit/stores.test.ts checks it).
 */
import type { SqliteDatabase } from "./sqlite-driver.ts";
import { emailKey } from "./store.ts";

/** One SQL statement, or a data carry-over that only a file of an earlier release needs. */
export type SqliteStep = string | ((db: SqliteDatabase) => void);

export interface SqliteMigration {
  version: number;
  name: string;
  steps: readonly SqliteStep[];
}

/**
 * The migrations that D1 may run: those before D1 existed, whose carry-over steps it skips, and every later one
 * (statements only).
 */
export const LAST_MIGRATION_WITH_CARRY_OVER = 3;

function columnsOf(db: SqliteDatabase, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: "newsletter and contact",
    steps: [
      // The layout every earlier release created, so their files are taken over without a change.
      `CREATE TABLE IF NOT EXISTS newsletter (
          id INTEGER PRIMARY KEY,
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          locale TEXT NOT NULL,
          created_at TEXT NOT NULL,
          suspect INTEGER NOT NULL DEFAULT 0
        )`,
      `CREATE TABLE IF NOT EXISTS contact (
          id INTEGER PRIMARY KEY,
          first_name TEXT NOT NULL,
          last_name TEXT NOT NULL,
          email TEXT NOT NULL,
          company TEXT,
          message TEXT NOT NULL,
          locale TEXT NOT NULL,
          created_at TEXT NOT NULL,
          suspect INTEGER NOT NULL DEFAULT 0
        )`,
      // Files from before the suspect mark existed get it (SQLite adds a column with a default in place).
      (db) => {
        for (const table of ["newsletter", "contact"]) {
          if (!columnsOf(db, table).includes("suspect"))
            db.exec(`ALTER TABLE ${table} ADD COLUMN suspect INTEGER NOT NULL DEFAULT 0`);
        }
      },
    ],
  },
  {
    version: 2,
    name: "addresses compared lower-cased; indexes for the data-subject queries",
    steps: [
      // COLLATE NOCASE folds ASCII only ("É" and "é" differ), so the lower-cased form is computed by the
      // store (emailKey) and kept beside the address as typed.
      "ALTER TABLE newsletter ADD COLUMN email_key TEXT",
      "ALTER TABLE contact ADD COLUMN email_key TEXT",
      (db) => {
        db.function("sitegen_email_key", { deterministic: true }, (email: unknown) => emailKey(String(email)));
        db.exec(
          "UPDATE newsletter SET email_key = sitegen_email_key(email); " +
            "UPDATE contact SET email_key = sitegen_email_key(email);",
        );
      },
      // Two subscriptions that only Unicode case told apart are one subscriber under the new rule: the
      // earliest stays, unmarked if either was sent by a person at a human pace.
      `UPDATE newsletter SET suspect = 0 WHERE suspect = 1
          AND EXISTS (SELECT 1 FROM newsletter other ` +
        "WHERE other.email_key = newsletter.email_key AND other.suspect = 0)",
      `DELETE FROM newsletter
          WHERE EXISTS (SELECT 1 FROM newsletter earlier ` +
        "WHERE earlier.email_key = newsletter.email_key AND earlier.id < newsletter.id)",
      "CREATE UNIQUE INDEX newsletter_email_key ON newsletter (email_key)",
      "CREATE INDEX contact_email_key ON contact (email_key)",
      "CREATE INDEX newsletter_created_at ON newsletter (created_at)",
      "CREATE INDEX contact_created_at ON contact (created_at)",
    ],
  },
  {
    version: 3,
    name: "outbox",
    steps: [
      `CREATE TABLE outbox (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL,
          submission_type TEXT NOT NULL CHECK (submission_type IN ('newsletter', 'contact')),
          submission_id INTEGER NOT NULL,
          payload TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at TEXT NOT NULL,
          last_error TEXT,
          delivered_at TEXT,
          created_at TEXT NOT NULL
        )`,
      "CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL",
      "CREATE INDEX outbox_submission ON outbox (submission_type, submission_id)",
    ],
  },
  {
    version: 4,
    name: "newsletter confirmation (double opt-in)",
    steps: [
      "ALTER TABLE newsletter ADD COLUMN confirmed_at TEXT",
      // Every subscription stored before had no confirmation step: each counts as confirmed when it was made.
      "UPDATE newsletter SET confirmed_at = created_at",
      "CREATE INDEX newsletter_unconfirmed ON newsletter (created_at) WHERE confirmed_at IS NULL",
    ],
  },
  {
    version: 5,
    name: "rate limit shared by every worker isolate (D1)",
    // Counted here by D1's limiter (src/api/d1-rate-limit.ts), as D1 is shared by every isolate of the
    // Pages worker. A SQLite file has one process, which counts in its memory: the table stays empty there,
    // created anyway so that both keep one numbered list of migrations. Times are milliseconds since the epoch.
    steps: [
      `CREATE TABLE rate_limit_hits (
          id INTEGER PRIMARY KEY,
          bucket TEXT NOT NULL,
          client TEXT NOT NULL,
          at INTEGER NOT NULL
        )`,
      "CREATE INDEX rate_limit_hits_client ON rate_limit_hits (bucket, client, at)",
      "CREATE INDEX rate_limit_hits_at ON rate_limit_hits (bucket, at)",
    ],
  },
  {
    version: 6,
    name: "newsletter issues, queued once per subscriber",
    // An issue as it was sent (sitegen newsletter send): its articles (their translation keys, as JSON), its
    // introduction file, and its subject and parts with a placeholder for each subscriber's unsubscribe link.
    // Each subscriber's copy is an outbox row whose dedupe_key (issue and subscriber) is unique, so queuing
    // it again after a crash adds nothing.
    steps: [
      `CREATE TABLE newsletter_issues (
          id INTEGER PRIMARY KEY,
          locale TEXT NOT NULL,
          day TEXT NOT NULL,
          articles TEXT NOT NULL,
          intro TEXT,
          subject TEXT NOT NULL,
          html TEXT NOT NULL,
          text TEXT NOT NULL,
          created_at TEXT NOT NULL,
          queued_at TEXT
        )`,
      "ALTER TABLE outbox ADD COLUMN dedupe_key TEXT",
      "CREATE UNIQUE INDEX outbox_dedupe_key ON outbox (dedupe_key)",
    ],
  },
  {
    version: 7,
    name: "addresses the mail server refused for good",
    // A 5xx to RCPT TO of an issue's copy: the subscription is marked bounced with the server's reply, and
    // the copy (with every other one queued for that address) is marked refused, which no worker claims.
    steps: [
      "ALTER TABLE newsletter ADD COLUMN bounced_at TEXT",
      "ALTER TABLE newsletter ADD COLUMN bounce_reason TEXT",
      "ALTER TABLE outbox ADD COLUMN refused_at TEXT",
    ],
  },
];

export const SCHEMA_MIGRATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS schema_migrations " +
  "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)";

/** A migration's SQL statements alone: what D1 runs (see the top of this file). */
export function statementsOf(migration: SqliteMigration): string[] {
  return migration.steps.filter((step): step is string => typeof step === "string");
}
