/**
 * The SQLite store's schema, as numbered migrations. Each is applied once, in order, in its own transaction,
 * and recorded in `schema_migrations`; a file made before migrations were numbered (no such table) goes
 * through all of them, the first one taking it as it is. Never edit a migration that has shipped: add one.
 */
import type Database from "better-sqlite3";
import { emailKey } from "./store.ts";

export interface SqliteMigration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

function columnsOf(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: "newsletter and contact",
    up(db) {
      // The layout every earlier release created, so their files are taken over without a change.
      db.exec(`
        CREATE TABLE IF NOT EXISTS newsletter (
          id INTEGER PRIMARY KEY,
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          locale TEXT NOT NULL,
          created_at TEXT NOT NULL,
          suspect INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE IF NOT EXISTS contact (
          id INTEGER PRIMARY KEY,
          first_name TEXT NOT NULL,
          last_name TEXT NOT NULL,
          email TEXT NOT NULL,
          company TEXT,
          message TEXT NOT NULL,
          locale TEXT NOT NULL,
          created_at TEXT NOT NULL,
          suspect INTEGER NOT NULL DEFAULT 0
        );
      `);
      // Files from before the suspect mark existed get it (SQLite adds a column with a default in place).
      for (const table of ["newsletter", "contact"]) {
        if (!columnsOf(db, table).includes("suspect")) db.exec(`ALTER TABLE ${table} ADD COLUMN suspect INTEGER NOT NULL DEFAULT 0`);
      }
    },
  },
  {
    version: 2,
    name: "addresses compared lower-cased; indexes for the data-subject queries",
    up(db) {
      // COLLATE NOCASE folds ASCII only ("É" and "é" differ), so the lower-cased form is computed by the
      // store (emailKey) and kept beside the address as typed.
      db.function("sitegen_email_key", { deterministic: true }, (email: unknown) => emailKey(String(email)));
      db.exec(`
        ALTER TABLE newsletter ADD COLUMN email_key TEXT;
        ALTER TABLE contact ADD COLUMN email_key TEXT;
        UPDATE newsletter SET email_key = sitegen_email_key(email);
        UPDATE contact SET email_key = sitegen_email_key(email);
      `);
      // Two subscriptions that only Unicode case told apart are one subscriber under the new rule: the
      // earliest stays, unmarked if either was sent by a person at a human pace.
      db.exec(`
        UPDATE newsletter SET suspect = 0 WHERE suspect = 1
          AND EXISTS (SELECT 1 FROM newsletter other WHERE other.email_key = newsletter.email_key AND other.suspect = 0);
        DELETE FROM newsletter
          WHERE EXISTS (SELECT 1 FROM newsletter earlier WHERE earlier.email_key = newsletter.email_key AND earlier.id < newsletter.id);
        CREATE UNIQUE INDEX newsletter_email_key ON newsletter (email_key);
        CREATE INDEX contact_email_key ON contact (email_key);
        CREATE INDEX newsletter_created_at ON newsletter (created_at);
        CREATE INDEX contact_created_at ON contact (created_at);
      `);
    },
  },
  {
    version: 3,
    name: "outbox",
    up(db) {
      db.exec(`
        CREATE TABLE outbox (
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
        );
        CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
        CREATE INDEX outbox_submission ON outbox (submission_type, submission_id);
      `);
    },
  },
  {
    version: 4,
    name: "newsletter confirmation (double opt-in)",
    up(db) {
      // Every subscription stored before had no confirmation step: each counts as confirmed when it was made.
      db.exec(`
        ALTER TABLE newsletter ADD COLUMN confirmed_at TEXT;
        UPDATE newsletter SET confirmed_at = created_at;
        CREATE INDEX newsletter_unconfirmed ON newsletter (created_at) WHERE confirmed_at IS NULL;
      `);
    },
  },
];

/**
 * Applies the migrations not yet recorded, up to `upTo` (all by default; a test stops earlier to make an
 * older file). Each runs in an IMMEDIATE transaction and is checked again inside it, so two processes
 * opening one file at once apply it once.
 */
export function migrateSqlite(db: Database.Database, upTo = Infinity, migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS): number[] {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  const isApplied = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version > upTo) break;
    db.transaction(() => {
      if (isApplied.get(migration.version)) return;
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.version);
    }).immediate();
  }
  return applied;
}
