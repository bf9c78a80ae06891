/**
 * The one script every page loads: language memory and detection, tooltips, the toaster's hotkeys, consent
 * (gated scripts and the banner), the island loader, and the navigation island that swaps pages in place.
 * Islands and the consent UI are separate chunks loaded only when a page needs them.
 */
import { languageOfPath, pathInLanguage, storedLanguage, storeLanguage, type Language } from "./language.ts";
import { initTooltips, pruneTooltips } from "./tooltip.ts";
import {
  CONSENT_EVENT,
  isGranted,
  readConsent,
  withdrawConsent,
  type ConsentPolicy,
  type ConsentState,
} from "./consent.ts";
import { mountIsland, refreshIsland, scheduleIslands } from "./hydrate.ts";
import { startNavigation, type PageChange } from "./navigation.ts";

const OPEN_SETTINGS_EVENT = "sitegen:open-cookie-settings";
const CLEAR_EVENT = "sitegen:consent-cleared";
/** An island asks for another page in place of this one, at this address (path-breadcrumbs.ts). */
const REPLACE_PAGE_EVENT = "sitegen:replace-page";

logPageLoad();
rememberLanguage();
initTooltips();
toasterHotkeys();
const consentRoot = document.querySelector<HTMLElement>("[data-island=cookie-consent]");
const policy: ConsentPolicy = {
  revision: Number(consentRoot?.dataset.revision ?? 1),
  lifetimeDays: Number(consentRoot?.dataset.lifetimeDays ?? 365),
};
startConsent();
scheduleIslands();
// Registered after the consent and language listeners, which must see a click first (the footer's cookie
// settings link is handled there; the switcher stores the choice before the page changes).
const replacePage = startNavigation({ onPage });
addEventListener(REPLACE_PAGE_EVENT, (e) => replacePage?.((e as CustomEvent<string>).detail, true));

/** After the navigation island swapped a page in: everything a full load would have run for the new content. */
function onPage({ roots, languageChanged, elapsed }: PageChange): void {
  logLoadTime(elapsed);
  counterpartByPrefix();
  storeLanguage(languageOfPath(location.pathname));
  pruneTooltips();
  for (const root of roots) {
    initTooltips(root);
    scheduleIslands(root, true);
  }
  revealConsentControls();
  runGrantedScripts(readConsent(policy));
  if (languageChanged && consentRoot) refreshIsland(consentRoot);
}

/** Spec §7: the page-load time, logged once per page (a full load here, a swapped page in onPage). */
const logLoadTime = (ms: number) => console.info(`Page loaded in ${Math.round(ms)} ms`);

function logPageLoad(): void {
  const report = () => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    logLoadTime(nav && nav.loadEventStart > 0 ? nav.loadEventStart : performance.now());
  };
  if (document.readyState === "complete") setTimeout(report);
  else addEventListener("load", () => setTimeout(report), { once: true });
}

/**
 * Spec §2: for an unknown path, the language switch adds or removes the locale's prefix. The not-found
 * page is one file served for every unknown path, so only the browser knows which path that is.
 */
function counterpartByPrefix(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a[data-lang-switch][data-counterpart=by-prefix]")) {
    link.href = pathInLanguage(location.pathname, link.dataset.langSwitch!);
  }
}

function rememberLanguage(): void {
  counterpartByPrefix();
  const current = languageOfPath(location.pathname);
  // The switcher stores the visitor's choice before navigating (spec §4). Delegated: the navigation
  // island replaces the header, and with it the switcher.
  document.addEventListener("click", (e) => {
    const link = (e.target as Element | null)?.closest?.<HTMLAnchorElement>("a[data-lang-switch]");
    if (link) storeLanguage(link.dataset.langSwitch as Language);
  });
  // Present on the two home pages only; detection runs only when no language is stored yet.
  const detector = document.querySelector<HTMLElement>("[data-island='language-detection']");
  if (!detector || storedLanguage() !== null) {
    storeLanguage(current);
    return;
  }
  let interacted = false;
  const mark = () => (interacted = true);
  for (const type of ["pointerdown", "keydown", "touchstart", "wheel"])
    addEventListener(type, mark, { once: true, passive: true, capture: true });
  // Spec §4: a different answer replaces the history entry with the counterpart and stores it, unless the
  // visitor has started interacting; a failure (null) keeps and stores the URL's language, silently.
  addEventListener(
    "sitegen:language-detected",
    (e) => {
      const detected = (e as CustomEvent<Language | null>).detail;
      // The detection island answers only with one of the site's language codes (or null).
      const switcher = detected ? document.querySelector<HTMLAnchorElement>(`a[data-lang-switch="${detected}"]`) : null;
      if (detected && detected !== current && !interacted && languageOfPath(location.pathname) === current) {
        storeLanguage(detected);
        const counterpart = (switcher?.getAttribute("href") ?? "/") + location.search + location.hash;
        // In place when the navigation island runs (the page keeps its state), otherwise a plain replace.
        if (replacePage) replacePage(counterpart);
        else location.replace(counterpart);
      } else storeLanguage(current);
    },
    { once: true },
  );
  // A detector that cannot load (a network error, a new deployment) is a failed detection: silent, and
  // the URL's language is stored.
  mountIsland(detector, "render").catch(() =>
    dispatchEvent(new CustomEvent("sitegen:language-detected", { detail: null })),
  );
}

/** Alt+T moves focus to the main toast region, F8 to the alert one (spec §9); both exist before any toast. */
function toasterHotkeys(): void {
  addEventListener("keydown", (e) => {
    const altT = e.altKey && (e.code === "KeyT" || e.key.toLowerCase() === "t");
    if (!altT && e.key !== "F8") return;
    const region = document.querySelector<HTMLElement>(`[data-toaster=${altT ? "main" : "alert"}]`);
    if (!region) return;
    e.preventDefault();
    (region.querySelector<HTMLElement>("li button") ?? region).focus();
  });
}

function startConsent(): void {
  let state: ConsentState | null = readConsent(policy);
  runGrantedScripts(state);
  addEventListener(CONSENT_EVENT, (e) => {
    state = (e as CustomEvent<ConsentState>).detail;
    runGrantedScripts(state);
  });
  if (!consentRoot) return;
  const showConsentUi = async (initialView?: "dialog") => {
    if (consentRoot.dataset.mounted !== undefined) {
      if (initialView) dispatchEvent(new Event(OPEN_SETTINGS_EVENT));
      return;
    }
    if (initialView)
      consentRoot.dataset.props = JSON.stringify({ ...JSON.parse(consentRoot.dataset.props ?? "{}"), initialView });
    await mountIsland(consentRoot, "render");
    initTooltips(consentRoot);
  };
  if (!state) void showConsentUi();
  // The footer's "cookie settings" link and the cookie policy's buttons; without JavaScript the link
  // simply opens the cookie policy.
  document.addEventListener("click", (e) => {
    const target = (e.target as Element).closest<HTMLElement>("[data-cookie-settings], [data-cookie-clear]");
    if (!target) return;
    e.preventDefault();
    if (target.matches("[data-cookie-clear]")) {
      withdrawConsent();
      state = null;
      // A mounted banner listens for this and shows itself again; otherwise mounting shows it.
      if (consentRoot.dataset.mounted !== undefined) dispatchEvent(new Event(CLEAR_EVENT));
      else void showConsentUi();
      return;
    }
    void showConsentUi("dialog");
  });
  revealConsentControls();
}

/** The cookie policy's buttons work only with JavaScript, so they are shown by it. */
function revealConsentControls(): void {
  document.querySelectorAll<HTMLElement>("[data-consent-controls]").forEach((el) => (el.hidden = false));
}

/**
 * Consent-gated scripts: `<script type="text/plain" data-consent="analytics" src=...>` stays inert until
 * its category is granted, then runs once as a real script (same origin and CSP rules as any other).
 */
function runGrantedScripts(state: ConsentState | null): void {
  document.querySelectorAll<HTMLScriptElement>('script[type="text/plain"][data-consent]').forEach((inert) => {
    const category = inert.dataset.consent as "analytics" | "marketing" | "functional" | "essential";
    if (!isGranted(state, category)) return;
    const live = document.createElement("script");
    for (const { name, value } of Array.from(inert.attributes))
      if (name !== "type" && name !== "data-consent") live.setAttribute(name, value);
    live.dataset.consentGranted = category;
    if (!inert.src) live.textContent = inert.textContent;
    inert.replaceWith(live);
  });
}
