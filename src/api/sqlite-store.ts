import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { requireLazily } from "../generator/lazy-require.ts";

/** Loaded on first use: builds never open the database. */
const openDatabase = (...args: ConstructorParameters<typeof Database>): Database.Database => new (requireLazily("better-sqlite3") as typeof Database)(...args);
import type { ContactEntry, NewsletterEntry, SubmissionStore } from "./store.ts";

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS newsletter (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  locale TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS contact (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT,
  message TEXT NOT NULL,
  locale TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

/**
 * Submissions in one SQLite file (WAL mode), created with its folder on first use. The file holds personal
 * data, so it is made readable by its owner only. Opening is retried on the next submission if it failed
 * (say, the disk was full), so a passing problem does not need a restart.
 */
export class SqliteSubmissionStore implements SubmissionStore {
  private db: Database.Database | undefined;
  private statements: { newsletter: Database.Statement; contact: Database.Statement } | undefined;

  constructor(readonly file: string) {}

  private open() {
    if (this.db && this.statements) return this.statements;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    // Create the file ourselves, owner-only; SQLite gives its -wal and -shm files the same mode.
    closeSync(openSync(this.file, "a", 0o600));
    const db = openDatabase(this.file);
    try {
      db.pragma("journal_mode = WAL");
      // FULL: a transaction acknowledged to a visitor survives a power cut, not only a crash.
      db.pragma("synchronous = FULL");
      db.pragma("busy_timeout = 5000");
      db.exec(SCHEMA);
      this.statements = {
        newsletter: db.prepare("INSERT INTO newsletter (email, locale, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING"),
        contact: db.prepare(
          "INSERT INTO contact (first_name, last_name, email, company, message, locale, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        ),
      };
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
    return this.statements;
  }

  addNewsletter(entry: NewsletterEntry): "added" | "exists" {
    const result = this.open().newsletter.run(entry.email, entry.locale, entry.createdAt);
    return result.changes > 0 ? "added" : "exists";
  }

  addContact(entry: ContactEntry): void {
    this.open().contact.run(entry.firstName, entry.lastName, entry.email, entry.company, entry.message, entry.locale, entry.createdAt);
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
    this.statements = undefined;
  }
}
