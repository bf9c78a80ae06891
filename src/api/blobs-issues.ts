/**
 * The newsletter's issues in Netlify Blobs, for the issues endpoint of the Netlify Function
 * (newsletter-issues.ts), laid out as the rest of the store (blobs-store.ts):
 *
 * - `issues/<id>`: an issue as recorded, created only if absent; marked queued by a compare-and-swap.
 * - `issue-copies/<issue>/<subscriber>`: the id of that subscriber's copy, written only if absent before
 *   the copy itself, `outbox/<id>`, is. Queued again (a second post, or a run after a cut one), the marker
 *   is found and its copy is not written twice; a copy whose marker was written but not the copy (a crash
 *   between the two) is written then, under the marker's id. A marker holds ids only, no address, and goes
 *   with its copy when the subscription is erased (blobs-store.ts).
 * - A copy is an outbox blob of its subscriber, with `dedupe_key`, and `refused_at` once the mail server
 *   refused the address for good (the subscription then gets `bounced_at` and `bounce_reason`).
 *
 * Reading the progress reads every outbox blob, as listing does: fine for a firm's list of subscribers.
 */
import {
  BlobsSubmissionStore,
  copyMarkerKey as markerKey,
  outboxKey,
  type NewsletterBlob,
  type OutboxBlob,
} from "./blobs-store.ts";
import type { IssueProgress, IssueRecord, IssueStore, NewIssue, OutboxMessage } from "./store.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const issueKey = (id: number) => `issues/${String(id).padStart(16, "0")}`;

export class BlobsIssueStore extends BlobsSubmissionStore implements IssueStore {
  /** Subscription id → its blob, read once per listing (a queue run asks for every subscriber in turn). */
  private subscribers = new Map<number, string>();

  async issues(): Promise<IssueRecord[]> {
    return this.readAll<IssueRecord>("issues");
  }

  async recordIssue(issue: NewIssue): Promise<number> {
    const { createdAt, ...fields } = issue;
    const record = await this.create<IssueRecord>("issues", (id) => ({
      id,
      ...fields,
      created_at: createdAt,
      queued_at: null,
    }));
    return record.id;
  }

  private async subscription(id: number): Promise<NewsletterBlob | undefined> {
    if (!this.subscribers.has(id)) {
      const rows = await this.readAll<NewsletterBlob>("newsletter");
      this.subscribers = new Map(rows.map((row) => [row.id, row.key]));
    }
    const key = this.subscribers.get(id);
    const row = key ? ((await this.blobs().get(key, { type: "json" })) as NewsletterBlob | null) : null;
    return row?.id === id ? row : undefined;
  }

  async queueOnce(key: string, subscriberId: number, message: OutboxMessage, dueAt: number): Promise<boolean> {
    const subscriber = await this.subscription(subscriberId);
    if (!subscriber || subscriber.bounced_at) return false;
    const marker = markerKey(key);
    let id = this.nextId();
    if (!(await this.blobs().setJSON(marker, { id }, { onlyIfNew: true })).modified) {
      const found = (await this.blobs().get(marker, { type: "json" })) as { id: number } | null;
      if (!found) return false;
      id = found.id;
    }
    const at = iso(Date.now());
    const copy: OutboxBlob = {
      ...{ id, kind: message.kind, submission_type: "newsletter", submission_id: subscriber.id },
      ...{ submission_key: subscriber.key, email_key: subscriber.email_key, dedupe_key: key },
      ...{ payload: JSON.parse(JSON.stringify(message.payload ?? null)) as unknown, attempts: 0 },
      ...{ next_attempt_at: iso(dueAt), last_error: null, delivered_at: null, created_at: at, refused_at: null },
    };
    // The copy may have been delivered and kept, or erased with its subscriber: either way it is not written.
    return (await this.blobs().setJSON(outboxKey(id), copy, { onlyIfNew: true })).modified;
  }

  async markIssueQueued(id: number, now: number): Promise<void> {
    await this.update<IssueRecord>(issueKey(id), (issue) =>
      issue.queued_at === null ? { ...issue, queued_at: iso(now) } : undefined,
    );
  }

  async markRefused(id: number, error: string, now: number): Promise<void> {
    const at = iso(now);
    const refused = await this.update<OutboxBlob>(outboxKey(id), (o) =>
      o.delivered_at === null ? { ...o, refused_at: at, attempts: o.attempts + 1, last_error: error } : undefined,
    );
    if (!refused || refused.submission_type !== "newsletter") return;
    await this.update<NewsletterBlob>(refused.submission_key, (row) =>
      row.bounced_at ? undefined : { ...row, bounced_at: at, bounce_reason: error },
    );
    const others = (await this.readAll<OutboxBlob>("outbox")).filter(
      (o) => o.submission_key === refused.submission_key && o.kind === "issue" && o.delivered_at === null,
    );
    for (const other of others.filter((o) => !o.refused_at))
      await this.update<OutboxBlob>(outboxKey(other.id), (o) =>
        o.delivered_at === null && !o.refused_at ? { ...o, refused_at: at, last_error: error } : undefined,
      );
  }

  private async copies(prefix: string): Promise<OutboxBlob[]> {
    return (await this.readAll<OutboxBlob>("outbox")).filter((o) => o.dedupe_key?.startsWith(prefix));
  }

  async issueProgress(prefix: string): Promise<IssueProgress> {
    const rows = await this.copies(prefix);
    const delivered = rows.filter((o) => o.delivered_at !== null).length;
    const refused = rows.filter((o) => o.refused_at).length;
    const failing = rows.filter((o) => o.delivered_at === null && !o.refused_at && o.attempts > 0).length;
    return { total: rows.length, delivered, refused, failing, pending: rows.length - delivered - refused - failing };
  }

  /** As the SQLite store's; each write is a compare-and-swap that keeps a lease a worker took meanwhile. */
  async respace(prefix: string, from: number, intervalMs: number): Promise<void> {
    const untried = (await this.copies(prefix)).filter(
      (o) => o.delivered_at === null && !o.refused_at && o.attempts === 0,
    );
    const byDue = (a: OutboxBlob, b: OutboxBlob) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.id - b.id;
    const due = untried.filter((o) => o.next_attempt_at <= iso(from)).sort(byDue);
    const later = untried.filter((o) => o.next_attempt_at > iso(from)).sort(byDue);
    const start = later.length === 0 ? from : Date.parse(later.at(-1)!.next_attempt_at) + intervalMs;
    for (const [i, row] of due.entries())
      await this.update<OutboxBlob>(outboxKey(row.id), (o) =>
        o.attempts === 0 && o.next_attempt_at <= iso(from)
          ? { ...o, next_attempt_at: iso(start + i * intervalMs) }
          : undefined,
      );
  }
}
