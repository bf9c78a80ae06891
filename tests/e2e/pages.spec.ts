import { expect, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { ROOT, sitePlan } from "../helpers.ts";

const { routes: fixedRoutes, articles: generated, locales: LOCALES } = await sitePlan();
// The fixed pages (the tags' page among them), every article, and one tag's page (all tags' pages are the
// same component), in each language it exists in.
const TAG = "insights.tag:governance";
const routes = [...fixedRoutes, ...generated.filter((r) => r.id.startsWith("insights.article:") || r.id === TAG)];
const site = loadSiteConfig(ROOT);
const text = Object.fromEntries(LOCALES.map((l) => [l, loadLocaleContent(ROOT, l, site).dictionary]));
const pages = routes.flatMap((route) =>
  LOCALES.filter((locale) => route.paths[locale]).map((locale) => ({ route, locale, path: route.paths[locale] })),
);

for (const { route, locale, path } of pages) {
  test(`${path} opens with 200, the right title and no accessibility violation`, async ({ page }) => {
    // A stored language: the home page would otherwise follow the browser's language (spec §4).
    await page.addInitScript((lang) => localStorage.setItem("language", lang), locale);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    // An article is titled by its own title (its h1), a tag's page by meta.insights.tag.title naming the tag
    // (its h1); every other page by its meta.<id>.title.
    const h1 = await page.locator("h1").innerText();
    const title =
      route.id === TAG
        ? text[locale].get("meta.insights.tag.title")!.replace("{group}", h1)
        : route.id.includes(":")
          ? h1
          : text[locale].get(`meta.${route.id}.title`)!;
    await expect(page).toHaveTitle(route.id === "home" ? title : `${title} | ${site.brand}`);
    await expect(page.locator("html")).toHaveAttribute("lang", locale === "pt" ? "pt-BR" : "en");
    await expect(page.locator("h1")).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
}

test("the language switcher goes to the counterpart page, both ways", async ({ page }) => {
  await page.goto("/services/advisory");
  await page.locator("a.lang-switch").click();
  await expect(page).toHaveURL(/\/en\/services\/advisory$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.locator("a.lang-switch").click();
  await expect(page).toHaveURL(/\/services\/advisory$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
});

test("unknown paths show the not-found page of their language with status 404", async ({ page }) => {
  const pt = await page.goto("/pagina-que-nao-existe");
  expect(pt?.status()).toBe(404);
  await expect(page.locator("h1")).toHaveText(text.pt.get("notFound.title")!);
  // Spec §2: for an unknown path the switch adds or removes /en.
  await expect(page.locator("a.lang-switch")).toHaveAttribute("href", "/en/pagina-que-nao-existe");

  const en = await page.goto("/en/no/such/page");
  expect(en?.status()).toBe(404);
  await expect(page.locator("h1")).toHaveText(text.en.get("notFound.title")!);
  await expect(page.locator("a.lang-switch")).toHaveAttribute("href", "/no/such/page");
  expect(await axeViolations(page)).toEqual([]);
});

const rootNotFoundOnly =
  "on a host that knows only the root 404.html, an unknown English address still gets the English not-found page, " +
  "address kept";
test(rootNotFoundOnly, async ({ page }) => {
  // As GitHub Pages, S3's error document or `npx serve` answer it: the Portuguese page, status 404.
  await page.route("**/en/insights/old-post?from=newsletter", async (route) => {
    const rootNotFound = await route.fetch({ url: new URL("/404", route.request().url()).href });
    await route.fulfill({ response: rootNotFound, status: 404 });
  });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const response = await page.goto("/en/insights/old-post?from=newsletter#top");
  expect(response?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator("h1")).toHaveText(text.en.get("notFound.title")!);
  await expect(page).toHaveTitle(`${text.en.get("meta.not-found.title")} | ${site.brand}`);
  await expect(page).toHaveURL(/\/en\/insights\/old-post\?from=newsletter#top$/);
  await expect(page.locator("main nav.breadcrumbs li")).toHaveText(["Home", "Insights", "Old-post"]);
  await expect(page.locator("a.lang-switch")).toHaveAttribute("href", "/insights/old-post");
  // The whole page is English, not only its content.
  await expect(page.locator("footer")).toContainText(text.en.get("footer.address")!);
  await expect(page.locator("header nav")).toHaveAccessibleName(text.en.get("a11y.mainNav")!);
  expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("en");
  expect(errors).toEqual([]);
});

const notFoundTrail =
  "the not-found page shows the trail of the address asked for: known segments labelled, unknown ones capitalised, " +
  "the last not a link (spec §2)";
test(notFoundTrail, async ({ page }) => {
  const trail = page.locator("main nav.breadcrumbs");
  const crumbs = async () =>
    trail
      .locator("li")
      .evaluateAll((items) =>
        items.map((li) => [
          li.textContent,
          li.querySelector("a")?.getAttribute("href") ?? (li.querySelector("[aria-current=page]") ? "current" : "?"),
        ]),
      );

  await page.goto("/en/industries/mining/open-pit");
  await expect(trail).toBeVisible();
  await expect(trail).toHaveAccessibleName("Breadcrumb");
  expect(await crumbs()).toEqual([
    ["Home", "/en"],
    ["Industries", "/en/industries"],
    ["Mining", "/en/industries/mining"],
    ["Open-pit", "current"],
  ]);

  await page.goto("/servicos/consultoria%20ia");
  expect(await crumbs()).toEqual([
    [text.pt.get("breadcrumbs.home"), "/"],
    ["Servicos", "/servicos"],
    ["Consultoria ia", "current"],
  ]);

  // A segment named like an object property is just a word.
  await page.goto("/constructor");
  expect(await crumbs()).toEqual([
    [text.pt.get("breadcrumbs.home"), "/"],
    ["Constructor", "current"],
  ]);
  expect(await axeViolations(page)).toEqual([]);
});

test("the skip link moves focus to the main content", async ({ page }) => {
  // With a decision stored there is no banner, so the skip link is the first stop.
  await page.addInitScript(() => {
    localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
    localStorage.setItem(
      "cookie-preferences",
      JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
    );
  });
  await page.goto("/en/about");
  await page.keyboard.press("Tab");
  const skip = page.locator(".skip-link");
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});

test("on a phone the menu opens from its button and closes with Escape", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/en");
  const nav = page.locator("#site-menu");
  await expect(nav).toBeHidden();
  await page.locator(".menu-toggle").click();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("link", { name: "AI Advisory" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
});
