import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { immediate, openSqlite, type SqliteDatabase, type SqliteStatement } from "./sqlite-driver.ts";
import { migrateSqlite } from "./sqlite-migrate.ts";
import {
  listedRows,
  sentIssue,
  SQLITE_SENT_ISSUES,
  type CountedRow,
  emailKey,
  retentionMs,
  StoreError,
  type ClaimOptions,
  type ContactEntry,
  type IssueProgress,
  type IssueRecord,
  type IssueStore,
  type NewIssue,
  type ListedRow,
  type NewsletterEntry,
  type OutboxMessage,
  type OutboxRow,
  type RemovedRows,
  type SubjectData,
  type SubmissionStore,
  outboxOf,
  type SubmissionType,
} from "./store.ts";

/** Columns per table, in export order. */
export const COLUMNS: Record<SubmissionType, string> = {
  newsletter: "id, email, locale, created_at, suspect, confirmed_at, bounced_at, bounce_reason",
  contact: "id, first_name, last_name, email, company, message, locale, created_at, suspect",
};

/** The outbox rows of the submissions of one address (bound twice: newsletter, then contact). */
const OUTBOX_OF_EMAIL = `${outboxOf("newsletter", "email_key = ?")}
  OR ${outboxOf("contact", "email_key = ?")}`;

/** The outbox rows of the newsletter signups older than one cutoff and of the contact messages older than another. */
const OUTBOX_BEFORE = `${outboxOf("newsletter", "created_at < ?")}
  OR ${outboxOf("contact", "created_at < ?")}`;

type RawOutbox = Omit<OutboxRow, "payload"> & { payload: string };
const outboxRow = (row: RawOutbox): OutboxRow => ({ ...row, payload: JSON.parse(row.payload) });
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Submissions in one SQLite file (WAL mode), created with its folder on first use: the embedded default,
 * nothing to set up, for one process. The file holds personal data, so it is made readable by its owner
 * only, and erased rows are overwritten (secure_delete). Opening is retried on the next call if it failed
 * (say, the disk was full), so a passing problem does not need a restart.
 *
 * The driver (src/api/sqlite-driver.ts) is synchronous: each method runs to the end in one turn of the event loop,
 * so concurrent calls are serialised and a transaction never interleaves with another.
 */
export class SqliteSubmissionStore implements SubmissionStore, IssueStore {
  private db: SqliteDatabase | undefined;
  /** Prepared statements by their SQL, for the life of the connection. */
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(readonly file: string) {}

  private open(): SqliteDatabase {
    if (this.db) return this.db;
    let db: SqliteDatabase;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      // Create the file ourselves, owner-only; SQLite gives its -wal and -shm files the same mode.
      closeSync(openSync(this.file, "a", 0o600));
      db = openSqlite(this.file);
    } catch (error) {
      throw new StoreError("unreadable", `Could not open ${this.file}: ${(error as Error).message}`, this.file, {
        cause: error,
      });
    }
    try {
      db.exec("PRAGMA journal_mode = WAL");
      // FULL: a transaction acknowledged to a visitor survives a power cut, not only a crash.
      db.exec("PRAGMA synchronous = FULL");
      // Another process (sitegen submissions) may hold the write lock for a moment.
      db.exec("PRAGMA busy_timeout = 5000");
      // An erased person's data is overwritten in the file, not only unlinked from it.
      db.exec("PRAGMA secure_delete = ON");
      migrateSqlite(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
    return db;
  }

  /** The statement for `sql` on the open database, prepared once. */
  private sql(sql: string): SqliteStatement {
    const db = this.open();
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  }

  async ready(): Promise<void> {
    this.open();
  }

  private enqueue(
    type: SubmissionType,
    id: number | bigint,
    messages: readonly OutboxMessage[],
    createdAt: string,
  ): void {
    const insert = this.sql(
      "INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at) " +
        "VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const m of messages) insert.run(m.kind, type, id, JSON.stringify(m.payload ?? null), createdAt, createdAt);
  }

  async addNewsletter(entry: NewsletterEntry, outbox: readonly OutboxMessage[] = []): Promise<"added" | "exists"> {
    const db = this.open();
    const key = emailKey(entry.email);
    return immediate(db, (): "added" | "exists" => {
      const result = this.sql(
        "INSERT INTO newsletter (email, email_key, locale, created_at, suspect, confirmed_at) " +
          "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      ).run(
        entry.email,
        key,
        entry.locale,
        entry.createdAt,
        entry.suspect ? 1 : 0,
        entry.confirmed === false ? null : entry.createdAt,
      );
      if (result.changes === 0) {
        // A person confirming an address that only a suspect submission had given clears the mark.
        if (!entry.suspect) this.sql("UPDATE newsletter SET suspect = 0 WHERE email_key = ? AND suspect = 1").run(key);
        return "exists";
      }
      this.enqueue("newsletter", result.lastInsertRowid, outbox, entry.createdAt);
      return "added";
    });
  }

  async addContact(entry: ContactEntry, outbox: readonly OutboxMessage[] = []): Promise<void> {
    const db = this.open();
    immediate(db, () => {
      const result = this.sql(
        "INSERT INTO contact (first_name, last_name, email, email_key, company, message, locale, " +
          "created_at, suspect) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(
        entry.firstName,
        entry.lastName,
        entry.email,
        emailKey(entry.email),
        entry.company,
        entry.message,
        entry.locale,
        entry.createdAt,
        entry.suspect ? 1 : 0,
      );
      this.enqueue("contact", result.lastInsertRowid, outbox, entry.createdAt);
    });
  }

  async confirmNewsletter(
    email: string,
    now: number,
    outbox: readonly OutboxMessage[] = [],
  ): Promise<"confirmed" | "already" | "missing"> {
    const db = this.open();
    const key = emailKey(email);
    return immediate(db, (): "confirmed" | "already" | "missing" => {
      const row = this.sql("SELECT id, confirmed_at FROM newsletter WHERE email_key = ?").get(key) as
        { id: number; confirmed_at: string | null } | undefined;
      if (!row) return "missing";
      if (row.confirmed_at !== null) return "already";
      this.sql("UPDATE newsletter SET confirmed_at = ? WHERE id = ?").run(iso(now), row.id);
      this.enqueue("newsletter", row.id, outbox, iso(now));
      return "confirmed";
    });
  }

  async unsubscribe(email: string): Promise<"removed" | "missing"> {
    const db = this.open();
    const key = emailKey(email);
    return immediate(db, () => {
      this.sql(`DELETE FROM outbox WHERE ${outboxOf("newsletter", "email_key = ?")}`).run(key);
      return this.sql("DELETE FROM newsletter WHERE email_key = ?").run(key).changes > 0 ? "removed" : "missing";
    });
  }

  async purgeUnconfirmed(days: number, now: number): Promise<RemovedRows> {
    const cutoff = iso(now - retentionMs(days));
    const db = this.open();
    const stale = "SELECT id FROM newsletter WHERE confirmed_at IS NULL AND created_at < ?";
    return immediate(db, () => ({
      outbox: this.sql(`DELETE FROM outbox WHERE submission_type = 'newsletter' AND submission_id IN (${stale})`).run(
        cutoff,
      ).changes,
      newsletter: this.sql(`DELETE FROM newsletter WHERE id IN (${stale})`).run(cutoff).changes,
      contact: 0,
    }));
  }

  async list<T extends SubmissionType>(type: T): Promise<ListedRow<T>[]> {
    const rows = this.sql(
      "SELECT s.*, coalesce(o.total, 0) AS total, coalesce(o.undelivered, 0) AS undelivered, " +
        `coalesce(o.attempts, 0) AS attempts, coalesce(o.refused, 0) AS refused,
           coalesce(o.pending_attempts, 0) AS pending_attempts, o.last_error AS last_error
         FROM (SELECT ${COLUMNS[type]} FROM ${type}) s
         LEFT JOIN (
           SELECT submission_id, count(*) AS total, count(*) FILTER (WHERE delivered_at IS NULL) AS undelivered,
             count(*) FILTER (WHERE refused_at IS NOT NULL) AS refused,
             max(attempts) AS attempts, max(attempts) FILTER (WHERE delivered_at IS NULL) AS pending_attempts,
             max(last_error) FILTER (WHERE delivered_at IS NULL) AS last_error
           FROM outbox WHERE submission_type = ? GROUP BY submission_id
         ) o ON o.submission_id = s.id
         ORDER BY s.id`,
    ).all(type) as CountedRow[];
    return listedRows<T>(rows);
  }

  async claimOutbox({ now, limit = 10, leaseMs = 300_000, skipKinds = [] }: ClaimOptions): Promise<OutboxRow[]> {
    const skip = skipKinds.length ? `AND kind NOT IN (${skipKinds.map(() => "?").join(", ")})` : "";
    const rows = this.sql(
      `UPDATE outbox SET next_attempt_at = ? WHERE id IN (
         SELECT id FROM outbox WHERE delivered_at IS NULL AND refused_at IS NULL AND next_attempt_at <= ? ${skip}
         ORDER BY next_attempt_at, id LIMIT ?
       ) RETURNING *`,
    ).all(iso(now + leaseMs), iso(now), ...skipKinds, limit) as RawOutbox[];
    return rows.map(outboxRow).sort((a, b) => a.id - b.id);
  }

  async markDelivered(id: number, now: number): Promise<void> {
    this.sql(
      "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = NULL " +
        "WHERE id = ? AND delivered_at IS NULL",
    ).run(iso(now), id);
  }

  async markFailed(id: number, error: string, nextAttemptAt: number): Promise<void> {
    this.sql(
      "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? " +
        "WHERE id = ? AND delivered_at IS NULL",
    ).run(error, iso(nextAttemptAt), id);
  }

  async findByEmail(email: string): Promise<SubjectData> {
    const key = emailKey(email);
    return {
      newsletter: this.sql(`SELECT ${COLUMNS.newsletter} FROM newsletter WHERE email_key = ? ORDER BY id`).all(
        key,
      ) as SubjectData["newsletter"],
      contact: this.sql(`SELECT ${COLUMNS.contact} FROM contact WHERE email_key = ? ORDER BY id`).all(
        key,
      ) as SubjectData["contact"],
      issues: (this.sql(SQLITE_SENT_ISSUES).all(key) as Parameters<typeof sentIssue>[0][]).map(sentIssue),
      outbox: (this.sql(`SELECT * FROM outbox WHERE ${OUTBOX_OF_EMAIL} ORDER BY id`).all(key, key) as RawOutbox[]).map(
        outboxRow,
      ),
    };
  }

  async deleteByEmail(email: string): Promise<RemovedRows> {
    const db = this.open();
    const key = emailKey(email);
    const removed = immediate(db, () => ({
      // The outbox first: its rows are found through the submissions.
      outbox: this.sql(`DELETE FROM outbox WHERE ${OUTBOX_OF_EMAIL}`).run(key, key).changes,
      newsletter: this.sql("DELETE FROM newsletter WHERE email_key = ?").run(key).changes,
      contact: this.sql("DELETE FROM contact WHERE email_key = ?").run(key).changes,
    }));
    this.emptyWal();
    return removed;
  }

  /**
   * Erasure leaves nothing readable: secure_delete (set at open) zeroes what a delete frees in the
   * database file, but the -wal file still holds every page the rows were written on, until a checkpoint.
   * TRUNCATE copies it into the database and empties it, waiting (busy_timeout) for a server's reads to end.
   */
  private emptyWal(): void {
    const result = this.db?.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number } | undefined;
    if (result?.busy) throw new Error("the erased rows' old pages stay in the -wal file: a reader held it too long");
  }

  async purgeOlderThan(
    days: number,
    now: number,
    types: readonly SubmissionType[] = ["newsletter", "contact"],
  ): Promise<RemovedRows> {
    const cutoff = iso(now - retentionMs(days));
    const db = this.open();
    // A cutoff no row can be older than leaves a table alone.
    const before = (type: SubmissionType) => (types.includes(type) ? cutoff : "");
    const removed = immediate(db, () => ({
      outbox: this.sql(`DELETE FROM outbox WHERE ${OUTBOX_BEFORE}`).run(before("newsletter"), before("contact"))
        .changes,
      newsletter: this.sql("DELETE FROM newsletter WHERE created_at < ?").run(before("newsletter")).changes,
      contact: this.sql("DELETE FROM contact WHERE created_at < ?").run(before("contact")).changes,
    }));
    if (removed.newsletter + removed.contact > 0) this.emptyWal();
    return removed;
  }

  async issues(): Promise<IssueRecord[]> {
    const rows = this.sql("SELECT * FROM newsletter_issues ORDER BY id").all() as (Omit<IssueRecord, "articles"> & {
      articles: string;
    })[];
    return rows.map((row) => ({ ...row, articles: JSON.parse(row.articles) as string[] }));
  }

  async recordIssue(issue: NewIssue): Promise<number> {
    const result = this.sql(
      "INSERT INTO newsletter_issues (locale, day, articles, intro, subject, html, text, created_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      ...[issue.locale, issue.day, JSON.stringify(issue.articles), issue.intro],
      ...[issue.subject, issue.html, issue.text, issue.createdAt],
    );
    return Number(result.lastInsertRowid);
  }

  async queueOnce(key: string, subscriberId: number, message: OutboxMessage, dueAt: number): Promise<boolean> {
    const result = this.sql(
      "INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at, dedupe_key) " +
        "SELECT ?, 'newsletter', ?, ?, ?, ?, ? " +
        "WHERE EXISTS (SELECT 1 FROM newsletter WHERE id = ? AND bounced_at IS NULL) " +
        "ON CONFLICT DO NOTHING",
    ).run(message.kind, subscriberId, JSON.stringify(message.payload), iso(dueAt), iso(Date.now()), key, subscriberId);
    return result.changes > 0;
  }

  async markIssueQueued(id: number, now: number): Promise<void> {
    this.sql("UPDATE newsletter_issues SET queued_at = ? WHERE id = ?").run(iso(now), id);
  }

  async markRefused(id: number, error: string, now: number): Promise<void> {
    const db = this.open();
    immediate(db, () => {
      const row = this.sql("SELECT submission_type, submission_id FROM outbox WHERE id = ?").get(id) as
        { submission_type: SubmissionType; submission_id: number } | undefined;
      this.sql(
        "UPDATE outbox SET refused_at = ?, attempts = attempts + 1, last_error = ? " +
          "WHERE id = ? AND delivered_at IS NULL",
      ).run(iso(now), error, id);
      if (row?.submission_type !== "newsletter") return;
      this.sql("UPDATE newsletter SET bounced_at = ?, bounce_reason = ? WHERE id = ? AND bounced_at IS NULL").run(
        iso(now),
        error,
        row.submission_id,
      );
      this.sql(
        "UPDATE outbox SET refused_at = ?, last_error = ? WHERE submission_type = 'newsletter' " +
          "AND submission_id = ? AND kind = 'issue' AND delivered_at IS NULL AND refused_at IS NULL",
      ).run(iso(now), error, row.submission_id);
    });
  }

  async issueProgress(prefix: string): Promise<IssueProgress> {
    const row = this.sql(
      "SELECT count(*) AS total, count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered, " +
        "count(*) FILTER (WHERE refused_at IS NOT NULL) AS refused, " +
        "count(*) FILTER (WHERE delivered_at IS NULL AND refused_at IS NULL AND attempts > 0) AS failing " +
        "FROM outbox WHERE dedupe_key LIKE ?",
    ).get(`${prefix}%`) as { total: number; delivered: number; failing: number; refused: number };
    return { ...row, pending: row.total - row.delivered - row.failing - row.refused };
  }

  async respace(prefix: string, from: number, intervalMs: number): Promise<void> {
    const db = this.open();
    immediate(db, () => {
      const rows = this.sql(
        "SELECT id FROM outbox WHERE dedupe_key LIKE ? AND delivered_at IS NULL AND refused_at IS NULL " +
          "AND attempts = 0 AND next_attempt_at <= ? ORDER BY next_attempt_at, id",
      ).all(`${prefix}%`, iso(from)) as { id: number }[];
      const last = this.sql(
        "SELECT max(next_attempt_at) AS last FROM outbox WHERE dedupe_key LIKE ? AND delivered_at IS NULL " +
          "AND attempts = 0 AND next_attempt_at > ?",
      ).get(`${prefix}%`, iso(from)) as { last: string | null };
      const start = last.last === null ? from : Date.parse(last.last) + intervalMs;
      const update = this.sql("UPDATE outbox SET next_attempt_at = ? WHERE id = ?");
      rows.forEach((row, i) => update.run(iso(start + i * intervalMs), row.id));
    });
  }

  async close(): Promise<void> {
    // Synchronous inside: the file is closed (and its WAL checkpointed) before close() returns its promise.
    this.statements.clear();
    this.db?.close();
    this.db = undefined;
  }
}
