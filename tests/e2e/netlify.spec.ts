/**
 * The site as Netlify serves it, in Chromium: built with `sitegen build --target netlify` into a project
 * copy and run by Netlify's local runtime (`@netlify/dev`, in this worker, on 127.0.0.1; see
 * tests/netlify-dev.ts), the forms sent with JavaScript (the islands' JSON) and without (plain posts, 303 to
 * the result page), each submission then read from the runtime's Blobs store.
 */
import { expect, test, type Page } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { BlobsSubmissionStore } from "../../src/api/blobs-store.ts";
import { projectCopy, ROOT } from "../helpers.ts";
import { startNetlifyDev, type RunningNetlify } from "../netlify-dev.ts";

test.describe.configure({ mode: "serial" });

let netlify: RunningNetlify | undefined;
const url = (path: string) => `${netlify!.url}${path}`;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const project = projectCopy();
  const build = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--target", "netlify"], {
    cwd: project,
    encoding: "utf8",
    timeout: 150_000,
  });
  expect(build.status, build.stderr).toBe(0);
  netlify = await startNetlifyDev(project);
  // The runtime loads the function on its first request, which takes seconds on a busy machine: done here,
  // before the tests, whose toasts wait a visitor's while.
  expect((await fetch(url("/api/newsletter"))).status).toBe(405);
});

test.afterAll(async () => {
  await netlify?.stop();
});

/** The cookie choice already made, so the banner covers no form. */
async function consentDecided(page: Page) {
  await page.addInitScript(() => {
    localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
    localStorage.setItem(
      "cookie-preferences",
      JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
    );
  });
}

async function hydrated(page: Page, name: string) {
  const island = page.locator(`[data-island="${name}"]`);
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute("data-hydrated", "true");
}

async function stored<T extends "newsletter" | "contact">(type: T, email: string) {
  return (await new BlobsSubmissionStore().list(type)).filter((r) => r.email === email);
}

test.describe("with JavaScript", () => {
  test.beforeEach(async ({ page }) => consentDecided(page));

  test("the newsletter island subscribes through the Netlify Function (en)", async ({ page }) => {
    const email = `netlify-js-${Date.now()}@example.com`;
    await page.goto(url("/en/about"));
    await hydrated(page, "newsletter");
    await page.locator("form.newsletter-form input[type=email]").fill(email);
    await page.locator("form.newsletter-form").getByRole("button", { name: "Subscribe" }).click();
    const toast = page.locator("[data-toaster] li").last();
    // Netlify's local runtime runs each request in a new worker and finishes the request's background work
    // before it answers: on a loaded machine that takes longer than a toast usually does.
    await expect(toast).toContainText("Thank you for subscribing to our newsletter!", { timeout: 20_000 });
    expect((await stored("newsletter", email)).map((r) => r.locale)).toEqual(["en"]);
  });

  test("the contact island sends a message through the Netlify Function (pt)", async ({ page }) => {
    const email = `ana-js-${Date.now()}@empresa.com.br`;
    await page.goto(url("/contact"));
    await hydrated(page, "contact-form");
    await page.locator("#contact-firstName").fill("Ana");
    await page.locator("#contact-lastName").fill("Figueiredo");
    await page.locator("#contact-email").fill(email);
    await page.locator("#contact-message").fill("Queremos conversar sobre um piloto de IA no atendimento.");
    await page.locator("form.contact-form button[type=submit]").click();
    await expect(page.locator("[data-toaster] li").last()).toContainText("Mensagem Enviada!", { timeout: 20_000 });
    expect((await stored("contact", email)).map((r) => [r.first_name, r.message, r.locale])).toEqual([
      ["Ana", "Queremos conversar sobre um piloto de IA no atendimento.", "pt"],
    ]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the newsletter form posts and lands on the English success page", async ({ page }) => {
    const email = `netlify-nojs-${Date.now()}@example.com`;
    await page.goto(url("/en/about"));
    await page.locator("form.newsletter-form input[type=email]").fill(email);
    await page.locator("form.newsletter-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/en\/forms\/newsletter-success$/);
    await expect(page.locator("h1")).toHaveText("Success!");
    expect(await stored("newsletter", email)).toHaveLength(1);
  });

  test("the contact form posts and lands on the Portuguese success page", async ({ page }) => {
    const email = `joao-nojs-${Date.now()}@empresa.com.br`;
    await page.goto(url("/contact"));
    await page.locator("#contact-firstName").fill("João");
    await page.locator("#contact-lastName").fill("Pereira");
    await page.locator("#contact-email").fill(email);
    await page.locator("#contact-message").fill("Gostaria de uma conversa sobre governança de IA.");
    await page.locator("form.contact-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/forms\/contact-success$/);
    expect((await stored("contact", email)).map((r) => r.message)).toEqual([
      "Gostaria de uma conversa sobre governança de IA.",
    ]);
  });
});
