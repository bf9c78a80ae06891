/**
 * The outbox worker: it takes the notifications that are due (store.claimOutbox, leased so that another
 * process sharing the database does not send them too), hands each to its deliverer, and records the
 * outcome. A failure is kept with its error and tried again after an exponential backoff that stops
 * growing at a maximum, for ever: a lead is never dropped, it waits in the outbox until a deliverer takes
 * it, through the next start or `sitegen submissions retry`.
 *
 * Delivery is at least once: a process killed between sending and recording sends that notification again
 * when its lease ends, and a receiver that answers after the timeout gets it again. Every notification
 * carries a stable id (notify/notification-id.ts) so the receiver can tell.
 *
 * Each kind (one receiver: the SMTP server, the webhook) has its own lane of at most `perKind` deliveries
 * at once, and a notification is claimed only when its lane has room: a slow receiver delays its own
 * notifications only, and none waits claimed (its lease running) behind another.
 */
import type { IssueStore, OutboxRow, SubmissionStore } from "./store.ts";

/**
 * Thrown by a deliverer when the receiver refused the notification's address for good (a 5xx to RCPT TO
 * of a subscriber's copy): it is not tried again, and the store marks the address (IssueStore.markRefused)
 * so that nothing more is sent to it.
 */
export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AddressRefused";
  }
}

/** Sends one notification; throws when it did not go out. Must give up when `signal` aborts. */
export type Deliverer = (row: OutboxRow, signal: AbortSignal) => Promise<void>;

export interface Backoff {
  /** The wait after the first failure; each further failure doubles it. */
  baseMs: number;
  /** The longest wait between two tries. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 30_000, maxMs: 3_600_000 };

/** The wait before the next try of a notification that has now failed `attempts` times (1 or more). */
export function backoffDelay(attempts: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  const doublings = Math.min(Math.max(attempts - 1, 0), 40);
  return Math.min(backoff.baseMs * 2 ** doublings, backoff.maxMs);
}

export interface DeliveryReport {
  delivered: OutboxRow[];
  failed: { row: OutboxRow; error: string; nextAttemptAt: number }[];
  /** Refused for good (AddressRefused): never tried again. */
  refused?: { row: OutboxRow; error: string }[];
}

export interface DeliveryWorkerOptions {
  store: Pick<SubmissionStore, "claimOutbox" | "markDelivered" | "markFailed"> &
    Partial<Pick<IssueStore, "markRefused">>;
  /** By outbox kind ("email", "webhook", ...). */
  deliverers: Readonly<Record<string, Deliverer>>;
  now?: () => number;
  backoff?: Backoff;
  /** How long a claimed notification is held before another worker may take it: longer than a try can last. */
  leaseMs?: number;
  /** Notifications claimed at once, at most. */
  batch?: number;
  /** Deliveries of one kind in flight at once (default 4). */
  perKind?: number;
  /** Told of each failed try of the background loop (a server logs it; retryAll's caller prints its own report). */
  onFailure?: (failure: DeliveryReport["failed"][number]) => void;
  /** Told of each notification refused for good (AddressRefused). */
  onRefusal?: (refusal: NonNullable<DeliveryReport["refused"]>[number]) => void;
}

/** Errors are stored and shown by `sitegen submissions`: one line, bounded. */
const describe = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 500) || "failed";

/** A background loop stops after this many claims in one turn and goes on at its next tick. */
const MAX_CLAIMS_PER_RUN = 500;
/** `retryAll` takes at most this many notifications in one go. */
const MAX_RETRY = 10_000;
const YEAR_MS = 365 * 86_400_000;

export class DeliveryWorker {
  private readonly now: () => number;
  private readonly backoff: Backoff;
  private readonly leaseMs: number;
  private readonly batch: number;
  private readonly perKind: number;
  private running: Promise<DeliveryReport> | undefined;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private readonly abort = new AbortController();
  /** Wakes a run waiting for a delivery to end, so it claims what became due meanwhile (runDue, kick). */
  private wake: () => void = () => {};

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.now = options.now ?? Date.now;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.leaseMs = options.leaseMs ?? 300_000;
    this.batch = options.batch ?? 10;
    this.perKind = Math.max(1, options.perKind ?? 4);
  }

  /** Sends one notification and records the outcome; returns the failure, if it failed. */
  private async deliver(row: OutboxRow, report: DeliveryReport): Promise<DeliveryReport["failed"][number] | void> {
    const { store, deliverers } = this.options;
    const deliverer = deliverers[row.kind];
    try {
      if (!deliverer) throw new Error(`no ${row.kind} notifier is configured here`);
      if (this.abort.signal.aborted) throw new Error("interrupted by a shutdown");
      await deliverer(row, this.abort.signal);
    } catch (error) {
      const attempts = row.attempts + 1;
      // A store that cannot mark the address tries again later, as for any failure.
      if (error instanceof AddressRefused && store.markRefused && !this.abort.signal.aborted) {
        const refusal = { row: { ...row, attempts }, error: describe(error) };
        await store.markRefused(row.id, refusal.error, this.now());
        (report.refused ??= []).push(refusal);
        this.options.onRefusal?.(refusal);
        return;
      }
      // A try cut by a shutdown is due again at once, for the next start.
      const nextAttemptAt = this.abort.signal.aborted ? this.now() : this.now() + backoffDelay(attempts, this.backoff);
      const message = this.abort.signal.aborted ? `interrupted by a shutdown: ${describe(error)}` : describe(error);
      await store.markFailed(row.id, message, nextAttemptAt);
      const failure = { row: { ...row, attempts }, error: message, nextAttemptAt };
      report.failed.push(failure);
      return failure;
    }
    await store.markDelivered(row.id, this.now());
    report.delivered.push({ ...row, attempts: row.attempts + 1 });
  }

  /**
   * Delivers rows in lanes by kind. `next(full, room)` gives at most `room` more rows, none of the kinds in
   * `full` (their lanes have no room), or none when there are no more for now; it is asked again each time
   * a delivery ends. `notify`: failures are told to onFailure as they happen (the background loop).
   */
  private async sendInLanes(
    next: (full: string[], room: number) => Promise<OutboxRow[]>,
    report: DeliveryReport,
    notify: boolean,
  ): Promise<void> {
    const inFlight = new Map<string, number>();
    const running = new Set<Promise<void>>();
    const kinds = Object.keys(this.options.deliverers);
    const free = (kind: string) => this.perKind - (inFlight.get(kind) ?? 0);
    for (;;) {
      const full = kinds.filter((kind) => free(kind) <= 0);
      const room = Math.min(this.batch, ...kinds.map(free).filter((n) => n > 0));
      const open = !this.stopped && (kinds.length === 0 || full.length < kinds.length);
      const rows = open ? await next(full, room) : [];
      for (const row of rows) {
        inFlight.set(row.kind, (inFlight.get(row.kind) ?? 0) + 1);
        const task: Promise<void> = this.deliver(row, report)
          .then((failure) => {
            if (failure && notify) this.options.onFailure?.(failure);
          })
          // The store failed to record the outcome: the row comes back when its lease ends.
          .catch(logFailure)
          .finally(() => {
            inFlight.set(row.kind, (inFlight.get(row.kind) ?? 1) - 1);
            running.delete(task);
          });
        running.add(task);
      }
      if (rows.length > 0) continue;
      if (running.size === 0) return;
      // Nothing more for the lanes with room: wait for a delivery to end (its lane has room again) or for
      // more to become due, then ask again.
      await Promise.race([...running, new Promise<void>((resolve) => (this.wake = resolve))]);
    }
  }

  /** Delivers what is due now, lane by lane, until nothing is due (or a bounded number of claims). */
  runDue(): Promise<DeliveryReport> {
    if (this.running) {
      this.again = true;
      this.wake();
      return this.running;
    }
    const run = async (): Promise<DeliveryReport> => {
      const report: DeliveryReport = { delivered: [], failed: [] };
      let claims = 0;
      await this.sendInLanes(
        async (full, room) => {
          if (claims++ >= MAX_CLAIMS_PER_RUN) return [];
          return this.options.store.claimOutbox({
            now: this.now(),
            limit: room,
            leaseMs: this.leaseMs,
            skipKinds: full,
          });
        },
        report,
        true,
      );
      return report;
    };
    this.running = run().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.runDue().catch(logFailure);
      }
    });
    return this.running;
  }

  /**
   * Every notification not yet delivered, due or still waiting out its backoff (`sitegen submissions
   * retry`). claimOutbox takes what is due by `now` and leases it until `now + leaseMs`: asking as of a
   * year from now, with the lease shortened by as much, takes every waiting row and leases it from the real
   * now. Rows another worker holds right now are left to it.
   */
  async retryAll(): Promise<DeliveryReport> {
    const report: DeliveryReport = { delivered: [], failed: [] };
    const now = this.now();
    const waiting = await this.options.store.claimOutbox({
      now: now + YEAR_MS * 100,
      limit: MAX_RETRY,
      leaseMs: this.leaseMs - YEAR_MS * 100,
    });
    await this.sendInLanes(
      async (full, room) => {
        const rows: OutboxRow[] = [];
        for (let i = 0; i < waiting.length && rows.length < room;) {
          if (full.includes(waiting[i].kind) || rows.some((r) => r.kind === waiting[i].kind)) i++;
          else rows.push(...waiting.splice(i, 1));
        }
        return rows;
      },
      report,
      false,
    );
    return report;
  }

  /** Runs runDue every `intervalMs` in the background; the timer does not keep the process alive. */
  start(intervalMs: number): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.runDue().catch(logFailure), intervalMs);
    this.timer.unref?.();
    void this.runDue().catch(logFailure);
  }

  /** A submission was just queued: deliver it now rather than at the next tick. */
  kick(): void {
    if (this.timer && !this.stopped) setTimeout(() => void this.runDue().catch(logFailure), 0);
  }

  /**
   * Stops the loop. Deliveries in flight may finish within `graceMs`; then they are cut, recorded as
   * failed and due at once, so the next start sends them.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    const running = this.running;
    if (!running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, graceMs))));
    await Promise.race([
      running.then(
        () => undefined,
        () => undefined,
      ),
      late,
    ]);
    clearTimeout(timer);
    this.abort.abort(new Error("the server is shutting down"));
    await running.catch(() => undefined);
  }
}

function logFailure(error: unknown): void {
  console.error(`sitegen: delivering notifications failed: ${describe(error)}`);
}
