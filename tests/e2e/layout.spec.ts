import { expect, test } from "@playwright/test";
import { sitePlan } from "../helpers.ts";

const { routes, articles, locales: LOCALES } = await sitePlan();

/**
 * Issue 3: from a phone to a wide desktop, no page, articles included, scrolls sideways (nothing wider than the
 * viewport).
 * Issue 19: and no grid of cards, figures or footer columns leaves a lone item on its last row.
 */
const paths = [
  ...[...routes, ...articles].flatMap((route) => LOCALES.map((locale) => route.paths[locale]).filter(Boolean)),
  "/no-such-page",
  "/en/no-such-page",
];

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
    if (used < inner - 2) {
      const columns = style.gridTemplateColumns.split(" ").length;
      found.push(`${grid.tagName.toLowerCase()}.${grid.className} (${items.length} items, ${columns} columns)`);
    }
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
  const noOverflowOrLoneItem =
    `no page overflows sideways or leaves a lone grid item at ${WIDTHS.join(", ")} px (group ${group + 1} of ` +
    `${GROUPS}: ${some.length} of the ${paths.length} pages, both languages)`;
  test(noOverflowOrLoneItem, async ({ page }) => {
    test.setTimeout(120_000);
    // Consent decided and a language stored: the banner and the home page's detection stay out of the way.
    await page.addInitScript(() => {
      localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
      localStorage.setItem(
        "cookie-preferences",
        JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
      );
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
            .filter(
              (el) =>
                el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 &&
                getComputedStyle(el).position !== "fixed",
            )
            .slice(0, 3)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
          return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, wide };
        });
        if (widths.scroll > widths.client)
          overflowing.push(`${path} at ${width} px: ${widths.scroll} > ${widths.client} (${widths.wide.join(", ")})`);
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
      localStorage.setItem(
        "cookie-preferences",
        JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
      );
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
        return (
          Math.abs(text.top + text.height / 2 - (box.top + box.height / 2)) <= 1 &&
          Math.abs(text.left + text.width / 2 - (box.left + box.width / 2)) <= 1
        );
      });
    await page.goto("/about");
    expect(await centred()).toBe(true);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator(".menu-toggle").click();
    expect(await centred()).toBe(true);
  });

  test("the rules under the breadcrumbs and above the footer's legal line span the content column only (en)", async ({
    page,
  }) => {
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

  const loneArticleLeadsRow =
    "a list of articles that would leave one alone leads with the newest across the row, its cover beside its text " +
    "(pt, en)";
  test(loneArticleLeadsRow, async ({ page }) => {
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
      const [grid, first, second] = await Promise.all([
        list.boundingBox(),
        list.locator(":scope > li").first().boundingBox(),
        list.locator(":scope > li").nth(1).boundingBox(),
      ]);
      expect(Math.abs(first!.width - grid!.width), `${path} at ${width} px`).toBeLessThanOrEqual(1);
      expect(second!.y).toBeGreaterThan(first!.y + first!.height);
      // The newest article (the first) is the one leading, and its cover sits to the left of its title.
      const [cover, title] = await Promise.all([
        list.locator(":scope > li").first().locator("img").boundingBox(),
        list.locator(":scope > li").first().locator("h3").boundingBox(),
      ]);
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

  const phoneHeroButtons =
    "on a phone the hero's buttons share one width and keep their labels on one line; biographies keep the card's " +
    "width (pt)";
  test(phoneHeroButtons, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    const buttons = await page
      .locator(".hero .actions .btn")
      .evaluateAll((els) => els.map((el) => ({ width: el.getBoundingClientRect().width })));
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

  const phoneCookieTable =
    "on a phone the cookie table says it scrolls sideways and its frame takes keyboard focus under a name (pt)";
  test(phoneCookieTable, async ({ page }) => {
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

  test("on a phone an article's table scrolls in a named frame the keyboard can reach (en)", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/en/insights/ai-governance");
    const region = page.getByRole("region", { name: "Table 1" });
    await expect(page.locator(".article-prose .table-hint")).toBeVisible();
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await region.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });

  const contactPageDetails =
    "the contact page gives the address and the response time of site.yaml, and no phone while it has none (en)";
  test(contactPageDetails, async ({ page }) => {
    await page.goto("/en/contact");
    const details = page.locator(".details");
    await expect(details.locator("address")).toHaveText("São Paulo, SP, Brazil");
    await expect(details).toContainText("We answer every message within one business day.");
    await expect(page.locator('a[href^="tel:"]')).toHaveCount(0);
    await expect(page.locator(".privacy-note").getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/en/privacy-policy",
    );
  });

  const everySectorLinked =
    "every sector is a link, on the home page and in the navigation's menu: manufacturing and healthcare to their " +
    "sections (pt)";
  test(everySectorLinked, async ({ page }) => {
    await page.goto("/");
    const tiles = page.locator("#industries .card-grid li");
    await expect(tiles).toHaveCount(8);
    await expect(tiles.locator("a")).toHaveCount(8);
    await expect(page.locator("#industries").getByRole("link", { name: "Indústria" })).toHaveAttribute(
      "href",
      "/industries#manufacturing",
    );
    await expect(page.locator("#industries").getByRole("link", { name: "Saúde" })).toHaveAttribute(
      "href",
      "/industries#healthcare",
    );
    const menu = page
      .locator("header .has-sub")
      .filter({ has: page.locator('a[href="/industries"]') })
      .locator(".sub-nav a");
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

  const noBandHalfEmpty =
    "at 1440 px no band leaves its right half empty, and no text is smaller than the intro above it (pt, en)";
  test(noBandHalfEmpty, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const pages = [
      "/",
      "/services",
      "/services/advisory",
      "/technologies",
      "/industries",
      "/industries/financial-services",
      "/about",
      "/results",
      "/en",
      "/en/industries/energy",
    ];
    const problems: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      problems.push(
        ...(await page.evaluate((where) => {
          const found: string[] = [];
          for (const band of document.querySelectorAll<HTMLElement>(
            "main > section, main > div > section, .indexed-content > section",
          )) {
            const container = band.querySelector<HTMLElement>(":scope > .container") ?? band;
            const box = container.getBoundingClientRect();
            const inner =
              box.width -
              parseFloat(getComputedStyle(container).paddingRight) -
              parseFloat(getComputedStyle(container).paddingLeft);
            const right = Math.max(
              ...[...container.querySelectorAll<HTMLElement>("p, li, h2, h3, a, figure, svg, details, blockquote")].map(
                (el) => el.getBoundingClientRect().right,
              ),
            );
            const used = right - box.left - parseFloat(getComputedStyle(container).paddingLeft);
            const share = Math.round((100 * used) / inner);
            if (used < inner * 0.75)
              found.push(`${where} #${band.id || band.className}: text reaches ${share}% of the width`);
            const intro = band.querySelector<HTMLElement>(".section-intro");
            if (!intro) continue;
            const introSize = parseFloat(getComputedStyle(intro).fontSize);
            // Body text, not a card's badge or an article card's date line.
            const body = [
              ...band.querySelectorAll<HTMLElement>(
                ".prose p, .card p:not(.badge):not(.meta), .numbered-cols p, .ruled-list p, details p, " +
                  ".line-row-services p, .tech-list p:not(.tools), .benefit-list p",
              ),
            ];
            for (const p of body) {
              const size = parseFloat(getComputedStyle(p).fontSize);
              if (size < introSize - 0.5)
                found.push(`${where} #${band.id}: ${size}px text under a ${introSize}px intro`);
            }
          }
          return found;
        }, path)),
      );
    }
    expect(problems).toEqual([]);
  });

  const articleReadableColumn =
    "an article reads in one column of 18 to 20 px type, about 70 characters a line, the author at its top and the " +
    "newsletter and a call at its end (pt)";
  test(articleReadableColumn, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/insights/ia-em-decisoes-de-credito");
    const prose = page.locator(".article-prose");
    // Characters per line: the first paragraph's full lines (its last, shorter one left out).
    const { size, charsPerLine } = await prose
      .locator("p")
      .first()
      .evaluate((p) => {
        const text = p.firstChild!;
        const length = text.textContent!.length;
        const topOf = (i: number) => {
          const r = document.createRange();
          r.setStart(text, i);
          r.setEnd(text, i + 1);
          return Math.round(r.getBoundingClientRect().top);
        };
        const last = topOf(length - 1);
        let lines = 1;
        let full = 0;
        for (let i = 0, top = topOf(0); i < length; i++) {
          const at = topOf(i);
          if (at === last) break;
          if (at !== top) ((lines += 1), (top = at));
          full++;
        }
        return { size: parseFloat(getComputedStyle(p).fontSize), charsPerLine: full / lines };
      });
    expect(size).toBeGreaterThanOrEqual(18);
    expect(size).toBeLessThanOrEqual(20);
    expect(charsPerLine).toBeGreaterThan(60);
    expect(charsPerLine).toBeLessThan(80);
    const byline = (await page.locator("article header .byline").boundingBox())!;
    const text = (await prose.boundingBox())!;
    expect(byline.y).toBeLessThan(text.y);
    const newsletter = (await page.locator(".article-newsletter form").boundingBox())!;
    const band = (await page.locator(".cta-band").boundingBox())!;
    expect(newsletter.y).toBeGreaterThan(text.y + text.height - 1);
    expect(band.y).toBeGreaterThan(newsletter.y);
    await expect(page.locator(".cta-band").getByRole("link", { name: "Consultoria em IA" })).toHaveAttribute(
      "href",
      "/services/advisory",
    );
  });

  const industriesIndexPlacement =
    "the industries page keeps its index in view beside the sections on a wide screen, and lists it at the top on a " +
    "phone (pt)";
  test(industriesIndexPlacement, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/industries");
    const index = page.getByRole("navigation", { name: "Nesta página" });
    await page.locator("#healthcare").scrollIntoViewIfNeeded();
    await expect(index).toBeInViewport();
    await index.getByRole("link", { name: "Casos de uso" }).last().click();
    await expect(page.locator("#healthcare-use-cases")).toBeInViewport();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/industries");
    const hero = (await page.locator(".page-hero").boundingBox())!;
    const top = (await index.boundingBox())!;
    expect(top.y).toBeLessThan(hero.y + hero.height + 100);
  });

  test("a sector's ten use cases are accordions the keyboard opens, the first one open (en)", async ({ page }) => {
    await page.goto("/en/industries/financial-services");
    const items = page.locator("#use-cases details");
    await expect(items).toHaveCount(10);
    await expect(items.first()).toHaveAttribute("open", "");
    const second = items.nth(1);
    await expect(second.locator("p").first()).toBeHidden();
    await second.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(second.locator("p").first()).toBeVisible();
  });

  test("at 1440 px the newsletter's error toast leaves every link of the footer's legal line uncovered (pt)", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/about");
    const island = page.locator('footer [data-island="newsletter"]');
    await island.scrollIntoViewIfNeeded();
    await expect(island).toHaveAttribute("data-hydrated", "true");
    await page.locator("footer").getByRole("button", { name: "Inscrever-se" }).click();
    const toast = page.locator(".toaster .toast").first();
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const links = await page.locator(".footer-legal a").all();
    expect(links.length).toBe(4);
    for (const link of links) {
      const r = (await link.boundingBox())!;
      const overlaps =
        r.x < box.x + box.width && box.x < r.x + r.width && r.y < box.y + box.height && box.y < r.y + r.height;
      expect(overlaps, await link.innerText()).toBe(false);
    }
  });

  const quietPagesOneBand =
    "the not-found, error and form result pages are one light band with a quiet visual beside the message, down to " +
    "the footer (pt, en)";
  test(quietPagesOneBand, async ({ page }) => {
    for (const path of ["/no-such-page", "/en/no-such-page", "/forms/error", "/en/forms/newsletter-success"]) {
      await page.goto(path);
      const band = page.locator("main .quiet-page");
      await expect(band.locator("svg.illustration-quiet")).toBeVisible();
      await expect(band.locator("h1")).toBeVisible();
      // No dark hero above it, and no empty white band between it and what follows.
      await expect(page.locator("main .page-hero, main .hero")).toHaveCount(0);
      const next = await band.evaluate(
        (el) =>
          (el.nextElementSibling ?? document.querySelector("footer"))!.getBoundingClientRect().top -
          el.getBoundingClientRect().bottom,
      );
      expect(next, path).toBeLessThanOrEqual(1);
    }
  });

  const eyebrowCityWhole =
    "on a phone the home page's eyebrow keeps the city on one line, and no line starts with its dot (pt, en)";
  test(eyebrowCityWhole, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const path of ["/", "/en"]) {
      await page.goto(path);
      // The text of each rendered line of the eyebrow, from the rectangles of its characters.
      const lines = await page.locator(".hero .eyebrow").evaluate((p) => {
        const text = p.firstChild!;
        const rows = new Map<number, string>();
        for (let i = 0; i < text.textContent!.length; i++) {
          const r = document.createRange();
          r.setStart(text, i);
          r.setEnd(text, i + 1);
          const top = Math.round(r.getBoundingClientRect().top);
          rows.set(top, (rows.get(top) ?? "") + text.textContent![i]);
        }
        return [...rows.values()].map((line) => line.replace(/\s+/g, " ").trim());
      });
      expect(lines.length, path).toBeGreaterThan(0);
      expect(
        lines.some((line) => line.includes("São Paulo")),
        `${path}: ${lines.join(" | ")}`,
      ).toBe(true);
      for (const line of lines) expect(line.startsWith("·"), `${path}: ${lines.join(" | ")}`).toBe(false);
    }
  });
});
