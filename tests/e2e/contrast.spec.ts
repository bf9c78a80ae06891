import { expect, test, type Page } from "@playwright/test";
import { sitePlan } from "../helpers.ts";
import { installContrastTools, type ContrastProblem } from "./contrast-tools.ts";

/**
 * Contrast beyond axe's defaults (issue 19): every focus indicator reached with the keyboard against every
 * background its ring crosses (gradients by each colour stop), text over gradients, text in the hover
 * state, and the forms' error and success states, in both languages. WCAG 1.4.3 and 1.4.11: text at least
 * 4.5:1, a focus indicator at least 3:1.
 */
const TEXT = 4.5;
const FOCUS = 3;

const { routes, articles, locales } = await sitePlan();
const KEY_PAGES = [
  "home",
  "about",
  "services",
  "services.advisory",
  "technologies",
  "industries",
  "industries.energy",
  "results",
  "contact",
  "cookie-policy",
  "insights.tags",
];
// A tag's page and an article, whose tags are links (both languages have articles on governance).
const ENTRY_PAGES = ["insights.tag:governance", "insights.article:ai-governance"];
const pages = locales.flatMap((locale) => [
  ...KEY_PAGES.map((id) => routes.find((r) => r.id === id)!.paths[locale]),
  ...ENTRY_PAGES.map((id) => articles.find((r) => r.id === id)!.paths[locale]),
  locale === "pt" ? "/pagina-que-nao-existe" : `/${locale}/no-such-page`,
]);

// The footer is the same on every page, on the same background: its controls are checked on each home page.
const FOOTER_PAGES = new Set(locales.map((locale) => routes.find((r) => r.id === "home")!.paths[locale]));

const format = (problems: ContrastProblem[]) => problems.map((p) => `${p.what}: ${p.ratio}:1 (${p.against})`);

/** The focused element's indicator; focus must be somewhere. */
const ring = (page: Page) =>
  page.evaluate(
    async (min) =>
      (await window.contrast.focusRing(min))?.problems ?? [
        { what: "nothing", ratio: 0, against: "no element has focus" },
      ],
    FOCUS,
  );
const textIn = (page: Page, roots: string) =>
  page.evaluate(([selector, min]) => window.contrast.text(selector, min), [roots, TEXT] as const);

async function prepare(page: Page, options: { consent?: boolean } = {}) {
  await page.addInitScript(installContrastTools);
  await page.addInitScript((decided) => {
    if (sessionStorage.getItem("seeded")) return;
    sessionStorage.setItem("seeded", "1");
    localStorage.setItem("language", location.pathname.startsWith("/en") ? "en" : "pt");
    if (!decided) return;
    localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
    localStorage.setItem(
      "cookie-preferences",
      JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
    );
  }, options.consent ?? true);
}

/**
 * Tabs through the page (or the open dialog, where focus is trapped) until focus leaves the document, comes
 * back to an element already seen or reaches `until` (a selector), checking each element's focus indicator.
 */
async function tabThrough(
  page: Page,
  limit = 200,
  until?: string,
): Promise<{ visited: number; problems: ContrastProblem[] }> {
  await page.evaluate(() => ((window as unknown as { seen: WeakSet<Element> }).seen = new WeakSet()));
  const problems: ContrastProblem[] = [];
  let visited = 0;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const result = await page.evaluate(
      async ([min, until]) => {
        const seen = (window as unknown as { seen: WeakSet<Element> }).seen;
        const el = document.activeElement;
        if (!el || el === document.body || seen.has(el) || (until && el.closest(until))) return "done" as const;
        seen.add(el);
        return window.contrast.focusRing(min);
      },
      [FOCUS, until] as const,
    );
    if (result === "done") break;
    if (!result) continue;
    visited++;
    problems.push(...result.problems);
  }
  return { visited, problems };
}

type Targets = { hoverTargets: Element[] };

/**
 * Hovers each visible control and link and checks its text in that state. The pointer goes straight to the
 * middle of the element, brought into view, when nothing else lies on top there; otherwise (a sticky layer,
 * a link broken over two lines) Playwright's hover finds a spot. Either way the text is measured only once
 * the element is under the pointer (:hover).
 */
async function hoverChecks(page: Page, selector: string): Promise<ContrastProblem[]> {
  const problems: ContrastProblem[] = [];
  const count = await page.evaluate(
    (s) => ((window as unknown as Targets).hoverTargets = [...document.querySelectorAll(s)]).length,
    selector,
  );
  const hovered = (i: number) =>
    page.evaluate(
      async ([i, min]) => {
        const el = (window as unknown as Targets).hoverTargets[i];
        return el.matches(":hover") ? window.contrast.text(el, min) : null;
      },
      [i, TEXT] as const,
    );
  for (let i = 0; i < count; i++) {
    // Shown as Playwright's isVisible() has it: a box, and not visibility: hidden.
    const spot = await page.evaluate((i) => {
      const el = (window as unknown as Targets).hoverTargets[i];
      let box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === "hidden") return "hidden";
      if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
        el.scrollIntoView({ block: "center", inline: "center" });
        box = el.getBoundingClientRect();
      }
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
      const top = document.elementFromPoint(x, y);
      return top && el.contains(top) ? { x, y } : "covered";
    }, i);
    if (spot === "hidden") continue;
    if (spot !== "covered") await page.mouse.move(spot.x, spot.y);
    let found = spot === "covered" ? null : await hovered(i);
    if (!found) {
      await (await page.evaluateHandle((i) => (window as unknown as Targets).hoverTargets[i], i)).asElement()!.hover();
      found = await hovered(i);
    }
    expect(found, `hovering ${selector} number ${i + 1}`).not.toBeNull();
    problems.push(...found!);
  }
  await page.mouse.move(0, 0);
  return problems;
}

test.use({ reducedMotion: "reduce" });

for (const path of pages) {
  test(`${path}: focus indicators ≥ ${FOCUS}:1 on every background, text ≥ ${TEXT}:1, also when hovered`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await prepare(page);
    await page.goto(path);
    const footer = FOOTER_PAGES.has(path);
    const focus = await tabThrough(page, 200, footer ? undefined : "footer");
    expect(focus.visited).toBeGreaterThan(10);
    const text = await textIn(page, "body");
    const hover = await hoverChecks(
      page,
      `header a, header button, main a, main button${footer ? ", footer a, footer button" : ""}`,
    );
    expect({ focus: format(focus.problems), text: format(text), hover: format(hover) }).toEqual({
      focus: [],
      text: [],
      hover: [],
    });
  });
}

test("on a phone: the menu's links, the hero's buttons and the footer keep their focus indicators (pt)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await prepare(page);
  await page.goto("/");
  const closed = await tabThrough(page);
  await page.locator(".menu-toggle").click();
  await page.locator("#site-menu a").first().focus();
  const menu = await tabThrough(page, 20);
  expect(format([...closed.problems, ...menu.problems])).toEqual([]);
});

for (const locale of ["pt", "en"] as const) {
  const prefix = locale === "pt" ? "" : "/en";

  const proofSectionsLegible =
    `the proof sections: figures, charts' labels, the quote and the navy band keep text and focus legible, also ` +
    `hovered (${locale})`;
  test(proofSectionsLegible, async ({ page }) => {
    await prepare(page);
    await page.goto(prefix || "/");
    const problems: ContrastProblem[] = [];
    const links = page.locator("#results a, .quote-band a, #about-teaser a");
    expect(await links.count()).toBeGreaterThanOrEqual(5);
    for (const link of await links.all()) {
      await link.focus();
      problems.push(...(await ring(page)));
      await link.hover();
      problems.push(...(await link.evaluate((el, min) => window.contrast.text(el, min), TEXT)));
    }
    await page.mouse.move(0, 0);
    problems.push(...(await textIn(page, "#results, .quote-band, #about-teaser")));
    // The charts' labels are SVG text, which the text check above does not see: they take the muted text colour,
    // legible on white.
    const labels = await page.evaluate(() =>
      [...document.querySelectorAll("#results .outcome-chart text")].map((t) => getComputedStyle(t).fill),
    );
    expect(labels.length).toBeGreaterThan(0);
    expect(new Set(labels)).toEqual(new Set(["rgb(74, 90, 107)"]));
    expect(format(problems)).toEqual([]);
  });

  test(`newsletter: the error and success states keep text and focus legible (${locale})`, async ({ page }) => {
    await prepare(page);
    await page.goto(`${prefix}/about`);
    const island = page.locator('[data-island="newsletter"]');
    await island.scrollIntoViewIfNeeded();
    await expect(island).toHaveAttribute("data-hydrated", "true");
    const input = page.locator("form.newsletter-form input[type=email]");
    await input.focus();
    await input.press("Enter");
    await expect(page.locator("[data-toaster=main] li")).toHaveCount(1);
    await expect(input).toHaveAttribute("aria-invalid", "true");
    const problems: ContrastProblem[] = [];
    // The field in its error state, then the button, then the toast's close button.
    await input.focus();
    problems.push(...(await ring(page)));
    await page.keyboard.press("Tab");
    problems.push(...(await ring(page)));
    problems.push(...(await textIn(page, "form.newsletter-form, [data-toaster] li")));
    await page.keyboard.press("Alt+t");
    problems.push(...(await ring(page)));

    await page.route("**/api/newsletter", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: '{"ok":true}' }),
    );
    await input.fill("leitora@empresa.com.br");
    await input.press("Enter");
    await expect(page.locator("[data-toaster=main] li[data-type=success]")).toHaveCount(1);
    problems.push(...(await textIn(page, "form.newsletter-form, [data-toaster] li")));
    expect(format(problems)).toEqual([]);
  });

  test(`contact form: field errors, the failure and the success keep text and focus legible (${locale})`, async ({
    page,
  }) => {
    await prepare(page);
    await page.goto(`${prefix}/contact`);
    const island = page.locator('[data-island="contact-form"]');
    await expect(island).toHaveAttribute("data-hydrated", "true");
    const send = page.locator("form.contact-form button[type=submit]");
    await send.click();
    await expect(page.locator("#contact-email")).toHaveAttribute("aria-invalid", "true");
    const problems: ContrastProblem[] = [];
    problems.push(...(await textIn(page, "form.contact-form")));
    await page.locator("#contact-firstName").focus();
    const fields = await tabThrough(page, 8);
    problems.push(...fields.problems);

    await page.route("**/api/contact", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: "{}" }),
    );
    await page.locator("#contact-firstName").fill("Mariana");
    await page.locator("#contact-lastName").fill("Albuquerque");
    await page.locator("#contact-email").fill("mariana@banco.com.br");
    await page.locator("#contact-message").fill("Queremos avaliar casos de uso de IA generativa no atendimento.");
    await send.click();
    await expect(page.locator("[data-toaster=alert] li[data-type=error]")).toHaveCount(1);
    problems.push(...(await textIn(page, "form.contact-form, [data-toaster] li")));
    await page.keyboard.press("F8");
    problems.push(...(await ring(page)));

    await page.unroute("**/api/contact");
    await page.route("**/api/contact", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: '{"ok":true}' }),
    );
    await send.click();
    await expect(page.locator("[data-toaster=alert] li[data-type=success]")).toHaveCount(1);
    problems.push(...(await textIn(page, "form.contact-form, [data-toaster] li")));
    expect(format(problems)).toEqual([]);
  });

  test(`the consent banner and its dialog keep text and focus legible (${locale})`, async ({ page }) => {
    await prepare(page, { consent: false });
    await page.goto(`${prefix}/services`);
    const banner = page.locator(".consent-banner");
    await expect(banner).toBeVisible();
    const problems: ContrastProblem[] = [];
    problems.push(...(await textIn(page, ".consent-banner")));
    await banner.locator("a, button").first().focus();
    for (let i = 0; i < 4; i++) {
      problems.push(...(await ring(page)));
      await page.keyboard.press("Tab");
    }
    await banner.locator("button").first().click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    problems.push(...(await textIn(page, "dialog")));
    const inside = await tabThrough(page, 20);
    expect(inside.visited).toBeGreaterThan(3);
    problems.push(...inside.problems);
    problems.push(...(await hoverChecks(page, "dialog button, dialog a")));
    expect(format(problems)).toEqual([]);
  });
}
