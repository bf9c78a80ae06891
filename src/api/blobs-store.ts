/**
 * Submissions in a Netlify Blobs store (named `submissions`), for the Netlify target when no DATABASE_URL
 * is set: nothing to set up, the store comes with the site. Blobs is a key-value store with no transactions
 * and no queries, so the layout does what a database would do with constraints:
 *
 * - `newsletter/<sha-256 of the lower-cased address>`: one blob per subscriber, written only if absent
 *   (`onlyIfNew`), so the address is de-duplicated on its lower-cased form whichever function instance
 *   takes the post; the first spelling and locale stay.
 * - `contact/<id>` and `outbox/<id>`: one blob per submission and per notification, each created only if
 *   absent, so no concurrent write can overwrite another.
 * - Changes to an existing blob (a suspect mark cleared, a subscription confirmed, a notification claimed,
 *   delivered or failed) are compare-and-swap writes (`onlyIfMatch` with the ETag read), retried a bounded
 *   number of times.
 * All of it relies on Netlify's service applying a write's condition as part of the write; the local Blobs
 * server of `netlify dev` checks and then writes, so there two racing writes can both pass.
 *
 * Ids are numbers, as the interface has them: the millisecond times a thousand plus a random number under a
 * thousand, and always above the instance's last one, so they grow with time (oldest first) and two
 * instances rarely draw the same;
 * a contact or outbox id that is already taken is seen by the create-only write and drawn again. A
 * notification names its submission by blob key, so a newsletter id shared by chance mixes nothing.
 *
 * What it cannot do as a database does: a submission and its notifications are separate writes, so the
 * notifications are checked before anything is written and the submission is removed again if one cannot be
 * queued (a crash between the two writes can leave a submission without its notification); and listing
 * reads every blob, which suits a firm's leads, not millions of rows. The rate limit's counts live here too
 * (blobs-rate-limit.ts), so it holds across function instances.
 */
import { getStore, type Store } from "@netlify/blobs";
import { BlobsRateLimiter, sha256 } from "./blobs-rate-limit.ts";
import {
  deliveryOf,
  emailKey,
  retentionMs,
  type ClaimOptions,
  type ContactEntry,
  type ContactRow,
  type IssueRecord,
  type ListedRow,
  type NewsletterEntry,
  type NewsletterRow,
  type OutboxMessage,
  type OutboxRow,
  type RemovedRows,
  type SubjectData,
  type SubmissionStore,
  type SubmissionType,
} from "./store.ts";

export const BLOBS_STORE_NAME = "submissions";

/** Bounded retries of a conditional write that lost a race (an id drawn twice, an ETag changed meanwhile). */
const MAX_TRIES = 8;

interface Stored {
  /** The blob's key, which notifications refer to. */
  key: string;
  email_key: string;
}
export type NewsletterBlob = NewsletterRow & Stored;
type ContactBlob = ContactRow & Stored;
export interface OutboxBlob extends OutboxRow {
  submission_key: string;
  email_key: string;
  /** A newsletter issue's copy: its unique key (issue and subscriber), blobs-issues.ts. */
  dedupe_key?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
export const outboxKey = (id: number) => `outbox/${String(id).padStart(16, "0")}`;
/** The marker of an issue's copy to one subscriber (blobs-issues.ts), from the copy's unique key. */
export const copyMarkerKey = (dedupeKey: string) => `issue-copies/${dedupeKey.replaceAll(":", "/")}`;

function checkMessages(messages: readonly OutboxMessage[]): { kind: string; payload: unknown }[] {
  return messages.map((m) => {
    if (typeof m.kind !== "string" || m.kind === "")
      throw new TypeError('A notification needs a kind (such as "email").');
    // Stored as JSON: a payload that cannot be (a cycle, a BigInt) throws here, before anything is written.
    return { kind: m.kind, payload: JSON.parse(JSON.stringify(m.payload ?? null)) as unknown };
  });
}

function withoutStored<T extends Stored>(row: T): Omit<T, keyof Stored> {
  const { key: _key, email_key: _emailKey, ...rest } = row;
  return rest;
}

/** A subscription blob written before double opt-in has no confirmed_at: it counts as confirmed when it was made. */
function newsletterBlob(blob: NewsletterBlob): NewsletterBlob {
  return blob.confirmed_at === undefined ? { ...blob, confirmed_at: blob.created_at } : blob;
}

function outboxRow(blob: OutboxBlob): OutboxRow {
  const { submission_key: _s, email_key: _e, dedupe_key: _d, ...row } = blob;
  return row;
}

export class BlobsSubmissionStore implements SubmissionStore {
  private store: Store | undefined;
  private lastId = 0;

  /** `store` for tests and scripts; by default the site's `submissions` store, from the function's environment. */
  constructor(private readonly given?: Store) {}

  protected blobs(): Store {
    // getStore reads the environment Netlify gives a function; outside one it throws, naming what is missing.
    this.store ??= this.given ?? getStore({ name: BLOBS_STORE_NAME, consistency: "strong" });
    return this.store;
  }

  protected nextId(): number {
    const drawn = Date.now() * 1000 + Math.floor(Math.random() * 1000);
    this.lastId = Math.max(drawn, this.lastId + 1);
    return this.lastId;
  }

  /** Creates a blob under a fresh id; `make` builds its content for that id. */
  protected async create<T>(prefix: string, make: (id: number, key: string) => T): Promise<T> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const id = this.nextId();
      const key = `${prefix}/${String(id).padStart(16, "0")}`;
      const value = make(id, key);
      if ((await this.blobs().setJSON(key, value, { onlyIfNew: true })).modified) return value;
    }
    throw new Error(`Could not find a free id under ${prefix}/ in ${MAX_TRIES} tries.`);
  }

  /** A blob with the ETag of that very content, for a compare-and-swap; undefined when it does not exist. */
  protected async readForUpdate<T>(key: string): Promise<{ data: T; etag: string } | undefined> {
    const found = await this.blobs().getWithMetadata(key, { type: "json" });
    if (!found) return undefined;
    if (found.etag) return { data: found.data as T, etag: found.etag };
    // The local Blobs server (netlify dev) sends no ETag with a read, only in listings: the ETag is taken
    // from a listing first and the content read after it, so a write in between fails the swap.
    const { blobs } = await this.blobs().list({ prefix: key });
    const etag = blobs.find((b) => b.key === key)?.etag;
    const data = (await this.blobs().get(key, { type: "json" })) as T | null;
    return etag && data !== null ? { data, etag } : undefined;
  }

  /**
   * Reads, changes and writes back one blob unless another write came in between; undefined when it is gone or
   * unchanged.
   */
  protected async update<T>(key: string, change: (value: T) => T | undefined): Promise<T | undefined> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const found = await this.readForUpdate<T>(key);
      if (!found) return undefined;
      const next = change(found.data);
      if (next === undefined) return undefined;
      if ((await this.blobs().setJSON(key, next, { onlyIfMatch: found.etag })).modified) return next;
    }
    throw new Error(`${key} kept changing during ${MAX_TRIES} tries to update it.`);
  }

  /** Every blob under `prefix`, by id; one removed between the listing and the read is left out. */
  protected async readAll<T extends { id: number }>(prefix: string): Promise<T[]> {
    const { blobs } = await this.blobs().list({ prefix: `${prefix}/` });
    const values: (T | null)[] = await Promise.all(blobs.map((b) => this.blobs().get(b.key, { type: "json" })));
    return values.filter((v) => v !== null).sort((a, b) => a.id - b.id);
  }

  /**
   * Queues `messages` for a submission just stored (or just confirmed). No transaction to roll back: if one
   * cannot be queued, what was queued is removed and `undo` takes back the submission's write (by default,
   * removes the submission), so nothing is half stored.
   */
  private async enqueue(
    type: SubmissionType,
    submission: { id: number; key: string; email_key: string },
    messages: { kind: string; payload: unknown }[],
    createdAt: string,
    undo: () => Promise<unknown> = () => this.blobs().delete(submission.key),
  ): Promise<void> {
    const written: string[] = [];
    try {
      for (const m of messages) {
        const blob = await this.create<OutboxBlob>("outbox", (id) => ({
          id,
          kind: m.kind,
          submission_type: type,
          submission_id: submission.id,
          submission_key: submission.key,
          email_key: submission.email_key,
          payload: m.payload,
          attempts: 0,
          next_attempt_at: createdAt,
          last_error: null,
          delivered_at: null,
          created_at: createdAt,
        }));
        written.push(outboxKey(blob.id));
      }
    } catch (error) {
      await Promise.allSettled([undo(), ...written.map((key) => this.blobs().delete(key))]);
      throw error;
    }
  }

  async ready(): Promise<void> {
    this.blobs();
  }

  rateLimiter(name: string, limit: number, windowMs: number): BlobsRateLimiter {
    return new BlobsRateLimiter(() => this.blobs(), name, limit, windowMs);
  }

  async addNewsletter(entry: NewsletterEntry, outbox: readonly OutboxMessage[] = []): Promise<"added" | "exists"> {
    const messages = checkMessages(outbox);
    const email_key = emailKey(entry.email);
    const key = `newsletter/${await sha256(email_key)}`;
    const row: NewsletterBlob = {
      id: this.nextId(),
      email: entry.email,
      locale: entry.locale,
      created_at: entry.createdAt,
      suspect: entry.suspect ? 1 : 0,
      confirmed_at: entry.confirmed === false ? null : entry.createdAt,
      key,
      email_key,
    };
    if (!(await this.blobs().setJSON(key, row, { onlyIfNew: true })).modified) {
      // A person confirming an address that only a suspect submission had given clears the mark.
      if (!entry.suspect)
        await this.update<NewsletterBlob>(key, (old) => (old.suspect === 1 ? { ...old, suspect: 0 } : undefined));
      return "exists";
    }
    await this.enqueue("newsletter", row, messages, entry.createdAt);
    return "added";
  }

  async confirmNewsletter(
    email: string,
    now: number,
    outbox: readonly OutboxMessage[] = [],
  ): Promise<"confirmed" | "already" | "missing"> {
    const messages = checkMessages(outbox);
    const key = `newsletter/${await sha256(emailKey(email))}`;
    let found: NewsletterBlob | undefined;
    // A compare-and-swap: of two confirmations racing, one write wins and the other then finds it confirmed.
    const confirmed = await this.update<NewsletterBlob>(key, (old) => {
      found = newsletterBlob(old);
      return found.confirmed_at === null ? { ...found, confirmed_at: iso(now) } : undefined;
    });
    if (!confirmed) return found ? "already" : "missing";
    // Taken back if a notification cannot be queued, so the person can confirm again.
    const unconfirm = () =>
      this.update<NewsletterBlob>(key, (row) =>
        row.confirmed_at === iso(now) ? { ...row, confirmed_at: null } : undefined,
      );
    await this.enqueue("newsletter", confirmed, messages, iso(now), unconfirm);
    return "confirmed";
  }

  async addContact(entry: ContactEntry, outbox: readonly OutboxMessage[] = []): Promise<void> {
    const messages = checkMessages(outbox);
    const email_key = emailKey(entry.email);
    const row = await this.create<ContactBlob>("contact", (id, key) => ({
      id,
      first_name: entry.firstName,
      last_name: entry.lastName,
      email: entry.email,
      company: entry.company,
      message: entry.message,
      locale: entry.locale,
      created_at: entry.createdAt,
      suspect: entry.suspect ? 1 : 0,
      key,
      email_key,
    }));
    await this.enqueue("contact", row, messages, entry.createdAt);
  }

  async list<T extends SubmissionType>(type: T): Promise<ListedRow<T>[]> {
    const [stored, outbox] = await Promise.all([
      this.readAll<NewsletterBlob | ContactBlob>(type),
      this.readAll<OutboxBlob>("outbox"),
    ]);
    const rows = type === "newsletter" ? (stored as NewsletterBlob[]).map(newsletterBlob) : stored;
    const bySubmission = new Map<string, OutboxBlob[]>();
    for (const o of outbox) bySubmission.set(o.submission_key, [...(bySubmission.get(o.submission_key) ?? []), o]);
    return rows.map((row) => {
      const mine = bySubmission.get(row.key) ?? [];
      const undelivered = mine.filter((o) => o.delivered_at === null);
      const errors = undelivered
        .map((o) => o.last_error)
        .filter((e): e is string => e !== null)
        .sort();
      return {
        ...withoutStored(row),
        ...deliveryOf({
          total: mine.length,
          undelivered: undelivered.length,
          attempts: Math.max(0, ...mine.map((o) => o.attempts)),
          pendingAttempts: Math.max(0, ...undelivered.map((o) => o.attempts)),
          lastError: errors.at(-1) ?? null,
          refused: mine.filter((o) => o.refused_at).length,
        }),
      } as unknown as ListedRow<T>;
    });
  }

  async claimOutbox({ now, limit = 10, leaseMs = 300_000, skipKinds = [] }: ClaimOptions): Promise<OutboxRow[]> {
    const due = (await this.readAll<OutboxBlob>("outbox"))
      .filter((o) => o.delivered_at === null && !o.refused_at && o.next_attempt_at <= iso(now))
      .filter((o) => !skipKinds.includes(o.kind))
      .sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.id - b.id);
    const claimed: OutboxRow[] = [];
    for (const candidate of due) {
      if (claimed.length >= limit) break;
      // The lease is a compare-and-swap: of two workers claiming one notification, one write wins.
      const key = outboxKey(candidate.id);
      const found = await this.readForUpdate<OutboxBlob>(key);
      if (!found || found.data.delivered_at !== null || found.data.refused_at || found.data.next_attempt_at > iso(now))
        continue;
      const leased = { ...found.data, next_attempt_at: iso(now + leaseMs) };
      if ((await this.blobs().setJSON(key, leased, { onlyIfMatch: found.etag })).modified)
        claimed.push(outboxRow(leased));
    }
    return claimed.sort((a, b) => a.id - b.id);
  }

  async markDelivered(id: number, now: number): Promise<void> {
    await this.update<OutboxBlob>(outboxKey(id), (o) =>
      o.delivered_at === null
        ? { ...o, delivered_at: iso(now), attempts: o.attempts + 1, last_error: null }
        : undefined,
    );
  }

  async markFailed(id: number, error: string, nextAttemptAt: number): Promise<void> {
    await this.update<OutboxBlob>(outboxKey(id), (o) =>
      o.delivered_at === null
        ? { ...o, attempts: o.attempts + 1, last_error: error, next_attempt_at: iso(nextAttemptAt) }
        : undefined,
    );
  }

  async findByEmail(email: string): Promise<SubjectData> {
    const key = emailKey(email);
    const [newsletter, contact, outbox, issues] = await Promise.all([
      this.readAll<NewsletterBlob>("newsletter"),
      this.readAll<ContactBlob>("contact"),
      this.readAll<OutboxBlob>("outbox"),
      this.readAll<IssueRecord>("issues"),
    ]);
    const issue = new Map(issues.map((i) => [i.id, i]));
    const copies = outbox.filter((o) => o.email_key === key && o.kind === "issue");
    return {
      newsletter: newsletter
        .filter((r) => r.email_key === key)
        .map((r) => withoutStored(newsletterBlob(r)) as NewsletterRow),
      contact: contact.filter((r) => r.email_key === key).map((r) => withoutStored(r) as ContactRow),
      issues: copies.flatMap((o) => {
        const sent = issue.get((o.payload as { issue?: number } | null)?.issue ?? NaN);
        if (!sent) return [];
        const { id, day, locale, articles, subject } = sent;
        return [
          { issue: id, day, locale, articles, subject, sent_at: o.delivered_at, refused_at: o.refused_at ?? null },
        ];
      }),
      outbox: outbox.filter((o) => o.email_key === key).map(outboxRow),
    };
  }

  /**
   * Removes the submissions `doomed` picks in each table and their notifications: notifications first,
   * found through the submissions. A table without a predicate is left alone.
   */
  private async remove(doomed: {
    newsletter?: (row: NewsletterBlob) => boolean;
    contact?: (row: ContactBlob) => boolean;
  }): Promise<RemovedRows> {
    const [newsletter, contact, outbox] = await Promise.all([
      this.readAll<NewsletterBlob>("newsletter"),
      this.readAll<ContactBlob>("contact"),
      this.readAll<OutboxBlob>("outbox"),
    ]);
    const gone = {
      newsletter: doomed.newsletter ? newsletter.map(newsletterBlob).filter(doomed.newsletter) : [],
      contact: doomed.contact ? contact.filter(doomed.contact) : [],
    };
    const keys = new Set([...gone.newsletter, ...gone.contact].map((r) => r.key));
    const notifications = outbox.filter((o) => keys.has(o.submission_key));
    for (const o of notifications) {
      await this.blobs().delete(outboxKey(o.id));
      // An issue's copy leaves its marker (blobs-issues.ts): ids only, but of a subscription that is gone.
      if (o.dedupe_key) await this.blobs().delete(copyMarkerKey(o.dedupe_key));
    }
    for (const key of keys) await this.blobs().delete(key);
    return { newsletter: gone.newsletter.length, contact: gone.contact.length, outbox: notifications.length };
  }

  async unsubscribe(email: string): Promise<"removed" | "missing"> {
    const key = emailKey(email);
    const removed = await this.remove({ newsletter: (row: Stored) => row.email_key === key });
    return removed.newsletter > 0 ? "removed" : "missing";
  }

  async deleteByEmail(email: string): Promise<RemovedRows> {
    const key = emailKey(email);
    const mine = (row: Stored) => row.email_key === key;
    return this.remove({ newsletter: mine, contact: mine });
  }

  async purgeOlderThan(
    days: number,
    now: number,
    types: readonly SubmissionType[] = ["newsletter", "contact"],
  ): Promise<RemovedRows> {
    const cutoff = iso(now - retentionMs(days));
    const old = (row: { created_at: string }) => row.created_at < cutoff;
    return this.remove({
      newsletter: types.includes("newsletter") ? old : undefined,
      contact: types.includes("contact") ? old : undefined,
    });
  }

  async purgeUnconfirmed(days: number, now: number): Promise<RemovedRows> {
    const cutoff = iso(now - retentionMs(days));
    return this.remove({ newsletter: (row) => row.confirmed_at === null && row.created_at < cutoff });
  }

  async close(): Promise<void> {
    // Each call is its own HTTP request: nothing stays open.
    this.store = undefined;
  }
}
