/**
 * The data cache of spec §7/§9: a failed query is retried 3 times with delay min(1000 * 2^n, 30000) ms,
 * and a result is kept for 5 minutes. In memory only: the spec allows the site three browser storage
 * keys (language, cookie consent, cookie preferences), and its one query, language detection, runs once
 * per visitor anyway (its answer is then stored as the language).
 */
export const QUERY_RETRIES = 3;
export const QUERY_CACHE_MS = 5 * 60 * 1000;

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30000);
}

export interface QueryOptions {
  retries?: number;
  cacheMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const memory = new Map<string, { at: number; value: unknown }>();
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function cachedQuery<T>(key: string, fetcher: () => Promise<T>, options: QueryOptions = {}): Promise<T> {
  const { retries = QUERY_RETRIES, cacheMs = QUERY_CACHE_MS, now = Date.now, sleep = wait } = options;
  const hit = memory.get(key);
  if (hit && now() - hit.at < cacheMs) return hit.value as T;
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await fetcher();
      memory.set(key, { at: now(), value });
      return value;
    } catch (error) {
      if (attempt >= retries) throw error;
      await sleep(retryDelay(attempt));
    }
  }
}

export function clearQueryCache(): void {
  memory.clear();
}
