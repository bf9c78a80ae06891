/**
 * Rate limits: a rolling window, at most `limit` requests per client in any `windowMs`. The in-memory
 * RateLimiter below serves one process (the SQLite store); a store shared by several processes keeps the
 * counts itself (src/api/pg-rate-limit.ts) behind the same Limiter interface.
 */
export interface RateLimitResult {
  allowed: boolean;
  /** Whole seconds until the client may try again (0 when allowed). */
  retryAfter: number;
}

/**
 * What the form handlers need of a limiter. The in-memory RateLimiter below answers at once; a store shared
 * by several processes (src/api/pg-rate-limit.ts) answers asynchronously, from counts kept in the database.
 */
export interface Limiter {
  /** Requests allowed per window (Infinity when the limiter is off). */
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one request by `client` at `now`, unless it is over the limit (a refused request is not counted). */
  hit(client: string, now: number): RateLimitResult | Promise<RateLimitResult>;
  /** Whether one more request by `client` at `now` would be allowed, counting nothing. */
  check(client: string, now: number): RateLimitResult | Promise<RateLimitResult>;
  /** Takes back one request counted at `time`: what it allowed did not happen after all (say, the store failed). */
  release(client: string, time: number): void | Promise<void>;
}

/** A limit of 0, a negative number or a non-number turns the limiter off. */
export function effectiveLimit(limit: number): number {
  return Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : Infinity;
}

/** Whole seconds until a client whose oldest counted request was at `oldest` may try again. */
export function retryAfter(oldest: number, windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
}

export interface RateLimiterOptions {
  /** Requests allowed per window; 0 (or less) disables the limiter. */
  limit: number;
  windowMs?: number;
  maxClients?: number;
}

/**
 * The limit in memory. Memory stays bounded: each client keeps at most `limit` timestamps, idle clients are
 * swept regularly, and past `maxClients` the least recently seen clients are dropped.
 */
export class RateLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxClients: number;
  /** Client → its request times in the window, oldest first. Map order = least recently seen first. */
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(options: RateLimiterOptions) {
    this.limit = effectiveLimit(options.limit);
    this.windowMs = options.windowMs ?? 60_000;
    this.maxClients = options.maxClients ?? 10_000;
  }

  /** Counts one request by `client` at `now`, unless it is over the limit (a refused request is not counted). */
  hit(client: string, now: number): RateLimitResult {
    const result = this.check(client, now);
    if (this.limit === Infinity) return result;
    const times = this.window(client, now);
    if (result.allowed) times.push(now);
    // Refreshed even when refused, so a client that keeps hammering is the last to be dropped when full.
    this.remember(client, times);
    return result;
  }

  /** Whether one more request by `client` at `now` would be allowed, counting nothing. */
  check(client: string, now: number): RateLimitResult {
    if (this.limit === Infinity) return { allowed: true, retryAfter: 0 };
    this.sweep(now);
    const times = this.window(client, now);
    if (times.length < this.limit) return { allowed: true, retryAfter: 0 };
    const oldest = times[0] ?? now;
    return { allowed: false, retryAfter: retryAfter(oldest, this.windowMs, now) };
  }

  /** Takes back one request counted at `time`: what it allowed did not happen after all (say, the store failed). */
  release(client: string, time: number): void {
    const times = this.hits.get(client);
    const at = times?.lastIndexOf(time) ?? -1;
    if (!times || at === -1) return;
    times.splice(at, 1);
    if (times.length === 0) this.hits.delete(client);
  }

  /** The client's request times still inside the window at `now`, oldest first. */
  private window(client: string, now: number): number[] {
    return (this.hits.get(client) ?? []).filter((t) => now - t < this.windowMs && t <= now);
  }

  /** Clients currently tracked (for tests and monitoring). */
  get size(): number {
    return this.hits.size;
  }

  private remember(client: string, times: number[]): void {
    this.hits.delete(client);
    if (times.length === 0) return;
    this.hits.set(client, times);
    while (this.hits.size > this.maxClients) {
      const oldest = this.hits.keys().next().value as string;
      this.hits.delete(oldest);
    }
  }

  /** Drops clients whose last request left the window; at most once per window unless the map is full. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs && this.hits.size < this.maxClients) return;
    this.lastSweep = now;
    for (const [client, times] of this.hits) {
      if (now - times[times.length - 1] >= this.windowMs) this.hits.delete(client);
    }
  }
}
