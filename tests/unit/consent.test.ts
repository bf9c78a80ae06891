import { describe, expect, it, vi } from "vitest";
import {
  acceptAll,
  clearConsent,
  isGranted,
  readConsent,
  rejectAll,
  saveConsent,
  withdrawConsent,
  ALL_GRANTED,
  ESSENTIAL_ONLY,
  CONSENT_EVENT,
} from "../../src/islands/runtime/consent.ts";
import { cookieString } from "../../src/islands/runtime/cookies.ts";

/** An in-memory Storage with the browser's interface; `broken` makes every call throw, as private modes do. */
function memoryStorage(initial: Record<string, string> = {}, broken = false): Storage {
  const data = new Map(Object.entries(initial));
  const guard = () => {
    if (broken) throw new DOMException("The operation is insecure.", "SecurityError");
  };
  return {
    get length() {
      guard();
      return data.size;
    },
    clear: () => {
      guard();
      data.clear();
    },
    getItem: (k) => {
      guard();
      return data.has(k) ? data.get(k)! : null;
    },
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => {
      guard();
      data.delete(k);
    },
    setItem: (k, v) => {
      guard();
      data.set(k, String(v));
    },
  };
}

const policy = { revision: 1, lifetimeDays: 365 };
const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 23);

describe("cookie consent state (spec §4)", () => {
  it("is unknown when nothing is stored", () => {
    expect(readConsent(policy, now, memoryStorage())).toBeNull();
  });

  it("accept all grants every category; reject all keeps essential only", () => {
    const store = memoryStorage();
    acceptAll(policy, now, store);
    expect(readConsent(policy, now, store)).toEqual({ consent: true, preferences: ALL_GRANTED });
    expect(JSON.parse(store.getItem("cookie-consent")!)).toMatchObject({ consent: true, timestamp: now });
    rejectAll(policy, now, store);
    expect(readConsent(policy, now, store)).toEqual({ consent: false, preferences: ESSENTIAL_ONLY });
    expect(JSON.parse(store.getItem("cookie-preferences")!)).toEqual({
      essential: true,
      analytics: false,
      marketing: false,
      functional: false,
    });
  });

  it("saves custom preferences with consent true, and essential can never be switched off", () => {
    const store = memoryStorage();
    saveConsent(
      true,
      { essential: false as unknown as true, analytics: true, marketing: false, functional: true },
      policy,
      now,
      store,
    );
    const state = readConsent(policy, now, store)!;
    expect(state.preferences).toEqual({ essential: true, analytics: true, marketing: false, functional: true });
    expect(isGranted(state, "analytics")).toBe(true);
    expect(isGranted(state, "marketing")).toBe(false);
    expect(isGranted(null, "essential")).toBe(true);
  });

  it("dispatches cookie-consent-changed with the consent and the preferences", () => {
    const target = new EventTarget();
    vi.stubGlobal("window", target);
    const seen: unknown[] = [];
    target.addEventListener(CONSENT_EVENT, (e) => seen.push((e as CustomEvent).detail));
    acceptAll(policy, now, memoryStorage());
    vi.unstubAllGlobals();
    expect(seen).toEqual([{ consent: true, preferences: ALL_GRANTED }]);
  });

  it("expires after 365 days and removes the stored values", () => {
    const store = memoryStorage();
    acceptAll(policy, now - 366 * DAY, store);
    expect(readConsent(policy, now, store)).toBeNull();
    expect(store.getItem("cookie-consent")).toBeNull();
    expect(store.getItem("cookie-preferences")).toBeNull();
    acceptAll(policy, now - 364 * DAY, store);
    expect(readConsent(policy, now, store)).not.toBeNull();
  });

  it.each([
    ["bad JSON", "{consent: yes", JSON.stringify(ALL_GRANTED)],
    ["a string consent", JSON.stringify({ consent: "true", timestamp: now }), JSON.stringify(ALL_GRANTED)],
    ["no timestamp", JSON.stringify({ consent: true }), JSON.stringify(ALL_GRANTED)],
    ["a string timestamp", JSON.stringify({ consent: true, timestamp: String(now) }), JSON.stringify(ALL_GRANTED)],
    ["a timestamp in the future", JSON.stringify({ consent: true, timestamp: now + DAY }), JSON.stringify(ALL_GRANTED)],
    ["a negative timestamp", JSON.stringify({ consent: true, timestamp: -5 }), JSON.stringify(ALL_GRANTED)],
    ["an array", JSON.stringify([true, now]), JSON.stringify(ALL_GRANTED)],
    ["null", "null", JSON.stringify(ALL_GRANTED)],
    ["accepted with unreadable preferences", JSON.stringify({ consent: true, timestamp: now }), "{"],
    [
      "accepted with essential off",
      JSON.stringify({ consent: true, timestamp: now }),
      JSON.stringify({ ...ALL_GRANTED, essential: false }),
    ],
    [
      "accepted with a missing category",
      JSON.stringify({ consent: true, timestamp: now }),
      JSON.stringify({ essential: true, analytics: true }),
    ],
    ["accepted with no preferences", JSON.stringify({ consent: true, timestamp: now }), null],
  ])("discards %s and asks again", (_name, consent, preferences) => {
    const store = memoryStorage({
      "cookie-consent": consent,
      ...(preferences === null ? {} : { "cookie-preferences": preferences }),
    });
    expect(readConsent(policy, now, store)).toBeNull();
    expect(store.getItem("cookie-consent")).toBeNull();
  });

  it("survives storage that throws on every call", () => {
    const store = memoryStorage({}, true);
    expect(readConsent(policy, now, store)).toBeNull();
    expect(() => acceptAll(policy, now, store)).not.toThrow();
    expect(() => clearConsent(store)).not.toThrow();
  });

  it("asks again when the site raises its consent revision", () => {
    const store = memoryStorage();
    acceptAll(policy, now, store);
    expect(readConsent({ ...policy, revision: 2 }, now, store)).toBeNull();
    acceptAll({ ...policy, revision: 2 }, now, store);
    expect(readConsent({ ...policy, revision: 2 }, now, store)).not.toBeNull();
  });

  it("withdrawing removes both stored values and tells the page that nothing is granted", () => {
    const store = memoryStorage();
    acceptAll(policy, now, store);
    const target = new EventTarget();
    vi.stubGlobal("window", target);
    const seen: unknown[] = [];
    target.addEventListener(CONSENT_EVENT, (e) => seen.push((e as CustomEvent).detail));
    withdrawConsent(store);
    readConsent(policy, now + 400 * DAY, memoryStorage({ "cookie-consent": "{bad" })); // discarding is no decision
    vi.unstubAllGlobals();
    expect(store.getItem("cookie-consent")).toBeNull();
    expect(store.getItem("cookie-preferences")).toBeNull();
    expect(seen).toEqual([{ consent: false, preferences: ESSENTIAL_ONLY }]);
  });

  it("clearing removes both stored values", () => {
    const store = memoryStorage();
    acceptAll(policy, now, store);
    clearConsent(store);
    expect(store.getItem("cookie-consent")).toBeNull();
    expect(store.getItem("cookie-preferences")).toBeNull();
  });
});

describe("cookie helper (spec §9)", () => {
  it("defaults to 365 days, path /, SameSite Lax, and Secure on https", () => {
    const cookie = cookieString("language", "pt", {}, true);
    expect(cookie).toMatch(/^language=pt; Expires=[^;]+; Max-Age=31536000; Path=\/; SameSite=Lax; Secure$/);
    expect(cookieString("a b", "c;d", {}, false)).toMatch(/^a%20b=c%3Bd; .*SameSite=Lax$/);
  });
});
