/**
 * localStorage that never throws: private modes, disabled storage and full quotas all make the Storage API
 * throw, and a page must keep working whatever the browser refuses (spec §4: corrupt storage is discarded).
 */
export const STORAGE_KEYS = {
  language: "language",
  consent: "cookie-consent",
  preferences: "cookie-preferences",
} as const;

export function readItem(key: string, store: Storage | undefined = safeLocalStorage()): string | null {
  try {
    return store ? store.getItem(key) : null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string, store: Storage | undefined = safeLocalStorage()): boolean {
  try {
    store?.setItem(key, value);
    return Boolean(store);
  } catch {
    return false;
  }
}

export function removeItem(key: string, store: Storage | undefined = safeLocalStorage()): void {
  try {
    store?.removeItem(key);
  } catch {
    /* nothing stored, nothing to remove */
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
