import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

const openDatabase = (...args: ConstructorParameters<typeof Database>): Database.Database => new Database(...args);
import type { ContactEntry, NewsletterEntry, SubmissionStore } from "./store.ts";

export const SCHEMA = `
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
`;

/** Databases made before a column existed get it (SQLite adds a column with a default in place). */
function migrate(db: Database.Database): void {
  for (const table of ["newsletter", "contact"]) {
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    if (!columns.includes("suspect")) db.exec(`ALTER TABLE ${table} ADD COLUMN suspect INTEGER NOT NULL DEFAULT 0`);
  }
}

/**
 * Submissions in one SQLite file (WAL mode), created with its folder on first use. The file holds personal
 * data, so it is made readable by its owner only. Opening is retried on the next submission if it failed
 * (say, the disk was full), so a passing problem does not need a restart.
 */
export class SqliteSubmissionStore implements SubmissionStore {
  private db: Database.Database | undefined;
  private statements: { newsletter: Database.Statement; confirm: Database.Statement; contact: Database.Statement } | undefined;

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
      migrate(db);
      this.statements = {
        newsletter: db.prepare("INSERT INTO newsletter (email, locale, created_at, suspect) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING"),
        // A person confirming an address that only a suspect submission had given clears the mark.
        confirm: db.prepare("UPDATE newsletter SET suspect = 0 WHERE email = ? AND suspect = 1"),
        contact: db.prepare(
          "INSERT INTO contact (first_name, last_name, email, company, message, locale, created_at, suspect) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
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
    const statements = this.open();
    const result = statements.newsletter.run(entry.email, entry.locale, entry.createdAt, entry.suspect ? 1 : 0);
    if (result.changes > 0) return "added";
    if (!entry.suspect) statements.confirm.run(entry.email);
    return "exists";
  }

  addContact(entry: ContactEntry): void {
    this.open().contact.run(entry.firstName, entry.lastName, entry.email, entry.company, entry.message, entry.locale, entry.createdAt, entry.suspect ? 1 : 0);
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
    this.statements = undefined;
  }
}
