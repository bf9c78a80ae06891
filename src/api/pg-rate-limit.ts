/**
 * The rate limit where several processes share one PostgreSQL database: the same rolling window as the
 * in-memory RateLimiter (at most `limit` requests per client in any `windowMs`, a refused request not
 * counted), with the hits kept in `rate_limit_hits` and counted by the `sitegen_rate_limit` function
 * (src/api/pg-migrations.ts), so the limit holds whichever instance a request reaches.
 */
import { effectiveLimit, retryAfter, type Limiter, type RateLimitResult } from "./rate-limit.ts";

/** Runs one statement once the store is ready (migrated); the store supplies it. */
export type PgQuery = (text: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const ALLOWED: RateLimitResult = { allowed: true, retryAfter: 0 };

export class PgRateLimiter implements Limiter {
  readonly limit: number;
  private lastSweep = 0;

  constructor(
    private readonly query: PgQuery,
    /** Names this limiter's counts, so that two limits (accepted, refused) keep theirs apart. */
    private readonly bucket: string,
    limit: number,
    readonly windowMs: number,
  ) {
    this.limit = effectiveLimit(limit);
  }

  hit(client: string, now: number): Promise<RateLimitResult> {
    return this.ask(client, now, true);
  }

  check(client: string, now: number): Promise<RateLimitResult> {
    return this.ask(client, now, false);
  }

  async release(client: string, time: number): Promise<void> {
    if (this.limit === Infinity) return;
    await this.query(
      `DELETE FROM rate_limit_hits WHERE id = (
         SELECT id FROM rate_limit_hits WHERE bucket = $1 AND client = $2 AND at = $3 ORDER BY id DESC LIMIT 1
       )`,
      [this.bucket, client, time],
    );
  }

  private async ask(client: string, now: number, count: boolean): Promise<RateLimitResult> {
    if (this.limit === Infinity) return ALLOWED;
    await this.sweep(now);
    const { rows } = await this.query("SELECT allowed, oldest FROM sitegen_rate_limit($1, $2, $3, $4, $5, $6)", [
      this.bucket,
      client,
      now,
      this.windowMs,
      this.limit,
      count,
    ]);
    const row = rows[0] as { allowed: boolean; oldest: string | null };
    // bigint comes back as text: milliseconds since the epoch fit a double exactly.
    return row.allowed
      ? ALLOWED
      : { allowed: false, retryAfter: retryAfter(Number(row.oldest ?? now), this.windowMs, now) };
  }

  /** Clients seen once and never again leave rows behind: dropped once per window by each process. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    await this.query("DELETE FROM rate_limit_hits WHERE bucket = $1 AND at <= $2", [this.bucket, now - this.windowMs]);
  }
}
