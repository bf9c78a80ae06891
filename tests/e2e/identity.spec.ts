import { expect, test, type Page } from "@playwright/test";

/**
 * Issue 19's visual identity as a visitor meets it: the typeface in use, its swap moving nothing, and the
 * heroes' visual filling the right of the dark band on wide screens and gone on phones.
 */
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
    localStorage.setItem(
      "cookie-preferences",
      JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
    );
    localStorage.setItem("language", location.pathname.startsWith("/en") ? "en" : "pt");
  });
});

/** Where the blocks of the first screen and a half sit: the hero's text and buttons, the first figures. */
const positions = (page: Page) =>
  page.evaluate(() =>
    ["h1", ".hero .lead", ".hero .btn-primary", "#results h2", "#results .outcome-value"].map((selector) => {
      const r = document.querySelector(selector)!.getBoundingClientRect();
      return { selector, top: Math.round(r.top + scrollY), height: Math.round(r.height) };
    }),
  );

test("the pages are set in Inter, from the site's own origin", async ({ page }) => {
  const fonts: string[] = [];
  page.on("request", (request) => request.resourceType() === "font" && fonts.push(new URL(request.url()).origin));
  await page.goto("/en");
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => document.fonts.check('700 16px "Inter Variable"'))).toBe(true);
  expect(
    await page.evaluate(() => [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family)),
  ).toContain("Inter Variable");
  expect(await page.evaluate(() => getComputedStyle(document.querySelector("h1")!).fontFamily)).toMatch(
    /^"Inter Variable", "Inter Fallback Arial"/,
  );
  expect(fonts.length).toBeGreaterThan(0);
  expect(new Set(fonts)).toEqual(new Set([new URL(page.url()).origin]));
});

const fallbackFontMetrics =
  "the fallback font is sized to Inter's metrics: the page's blocks sit where Inter puts them (pt, 1440 px)";
test(fallbackFontMetrics, async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await page.evaluate(() => document.fonts.ready);
  const withInter = await positions(page);
  // The same page with the font refused: what a visitor sees until it arrives (font-display: swap).
  await page.route("**/*.woff2", (route) => route.abort());
  await page.reload();
  await page.evaluate(() => document.fonts.ready);
  expect(
    await page.evaluate(() => [...document.fonts].some((f) => f.family === "Inter Variable" && f.status === "loaded")),
  ).toBe(false);
  const withFallback = await positions(page);
  for (const [i, block] of withInter.entries()) {
    expect(Math.abs(withFallback[i].top - block.top), `${block.selector} moves`).toBeLessThanOrEqual(8);
    expect(Math.abs(withFallback[i].height - block.height), `${block.selector} changes height`).toBeLessThanOrEqual(2);
  }
});

for (const [width, shown] of [
  [375, false],
  [768, false],
  [1024, true],
  [1440, true],
] as const) {
  const heroVisualAtWidth =
    `the hero's visual ${shown ? "fills the right of the dark band" : "stays off a narrow screen"} at ${width} px ` +
    `(pt, en)`;
  test(heroVisualAtWidth, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/", "/en/industries"]) {
      await page.goto(path);
      const visual = page.locator("main svg.illustration").first();
      if (!shown) {
        await expect(visual).toBeHidden();
        continue;
      }
      await expect(visual).toBeVisible();
      const [box, band] = await Promise.all([
        visual.boundingBox(),
        page.locator("main .hero, main .page-hero").first().boundingBox(),
      ]);
      // In the right half of the band, inside it, and wide enough to fill it.
      expect(box!.x, path).toBeGreaterThan(band!.x + band!.width / 2 - 40);
      expect(box!.x + box!.width, path).toBeLessThanOrEqual(band!.x + band!.width);
      expect(box!.width, path).toBeGreaterThan(240);
    }
  });
}
