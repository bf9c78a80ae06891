import { readItem, removeItem, STORAGE_KEYS, writeItem } from "./storage.ts";

/** Spec §3: essential is always true; the other three are the visitor's choice. */
export interface ConsentPreferences {
  essential: true;
  analytics: boolean;
  marketing: boolean;
  functional: boolean;
}

export interface ConsentRecord {
  consent: boolean;
  /** When the decision was made, in milliseconds (spec §3). */
  timestamp: number;
  /** The site's consent revision when the visitor decided; a higher revision asks again. */
  revision?: number;
}

export interface ConsentState {
  consent: boolean;
  preferences: ConsentPreferences;
}

export interface ConsentPolicy {
  revision: number;
  lifetimeDays: number;
}

export const CONSENT_EVENT = "cookie-consent-changed";
export const CATEGORIES = ["essential", "analytics", "marketing", "functional"] as const;
export type Category = (typeof CATEGORIES)[number];

export const ALL_GRANTED: ConsentPreferences = { essential: true, analytics: true, marketing: true, functional: true };
export const ESSENTIAL_ONLY: ConsentPreferences = {
  essential: true,
  analytics: false,
  marketing: false,
  functional: false,
};

const DAY_MS = 24 * 60 * 60 * 1000;
/** Clocks drift; a decision "from the future" beyond this is corrupt, not skew. */
const CLOCK_SKEW_MS = 60 * 1000;

/**
 * The stored decision, or null when the visitor must be asked: nothing stored, unreadable JSON, wrong
 * types, a timestamp in the future, older than the lifetime (365 days), or an older revision. Anything
 * unusable is removed so the next read starts clean.
 */
export function readConsent(policy: ConsentPolicy, now = Date.now(), store?: Storage): ConsentState | null {
  const rawConsent = readItem(STORAGE_KEYS.consent, store);
  if (rawConsent === null) return null;
  const record = parse(rawConsent);
  const preferences = parsePreferences(readItem(STORAGE_KEYS.preferences, store));
  const valid =
    isRecord(record) &&
    typeof record.consent === "boolean" &&
    typeof record.timestamp === "number" &&
    Number.isFinite(record.timestamp) &&
    record.timestamp > 0 &&
    record.timestamp <= now + CLOCK_SKEW_MS &&
    now - record.timestamp <= policy.lifetimeDays * DAY_MS &&
    (record.revision === undefined
      ? policy.revision <= 1
      : typeof record.revision === "number" && record.revision >= policy.revision);
  if (!valid) {
    clearConsent(store);
    return null;
  }
  const consent = (record as unknown as ConsentRecord).consent;
  // A rejection needs no preferences (essential only); an acceptance without readable preferences is corrupt.
  if (!consent) return { consent, preferences: { ...ESSENTIAL_ONLY } };
  if (!preferences) {
    clearConsent(store);
    return null;
  }
  return { consent, preferences };
}

/** Stores a decision and tells the page (spec §4: every decision dispatches cookie-consent-changed). */
export function saveConsent(
  consent: boolean,
  preferences: ConsentPreferences,
  policy: ConsentPolicy,
  now = Date.now(),
  store?: Storage,
): ConsentState {
  const prefs: ConsentPreferences = { ...preferences, essential: true };
  const record: ConsentRecord = { consent, timestamp: now, revision: policy.revision };
  writeItem(STORAGE_KEYS.consent, JSON.stringify(record), store);
  writeItem(STORAGE_KEYS.preferences, JSON.stringify(prefs), store);
  const state = { consent, preferences: prefs };
  if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: state }));
  return state;
}

export const acceptAll = (policy: ConsentPolicy, now?: number, store?: Storage) =>
  saveConsent(true, ALL_GRANTED, policy, now, store);
export const rejectAll = (policy: ConsentPolicy, now?: number, store?: Storage) =>
  saveConsent(false, ESSENTIAL_ONLY, policy, now, store);

/** Spec §4: clearing consent removes the stored values (and the banner shows again). */
export function clearConsent(store?: Storage): void {
  removeItem(STORAGE_KEYS.consent, store);
  removeItem(STORAGE_KEYS.preferences, store);
}

/**
 * The visitor withdraws consent (the cookie policy's button): the stored values go and the page is told,
 * with nothing granted, so a script that was allowed can stop (spec §4: every decision dispatches
 * cookie-consent-changed). An expired or unreadable record is only discarded: no one decided anything.
 */
export function withdrawConsent(store?: Storage): ConsentState {
  clearConsent(store);
  const state = { consent: false, preferences: { ...ESSENTIAL_ONLY } };
  if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: state }));
  return state;
}

export function isGranted(state: ConsentState | null, category: Category): boolean {
  if (category === "essential") return true;
  return Boolean(state?.consent && state.preferences[category]);
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parsePreferences(raw: string | null): ConsentPreferences | null {
  if (raw === null) return null;
  const value = parse(raw);
  if (!isRecord(value) || value.essential !== true) return null;
  for (const c of CATEGORIES) if (typeof value[c] !== "boolean") return null;
  return {
    essential: true,
    analytics: value.analytics as boolean,
    marketing: value.marketing as boolean,
    functional: value.functional as boolean,
  };
}
