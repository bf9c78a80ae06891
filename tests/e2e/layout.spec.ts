import { expect, test } from "@playwright/test";
import { sitePlan } from "../helpers.ts";

const { routes, locales: LOCALES } = await sitePlan();

/** Issue 3: from a phone to a wide desktop, no page scrolls sideways (nothing wider than the viewport). */
const paths = [...routes.flatMap((route) => LOCALES.map((locale) => route.paths[locale])), "/no-such-page", "/en/no-such-page"];

for (const width of [360, 375, 768, 1440]) {
  test(`no page overflows sideways at ${width} px (${paths.length} pages, both languages)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    // Consent decided and a language stored: the banner and the home page's detection stay out of the way.
    await page.addInitScript(() => {
      localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
      localStorage.setItem("cookie-preferences", JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }));
      localStorage.setItem("language", location.pathname.startsWith("/en") ? "en" : "pt");
    });
    const overflowing: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      const widths = await page.evaluate(() => {
        const wide = Array.from(document.querySelectorAll<HTMLElement>("body *"))
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && getComputedStyle(el).position !== "fixed")
          .slice(0, 3)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
        return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, wide };
      });
      if (widths.scroll > widths.client) overflowing.push(`${path}: ${widths.scroll} > ${widths.client} (${widths.wide.join(", ")})`);
    }
    expect(overflowing).toEqual([]);
  });
}
