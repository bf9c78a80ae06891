/**
 * The data cache of spec §7/§9: a failed query is retried 3 times with delay min(1000 * 2^n, 30000) ms,
 * and a result is kept for 5 minutes (in memory, and in sessionStorage so it survives a page load).
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
  store?: Pick<Storage, "getItem" | "setItem">;
}

const memory = new Map<string, { at: number; value: unknown }>();
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function cachedQuery<T>(key: string, fetcher: () => Promise<T>, options: QueryOptions = {}): Promise<T> {
  const { retries = QUERY_RETRIES, cacheMs = QUERY_CACHE_MS, now = Date.now, sleep = wait } = options;
  const store = options.store ?? sessionStore();
  const hit = memory.get(key) ?? readStored(store, key);
  if (hit && now() - hit.at < cacheMs) return hit.value as T;
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await fetcher();
      const entry = { at: now(), value };
      memory.set(key, entry);
      try {
        store?.setItem(`query:${key}`, JSON.stringify(entry));
      } catch {
        /* the memory copy is enough */
      }
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

function readStored(store: Pick<Storage, "getItem"> | undefined, key: string): { at: number; value: unknown } | undefined {
  try {
    const raw = store?.getItem(`query:${key}`);
    const entry = raw ? JSON.parse(raw) : undefined;
    return entry && typeof entry.at === "number" ? entry : undefined;
  } catch {
    return undefined;
  }
}

function sessionStore(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}
