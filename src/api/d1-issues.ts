/**
 * The newsletter's issues in D1, for the issues endpoint of the Cloudflare Pages worker
 * (newsletter-issues.ts): the SQLite store's tables (newsletter_issues, the outbox's unique dedupe_key and
 * refused_at, the subscription's bounced_at) and its queries, reshaped for D1's batches, which are its only
 * transactions. No Node API here.
 */
import { D1SubmissionStore } from "./d1-store.ts";
import type { IssueProgress, IssueRecord, IssueStore, NewIssue, OutboxMessage } from "./store.ts";

const iso = (ms: number) => new Date(ms).toISOString();
/** Updates per batch when the copies are spaced out. */
const BATCH = 100;

/** The subscription of the outbox row ?3, when it is a newsletter signup. */
const SUBSCRIPTION_OF_ROW = "(SELECT submission_id FROM outbox WHERE id = ?3 AND submission_type = 'newsletter')";

export class D1IssueStore extends D1SubmissionStore implements IssueStore {
  async issues(): Promise<IssueRecord[]> {
    const rows = await this.all<Omit<IssueRecord, "articles"> & { articles: string }>(
      "SELECT * FROM newsletter_issues ORDER BY id",
    );
    return rows.map((row) => ({ ...row, articles: JSON.parse(row.articles) as string[] }));
  }

  async recordIssue(issue: NewIssue): Promise<number> {
    const [row] = await this.all<{ id: number }>(
      "INSERT INTO newsletter_issues (locale, day, articles, intro, subject, html, text, created_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      ...[issue.locale, issue.day, JSON.stringify(issue.articles), issue.intro],
      ...[issue.subject, issue.html, issue.text, issue.createdAt],
    );
    return row.id;
  }

  async queueOnce(key: string, subscriberId: number, message: OutboxMessage, dueAt: number): Promise<boolean> {
    const added = await this.all<{ id: number }>(
      "INSERT INTO outbox (kind, submission_type, submission_id, payload, next_attempt_at, created_at, dedupe_key) " +
        "SELECT ?1, 'newsletter', ?2, ?3, ?4, ?5, ?6 " +
        "WHERE EXISTS (SELECT 1 FROM newsletter WHERE id = ?2 AND bounced_at IS NULL) " +
        "ON CONFLICT DO NOTHING RETURNING id",
      ...[message.kind, subscriberId, JSON.stringify(message.payload), iso(dueAt), iso(Date.now()), key],
    );
    return added.length > 0;
  }

  async markIssueQueued(id: number, now: number): Promise<void> {
    await this.all("UPDATE newsletter_issues SET queued_at = ? WHERE id = ?", iso(now), id);
  }

  async markRefused(id: number, error: string, now: number): Promise<void> {
    await this.ready();
    const at = iso(now);
    // One batch, one transaction: the copy, its subscription, and every other copy queued for it.
    await this.db.batch([
      this.db
        .prepare(
          "UPDATE outbox SET refused_at = ?1, attempts = attempts + 1, last_error = ?2 " +
            "WHERE id = ?3 AND delivered_at IS NULL",
        )
        .bind(at, error, id),
      this.db
        .prepare(
          `UPDATE newsletter SET bounced_at = ?1, bounce_reason = ?2 WHERE id = ${SUBSCRIPTION_OF_ROW} ` +
            "AND bounced_at IS NULL",
        )
        .bind(at, error, id),
      this.db
        .prepare(
          "UPDATE outbox SET refused_at = ?1, last_error = ?2 WHERE submission_type = 'newsletter' " +
            `AND submission_id = ${SUBSCRIPTION_OF_ROW} AND kind = 'issue' AND delivered_at IS NULL ` +
            "AND refused_at IS NULL",
        )
        .bind(at, error, id),
    ]);
  }

  async issueProgress(prefix: string): Promise<IssueProgress> {
    const [row] = await this.all<{ total: number; delivered: number; failing: number; refused: number }>(
      "SELECT count(*) AS total, count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered, " +
        "count(*) FILTER (WHERE refused_at IS NOT NULL) AS refused, " +
        "count(*) FILTER (WHERE delivered_at IS NULL AND refused_at IS NULL AND attempts > 0) AS failing " +
        "FROM outbox WHERE dedupe_key LIKE ?",
      `${prefix}%`,
    );
    return { ...row, pending: row.total - row.delivered - row.failing - row.refused };
  }

  /**
   * As the SQLite store's, in batches: each update repeats the row's conditions, so a row a worker claimed
   * between the read and the update (its lease moved next_attempt_at past `from`) keeps its lease.
   */
  async respace(prefix: string, from: number, intervalMs: number): Promise<void> {
    const rows = await this.all<{ id: number }>(
      "SELECT id FROM outbox WHERE dedupe_key LIKE ? AND delivered_at IS NULL AND refused_at IS NULL " +
        "AND attempts = 0 AND next_attempt_at <= ? ORDER BY next_attempt_at, id",
      `${prefix}%`,
      iso(from),
    );
    const [last] = await this.all<{ last: string | null }>(
      "SELECT max(next_attempt_at) AS last FROM outbox WHERE dedupe_key LIKE ? AND delivered_at IS NULL " +
        "AND attempts = 0 AND next_attempt_at > ?",
      `${prefix}%`,
      iso(from),
    );
    const start = last.last === null ? from : Date.parse(last.last) + intervalMs;
    const update = "UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND attempts = 0 AND next_attempt_at <= ?";
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      await this.db.batch(
        chunk.map((row, j) => this.db.prepare(update).bind(iso(start + (i + j) * intervalMs), row.id, iso(from))),
      );
    }
  }
}
