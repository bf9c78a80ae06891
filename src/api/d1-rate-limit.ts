/**
 * The rate limit where every isolate of a Cloudflare Pages worker shares one D1 database: the same rolling
 * window as the in-memory RateLimiter and the PostgreSQL one (at most `limit` requests per client in any
 * `windowMs`, a refused request not counted), with the hits kept in `rate_limit_hits` (migration 5 of
 * src/api/sqlite-migrations.ts), so the limit holds whichever isolate, in whichever location, a post reaches.
 *
 * D1 has no interactive transactions nor locks to take, but it runs one statement at a time, and a `batch()`
 * as one transaction. A hit is one INSERT ... SELECT ... WHERE (hits in the window) < limit: the count and the
 * insert are one statement, so two isolates racing for the last place cannot both take it. The same batch
 * drops the client's hits that left the window first, and reads the oldest one left, for Retry-After, after.
 *
 * No Node API here: this module is bundled into the Pages worker (src/api/cloudflare.ts).
 */
import type { D1Database } from "./d1-store.ts";
import { effectiveLimit, retryAfter, type Limiter, type RateLimitResult } from "./rate-limit.ts";

const ALLOWED: RateLimitResult = { allowed: true, retryAfter: 0 };

/** Rows the sweep deletes per statement, and statements per sweep: no single write holds the database long. */
const SWEEP_CHUNK = 500;
const SWEEP_ROUNDS = 20;

/**
 * The client's hits inside the window ending at ?3 (window ?4): from `now - window` on, with no upper bound, as in
 * PostgreSQL.
 */
const IN_WINDOW = "bucket = ?1 AND client = ?2 AND at > ?3 - ?4";

export class D1RateLimiter implements Limiter {
  readonly limit: number;
  private lastSweep = 0;

  constructor(
    private readonly db: D1Database,
    /** Resolves once the store's migrations (the table included) are applied. */
    private readonly ready: () => Promise<void>,
    /** Names this limiter's counts, so that two limits (accepted, refused) keep theirs apart. */
    private readonly bucket: string,
    limit: number,
    readonly windowMs: number,
  ) {
    this.limit = effectiveLimit(limit);
  }

  async hit(client: string, now: number): Promise<RateLimitResult> {
    if (this.limit === Infinity) return ALLOWED;
    await this.prepare(now);
    const values = [this.bucket, client, now, this.windowMs, this.limit];
    const [, inserted, oldest] = await this.db.batch([
      this.db
        .prepare("DELETE FROM rate_limit_hits WHERE bucket = ?1 AND client = ?2 AND at <= ?3 - ?4")
        .bind(...values.slice(0, 4)),
      this.db
        .prepare(
          `INSERT INTO rate_limit_hits (bucket, client, at) SELECT ?1, ?2, ?3 ` +
            `WHERE (SELECT count(*) FROM rate_limit_hits WHERE ${IN_WINDOW}) < ?5`,
        )
        .bind(...values),
      this.db.prepare(`SELECT min(at) AS oldest FROM rate_limit_hits WHERE ${IN_WINDOW}`).bind(...values.slice(0, 4)),
    ]);
    return inserted.meta.changes === 1 ? ALLOWED : this.refused(oldest.results, now);
  }

  async check(client: string, now: number): Promise<RateLimitResult> {
    if (this.limit === Infinity) return ALLOWED;
    await this.prepare(now);
    const { results } = await this.db
      .prepare(`SELECT count(*) AS hits, min(at) AS oldest FROM rate_limit_hits WHERE ${IN_WINDOW}`)
      .bind(this.bucket, client, now, this.windowMs)
      .all<{ hits: number; oldest: number | null }>();
    return Number(results[0]?.hits ?? 0) < this.limit ? ALLOWED : this.refused(results, now);
  }

  async release(client: string, time: number): Promise<void> {
    if (this.limit === Infinity) return;
    await this.ready();
    await this.db
      .prepare(
        "DELETE FROM rate_limit_hits WHERE id = " +
          "(SELECT id FROM rate_limit_hits WHERE bucket = ?1 AND client = ?2 AND at = ?3 ORDER BY id DESC LIMIT 1)",
      )
      .bind(this.bucket, client, time)
      .run();
  }

  private refused(rows: Record<string, unknown>[], now: number): RateLimitResult {
    const oldest = rows[0]?.oldest;
    return { allowed: false, retryAfter: retryAfter(oldest == null ? now : Number(oldest), this.windowMs, now) };
  }

  private async prepare(now: number): Promise<void> {
    await this.ready();
    await this.sweep(now);
  }

  /**
   * Clients seen once and never again leave rows behind: each isolate drops this bucket's hits that left the
   * window once per window, in chunks, so no statement holds D1's single writer for long; what a full sweep
   * leaves goes at the next one.
   */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const statement = this.db
      .prepare(
        "DELETE FROM rate_limit_hits WHERE id IN " +
          "(SELECT id FROM rate_limit_hits WHERE bucket = ?1 AND at <= ?2 LIMIT ?3)",
      )
      .bind(this.bucket, now - this.windowMs, SWEEP_CHUNK);
    for (let round = 0; round < SWEEP_ROUNDS; round++) {
      if ((await statement.run()).meta.changes < SWEEP_CHUNK) break;
    }
  }
}
