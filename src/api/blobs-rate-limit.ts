/**
 * The rate limit kept in Netlify Blobs, so it holds across function instances (Netlify starts as many as
 * the traffic needs, and each would otherwise count alone): at most `limit` requests per client in a
 * window of `windowMs`, a refused request not counted.
 *
 * Blobs has no counter to increment, so each client has `limit` slots per window,
 * `rate/<bucket>/<client>/<window start>/<n>`, and a counted request takes a free one with a write that
 * succeeds only if the slot is absent: two requests racing for one slot cannot both win, so the limit is
 * exact. Unlike the rolling window of the in-memory and PostgreSQL limiters, windows are fixed (aligned to
 * multiples of `windowMs`): a client may send `limit` at the end of one and `limit` at the start of the next.
 * The client's address is stored as its SHA-256, and past windows are swept.
 */
import type { Store } from "@netlify/blobs";
import { effectiveLimit, type Limiter, type RateLimitResult } from "./rate-limit.ts";

const ALLOWED: RateLimitResult = { allowed: true, retryAfter: 0 };

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export class BlobsRateLimiter implements Limiter {
  readonly limit: number;
  private lastSweep = 0;

  constructor(
    private readonly blobs: () => Store,
    /** Names this limiter's counts, so that two limits (accepted, refused) keep theirs apart. */
    private readonly bucket: string,
    limit: number,
    readonly windowMs: number,
  ) {
    this.limit = effectiveLimit(limit);
  }

  private windowStart(time: number): number {
    return Math.floor(time / this.windowMs) * this.windowMs;
  }

  private async prefix(client: string, time: number): Promise<string> {
    return `rate/${this.bucket}/${await sha256(client)}/${this.windowStart(time)}/`;
  }

  /** The slots taken in the window of `prefix`. */
  private async taken(prefix: string): Promise<Set<number>> {
    const { blobs } = await this.blobs().list({ prefix });
    return new Set(blobs.map((b) => Number(b.key.slice(prefix.length))).filter(Number.isInteger));
  }

  check(client: string, now: number): Promise<RateLimitResult> {
    return this.ask(client, now, false);
  }

  hit(client: string, now: number): Promise<RateLimitResult> {
    return this.ask(client, now, true);
  }

  async release(client: string, time: number): Promise<void> {
    if (this.limit === Infinity) return;
    const prefix = await this.prefix(client, time);
    const last = Math.max(-1, ...(await this.taken(prefix)));
    if (last >= 0) await this.blobs().delete(`${prefix}${last}`);
  }

  private async ask(client: string, now: number, count: boolean): Promise<RateLimitResult> {
    if (this.limit === Infinity) return ALLOWED;
    await this.sweep(now);
    const prefix = await this.prefix(client, now);
    const refused = {
      allowed: false,
      retryAfter: Math.max(1, Math.ceil((this.windowStart(now) + this.windowMs - now) / 1000)),
    };
    const taken = await this.taken(prefix);
    if (!count) return taken.size >= this.limit ? refused : ALLOWED;
    // Each free slot in turn: one lost to a racing request is taken, the next is tried.
    for (let slot = 0; slot < this.limit; slot++) {
      if (taken.has(slot)) continue;
      if ((await this.blobs().set(`${prefix}${slot}`, "", { onlyIfNew: true })).modified) return ALLOWED;
    }
    return refused;
  }

  /** Clients seen once and never again leave slots behind: past windows are swept once per window by each instance. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const current = this.windowStart(now);
    const { blobs } = await this.blobs().list({ prefix: `rate/${this.bucket}/` });
    const past = blobs.filter((b) => Number(/\/(\d+)\/\d+$/.exec(b.key)?.[1] ?? current) < current);
    await Promise.allSettled(past.map((b) => this.blobs().delete(b.key)));
  }
}
