import { useEffect, useRef, useState } from "react";
import { islandMount } from "./runtime/island.ts";
import {
  acceptAll,
  readConsent,
  rejectAll,
  saveConsent,
  ESSENTIAL_ONLY,
  type ConsentPolicy,
  type ConsentPreferences,
} from "./runtime/consent.ts";

export const OPEN_SETTINGS_EVENT = "sitegen:open-cookie-settings";
export const CLEAR_EVENT = "sitegen:consent-cleared";

type Optional = "analytics" | "marketing" | "functional";
const OPTIONAL: Optional[] = ["analytics", "marketing", "functional"];

export interface CookieConsentProps {
  policy: ConsentPolicy;
  policyHref: string;
  /** Open straight into the preferences dialog (the footer's cookie settings link). */
  initialView?: "dialog";
  text: {
    regionLabel: string;
    title: string;
    description: string;
    customize: string;
    rejectAll: string;
    acceptAll: string;
    learnMore: string;
    dialogTitle: string;
    dialogDescription: string;
    save: string;
    close: string;
    alwaysOn: string;
    categories: Record<"essential" | Optional, { name: string; description: string }>;
  };
}

/** Dispatched by the navigation island when it starts moving to another page (runtime/navigation.ts). */
const NAVIGATE_EVENT = "sitegen:navigate";

type View = "banner" | "dialog" | "hidden";

/**
 * The cookie banner and preferences dialog (spec §4). Rendered only in the browser: without JavaScript the
 * site sets no optional cookie, so there is nothing to ask. Reject sits beside accept with the same weight
 * (LGPD guidance: refusing must be as easy as accepting).
 */
export default function CookieConsent({ policy, policyHref, initialView, text }: CookieConsentProps) {
  const stored = readConsent(policy);
  const [view, setView] = useState<View>(initialView ?? (stored ? "hidden" : "banner"));
  // While undecided the banner stays in the page under the modal dialog, so focus can return to it.
  const [undecided, setUndecided] = useState(!stored);
  const [choice, setChoice] = useState<ConsentPreferences>(stored?.preferences ?? { ...ESSENTIAL_ONLY });
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const open = () => {
      setChoice(readConsent(policy)?.preferences ?? { ...ESSENTIAL_ONLY });
      setView("dialog");
    };
    const cleared = () => {
      setChoice({ ...ESSENTIAL_ONLY });
      setUndecided(true);
      setView("banner");
    };
    // A link in the dialog (the cookie policy) was followed in place: leave the dialog so the page shows;
    // the navigation moves focus to the new page's heading.
    const navigating = () => {
      if (!dialog.current?.open) return;
      dialog.current.close();
      setView(readConsent(policy) ? "hidden" : "banner");
    };
    addEventListener(OPEN_SETTINGS_EVENT, open);
    addEventListener(CLEAR_EVENT, cleared);
    addEventListener(NAVIGATE_EVENT, navigating);
    return () => {
      removeEventListener(OPEN_SETTINGS_EVENT, open);
      removeEventListener(CLEAR_EVENT, cleared);
      removeEventListener(NAVIGATE_EVENT, navigating);
    };
  }, []);

  useEffect(() => {
    const d = dialog.current;
    if (view === "dialog" && d && !d.open) {
      opener.current = document.activeElement;
      d.showModal();
    }
    if (view !== "dialog" && d?.open) d.close();
  }, [view]);

  /** Leaves the dialog: back to the banner while undecided, and focus back to what opened it. */
  function closeDialog(next: View) {
    dialog.current?.close();
    setView(next);
    const back = opener.current;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
    else document.getElementById("main")?.focus();
  }

  const decide = (save: () => void) => {
    save();
    setUndecided(false);
    if (view === "dialog") closeDialog("hidden");
    else setView("hidden");
  };

  return (
    <>
      {undecided && view !== "hidden" && (
        // Keyed by its text: in another language it is a new box, not this one resized. The box is pinned to
        // the bottom, so resized text would move its top, a layout shift (CLS 0.12 on a phone when language
        // detection switches the home page). The choices live in this component, so nothing is lost.
        <section
          key={text.title}
          className="consent-banner"
          aria-labelledby="consent-title"
          aria-describedby="consent-description"
        >
          <h2 id="consent-title">{text.title}</h2>
          <p id="consent-description">
            {text.description} <a href={policyHref}>{text.learnMore}</a>
          </p>
          <div className="consent-actions">
            <button type="button" className="btn btn-ghost" onClick={() => setView("dialog")}>
              {text.customize}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => decide(() => rejectAll(policy))}>
              {text.rejectAll}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => decide(() => acceptAll(policy))}>
              {text.acceptAll}
            </button>
          </div>
        </section>
      )}
      <dialog
        ref={dialog}
        className="consent-dialog"
        aria-labelledby="consent-dialog-title"
        aria-describedby="consent-dialog-description"
        onCancel={(e: { preventDefault(): void }) => {
          e.preventDefault();
          closeDialog(readConsent(policy) ? "hidden" : "banner");
        }}
      >
        <div className="consent-dialog-head">
          <h2 id="consent-dialog-title">{text.dialogTitle}</h2>
          <button
            type="button"
            className="icon-button"
            aria-label={text.close}
            data-tooltip={text.close}
            onClick={() => closeDialog(readConsent(policy) ? "hidden" : "banner")}
          >
            <svg
              width="18"
              height="18"
              viewBox="0 0 24 24"
              aria-hidden="true"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinecap="round"
            >
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </button>
        </div>
        <p id="consent-dialog-description">{text.dialogDescription}</p>
        <ul className="consent-categories">
          <li>
            <label className="switch-row">
              <span>
                <strong>{text.categories.essential.name}</strong> <span className="always-on">({text.alwaysOn})</span>
                <span className="switch-description">{text.categories.essential.description}</span>
              </span>
              <input type="checkbox" role="switch" checked disabled aria-checked="true" />
            </label>
          </li>
          {OPTIONAL.map((c) => (
            <li key={c}>
              <label className="switch-row">
                <span>
                  <strong>{text.categories[c].name}</strong>
                  <span className="switch-description">{text.categories[c].description}</span>
                </span>
                <input
                  type="checkbox"
                  role="switch"
                  name={c}
                  checked={choice[c]}
                  aria-checked={choice[c] ? "true" : "false"}
                  onChange={(e: { currentTarget: HTMLInputElement }) => {
                    const checked = e.currentTarget.checked;
                    setChoice((p) => ({ ...p, [c]: checked }));
                  }}
                />
              </label>
            </li>
          ))}
        </ul>
        <div className="consent-actions">
          <a href={policyHref}>{text.learnMore}</a>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => decide(() => saveConsent(true, choice, policy))}
          >
            {text.save}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => decide(() => acceptAll(policy))}>
            {text.acceptAll}
          </button>
        </div>
      </dialog>
    </>
  );
}

export const mount = islandMount(CookieConsent);
