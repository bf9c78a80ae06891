import { expect, test, type Page } from "@playwright/test";
import { clockBehindByFillTime, fillTimeTaken, suspectMarks } from "./submissions.ts";

const DAY = 86_400_000;
const decided = (consent: boolean, ageMs = 0) => ({
  "cookie-consent": JSON.stringify({ consent, timestamp: Date.now() - ageMs, revision: 1 }),
  "cookie-preferences": JSON.stringify({
    essential: true,
    analytics: consent,
    marketing: consent,
    functional: consent,
  }),
});

async function seed(page: Page, items: Record<string, string>) {
  await page.addInitScript((entries) => {
    if (sessionStorage.getItem("seeded")) return;
    sessionStorage.setItem("seeded", "1");
    for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
  }, items);
}

async function captureConsentEvents(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { consentEvents: unknown[] }).consentEvents = [];
    addEventListener("cookie-consent-changed", (e) =>
      (window as unknown as { consentEvents: unknown[] }).consentEvents.push((e as CustomEvent).detail),
    );
  });
}

/** Waits until an island has hydrated (a click before that is a plain form post, by design). */
async function hydrated(page: Page, name: string) {
  const island = page.locator(`[data-island="${name}"]`);
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute("data-hydrated", "true");
}

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);
const banner = (page: Page) => page.locator(".consent-banner");

test.describe("cookie consent", () => {
  test("accept all stores every category, fires the event and hides the banner (en)", async ({ page }) => {
    await captureConsentEvents(page);
    await page.goto("/en/about");
    await expect(banner(page)).toBeVisible();
    await expect(banner(page).getByRole("link", { name: /Cookie Policy/ })).toHaveAttribute(
      "href",
      "/en/cookie-policy",
    );
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await expect(banner(page)).toHaveCount(0);
    expect(JSON.parse((await stored(page, "cookie-preferences"))!)).toEqual({
      essential: true,
      analytics: true,
      marketing: true,
      functional: true,
    });
    expect(JSON.parse((await stored(page, "cookie-consent"))!)).toMatchObject({
      consent: true,
      timestamp: expect.any(Number),
    });
    expect(await page.evaluate(() => (window as unknown as { consentEvents: unknown[] }).consentEvents)).toEqual([
      { consent: true, preferences: { essential: true, analytics: true, marketing: true, functional: true } },
    ]);
    await page.reload();
    await expect(page.locator("footer")).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  test("reject all keeps essential only (pt)", async ({ page }) => {
    await page.goto("/sobre-nao-existe");
    await banner(page).getByRole("button", { name: "Recusar todos" }).click();
    await expect(banner(page)).toHaveCount(0);
    expect(JSON.parse((await stored(page, "cookie-consent"))!).consent).toBe(false);
    expect(JSON.parse((await stored(page, "cookie-preferences"))!)).toEqual({
      essential: true,
      analytics: false,
      marketing: false,
      functional: false,
    });
  });

  const customiseOpensModal =
    "customise opens a modal dialog; Escape closes it and returns focus; saving records the chosen categories";
  test(customiseOpensModal, async ({ page }) => {
    await captureConsentEvents(page);
    await page.goto("/en");
    const customise = banner(page).getByRole("button", { name: "Customize" });
    await customise.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Cookie preferences" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("switch", { name: /Essential/ })).toBeDisabled();
    await expect(dialog.getByRole("switch", { name: /Essential/ })).toBeChecked();
    await expect(dialog.getByRole("link", { name: /Cookie Policy/ })).toHaveAttribute("href", "/en/cookie-policy");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(customise).toBeFocused();
    await customise.click();
    await dialog.getByRole("switch", { name: /Analytics/ }).check();
    await dialog.getByRole("button", { name: "Save preferences" }).click();
    await expect(dialog).toBeHidden();
    await expect(banner(page)).toHaveCount(0);
    expect(JSON.parse((await stored(page, "cookie-preferences"))!)).toEqual({
      essential: true,
      analytics: true,
      marketing: false,
      functional: false,
    });
    expect(
      await page.evaluate(
        () => (window as unknown as { consentEvents: { consent: boolean }[] }).consentEvents.at(-1)?.consent,
      ),
    ).toBe(true);
  });

  test("the dialog's close button leaves the choice open and the banner back", async ({ page }) => {
    await page.goto("/en/contact");
    await banner(page).getByRole("button", { name: "Customize" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(banner(page)).toBeVisible();
    expect(await stored(page, "cookie-consent")).toBeNull();
  });

  const footerReopensPreferences =
    "the footer link reopens the preferences, and withdrawing clears the stored values and shows the banner";
  test(footerReopensPreferences, async ({ page }) => {
    await seed(page, decided(true));
    await page.goto("/en/cookie-policy");
    await expect(banner(page)).toHaveCount(0);
    await page.locator("footer").getByRole("link", { name: "Cookie settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Cookie preferences" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("switch", { name: /Marketing/ })).toBeChecked();
    await page.keyboard.press("Escape");
    await page.evaluate(() =>
      addEventListener(
        "cookie-consent-changed",
        (e) => ((window as unknown as { withdrawn: unknown }).withdrawn = (e as CustomEvent).detail),
      ),
    );
    await page.getByRole("button", { name: "Withdraw consent" }).click();
    await expect(banner(page)).toBeVisible();
    // Scripts that were allowed hear that nothing is granted any more.
    expect(await page.evaluate(() => (window as unknown as { withdrawn: unknown }).withdrawn)).toEqual({
      consent: false,
      preferences: { essential: true, analytics: false, marketing: false, functional: false },
    });
    expect(await stored(page, "cookie-consent")).toBeNull();
    expect(await stored(page, "cookie-preferences")).toBeNull();
  });

  test("a consent older than 365 days shows the banner again", async ({ page }) => {
    await seed(page, decided(true, 366 * DAY));
    await page.goto("/en");
    await expect(banner(page)).toBeVisible();
    expect(await stored(page, "cookie-consent")).toBeNull();
  });

  test("corrupt storage shows the banner and never breaks the page", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await seed(page, { "cookie-consent": "{not json", "cookie-preferences": "[]" });
    await page.goto("/en/services");
    await expect(banner(page)).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("consent-gated scripts stay inert until their category is granted", async ({ page }) => {
    await page.goto("/en/about");
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.type = "text/plain";
      s.dataset.consent = "analytics";
      s.id = "gated";
      s.src = "/favicon.svg";
      document.body.append(s);
    });
    await banner(page).getByRole("button", { name: "Reject all" }).click();
    await expect(page.locator("script#gated")).toHaveAttribute("type", "text/plain");
    await page.locator("footer").getByRole("link", { name: "Cookie settings" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Accept all" }).click();
    await expect(page.locator("script#gated")).toHaveAttribute("data-consent-granted", "analytics");
  });
});

test.describe("newsletter", () => {
  test.beforeEach(async ({ page }) => seed(page, decided(false)));
  const form = (page: Page) => page.locator("form.newsletter-form");

  test("an empty email gives the spec's message (en and pt)", async ({ page }) => {
    await page.goto("/en/about");
    await hydrated(page, "newsletter");
    await form(page).locator("input[type=email]").focus();
    await form(page).getByRole("button", { name: "Subscribe" }).click();
    const toasts = page.locator("[data-toaster] li");
    await expect(toasts.last()).toContainText("Error");
    await expect(toasts.last()).toContainText("Please enter your email address");
    await page.goto("/about");
    await hydrated(page, "newsletter");
    await form(page).locator("input[type=email]").focus();
    await form(page).locator("button[type=submit]").click();
    await expect(page.locator("[data-toaster] li").last()).toContainText("Erro");
    await expect(page.locator("[data-toaster] li").last()).toContainText("Por favor, insira um email válido.");
  });

  const errorShownOnce =
    "an error is shown to the eye once, in the toast; the field is marked invalid and described for assistive " +
    "technology (pt)";
  test(errorShownOnce, async ({ page }) => {
    await page.goto("/about");
    await hydrated(page, "newsletter");
    const input = form(page).locator("input[type=email]");
    await input.fill("sem-arroba");
    await input.press("Enter");
    const toast = page.locator("[data-toaster=main] li");
    await expect(toast).toHaveCount(1);
    await expect(toast.locator(".toast-title")).toHaveText("Erro");
    const message = (await toast.locator(".toast-description").textContent())!;
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await expect(input).toHaveAccessibleDescription(message);
    // The description is for assistive technology only: on screen the words appear in the toast alone.
    const description = page.locator(`#${await input.getAttribute("aria-describedby")}`);
    expect(
      await description.evaluate(
        (el) => el.getBoundingClientRect().width <= 1 && getComputedStyle(el).clipPath !== "none",
      ),
    ).toBe(true);
    await expect(form(page).getByText(message)).toHaveCount(1);
    await input.fill("diretoria@empresa.com.br");
    await expect(input).not.toHaveAttribute("aria-invalid", "true");
    await expect(input).not.toHaveAttribute("aria-describedby");
  });

  for (const [width, height] of [
    [375, 800],
    [768, 1024],
    [1440, 900],
  ] as const) {
    const toastsNeverCover =
      `toasts never cover the form that raised them, so a retry click reaches the button, nor the header (en, ` +
      `${width} px)`;
    test(toastsNeverCover, async ({ page }) => {
      await page.setViewportSize({ width, height });
      let answers = 0;
      await page.route("**/api/newsletter", (route) => {
        answers++;
        return route.fulfill({ status: 503, contentType: "application/json", body: "{}" });
      });
      await page.goto("/en/about");
      await hydrated(page, "newsletter");
      const input = form(page).locator("input[type=email]");
      const button = form(page).getByRole("button", { name: "Subscribe" });
      await input.fill("board@company.com");
      // The form at the bottom of the screen, where the stack starts, and three toasts, the most it holds.
      await page.evaluate(() => document.querySelector("form.newsletter-form")!.scrollIntoView({ block: "end" }));
      for (let i = 1; i <= 3; i++) {
        await button.click({ timeout: 2000 });
        await expect(page.locator("[data-toaster=main] li")).toHaveCount(i);
      }
      const overlaps = await page.evaluate(() =>
        ["form.newsletter-form", ".site-header"].map((selector) => {
          const a = document.querySelector("[data-toaster=main]")!.getBoundingClientRect();
          const b = document.querySelector(selector)!.getBoundingClientRect();
          return a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;
        }),
      );
      expect(overlaps).toEqual([false, false]);
      expect(answers).toBe(3);
    });
  }

  const successNotSuspect =
    "success shows the spec's toast and clears the field; sent after the minimum fill time, it is not suspect";
  test(successNotSuspect, async ({ page }) => {
    await clockBehindByFillTime(page);
    await page.goto("/en/technologies");
    await hydrated(page, "newsletter");
    const input = form(page).locator("input[type=email]");
    const email = `reader-${Date.now()}@example.com.br`;
    await input.fill(email);
    await fillTimeTaken(page);
    await form(page).getByRole("button", { name: "Subscribe" }).click();
    const toast = page.locator("[data-toaster] li").last();
    await expect(toast).toContainText("Success!");
    await expect(toast).toContainText("Thank you for subscribing to our newsletter!");
    await expect(input).toHaveValue("");
    expect(suspectMarks("newsletter", email)).toEqual([0]);
  });

  const quickSignupSuspect =
    "sent sooner than the minimum fill time, a subscription is thanked all the same and stored marked suspect";
  test(quickSignupSuspect, async ({ page }) => {
    await page.goto("/en/technologies");
    await hydrated(page, "newsletter");
    const email = `quick-${Date.now()}@example.com.br`;
    await form(page).locator("input[type=email]").fill(email);
    await form(page).getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("[data-toaster] li").last()).toContainText(
      "Thank you for subscribing to our newsletter!",
    );
    expect(suspectMarks("newsletter", email)).toEqual([1]);
  });

  test("with the endpoint down the address stays and an error toast explains (pt)", async ({ page }) => {
    await page.route("**/api/newsletter", (route) => route.abort());
    await page.goto("/technologies");
    await hydrated(page, "newsletter");
    const input = form(page).locator("input[type=email]");
    await input.fill("diretoria@empresa.com.br");
    await form(page).locator("button[type=submit]").click();
    const toast = page.locator("[data-toaster] li").last();
    await expect(toast).toContainText("Erro");
    await expect(toast).toContainText("Falha ao inscrever. Tente novamente.");
    await expect(input).toHaveValue("diretoria@empresa.com.br");
  });

  test("while submitting, the button says so and cannot be pressed twice", async ({ page }) => {
    let calls = 0;
    // The answer waits until the checks below are done, however slow the machine.
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    await page.route("**/api/newsletter", async (route) => {
      calls++;
      await answered;
      await route.fulfill({ status: 200, contentType: "application/json", body: '{"ok":true}' });
    });
    await page.goto("/en/about");
    await hydrated(page, "newsletter");
    await form(page).locator("input[type=email]").fill("slow@example.com");
    const button = form(page).locator("button[type=submit]");
    await button.click();
    await expect(button).toHaveText("Subscribing...");
    await expect(button).toBeDisabled();
    await form(page).locator("input[type=email]").press("Enter");
    answer();
    await expect(page.locator("[data-toaster] li").last()).toContainText("Success!");
    expect(calls).toBe(1);
  });

  test("at most three toasts are shown, and Alt+T moves focus to them", async ({ page }) => {
    await page.goto("/en/about");
    await hydrated(page, "newsletter");
    await form(page).locator("input[type=email]").focus();
    // Enter submits like the button, which the growing stack of toasts may cover.
    for (let i = 0; i < 5; i++) await form(page).locator("input[type=email]").press("Enter");
    await expect(page.locator("[data-toaster=main] li")).toHaveCount(3);
    await page.keyboard.press("Alt+t");
    await expect(page.locator("[data-toaster=main] li button").first()).toBeFocused();
  });
});

test.describe("toasts", () => {
  test.beforeEach(async ({ page }) => seed(page, decided(false)));

  /** An error toast, at once: the newsletter submitted with no address. */
  async function raiseToast(page: Page) {
    const form = page.locator("form.newsletter-form");
    await form.locator("input[type=email]").focus();
    await form.locator("input[type=email]").press("Enter");
    const toast = page.locator("[data-toaster] li").last();
    await expect(toast).toContainText("Please enter your email address");
    return toast;
  }

  test("close after 4 s, but not while hovered; then the rest of their time runs", async ({ page }) => {
    await page.clock.install();
    await page.goto("/en/about");
    await hydrated(page, "newsletter");
    // From here on time moves only when the test says so.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const toast = await raiseToast(page);
    await page.clock.runFor(3000);
    await expect(toast).toBeVisible();
    await toast.hover();
    await page.clock.runFor(10_000);
    await expect(toast).toBeVisible();
    await page.mouse.move(10, 10);
    await page.clock.runFor(900);
    await expect(toast).toBeVisible();
    await page.clock.runFor(200);
    await expect(page.locator("[data-toaster] li")).toHaveCount(0);
  });

  test("a swipe shorter than 50 px keeps the toast, a longer one dismisses it", async ({ page }) => {
    await page.clock.install();
    await page.goto("/en/about");
    await hydrated(page, "newsletter");
    const toast = await raiseToast(page);
    const box = (await toast.locator(".toast-title").boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 10, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 50, y, { steps: 4 });
    await page.mouse.up();
    await expect(toast).toBeVisible();
    await page.mouse.move(box.x + 10, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 70, y, { steps: 4 });
    await page.mouse.up();
    await expect(page.locator("[data-toaster] li")).toHaveCount(0);
  });

  test("the close button closes a toast and focus stays in its region (pt)", async ({ page }) => {
    await page.goto("/about");
    await hydrated(page, "newsletter");
    const form = page.locator("form.newsletter-form");
    await form.locator("input[type=email]").focus();
    await form.locator("input[type=email]").press("Enter");
    await expect(page.locator("[data-toaster=main] li").last()).toContainText("Por favor, insira um email válido.");
    await page.keyboard.press("Alt+t");
    const close = page.locator("[data-toaster=main] li button").first();
    await expect(close).toBeFocused();
    await expect(close).toHaveAccessibleName("Fechar notificação");
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-toaster=main] li")).toHaveCount(0);
    await expect(page.locator("[data-toaster=main]")).toBeFocused();
  });
});

test.describe("contact form", () => {
  test.beforeEach(async ({ page }) => seed(page, decided(false)));

  /** Fills every field; returns the address used. */
  async function fill(page: Page, lang: "pt" | "en") {
    const email = `mariana-${lang}-${Date.now()}@banco.com.br`;
    await page.locator("#contact-firstName").fill("Mariana");
    await page.locator("#contact-lastName").fill("Albuquerque");
    await page.locator("#contact-email").fill(email);
    await page.locator("#contact-company").fill("Banco Exemplo S.A.");
    await page.locator("#contact-message").fill("Queremos avaliar casos de uso de IA generativa no atendimento.");
    return email;
  }

  test("invalid fields show a summary linking to each field and a message beside it", async ({ page }) => {
    await page.goto("/en/contact");
    await hydrated(page, "contact-form");
    await page.locator("#contact-firstName").fill("Mariana");
    await page.locator("#contact-email").fill("not-an-email");
    await page.getByRole("button", { name: "Send message" }).click();
    const summary = page.locator(".error-summary");
    await expect(summary).toBeFocused();
    // The summary names the fields; each message is shown once, beside its field, and describes it.
    await expect(summary.getByRole("link")).toHaveText(["Last name", "Work email", "Message"]);
    await expect(page.locator("#contact-email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#contact-email")).toHaveAccessibleDescription(
      "Enter a valid email address, such as name@company.com",
    );
    await expect(page.locator("#contact-email-error")).toBeVisible();
    await expect(page.getByText("Enter a valid email address, such as name@company.com")).toHaveCount(1);
    await expect(page.locator("#contact-firstName")).toHaveValue("Mariana");
    await summary.getByRole("link", { name: "Message" }).click();
    await expect(page.locator("#contact-message")).toBeFocused();
  });

  test("the endpoint's field errors go beside the fields, not into a toast as well (pt)", async ({ page }) => {
    await page.route("**/api/contact", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          ok: false,
          message: "Alguns campos estão vazios ou incorretos.",
          errors: { email: "Este endereço não recebe e-mails." },
        }),
      }),
    );
    await page.goto("/contact");
    await hydrated(page, "contact-form");
    await fill(page, "pt");
    await page.locator("form.contact-form button[type=submit]").click();
    await expect(page.locator("#contact-email-error")).toHaveText("Este endereço não recebe e-mails.");
    await expect(page.locator(".error-summary")).toBeFocused();
    await expect(page.locator("[data-toaster] li")).toHaveCount(0);
  });

  test("success shows 'Mensagem Enviada!' in Portuguese; sent after the minimum fill time, it is not suspect", async ({
    page,
  }) => {
    await clockBehindByFillTime(page);
    await page.goto("/contact");
    await hydrated(page, "contact-form");
    const email = await fill(page, "pt");
    await fillTimeTaken(page);
    await page.locator("form.contact-form button[type=submit]").click();
    const toast = page.locator("[data-toaster] li").last();
    await expect(toast).toContainText("Mensagem Enviada!");
    await expect(toast).toContainText("Entraremos em contato em breve.");
    await expect(page.locator("#contact-message")).toHaveValue("");
    expect(suspectMarks("contact", email)).toEqual([0]);
  });

  test("a slow endpoint: 'Enviando...' and no second send while it waits, then success (pt)", async ({ page }) => {
    let calls = 0;
    // The endpoint is reached only once the checks below are done, however slow the machine.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route("**/api/contact", async (route) => {
      calls++;
      await released;
      await route.continue();
    });
    await clockBehindByFillTime(page);
    await page.goto("/contact");
    await hydrated(page, "contact-form");
    const email = await fill(page, "pt");
    await fillTimeTaken(page);
    const button = page.locator("form.contact-form button[type=submit]");
    await button.click();
    await expect(button).toHaveText("Enviando...");
    await expect(button).toBeDisabled();
    await page.locator("#contact-company").press("Enter");
    release();
    await expect(page.locator("[data-toaster] li").last()).toContainText("Mensagem Enviada!");
    expect(calls).toBe(1);
    expect(suspectMarks("contact", email)).toEqual([0]);
  });

  const resultsInAlertToaster =
    "results go to the second toast system: one toast at a time, closed after 5 s, F8 moves focus to it (pt)";
  test(resultsInAlertToaster, async ({ page }) => {
    await page.clock.install();
    await page.route("**/api/contact", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: "{}" }),
    );
    await page.goto("/contact");
    await hydrated(page, "contact-form");
    await fill(page, "pt");
    // From here on time moves only when the test says so (past the minimum fill time first).
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 2100));
    const alerts = page.locator("[data-toaster=alert]");
    await expect(alerts).toHaveAccessibleName("Avisos (F8)");
    const send = page.locator("form.contact-form button[type=submit]");
    await send.click();
    await expect(alerts.locator("li")).toHaveCount(1);
    await expect(send).toBeEnabled();
    await send.click();
    await expect(alerts.locator("li")).toHaveCount(1);
    await expect(page.locator("[data-toaster=main] li")).toHaveCount(0);
    await page.keyboard.press("F8");
    await expect(alerts.locator("li button")).toBeFocused();
    // Focus in the region pauses it; away from it, 5 s and the toast is gone.
    await page.locator("#contact-message").focus();
    await page.clock.runFor(4900);
    await expect(alerts.locator("li")).toHaveCount(1);
    await page.clock.runFor(200);
    await expect(alerts.locator("li")).toHaveCount(0);
  });

  test("failure keeps every field and explains in English", async ({ page }) => {
    await page.route("**/api/contact", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: "{}" }),
    );
    await page.goto("/en/contact");
    await hydrated(page, "contact-form");
    await fill(page, "en");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.locator("[data-toaster] li").last()).toContainText("Error");
    await expect(page.locator("#contact-message")).toHaveValue(
      "Queremos avaliar casos de uso de IA generativa no atendimento.",
    );
    await expect(page.locator("#contact-company")).toHaveValue("Banco Exemplo S.A.");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  const noScriptValidation =
    "before any script, the forms leave validation to the endpoint: no browser bubble in the browser's language, the " +
    "site's own error page instead (pt)";
  test(noScriptValidation, async ({ page }) => {
    await page.goto("/contact");
    await expect(page.locator("form.contact-form")).toHaveAttribute("novalidate", "");
    await expect(page.locator("form.newsletter-form")).toHaveAttribute("novalidate", "");
    await page.locator("form.newsletter-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/forms\/error\?reason=invalid$/);
    await expect(page.locator("h1")).toHaveText("Não foi possível concluir o envio");
  });

  test("the newsletter form posts and lands on the localised success page", async ({ page }) => {
    await page.goto("/en/about");
    await page.locator("form.newsletter-form input[type=email]").fill(`nojs-${Date.now()}@example.com`);
    await page.locator("form.newsletter-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/en\/forms\/newsletter-success$/);
    await expect(page.locator("h1")).toHaveText("Success!");
  });

  test("the contact form posts and lands on the Portuguese success page", async ({ page }) => {
    await page.goto("/contact");
    await page.locator("#contact-firstName").fill("João");
    await page.locator("#contact-lastName").fill("Pereira");
    await page.locator("#contact-email").fill(`joao-${Date.now()}@empresa.com.br`);
    await page.locator("#contact-message").fill("Gostaria de uma conversa sobre governança de IA.");
    await page.locator("form.contact-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/forms\/contact-success$/);
    await expect(page.locator("h1")).toHaveText("Mensagem Enviada!");
  });
});

/** The detection endpoint answers `language`, but only once the test calls the returned function. */
async function detectionAnswersLater(page: Page, language: "pt" | "en"): Promise<() => void> {
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route("**/api/detect-language", async (route) => {
    await answered;
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ language }) });
  });
  return answer;
}

test.describe("language", () => {
  test("the home page redirects to the detected language in place, replacing the history entry, and stores it", async ({
    page,
  }) => {
    const answer = await detectionAnswersLater(page, "en");
    await page.goto("/");
    const before = await page.evaluate(() => {
      (window as unknown as { mark: number }).mark = 7;
      return history.length;
    });
    answer();
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    expect(await stored(page, "language")).toBe("en");
    // No new page load (the value on window survives) and no new history entry.
    expect(await page.evaluate(() => [(window as unknown as { mark?: number }).mark, history.length])).toEqual([
      7,
      before,
    ]);
    // Spec §9 allows three storage keys; consent is not decided yet, so only the language is kept.
    expect(await page.evaluate(() => [Object.keys(localStorage), Object.keys(sessionStorage)])).toEqual([
      ["language"],
      [],
    ]);
  });

  const languageSwitchNoShift =
    "switching to the detected language shifts nothing on screen: the cookie banner comes back in English, not moved " +
    "(phone)";
  test(languageSwitchNoShift, async ({ page }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    const answer = await detectionAnswersLater(page, "en");
    await page.goto("/");
    await expect(page.locator(".consent-banner h2")).toHaveText("Sua privacidade");
    await page.evaluate(() => {
      const shifts: string[] = [];
      (window as unknown as { shifts: string[] }).shifts = shifts;
      type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Shift[]) {
          if (!entry.hadRecentInput) {
            const classes = entry.sources.map((s) => (s.node as Element | undefined)?.className ?? "?");
            shifts.push(`${entry.value.toFixed(3)} ${classes.join(" ")}`);
          }
        }
      }).observe({ type: "layout-shift" });
    });
    answer();
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.locator(".consent-banner h2")).toHaveText("Your privacy");
    // Two frames, so a shift of the last one is reported.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts)).toEqual([]);
  });

  test("a stored language is respected: no detection, no redirect", async ({ page }) => {
    let asked = false;
    await page.route("**/api/detect-language", (route) => {
      asked = true;
      return route.fulfill({ status: 200, contentType: "application/json", body: '{"language":"en"}' });
    });
    await seed(page, { language: "pt" });
    // The runtime, a module script, has run once the page has loaded: with a language stored it leaves the
    // detector unmounted, so nothing will ask later either (mounting marks the island at once).
    await page.goto("/");
    await expect(page.locator("[data-island='language-detection']")).toHaveCount(1);
    await expect(page.locator("[data-island='language-detection'][data-mounted]")).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
    expect(asked).toBe(false);
  });

  test("a failing detection keeps and stores the URL's language, silently", async ({ page }) => {
    await page.clock.install();
    let calls = 0;
    await page.route("**/api/detect-language", (route) => {
      calls++;
      return route.abort();
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/");
    await expect.poll(() => calls).toBe(1);
    await page.clock.runFor(1000);
    await expect.poll(() => calls).toBe(2);
    await page.clock.runFor(2000);
    await expect.poll(() => calls).toBe(3);
    await page.clock.runFor(4000);
    await expect.poll(() => calls).toBe(4);
    await expect.poll(() => stored(page, "language")).toBe("pt");
    await expect(page).toHaveURL(/\/$/);
    expect(errors).toEqual([]);
  });

  const hungDetectionFails =
    "a hung detection endpoint counts as failed: each attempt gives up after 5 s, then the URL's language is stored " +
    "(en)";
  test(hungDetectionFails, async ({ page }) => {
    await page.clock.install();
    let calls = 0;
    await page.route("**/api/detect-language", () => {
      calls++; // never answered
    });
    await page.goto("/en");
    await expect.poll(() => calls).toBe(1);
    for (const [wait, expected] of [
      [5000 + 1000, 2],
      [5000 + 2000, 3],
      [5000 + 4000, 4],
    ] as const) {
      await page.clock.runFor(wait);
      await expect.poll(() => calls).toBe(expected);
    }
    await page.clock.runFor(5000);
    await expect.poll(() => stored(page, "language")).toBe("en");
    await expect(page).toHaveURL(/\/en$/);
  });

  test("a detector that cannot load counts as failed: the URL's language is stored, no error", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.route("**/assets/**language-detection*", (route) => route.abort());
    await page.goto("/");
    await expect.poll(() => stored(page, "language")).toBe("pt");
    await expect(page).toHaveURL(/\/$/);
    expect(errors).toEqual([]);
  });

  test("the switcher stores the visitor's choice; other pages store their language", async ({ page }) => {
    await page.goto("/en/about");
    expect(await stored(page, "language")).toBe("en");
    await page.locator("a.lang-switch").click();
    await expect(page).toHaveURL(/\/about$/);
    expect(await stored(page, "language")).toBe("pt");
  });
});

test.describe("tooltips", () => {
  const languageSwitcherTooltip =
    "the language switcher's tooltip opens after 700 ms of hover, at once on keyboard focus, and closes on Escape";
  test(languageSwitcherTooltip, async ({ page }) => {
    await seed(page, decided(false));
    await page.clock.install();
    await page.goto("/en/about");
    await page.clock.pauseAt(Date.now() + 60_000);
    const link = page.locator("a.lang-switch");
    const id = await link.getAttribute("aria-describedby");
    const tip = page.locator(`#${id}`);
    await expect(tip).toHaveAttribute("role", "tooltip");
    await expect(tip).toHaveText("View this page in Portuguese");
    await link.hover();
    await page.clock.runFor(650);
    await expect(tip).toBeHidden();
    await page.clock.runFor(100);
    await expect(tip).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    await page.mouse.move(0, 400);
    await link.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(tip).toBeVisible();
  });

  const tooltipPlacement =
    "sits 4 px from its trigger, reopens at once within the 300 ms skip delay, and closes on scroll and click (pt)";
  test(tooltipPlacement, async ({ page }) => {
    await seed(page, decided(false));
    await page.clock.install();
    await page.goto("/about");
    await page.clock.pauseAt(Date.now() + 60_000);
    const link = page.locator("a.lang-switch");
    const tip = page.locator(`#${await link.getAttribute("aria-describedby")}`);
    await expect(tip).toHaveText("Ver esta página em inglês");
    await link.hover();
    await page.clock.runFor(700);
    await expect(tip).toBeVisible();
    const [a, b] = [(await link.boundingBox())!, (await tip.boundingBox())!];
    expect(Math.round(b.y - (a.y + a.height))).toBe(4);
    // Leave and come back within 300 ms: no second wait.
    await page.mouse.move(0, 400);
    await expect(tip).toBeHidden();
    await page.clock.runFor(200);
    await link.hover();
    await expect(tip).toBeVisible();
    // Past the skip delay, the full 700 ms again.
    await page.mouse.move(0, 400);
    await page.clock.runFor(400);
    await link.hover();
    await page.clock.runFor(300);
    await expect(tip).toBeHidden();
    await page.clock.runFor(400);
    await expect(tip).toBeVisible();
    await page.mouse.wheel(0, 300);
    await expect(tip).toBeHidden();
    await page.evaluate(() => scrollTo(0, 0));
    await link.hover();
    await page.clock.runFor(800);
    await page.mouse.move(0, 400);
    await link.hover();
    await page.mouse.down();
    await expect(tip).toBeHidden();
  });
});
