/**
 * Submissions in Cloudflare D1 (SQLite at Cloudflare, reached through a Worker binding), for a site deployed
 * to Cloudflare Pages. The schema is the SQLite store's own migrations (sqlite-migrations.ts), applied on
 * first use; the queries are the SQLite store's too, reshaped for D1, which has no interactive transactions:
 * what must happen together is one `batch()`, which D1 runs as one transaction, each statement depending on
 * the previous one through SQL alone (changes(), last_insert_rowid()).
 *
 * No Node API here: this module is bundled into the Pages worker (src/api/cloudflare.ts).
 */
import { D1RateLimiter } from "./d1-rate-limit.ts";
import { SCHEMA_MIGRATIONS_TABLE, SQLITE_MIGRATIONS, statementsOf, type SqliteMigration } from "./sqlite-migrations.ts";
import {
  listedRows,
  sentIssue,
  SQLITE_SENT_ISSUES,
  type CountedRow,
  emailKey,
  retentionMs,
  type ClaimOptions,
  type ContactEntry,
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

/** The part of Cloudflare's D1 binding this store uses (the types of @cloudflare/workers-types, narrowed). */
export interface D1Result<T = Record<string, unknown>> {
  results: T[];
  meta: { changes: number; last_row_id: number };
}
export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  run(): Promise<D1Result>;
}
export interface D1Database {
  prepare(sql: string): D1PreparedStatement;
  batch(statements: D1PreparedStatement[]): Promise<D1Result[]>;
}

const COLUMNS: Record<SubmissionType, string> = {
  newsletter: "id, email, locale, created_at, suspect, confirmed_at, bounced_at, bounce_reason",
  contact: "id, first_name, last_name, email, company, message, locale, created_at, suspect",
};

const OUTBOX_OF_EMAIL = `${outboxOf("newsletter", "email_key = ?1")}
  OR ${outboxOf("contact", "email_key = ?1")}`;

/** The outbox rows of the newsletter signups older than ?1 and of the contact messages older than ?2. */
const OUTBOX_BEFORE = `${outboxOf("newsletter", "created_at < ?1")}
  OR ${outboxOf("contact", "created_at < ?2")}`;

/** The subscriptions still unconfirmed and stored before ?1. */
const STALE_UNCONFIRMED = "SELECT id FROM newsletter WHERE confirmed_at IS NULL AND created_at < ?1";

/** A field of the outbox message `m` that json_each(?1) reads: its kind or its payload. */
const messageField = (field: "kind" | "payload") => `json_extract(m.value, '$.${field}')`;

/**
 * The outbox rows of the submission the previous statement of the batch inserted, one per message of the
 * JSON array bound as ?1. `added` is materialised first, so the rows this statement inserts do not move
 * last_insert_rowid() under it; `changes() = 1` tells an insert from a newsletter address already there.
 */
const ENQUEUE = (
  type: SubmissionType,
) => `WITH added(id) AS MATERIALIZED (SELECT last_insert_rowid() WHERE changes() = 1)
  INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at)
  SELECT ${messageField("kind")}, '${type}', added.id, ${messageField("payload")}, ?2, ?2
  FROM added, json_each(?1) AS m ORDER BY m.key`;

type RawOutbox = Omit<OutboxRow, "payload"> & { payload: string };
const outboxRow = (row: RawOutbox): OutboxRow => ({ ...row, payload: JSON.parse(row.payload) });
const iso = (ms: number) => new Date(ms).toISOString();
const SLEEP = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The outbox messages as the JSON array ENQUEUE reads; a message without a kind is refused, as the column is NOT NULL.
 */
function outboxJson(messages: readonly OutboxMessage[]): string {
  return JSON.stringify(messages.map((m) => ({ kind: m.kind, payload: JSON.stringify(m.payload ?? null) })));
}

/**
 * Applies the migrations not yet recorded, each in one batch with its record in schema_migrations. Two
 * isolates starting at once may both try one: the second batch fails on the first's tables and is rolled
 * back whole, and the migration is then found applied. Bounded: each migration is tried a few times.
 */
export async function migrateD1(
  db: D1Database,
  migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS,
): Promise<number[]> {
  await db.prepare(SCHEMA_MIGRATIONS_TABLE).run();
  const applied: number[] = [];
  for (const migration of migrations) {
    for (let attempt = 1; ; attempt++) {
      const done = await db
        .prepare("SELECT 1 AS done FROM schema_migrations WHERE version = ?")
        .bind(migration.version)
        .all();
      if (done.results.length > 0) break;
      try {
        await db.batch([
          ...statementsOf(migration).map((sql) => db.prepare(sql)),
          db
            .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
            .bind(migration.version, migration.name, new Date().toISOString()),
        ]);
        applied.push(migration.version);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        await SLEEP(50 * attempt);
      }
    }
  }
  return applied;
}

/**
 * The store over a D1 binding. The rate limit's counts live here too (rateLimiter): Cloudflare runs the
 * worker in as many isolates as the traffic needs, each with its own memory, and only D1 is shared by all,
 * so only there does the limit hold whichever isolate a post reaches. That costs a write per form post
 * (never per page view), which D1's single writer takes in turn.
 */
export class D1SubmissionStore implements SubmissionStore {
  private migrated: Promise<unknown> | undefined;

  constructor(protected readonly db: D1Database) {}

  /** Migrates once per store; a failed attempt is forgotten, so the next call tries again. */
  async ready(): Promise<void> {
    this.migrated ??= migrateD1(this.db).catch((error) => {
      this.migrated = undefined;
      throw error;
    });
    await this.migrated;
  }

  protected async all<T>(sql: string, ...values: unknown[]): Promise<T[]> {
    await this.ready();
    return (
      await this.db
        .prepare(sql)
        .bind(...values)
        .all<T>()
    ).results;
  }

  async addNewsletter(entry: NewsletterEntry, outbox: readonly OutboxMessage[] = []): Promise<"added" | "exists"> {
    await this.ready();
    const key = emailKey(entry.email);
    const statements = [
      this.db
        .prepare(
          "INSERT INTO newsletter (email, email_key, locale, created_at, suspect, confirmed_at) " +
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        )
        .bind(
          entry.email,
          key,
          entry.locale,
          entry.createdAt,
          entry.suspect ? 1 : 0,
          entry.confirmed === false ? null : entry.createdAt,
        ),
    ];
    // Right after the insert, so changes() is the insert's.
    if (outbox.length > 0)
      statements.push(this.db.prepare(ENQUEUE("newsletter")).bind(outboxJson(outbox), entry.createdAt));
    // A person confirming an address that only a suspect submission had given clears the mark; a row this
    // batch just inserted is left as it is (its suspect value is this entry's).
    if (!entry.suspect)
      statements.push(
        this.db.prepare("UPDATE newsletter SET suspect = 0 WHERE email_key = ? AND suspect = 1").bind(key),
      );
    const [inserted] = await this.db.batch(statements);
    return inserted.meta.changes === 1 ? "added" : "exists";
  }

  async addContact(entry: ContactEntry, outbox: readonly OutboxMessage[] = []): Promise<void> {
    await this.ready();
    const statements = [
      this.db
        .prepare(
          "INSERT INTO contact (first_name, last_name, email, email_key, company, message, locale, " +
            "created_at, suspect) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          entry.firstName,
          entry.lastName,
          entry.email,
          emailKey(entry.email),
          entry.company,
          entry.message,
          entry.locale,
          entry.createdAt,
          entry.suspect ? 1 : 0,
        ),
    ];
    if (outbox.length > 0)
      statements.push(this.db.prepare(ENQUEUE("contact")).bind(outboxJson(outbox), entry.createdAt));
    await this.db.batch(statements);
  }

  async confirmNewsletter(
    email: string,
    now: number,
    outbox: readonly OutboxMessage[] = [],
  ): Promise<"confirmed" | "already" | "missing"> {
    await this.ready();
    const key = emailKey(email);
    const statements = [
      this.db
        .prepare("UPDATE newsletter SET confirmed_at = ?1 WHERE email_key = ?2 AND confirmed_at IS NULL")
        .bind(iso(now), key),
    ];
    // Right after the update, so changes() is the update's: queued only with a confirmation made now.
    if (outbox.length > 0) {
      statements.push(
        this.db
          .prepare(
            `WITH confirmed(id) AS MATERIALIZED (SELECT id FROM newsletter WHERE email_key = ?3 AND changes() = 1)
               INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at)
               SELECT ${messageField("kind")}, 'newsletter', confirmed.id, ${messageField("payload")}, ?2, ?2
               FROM confirmed, json_each(?1) AS m ORDER BY m.key`,
          )
          .bind(outboxJson(outbox), iso(now), key),
      );
    }
    statements.push(this.db.prepare("SELECT count(*) AS stored FROM newsletter WHERE email_key = ?1").bind(key));
    const results = await this.db.batch(statements);
    if (results[0].meta.changes === 1) return "confirmed";
    const [{ stored }] = results.at(-1)!.results as { stored: number }[];
    return stored > 0 ? "already" : "missing";
  }

  async purgeUnconfirmed(days: number, now: number): Promise<RemovedRows> {
    const cutoff = iso(now - retentionMs(days));
    await this.ready();
    const [outbox, newsletter] = await this.db.batch([
      this.db
        .prepare(`DELETE FROM outbox WHERE submission_type = 'newsletter' AND submission_id IN (${STALE_UNCONFIRMED})`)
        .bind(cutoff),
      this.db.prepare(`DELETE FROM newsletter WHERE id IN (${STALE_UNCONFIRMED})`).bind(cutoff),
    ]);
    return { newsletter: newsletter.meta.changes, contact: 0, outbox: outbox.meta.changes };
  }

  async list<T extends SubmissionType>(type: T): Promise<ListedRow<T>[]> {
    const rows = await this.all<CountedRow>(
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
      type,
    );
    return listedRows<T>(rows);
  }

  async claimOutbox({ now, limit = 10, leaseMs = 300_000, skipKinds = [] }: ClaimOptions): Promise<OutboxRow[]> {
    const skip = skipKinds.length ? `AND kind NOT IN (${skipKinds.map(() => "?").join(", ")})` : "";
    const rows = await this.all<RawOutbox>(
      `UPDATE outbox SET next_attempt_at = ? WHERE id IN (
         SELECT id FROM outbox WHERE delivered_at IS NULL AND refused_at IS NULL AND next_attempt_at <= ? ${skip}
         ORDER BY next_attempt_at, id LIMIT ?
       ) RETURNING *`,
      iso(now + leaseMs),
      iso(now),
      ...skipKinds,
      limit,
    );
    return rows.map(outboxRow).sort((a, b) => a.id - b.id);
  }

  async markDelivered(id: number, now: number): Promise<void> {
    await this.all(
      "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = NULL " +
        "WHERE id = ? AND delivered_at IS NULL",
      iso(now),
      id,
    );
  }

  async markFailed(id: number, error: string, nextAttemptAt: number): Promise<void> {
    await this.all(
      "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? " +
        "WHERE id = ? AND delivered_at IS NULL",
      error,
      iso(nextAttemptAt),
      id,
    );
  }

  async findByEmail(email: string): Promise<SubjectData> {
    const key = emailKey(email);
    return {
      newsletter: await this.all(`SELECT ${COLUMNS.newsletter} FROM newsletter WHERE email_key = ? ORDER BY id`, key),
      contact: await this.all(`SELECT ${COLUMNS.contact} FROM contact WHERE email_key = ? ORDER BY id`, key),
      issues: (await this.all<Parameters<typeof sentIssue>[0]>(SQLITE_SENT_ISSUES, key)).map(sentIssue),
      outbox: (await this.all<RawOutbox>(`SELECT * FROM outbox WHERE ${OUTBOX_OF_EMAIL} ORDER BY id`, key)).map(
        outboxRow,
      ),
    };
  }

  /**
   * Three deletes in one batch (one transaction); the outbox first, as its rows are found through the
   * submissions. Each table's condition comes with the values it binds.
   */
  private async remove(where: Record<keyof RemovedRows, [sql: string, ...values: string[]]>): Promise<RemovedRows> {
    await this.ready();
    const [outbox, newsletter, contact] = await this.db.batch(
      (["outbox", "newsletter", "contact"] as const).map((table) => {
        const [sql, ...values] = where[table];
        return this.db.prepare(`DELETE FROM ${table} WHERE ${sql}`).bind(...values);
      }),
    );
    return { newsletter: newsletter.meta.changes, contact: contact.meta.changes, outbox: outbox.meta.changes };
  }

  async unsubscribe(email: string): Promise<"removed" | "missing"> {
    const key = emailKey(email);
    const removed = await this.remove({
      outbox: [outboxOf("newsletter", "email_key = ?1"), key],
      newsletter: ["email_key = ?1", key],
      contact: ["0"],
    });
    return removed.newsletter > 0 ? "removed" : "missing";
  }

  deleteByEmail(email: string): Promise<RemovedRows> {
    const key = emailKey(email);
    return this.remove({
      outbox: [OUTBOX_OF_EMAIL, key],
      newsletter: ["email_key = ?1", key],
      contact: ["email_key = ?1", key],
    });
  }

  async purgeOlderThan(
    days: number,
    now: number,
    types: readonly SubmissionType[] = ["newsletter", "contact"],
  ): Promise<RemovedRows> {
    const cutoff = iso(now - retentionMs(days));
    // A cutoff no row can be older than leaves a table alone.
    const before = (type: SubmissionType) => (types.includes(type) ? cutoff : "");
    return this.remove({
      outbox: [OUTBOX_BEFORE, before("newsletter"), before("contact")],
      newsletter: ["created_at < ?1", before("newsletter")],
      contact: ["created_at < ?1", before("contact")],
    });
  }

  rateLimiter(name: string, limit: number, windowMs: number): D1RateLimiter {
    return new D1RateLimiter(this.db, () => this.ready(), name, limit, windowMs);
  }

  /** The binding belongs to the runtime: nothing to close. */
  async close(): Promise<void> {}
}
