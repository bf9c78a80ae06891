import { usePage } from "./page-context.tsx";
import type { CookieConsentProps } from "../islands/cookie-consent.tsx";

/**
 * The empty container the consent banner renders into, right after the skip link, so keyboard users reach
 * it before anything else.
 * It has no server markup: without JavaScript the site sets no optional cookie, so there is nothing to ask.
 */
export function ConsentRoot() {
  const { t, site, islands, href } = usePage();
  const cat = (c: string) => ({
    name: t(`cookies.categories.${c}.name`),
    description: t(`cookies.categories.${c}.description`),
  });
  const keys = [
    "regionLabel",
    "title",
    "description",
    "customize",
    "rejectAll",
    "acceptAll",
    "learnMore",
    "dialogTitle",
    "dialogDescription",
    "save",
    "close",
    "alwaysOn",
  ] as const;
  const props: Omit<CookieConsentProps, "initialView"> = {
    policy: { revision: site.consent.revision, lifetimeDays: site.consent.lifetimeDays },
    policyHref: href("cookie-policy"),
    text: {
      ...(Object.fromEntries(keys.map((k) => [k, t(`cookies.${k}`)])) as Omit<
        CookieConsentProps["text"],
        "categories"
      >),
      categories: {
        essential: cat("essential"),
        analytics: cat("analytics"),
        marketing: cat("marketing"),
        functional: cat("functional"),
      },
    },
  };
  return (
    <div
      className="consent-root"
      data-island="cookie-consent"
      data-when="manual"
      data-src={islands["cookie-consent"]}
      data-revision={site.consent.revision}
      data-lifetime-days={site.consent.lifetimeDays}
      data-props={JSON.stringify(props)}
    />
  );
}

/**
 * The two notification regions of spec §9 (runtime/toast.ts), present before the first toast so screen
 * readers already follow them. Their names carry the hotkeys that move focus to them.
 */
export function Toaster() {
  const { t } = usePage();
  return (
    <>
      <section
        className="toaster"
        data-toaster="main"
        aria-label={`${t("toast.regionLabel")} (Alt+T)`}
        tabIndex={-1}
        data-close-label={t("toast.close")}
      >
        <ol aria-live="polite" aria-relevant="additions text" />
      </section>
      <section
        className="toaster toaster-alert"
        data-toaster="alert"
        aria-label={`${t("toast.alertRegionLabel")} (F8)`}
        tabIndex={-1}
        data-close-label={t("toast.close")}
      >
        <ol aria-live="polite" aria-relevant="additions text" />
      </section>
    </>
  );
}
