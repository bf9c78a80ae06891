import { expect, test } from "@playwright/test";
import { sitePlan } from "../helpers.ts";

const { routes, articles, locales: LOCALES } = await sitePlan();

/**
 * Issue 3: from a phone to a wide desktop, no page, articles included, scrolls sideways (nothing wider than the viewport).
 * Issue 19: and no grid of cards, figures or footer columns leaves a lone item on its last row.
 */
const paths = [...[...routes, ...articles].flatMap((route) => LOCALES.map((locale) => route.paths[locale]).filter(Boolean)), "/no-such-page", "/en/no-such-page"];

/** Lists laid out as grids (and the footer's columns) whose last row does not fill the grid's width. */
function orphanedGridItems(): string[] {
  const found: string[] = [];
  for (const grid of document.querySelectorAll<HTMLElement>("ul, ol, .footer-grid")) {
    const style = getComputedStyle(grid);
    if (style.display !== "grid" || style.gridTemplateColumns.split(" ").length < 2) continue;
    const items = [...grid.children].map((el) => el.getBoundingClientRect()).filter((r) => r.height > 0);
    const lastTop = Math.max(...items.map((r) => Math.round(r.top)));
    const last = items.filter((r) => Math.round(r.top) === lastTop);
    const used = last.reduce((sum, r) => sum + r.width, 0) + (parseFloat(style.columnGap) || 0) * (last.length - 1);
    const inner = grid.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (used < inner - 2) found.push(`${grid.tagName.toLowerCase()}.${grid.className} (${items.length} items, ${style.gridTemplateColumns.split(" ").length} columns)`);
  }
  return found;
}

const WIDTHS = [360, 375, 600, 768, 1024, 1440, 1920];
/**
 * Each page is loaded once and laid out again at every width by resizing the window, which re-evaluates the
 * stylesheet's media queries as a load at that width would (no script of the site reads the width); the
 * pages are split into groups that run side by side.
 */
const GROUPS = 4;

for (let group = 0; group < GROUPS; group++) {
  const some = paths.filter((_, i) => i % GROUPS === group);
  test(`no page overflows sideways or leaves a lone grid item at ${WIDTHS.join(", ")} px (group ${group + 1} of ${GROUPS}: ${some.length} of the ${paths.length} pages, both languages)`, async ({ page }) => {
    test.setTimeout(120_000);
    // Consent decided and a language stored: the banner and the home page's detection stay out of the way.
    await page.addInitScript(() => {
      localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
      localStorage.setItem("cookie-preferences", JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }));
      localStorage.setItem("language", location.pathname.startsWith("/en") ? "en" : "pt");
    });
    const overflowing: string[] = [];
    const orphaned: string[] = [];
    for (const path of some) {
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await page.goto(path);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const widths = await page.evaluate(() => {
          const wide = Array.from(document.querySelectorAll<HTMLElement>("body *"))
            .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && getComputedStyle(el).position !== "fixed")
            .slice(0, 3)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
          return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, wide };
        });
        if (widths.scroll > widths.client) overflowing.push(`${path} at ${width} px: ${widths.scroll} > ${widths.client} (${widths.wide.join(", ")})`);
        orphaned.push(...(await page.evaluate(orphanedGridItems)).map((g) => `${path} at ${width} px: ${g}`));
      }
    }
    expect(overflowing).toEqual([]);
    expect(orphaned).toEqual([]);
  });
}

test.describe("details a reviewer measured (issue 19)", () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
      localStorage.setItem("cookie-preferences", JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }));
      localStorage.setItem("language", location.pathname.startsWith("/en") ? "en" : "pt");
    });
  });

  test("the header's call to action centres its label, in the bar and in the phone's menu (pt)", async ({ page }) => {
    const centred = () =>
      page.locator(".nav-cta").evaluate((a) => {
        const box = a.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(a);
        const text = range.getBoundingClientRect();
        return Math.abs(text.top + text.height / 2 - (box.top + box.height / 2)) <= 1 && Math.abs(text.left + text.width / 2 - (box.left + box.width / 2)) <= 1;
      });
    await page.goto("/about");
    expect(await centred()).toBe(true);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator(".menu-toggle").click();
    expect(await centred()).toBe(true);
  });

  test("the rules under the breadcrumbs and above the footer's legal line span the content column only (en)", async ({ page }) => {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/en/about");
      const spans = await page.evaluate(() =>
        [".breadcrumbs", ".footer-legal"].map((selector) => {
          const el = document.querySelector(selector)!;
          const rule = getComputedStyle(el, selector === ".breadcrumbs" ? "::after" : "::before");
          const box = el.getBoundingClientRect();
          const gutter = parseFloat(getComputedStyle(el).paddingLeft);
          return { width: parseFloat(rule.width), column: box.width - 2 * gutter };
        }),
      );
      for (const { width: ruleWidth, column } of spans) expect(Math.abs(ruleWidth - column)).toBeLessThanOrEqual(1);
    }
  });

  test("a list of articles that would leave one alone leads with the newest across the row, its cover beside its text (pt, en)", async ({ page }) => {
    for (const [width, path] of [
      [1440, "/insights"],
      [768, "/en/insights"],
      [768, "/en"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      const list = page.locator("ul.post-list");
      const count = await list.locator(":scope > li").count();
      const columns = width >= 1024 ? 3 : 2;
      // Only a count that leaves a remainder of one makes the first card lead (the site's listing has seven).
      expect(count % columns, `${path} at ${width} px`).toBe(1);
      const [grid, first, second] = await Promise.all([list.boundingBox(), list.locator(":scope > li").first().boundingBox(), list.locator(":scope > li").nth(1).boundingBox()]);
      expect(Math.abs(first!.width - grid!.width), `${path} at ${width} px`).toBeLessThanOrEqual(1);
      expect(second!.y).toBeGreaterThan(first!.y + first!.height);
      // The newest article (the first) is the one leading, and its cover sits to the left of its title.
      const [cover, title] = await Promise.all([list.locator(":scope > li").first().locator("img").boundingBox(), list.locator(":scope > li").first().locator("h3").boundingBox()]);
      expect(cover!.x + cover!.width).toBeLessThanOrEqual(title!.x);
      expect(title!.y).toBeLessThan(cover!.y + cover!.height);
    }
  });

  test("the footer's e-mail field holds its placeholder at every width (pt, en)", async ({ page }) => {
    for (const path of ["/about", "/en/about"]) {
      for (const width of [360, 768, 1024, 1440, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        const fits = await page.locator("#newsletter-email").evaluate((input: HTMLInputElement) => {
          const style = getComputedStyle(input);
          const context = document.createElement("canvas").getContext("2d")!;
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          // Room for the placeholder and a little more: an address is usually longer than the example.
          return room >= context.measureText(input.placeholder).width * 1.2;
        });
        expect(fits, `${path} at ${width} px`).toBe(true);
      }
    }
  });

  test("on a phone the hero's buttons share one width and keep their labels on one line; biographies keep the card's width (pt)", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    const buttons = await page.locator(".hero .actions .btn").evaluateAll((els) => els.map((el) => ({ width: el.getBoundingClientRect().width })));
    expect(buttons).toHaveLength(2);
    expect(Math.abs(buttons[0].width - buttons[1].width)).toBeLessThanOrEqual(1);
    // The lines the label's own text takes (the arrow icon beside it is no line of text).
    const labels = await page.locator(".hero .actions .btn").evaluateAll((els) =>
      els.map((el) => {
        const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE)!;
        const range = document.createRange();
        range.selectNodeContents(text);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }),
    );
    expect(labels.every((n) => n === 1)).toBe(true);
    await page.goto("/about");
    const bios = await page.locator(".person").evaluateAll((cards) =>
      cards.map((card) => {
        const bio = card.lastElementChild!.getBoundingClientRect();
        const style = getComputedStyle(card);
        return card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - bio.width;
      }),
    );
    expect(bios.length).toBeGreaterThan(3);
    for (const lost of bios) expect(lost).toBeLessThanOrEqual(1);
  });

  test("on a phone the cookie table says it scrolls sideways and its frame takes keyboard focus under a name (pt)", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/cookie-policy");
    const region = page.getByRole("region", { name: "Itens que o site guarda no seu navegador" });
    await expect(region).toBeVisible();
    await expect(page.locator(".table-hint")).toBeVisible();
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.locator(".table-hint")).toBeHidden();
  });

  test("the contact page gives the phone, the address and the response time of site.yaml (en)", async ({ page }) => {
    await page.goto("/en/contact");
    const details = page.locator(".details");
    await expect(details.getByRole("link", { name: "+55 11 4040-2026" })).toHaveAttribute("href", "tel:+551140402026");
    await expect(details.locator("address")).toHaveText("São Paulo, SP, Brazil");
    await expect(details).toContainText("We answer every message within one business day.");
  });

  test("every sector is a link, on the home page and in the navigation's menu: manufacturing and healthcare to their sections (pt)", async ({ page }) => {
    await page.goto("/");
    const tiles = page.locator("#industries .card-grid li");
    await expect(tiles).toHaveCount(8);
    await expect(tiles.locator("a")).toHaveCount(8);
    await expect(page.locator("#industries").getByRole("link", { name: "Indústria" })).toHaveAttribute("href", "/industries#manufacturing");
    await expect(page.locator("#industries").getByRole("link", { name: "Saúde" })).toHaveAttribute("href", "/industries#healthcare");
    const menu = page.locator("header .has-sub").filter({ has: page.locator('a[href="/industries"]') }).locator(".sub-nav a");
    await expect(menu).toHaveCount(8);
    // The menu shows the moment its link takes the focus, not after its fade-in: a link still hidden is
    // skipped by the keyboard, so a Tab pressed at once would jump past the sectors.
    const shownAtOnce = await page.evaluate(() => {
      const parent = document.querySelector<HTMLElement>('header .has-sub > a[href="/industries"]')!;
      parent.focus();
      const visibility = getComputedStyle(parent.closest(".has-sub")!.querySelector(".sub-nav a")!).visibility;
      parent.blur();
      return visibility;
    });
    expect(shownAtOnce).toBe("visible");
    // The menu opens to the keyboard as to the pointer: focus its link, then walk to the last sector.
    await page.locator('header .has-sub > a[href="/industries"]').focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
    await expect(page.locator('header a[href="/industries#healthcare"]')).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/industries#healthcare$/);
    await expect(page.locator("#healthcare")).toBeInViewport();
  });

  test("the not-found page and the form result pages keep light space between their dark hero and the dark footer (pt, en)", async ({ page }) => {
    for (const path of ["/no-such-page", "/en/no-such-page", "/forms/error", "/en/forms/newsletter-success"]) {
      await page.goto(path);
      const gap = await page.evaluate(() => document.querySelector("footer")!.getBoundingClientRect().top - document.querySelector("main .page-hero")!.getBoundingClientRect().bottom);
      expect(gap, path).toBeGreaterThanOrEqual(40);
    }
  });
});
