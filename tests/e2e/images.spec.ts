import { expect, test } from "@playwright/test";

/** Issue 17, images: the cover of an article in a real browser, at a phone's width and a desktop's. */
for (const viewport of [
  { width: 375, height: 740 },
  { width: 1440, height: 900 },
]) {
  test(`an article's cover shows above the fold at ${viewport.width} px, as AVIF, without moving the page`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    // Every layout shift from the start of the load, as Chromium reports them (what CLS adds up).
    await page.addInitScript(() => {
      (window as unknown as { shifts: number[] }).shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          (window as unknown as { shifts: number[] }).shifts.push((entry as unknown as { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto("/en/insights/ai-governance");
    const cover = page.locator("header picture img");
    await expect(cover).toBeVisible();
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const { currentSrc, box, offered, density } = await cover.evaluate((img: HTMLImageElement) => ({
      currentSrc: img.currentSrc,
      box: img.getBoundingClientRect().toJSON() as DOMRect,
      offered: img
        .parentElement!.querySelector<HTMLSourceElement>("source[type='image/avif']")!
        .srcset.split(",")
        .map((c) => Number(/(\d+)w\s*$/.exec(c)![1])),
      density: devicePixelRatio,
    }));
    expect(currentSrc).toMatch(/\/assets\/img\/ai-governance-\d+\.[0-9a-f]{10}\.avif$/);
    // The file chosen is the narrowest offered that fills the slot on this screen (the widest if none does).
    const chosen = Number(/-(\d+)\.[0-9a-f]{10}\.avif$/.exec(currentSrc)![1]);
    const wideEnough = offered.filter((w) => w >= box.width * density);
    expect(chosen).toBe(wideEnough.length > 0 ? Math.min(...wideEnough) : Math.max(...offered));
    // Wide and low (2:1), and its top edge within the first screen.
    expect(Math.abs(box.width / box.height - 2)).toBeLessThan(0.02);
    expect(box.top).toBeLessThan(viewport.height);
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((a, b) => a + b, 0)).toBe(0);
  });
}

test("the listing's covers load as they near the viewport", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/insights");
  const covers = page.locator("main .post img");
  const count = await covers.count();
  expect(count).toBeGreaterThanOrEqual(6);
  const last = covers.nth(count - 1);
  await last.scrollIntoViewIfNeeded();
  await expect.poll(() => last.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Drawn at a card's width (about a third of the container), so a 400 or 800 pixel file serves it.
  expect(await last.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-(400|800)\.[0-9a-f]{10}\.avif$/);
});
