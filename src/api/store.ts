/**
 * Where accepted submissions go: one asynchronous interface for every backend (SQLite in
 * src/api/sqlite-store.ts, PostgreSQL in src/api/pg-store.ts, and a D1 store on Cloudflare later). It names
 * no Node-only type, so a store for an edge runtime can implement it as it is.
 *
 * Times given to the store are milliseconds since the epoch; times it returns are ISO 8601 strings in UTC,
 * the form the rows have always been exported in. Addresses are compared by their lower-cased form
 * (emailKey below), computed here rather than by the database, so every backend folds "É" and "é" alike.
 */
import type { Limiter } from "./rate-limit.ts";

export interface NewsletterEntry {
  email: string;
  locale: string;
  createdAt: string;
  /** Sent sooner after the first keystroke than a person usually manages: kept, but marked for review. */
  suspect?: boolean;
  /** false under double opt-in: stored awaiting the subscriber's confirmation. Confirmed by default. */
  confirmed?: boolean;
}

export interface ContactEntry {
  firstName: string;
  lastName: string;
  email: string;
  /** null when the optional field was left empty. */
  company: string | null;
  message: string;
  locale: string;
  createdAt: string;
  /** As for the newsletter: sent implausibly fast, kept and marked. */
  suspect?: boolean;
}

export type SubmissionType = "newsletter" | "contact";

/** The outbox rows of the `type` submissions that the condition `where` selects (SQL shared by every store). */
export const outboxOf = (type: SubmissionType, where: string) =>
  `(submission_type = '${type}' AND submission_id IN (SELECT id FROM ${type} WHERE ${where}))`;

export interface NewsletterRow {
  id: number;
  email: string;
  locale: string;
  created_at: string;
  suspect: 0 | 1;
  /** When the subscriber confirmed the address (double opt-in), or null while it awaits confirmation. */
  confirmed_at: string | null;
  /**
   * When the mail server refused the address for good (a 5xx to an issue's copy), and its reply: nothing
   * more is sent to it. Absent where no issue is sent (the D1 and Netlify Blobs stores).
   */
  bounced_at?: string | null;
  bounce_reason?: string | null;
}

export interface ContactRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  company: string | null;
  message: string;
  locale: string;
  created_at: string;
  suspect: 0 | 1;
}

/**
 * A notification to deliver about a submission (an e-mail to the firm, a webhook call), stored in the same
 * transaction as the submission, so a stored lead always has its notification waiting and none is sent for
 * a lead that was not stored.
 */
export interface OutboxMessage {
  /** Which deliverer handles it, such as "email" or "webhook". */
  kind: string;
  /** Whatever that deliverer needs; stored as JSON. */
  payload: unknown;
}

export interface OutboxRow {
  id: number;
  kind: string;
  submission_type: SubmissionType;
  submission_id: number;
  payload: unknown;
  /** Deliveries tried and reported (delivered or failed). */
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  /** When the mail server refused its address for good (IssueStore.markRefused): it is never tried again. */
  refused_at?: string | null;
}

/**
 * none: nothing to deliver (no notifier was configured when it was stored); pending: waiting for its first
 * try; failing: tried, not delivered yet, retried later; delivered: every notification went out; refused:
 * every one went out or was refused for good, and at least one was refused (the address bounced).
 */
export type DeliveryState = "none" | "pending" | "failing" | "delivered" | "refused";

export interface Delivery {
  delivery: DeliveryState;
  /** Tries so far: the most among the notifications not yet delivered, or among all once every one is. */
  delivery_attempts: number;
  /** The last error among the notifications not yet delivered. */
  delivery_error: string | null;
}

export type ListedRow<T extends SubmissionType> = (T extends "newsletter" ? NewsletterRow : ContactRow) & Delivery;

/** A copy of an issue as sent to one address (`sitegen submissions export --email`). */
export interface SentIssue {
  issue: number;
  /** The issue's day, YYYY-MM-DD. */
  day: string;
  locale: string;
  /** The translation keys of its articles. */
  articles: string[];
  subject: string;
  /** When the mail server accepted the copy; null while it waits or was refused. */
  sent_at: string | null;
  /** When the mail server refused the address for good; null otherwise. */
  refused_at: string | null;
}

/** Everything stored about one address (LGPD art. 18: confirmation and access). */
export interface SubjectData {
  newsletter: NewsletterRow[];
  contact: ContactRow[];
  /** The newsletter issues queued for the address, oldest first. */
  issues: SentIssue[];
  outbox: OutboxRow[];
}

/** Rows removed per table. */
export interface RemovedRows {
  newsletter: number;
  contact: number;
  outbox: number;
}

export interface ClaimOptions {
  now: number;
  /** At most this many rows (default 10). */
  limit?: number;
  /**
   * Claimed rows are not due again for this long (default 5 minutes), so another worker (another process on
   * a shared database) does not send them too; if this worker dies before reporting, they come back then.
   */
  leaseMs?: number;
  /** Kinds not to claim now (the worker is already sending as many of them at once as it will). */
  skipKinds?: readonly string[];
}

export interface SubmissionStore {
  /**
   * "exists" when the address was already subscribed (compared by its lower-cased form); nothing is added
   * then, nor queued (a submission that is not suspect clears the mark of an earlier one that was).
   * `outbox` messages are queued, in the same transaction, only for an added address.
   */
  addNewsletter(entry: NewsletterEntry, outbox?: readonly OutboxMessage[]): Promise<"added" | "exists">;
  addContact(entry: ContactEntry, outbox?: readonly OutboxMessage[]): Promise<void>;

  /**
   * Marks an unconfirmed subscription of `email` (any case) confirmed at `now`, queuing `outbox` with it in
   * the same transaction: "confirmed" then; "already" when it was confirmed before (nothing queued);
   * "missing" when no subscription of that address is stored (it expired, or was erased).
   */
  confirmNewsletter(
    email: string,
    now: number,
    outbox?: readonly OutboxMessage[],
  ): Promise<"confirmed" | "already" | "missing">;
  /**
   * The subscriber leaves: the subscription of `email` (any case) is erased with everything queued for it,
   * in one transaction, and nothing of it is kept ("missing" when there was none). Contact messages of the
   * same address are not touched: they have a retention period of their own.
   */
  unsubscribe(email: string): Promise<"removed" | "missing">;
  /** Erases the subscriptions still unconfirmed `days` days after they were stored, with their notifications. */
  purgeUnconfirmed(days: number, now: number): Promise<RemovedRows>;

  /** Every row of one table, oldest first, each with the state of its notifications. */
  list<T extends SubmissionType>(type: T): Promise<ListedRow<T>[]>;

  /** Notifications due at `now`, oldest first, leased to the caller (see ClaimOptions.leaseMs). */
  claimOutbox(options: ClaimOptions): Promise<OutboxRow[]>;
  /** The notification went out: it is never claimed again. */
  markDelivered(id: number, now: number): Promise<void>;
  /** The try failed: counted, its error kept, and due again at `nextAttemptAt` (the caller's backoff). */
  markFailed(id: number, error: string, nextAttemptAt: number): Promise<void>;

  /** Every row about `email` (any case), notifications included. */
  findByEmail(email: string): Promise<SubjectData>;
  /** Erases every row about `email` (any case), notifications included, in one transaction. */
  deleteByEmail(email: string): Promise<RemovedRows>;
  /**
   * Erases submissions stored more than `days` days before `now`, with their notifications: of the tables
   * `types` names, both by default (the site purges contact messages only: a subscription lasts until the
   * person leaves).
   */
  purgeOlderThan(days: number, now: number, types?: readonly SubmissionType[]): Promise<RemovedRows>;

  /**
   * A rate limiter whose counts live in the store, for stores that several processes share (PostgreSQL);
   * absent where one process owns the store (SQLite), whose limiter stays in memory.
   */
  rateLimiter?(name: string, limit: number, windowMs: number): Limiter;

  /** Opens the store and applies pending migrations; every method does so first, this only does it now. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** An issue of the newsletter as recorded when it was sent (sitegen newsletter send). */
export interface IssueRecord {
  id: number;
  locale: string;
  /** The issue's day, YYYY-MM-DD. */
  day: string;
  /** The translation keys of its articles. */
  articles: string[];
  /** Its introduction's file, relative to the project folder. */
  intro: string | null;
  subject: string;
  /** Its parts, each subscriber's unsubscribe link in place of UNSUBSCRIBE_PLACEHOLDER (newsletter/send.ts). */
  html: string;
  text: string;
  created_at: string;
  /** When every subscriber's copy was queued; null while that is not done (a send was cut short). */
  queued_at: string | null;
}

export type NewIssue = Omit<IssueRecord, "id" | "created_at" | "queued_at"> & { createdAt: string };

/** The outbox rows of one issue: delivered, tried and failed (waiting for their next try), never tried yet. */
export interface IssueProgress {
  total: number;
  delivered: number;
  failing: number;
  pending: number;
  /** Refused for good by the mail server (the address bounced): never tried again. */
  refused: number;
}

/**
 * What sending the newsletter needs of a store besides the outbox: SQLite and PostgreSQL have it. A copy
 * is an outbox row of its subscriber (so unsubscribing or erasing the person drops it) with a unique key.
 */
export interface IssueStore {
  /** Every issue, oldest first. */
  issues(): Promise<IssueRecord[]>;
  recordIssue(issue: NewIssue): Promise<number>;
  /**
   * Queues `message` for the subscription `subscriberId`, due at `dueAt`, unless a row with `key` exists or
   * the subscription does not (it left meanwhile): whether a row was added.
   */
  queueOnce(key: string, subscriberId: number, message: OutboxMessage, dueAt: number): Promise<boolean>;
  markIssueQueued(id: number, now: number): Promise<void>;
  /**
   * The mail server refused the outbox row `id`'s address for good: in one transaction the row is marked
   * refused (never claimed again), its subscription is marked bounced with `error`, and every other copy
   * still queued for that subscription is refused with it, so nothing more goes to the address.
   */
  markRefused(id: number, error: string, now: number): Promise<void>;
  /** The outbox rows whose key starts with `prefix`. */
  issueProgress(prefix: string): Promise<IssueProgress>;
  /**
   * Spaces out the rows of `prefix` never tried and due by `from` (so not leased to a worker): each next one
   * `intervalMs` after the one before, the first at `from` or, when rows of `prefix` are still scheduled
   * after `from`, `intervalMs` after the last of them. Every worker then keeps the rate, even after a send
   * was cut short.
   */
  respace(prefix: string, from: number, intervalMs: number): Promise<void>;
}

export function isIssueStore(store: object): store is IssueStore {
  const s = store as Partial<IssueStore>;
  return (
    typeof s.recordIssue === "function" && typeof s.queueOnce === "function" && typeof s.markRefused === "function"
  );
}

/** What the form handlers use of a store: a test or another runtime may give just this much. */
export type SubmissionSink = Pick<SubmissionStore, "addNewsletter" | "addContact" | "close"> &
  Partial<Pick<SubmissionStore, "rateLimiter" | "ready">>;

/** The form an address is compared by: lower-cased with Unicode's rules, the same on every backend. */
export function emailKey(email: string): string {
  return email.trim().normalize("NFC").toLowerCase();
}

/** One submission's delivery, from what its notifications that are not yet delivered say. */
export function deliveryOf(counts: {
  total: number;
  undelivered: number;
  attempts: number;
  pendingAttempts: number;
  lastError: string | null;
  /** Refused for good (counted in `undelivered` too). */
  refused?: number;
}): Delivery {
  const { total, undelivered, attempts, pendingAttempts, lastError, refused = 0 } = counts;
  if (total === 0) return { delivery: "none", delivery_attempts: 0, delivery_error: null };
  if (undelivered === 0) return { delivery: "delivered", delivery_attempts: attempts, delivery_error: null };
  if (undelivered === refused)
    return { delivery: "refused", delivery_attempts: pendingAttempts, delivery_error: lastError };
  return {
    delivery: lastError === null ? "pending" : "failing",
    delivery_attempts: pendingAttempts,
    delivery_error: lastError,
  };
}

/** A listed row as the SQLite and D1 stores read it: the submission's columns, then its notifications' counts. */
export type CountedRow = Record<string, unknown> & {
  total: number;
  undelivered: number;
  attempts: number;
  refused: number;
  pending_attempts: number;
  last_error: string | null;
};

/** Each counted row as `list` returns it: the submission's columns and its delivery (deliveryOf). */
export function listedRows<T extends SubmissionType>(rows: CountedRow[]): ListedRow<T>[] {
  return rows.map(({ total, undelivered, attempts, refused, pending_attempts, last_error, ...row }) => ({
    ...row,
    ...deliveryOf({ total, undelivered, attempts, refused, pendingAttempts: pending_attempts, lastError: last_error }),
  })) as ListedRow<T>[];
}

/**
 * SQLite's and D1's query of the issues queued for the address whose key is bound: each copy's issue,
 * and when it was sent or refused, oldest first.
 */
export const SQLITE_SENT_ISSUES = `SELECT i.id AS issue, i.day, i.locale, i.articles, i.subject,
    o.delivered_at AS sent_at, o.refused_at
  FROM outbox o JOIN newsletter_issues i ON i.id = json_extract(o.payload, '$.issue')
  WHERE o.kind = 'issue' AND ${outboxOf("newsletter", "email_key = ?")}
  ORDER BY o.id`;

/** A sent issue as SQL returns it: its articles as a JSON array. */
export const sentIssue = (row: Omit<SentIssue, "articles"> & { articles: string }): SentIssue => ({
  ...row,
  articles: JSON.parse(row.articles) as string[],
});

/**
 * A store's failures that a developer must act on, told apart by `code` (errors.ts maps each to its catalogue entry).
 */
export type StoreErrorCode = "invalid-url" | "unreachable" | "unreadable";

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** What was being opened, without any password: the SQLite file, or the PostgreSQL host, port and database. */
    readonly target: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StoreError";
  }
}

const DAY_MS = 86_400_000;

/** A retention period in days, refused unless it is a positive number (0 would erase everything). */
export function retentionMs(days: number): number {
  if (!Number.isFinite(days) || days <= 0)
    throw new RangeError(`A retention period must be a positive number of days, not ${days}.`);
  return days * DAY_MS;
}
