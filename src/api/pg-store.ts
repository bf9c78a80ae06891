import pg from "pg";
import { migratePg } from "./pg-migrations.ts";
import { PgRateLimiter } from "./pg-rate-limit.ts";
import { connectionFailure, describeDatabaseUrl } from "./pg-url.ts";
import {
  deliveryOf,
  emailKey,
  retentionMs,
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
  type SentIssue,
  type SubjectData,
  type SubmissionStore,
  outboxOf,
  type SubmissionType,
} from "./store.ts";

type Db = pg.Pool | pg.PoolClient;
type Row = Record<string, unknown>;

const COLUMNS: Record<SubmissionType, string> = {
  newsletter: "id, email, locale, created_at, suspect, confirmed_at, bounced_at, bounce_reason",
  contact: "id, first_name, last_name, email, company, message, locale, created_at, suspect",
};

/** The filter of an aggregate that keeps the outbox rows not delivered yet. */
const UNDELIVERED = "FILTER (WHERE delivered_at IS NULL)";

/** The outbox rows of the submissions of one address ($1: its key). */
const OUTBOX_OF_EMAIL = `${outboxOf("newsletter", "email_key = $1")}
  OR ${outboxOf("contact", "email_key = $1")}`;

/** The outbox rows of the newsletter signups older than $1 and of the contact messages older than $2. */
const OUTBOX_BEFORE = `${outboxOf("newsletter", "created_at < $1::timestamptz")}
  OR ${outboxOf("contact", "created_at < $2::timestamptz")}`;

/** The issues queued for the address whose key is $1: each copy's issue, and when it was sent or refused. */
const SENT_ISSUES = `SELECT i.id AS issue, i.day, i.locale, i.articles, i.subject,
    o.delivered_at AS sent_at, o.refused_at
  FROM outbox o JOIN newsletter_issues i ON i.id = (o.payload->>'issue')::integer
  WHERE o.kind = 'issue' AND ${outboxOf("newsletter", "email_key = $1")}`;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null));

/** A submission row as the other stores give it: times in ISO 8601, the mark as 0 or 1. */
function submissionRow(row: Row): Row {
  const out: Row = { ...row, created_at: iso(row.created_at), suspect: row.suspect ? 1 : 0 };
  if ("confirmed_at" in row) out.confirmed_at = iso(row.confirmed_at);
  if ("bounced_at" in row) out.bounced_at = iso(row.bounced_at);
  return out;
}

function outboxRow(row: Row): OutboxRow {
  return {
    ...(row as unknown as OutboxRow),
    next_attempt_at: iso(row.next_attempt_at) as string,
    delivered_at: iso(row.delivered_at),
    created_at: iso(row.created_at) as string,
    ...("refused_at" in row ? { refused_at: iso(row.refused_at) } : {}),
  };
}

export interface PgStoreOptions {
  /** Connections in the pool (default 10): mind the server's max_connections when many instances share it. */
  max?: number;
  /**
   * Give up connecting after this long (default 10 s), so an unreachable server fails a request instead of hanging it.
   */
  connectionTimeoutMillis?: number;
}

/**
 * Submissions in PostgreSQL (DATABASE_URL), for several instances of the server sharing one database, or a
 * managed one. A pool of connections; the schema is migrated on first use (ready()), retried on the next call
 * if that failed. The rate limit's counts live here too (rateLimiter), so it holds across instances.
 */
export class PgSubmissionStore implements SubmissionStore, IssueStore {
  readonly pool: pg.Pool;
  /** host:port/database, without credentials, for messages. */
  readonly target: string;
  private opening: Promise<void> | undefined;

  constructor(connectionString: string, options: PgStoreOptions = {}) {
    this.target = describeDatabaseUrl(connectionString);
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server drops (a restart, a failover) must not end the process; the pool replaces it.
    this.pool.on("error", (error) =>
      console.error(`sitegen: a PostgreSQL connection to ${this.target} failed: ${error.message}`),
    );
  }

  ready(): Promise<void> {
    this.opening ??= migratePg(this.pool).then(
      () => undefined,
      (error: unknown) => {
        this.opening = undefined;
        throw connectionFailure(error, this.target);
      },
    );
    return this.opening;
  }

  private async query(text: string, values: unknown[] = [], db: Db = this.pool): Promise<pg.QueryResult<Row>> {
    await this.ready();
    return db.query<Row>(text, values);
  }

  /** `work` inside BEGIN … COMMIT on one connection; rolled back if it throws. */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async enqueue(
    client: Db,
    type: SubmissionType,
    id: unknown,
    messages: readonly OutboxMessage[],
    createdAt: string,
  ): Promise<void> {
    for (const m of messages) {
      await client.query(
        "INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at) " +
          "VALUES ($1, $2, $3, $4::jsonb, $5, $5)",
        [m.kind, type, id, JSON.stringify(m.payload ?? null), createdAt],
      );
    }
  }

  async addNewsletter(entry: NewsletterEntry, outbox: readonly OutboxMessage[] = []): Promise<"added" | "exists"> {
    const key = emailKey(entry.email);
    const add = async (db: Db) => {
      const inserted = await db.query<Row>(
        "INSERT INTO newsletter (email, email_key, locale, created_at, suspect, confirmed_at) " +
          "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email_key) DO NOTHING RETURNING id",
        [
          entry.email,
          key,
          entry.locale,
          entry.createdAt,
          entry.suspect === true,
          entry.confirmed === false ? null : entry.createdAt,
        ],
      );
      if (inserted.rowCount === 0) {
        // A person confirming an address that only a suspect submission had given clears the mark.
        if (!entry.suspect)
          await db.query("UPDATE newsletter SET suspect = false WHERE email_key = $1 AND suspect", [key]);
        return "exists" as const;
      }
      await this.enqueue(db, "newsletter", inserted.rows[0].id, outbox, entry.createdAt);
      return "added" as const;
    };
    // One statement needs no transaction of its own; with notifications to queue it does.
    if (outbox.length === 0) return this.ready().then(() => add(this.pool));
    return this.transaction(add);
  }

  async addContact(entry: ContactEntry, outbox: readonly OutboxMessage[] = []): Promise<void> {
    const add = async (db: Db) => {
      const inserted = await db.query<Row>(
        `INSERT INTO contact (first_name, last_name, email, email_key, company, message, locale, created_at, suspect)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          entry.firstName,
          entry.lastName,
          entry.email,
          emailKey(entry.email),
          entry.company,
          entry.message,
          entry.locale,
          entry.createdAt,
          entry.suspect === true,
        ],
      );
      await this.enqueue(db, "contact", inserted.rows[0].id, outbox, entry.createdAt);
    };
    if (outbox.length === 0) return this.ready().then(() => add(this.pool));
    return this.transaction(add);
  }

  async confirmNewsletter(
    email: string,
    now: number,
    outbox: readonly OutboxMessage[] = [],
  ): Promise<"confirmed" | "already" | "missing"> {
    const key = emailKey(email);
    const at = new Date(now).toISOString();
    return this.transaction(async (client) => {
      const found = await client.query<Row>("SELECT id, confirmed_at FROM newsletter WHERE email_key = $1 FOR UPDATE", [
        key,
      ]);
      if (found.rowCount === 0) return "missing" as const;
      if (found.rows[0].confirmed_at !== null) return "already" as const;
      await client.query("UPDATE newsletter SET confirmed_at = $1 WHERE id = $2", [at, found.rows[0].id]);
      await this.enqueue(client, "newsletter", found.rows[0].id, outbox, at);
      return "confirmed" as const;
    });
  }

  async purgeUnconfirmed(days: number, now: number): Promise<RemovedRows> {
    const cutoff = new Date(now - retentionMs(days)).toISOString();
    const stale = "SELECT id FROM newsletter WHERE confirmed_at IS NULL AND created_at < $1";
    return this.transaction(async (client) => ({
      outbox:
        (
          await client.query(
            `DELETE FROM outbox WHERE submission_type = 'newsletter' AND submission_id IN (${stale})`,
            [cutoff],
          )
        ).rowCount ?? 0,
      newsletter: (await client.query(`DELETE FROM newsletter WHERE id IN (${stale})`, [cutoff])).rowCount ?? 0,
      contact: 0,
    }));
  }

  async list<T extends SubmissionType>(type: T): Promise<ListedRow<T>[]> {
    const { rows } = await this.query(
      "SELECT s.*, coalesce(o.total, 0) AS total, coalesce(o.undelivered, 0) AS undelivered, " +
        `coalesce(o.attempts, 0) AS attempts, coalesce(o.refused, 0) AS refused,
         coalesce(o.pending_attempts, 0) AS pending_attempts, o.last_error
       FROM (SELECT ${COLUMNS[type]} FROM ${type}) s
       LEFT JOIN (
         SELECT submission_id, count(*)::int AS total, (count(*) ${UNDELIVERED})::int AS undelivered,
           (count(*) FILTER (WHERE refused_at IS NOT NULL))::int AS refused,
           max(attempts) AS attempts, max(attempts) ${UNDELIVERED} AS pending_attempts,
           max(last_error) ${UNDELIVERED} AS last_error
         FROM outbox WHERE submission_type = $1 GROUP BY submission_id
       ) o ON o.submission_id = s.id
       ORDER BY s.id`,
      [type],
    );
    return rows.map(({ total, undelivered, attempts, refused, pending_attempts, last_error, ...row }) => ({
      ...submissionRow(row),
      ...deliveryOf({
        refused: refused as number,
        total: total as number,
        undelivered: undelivered as number,
        attempts: attempts as number,
        pendingAttempts: pending_attempts as number,
        lastError: last_error as string | null,
      }),
    })) as ListedRow<T>[];
  }

  async claimOutbox({ now, limit = 10, leaseMs = 300_000, skipKinds = [] }: ClaimOptions): Promise<OutboxRow[]> {
    // SKIP LOCKED: two workers claiming at once take different rows instead of waiting for each other.
    const due =
      "SELECT id FROM outbox WHERE delivered_at IS NULL AND refused_at IS NULL AND next_attempt_at <= $2 " +
      "AND NOT (kind = ANY($4::text[])) " +
      "ORDER BY next_attempt_at, id";
    const { rows } = await this.query(
      `UPDATE outbox SET next_attempt_at = $1 WHERE id IN (
         ${due} LIMIT $3 FOR UPDATE SKIP LOCKED
       ) RETURNING *`,
      [new Date(now + leaseMs).toISOString(), new Date(now).toISOString(), limit, [...skipKinds]],
    );
    return rows.map(outboxRow).sort((a, b) => a.id - b.id);
  }

  async markDelivered(id: number, now: number): Promise<void> {
    await this.query(
      "UPDATE outbox SET delivered_at = $1, attempts = attempts + 1, last_error = NULL " +
        "WHERE id = $2 AND delivered_at IS NULL",
      [new Date(now).toISOString(), id],
    );
  }

  async markFailed(id: number, error: string, nextAttemptAt: number): Promise<void> {
    await this.query(
      "UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 " +
        "WHERE id = $3 AND delivered_at IS NULL",
      [error, new Date(nextAttemptAt).toISOString(), id],
    );
  }

  async findByEmail(email: string): Promise<SubjectData> {
    const key = emailKey(email);
    const [newsletter, contact, issues, outbox] = await Promise.all([
      this.query(`SELECT ${COLUMNS.newsletter} FROM newsletter WHERE email_key = $1 ORDER BY id`, [key]),
      this.query(`SELECT ${COLUMNS.contact} FROM contact WHERE email_key = $1 ORDER BY id`, [key]),
      this.query(`${SENT_ISSUES} ORDER BY o.id`, [key]),
      this.query(`SELECT * FROM outbox WHERE ${OUTBOX_OF_EMAIL} ORDER BY id`, [key]),
    ]);
    return {
      newsletter: newsletter.rows.map(submissionRow) as unknown as SubjectData["newsletter"],
      contact: contact.rows.map(submissionRow) as unknown as SubjectData["contact"],
      issues: issues.rows.map((row) => ({
        ...(row as unknown as SentIssue),
        sent_at: iso(row.sent_at),
        refused_at: iso(row.refused_at),
      })),
      outbox: outbox.rows.map(outboxRow),
    };
  }

  async unsubscribe(email: string): Promise<"removed" | "missing"> {
    const key = emailKey(email);
    return this.transaction(async (client) => {
      await client.query(`DELETE FROM outbox WHERE ${outboxOf("newsletter", "email_key = $1")}`, [key]);
      const removed = (await client.query("DELETE FROM newsletter WHERE email_key = $1", [key])).rowCount ?? 0;
      return removed > 0 ? "removed" : "missing";
    });
  }

  async deleteByEmail(email: string): Promise<RemovedRows> {
    const key = emailKey(email);
    return this.transaction(async (client) => ({
      // The outbox first: its rows are found through the submissions.
      outbox: (await client.query(`DELETE FROM outbox WHERE ${OUTBOX_OF_EMAIL}`, [key])).rowCount ?? 0,
      newsletter: (await client.query("DELETE FROM newsletter WHERE email_key = $1", [key])).rowCount ?? 0,
      contact: (await client.query("DELETE FROM contact WHERE email_key = $1", [key])).rowCount ?? 0,
    }));
  }

  async purgeOlderThan(
    days: number,
    now: number,
    types: readonly SubmissionType[] = ["newsletter", "contact"],
  ): Promise<RemovedRows> {
    const cutoff = new Date(now - retentionMs(days)).toISOString();
    // -infinity: no row is older, so a table not named is left alone.
    const before = (type: SubmissionType) => (types.includes(type) ? cutoff : "-infinity");
    return this.transaction(async (client) => ({
      outbox:
        (await client.query(`DELETE FROM outbox WHERE ${OUTBOX_BEFORE}`, [before("newsletter"), before("contact")]))
          .rowCount ?? 0,
      newsletter:
        (await client.query("DELETE FROM newsletter WHERE created_at < $1", [before("newsletter")])).rowCount ?? 0,
      contact: (await client.query("DELETE FROM contact WHERE created_at < $1", [before("contact")])).rowCount ?? 0,
    }));
  }

  rateLimiter(name: string, limit: number, windowMs: number): PgRateLimiter {
    return new PgRateLimiter((text, values) => this.query(text, values), name, limit, windowMs);
  }

  async issues(): Promise<IssueRecord[]> {
    const { rows } = await this.query("SELECT * FROM newsletter_issues ORDER BY id");
    return rows.map((row) => ({
      ...(row as unknown as IssueRecord),
      created_at: iso(row.created_at) as string,
      queued_at: iso(row.queued_at),
    }));
  }

  async recordIssue(issue: NewIssue): Promise<number> {
    const { rows } = await this.query(
      "INSERT INTO newsletter_issues (locale, day, articles, intro, subject, html, text, created_at) " +
        "VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8) RETURNING id",
      [
        issue.locale,
        issue.day,
        JSON.stringify(issue.articles),
        issue.intro,
        issue.subject,
        issue.html,
        issue.text,
      ].concat([issue.createdAt]),
    );
    return Number(rows[0].id);
  }

  async queueOnce(key: string, subscriberId: number, message: OutboxMessage, dueAt: number): Promise<boolean> {
    const result = await this.query(
      "INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at, dedupe_key) " +
        "SELECT $1, 'newsletter', $2, $3::jsonb, $4, now(), $5 " +
        "WHERE EXISTS (SELECT 1 FROM newsletter WHERE id = $2 AND bounced_at IS NULL) " +
        "ON CONFLICT DO NOTHING",
      [message.kind, subscriberId, JSON.stringify(message.payload), new Date(dueAt).toISOString(), key],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async markIssueQueued(id: number, now: number): Promise<void> {
    await this.query("UPDATE newsletter_issues SET queued_at = $1 WHERE id = $2", [new Date(now).toISOString(), id]);
  }

  async markRefused(id: number, error: string, now: number): Promise<void> {
    const at = new Date(now).toISOString();
    await this.transaction(async (client) => {
      const { rows } = await client.query<Row>(
        "UPDATE outbox SET refused_at = $1, attempts = attempts + 1, last_error = $2 " +
          "WHERE id = $3 AND delivered_at IS NULL RETURNING submission_type, submission_id",
        [at, error, id],
      );
      if (rows[0]?.submission_type !== "newsletter") return;
      const subscriber = rows[0].submission_id;
      await client.query(
        "UPDATE newsletter SET bounced_at = $1, bounce_reason = $2 WHERE id = $3 AND bounced_at IS NULL",
        [at, error, subscriber],
      );
      await client.query(
        "UPDATE outbox SET refused_at = $1, last_error = $2 WHERE submission_type = 'newsletter' " +
          "AND submission_id = $3 AND kind = 'issue' AND delivered_at IS NULL AND refused_at IS NULL",
        [at, error, subscriber],
      );
    });
  }

  async issueProgress(prefix: string): Promise<IssueProgress> {
    const { rows } = await this.query(
      "SELECT count(*)::int AS total, count(*) FILTER (WHERE delivered_at IS NOT NULL)::int AS delivered, " +
        "count(*) FILTER (WHERE refused_at IS NOT NULL)::int AS refused, " +
        "count(*) FILTER (WHERE delivered_at IS NULL AND refused_at IS NULL AND attempts > 0)::int AS failing " +
        "FROM outbox WHERE dedupe_key LIKE $1",
      [`${prefix}%`],
    );
    const { total, delivered, failing, refused } = rows[0] as Record<keyof IssueProgress, number>;
    return { total, delivered, failing, pending: total - delivered - failing - refused, refused };
  }

  async respace(prefix: string, from: number, intervalMs: number): Promise<void> {
    const step = "($3::double precision * interval '1 millisecond')";
    const never = "dedupe_key LIKE $1 AND delivered_at IS NULL AND refused_at IS NULL AND attempts = 0";
    await this.query(
      `UPDATE outbox o SET next_attempt_at = s.start + (r.rank - 1) * ${step}
         FROM (SELECT id, row_number() OVER (ORDER BY next_attempt_at, id) AS rank FROM outbox
               WHERE ${never} AND next_attempt_at <= $2) r,
              (SELECT coalesce(max(next_attempt_at) + ${step}, $2::timestamptz) AS start FROM outbox
               WHERE ${never} AND next_attempt_at > $2) s
         WHERE o.id = r.id`,
      [`${prefix}%`, new Date(from).toISOString(), intervalMs],
    );
  }

  async close(): Promise<void> {
    if (this.pool.ended || this.pool.ending) return;
    await this.pool.end();
  }
}
