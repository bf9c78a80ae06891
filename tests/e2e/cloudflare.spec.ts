import { expect, test, type Page } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { ROOT } from "../helpers.ts";
import { d1Query, startPagesDev, type PagesDev } from "../wrangler.ts";

/**
 * The real contact form in Chromium against Cloudflare's local runtime: the site built with
 * `--target cloudflare`, served by `wrangler pages dev` (Pages for the files, the worker for the endpoints,
 * D1 for the rows), with JavaScript (the island posts JSON) and without (a plain form post and a 303).
 */
test.describe.configure({ mode: "serial" });

// Made in beforeAll, not when the file loads: Playwright loads it in more processes than the one that runs it.
let folder = "";
let pages: PagesDev | undefined;
const SITE = loadSiteConfig(ROOT, {}, {});
const text = (locale: string, key: string) => loadLocaleContent(ROOT, locale, SITE).dictionary.get(key)!;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  folder = mkdtempSync(join(tmpdir(), "sitegen-cloudflare-e2e-"));
  const build = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "sitegen.js"), "build", "--target", "cloudflare", "--out", join(folder, "dist")],
    { cwd: ROOT, encoding: "utf8", timeout: 180_000 },
  );
  if (build.status !== 0)
    throw new Error(`sitegen build --target cloudflare failed:\n${build.stdout}\n${build.stderr}`);
  pages = await startPagesDev(folder);
});

test.afterAll(async () => {
  await pages?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The cookie choice already made, so the banner covers nothing. */
async function consentGiven(page: Page) {
  await page.addInitScript(() => {
    localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
    localStorage.setItem(
      "cookie-preferences",
      JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
    );
  });
}

async function fill(page: Page, email: string) {
  await page.locator("#contact-firstName").fill("Mariana");
  await page.locator("#contact-lastName").fill("Albuquerque");
  await page.locator("#contact-email").fill(email);
  await page.locator("#contact-company").fill("Banco Exemplo S.A.");
  await page.locator("#contact-message").fill("Queremos avaliar casos de uso de IA generativa no atendimento.");
}

test("with JavaScript, the contact form's message reaches D1 and the visitor sees the success toast (en)", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await consentGiven(page);
  await page.goto(`${pages!.url}/en/contact`);
  const island = page.locator('[data-island="contact-form"]');
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute("data-hydrated", "true");
  await fill(page, "mariana-js@banco.com.br");
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/contact") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Send message" }).click();
  expect((await answer).status()).toBe(200);
  const toast = page.locator("[data-toaster] li").last();
  await expect(toast).toContainText(text("en", "contactForm.successTitle"));
  await expect(page.locator("#contact-message")).toHaveValue("");
  expect(
    await d1Query(folder, "SELECT first_name, company, locale FROM contact WHERE email = 'mariana-js@banco.com.br'"),
  ).toEqual([{ first_name: "Mariana", company: "Banco Exemplo S.A.", locale: "en" }]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form posts to the worker, lands on the Portuguese success page, and the row is in D1", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(`${pages!.url}/contact`);
    await fill(page, "mariana-sem-js@banco.com.br");
    await page.locator("form.contact-form button[type=submit]").click();
    await expect(page).toHaveURL(`${pages!.url}/forms/contact-success`);
    await expect(page.locator("h1")).toHaveText(text("pt", "contactForm.successTitle"));
    expect(
      await d1Query(folder, "SELECT first_name, locale FROM contact WHERE email = 'mariana-sem-js@banco.com.br'"),
    ).toEqual([{ first_name: "Mariana", locale: "pt" }]);
  });
});
