/**
 * Leads reach people from Netlify: the site built with `--target netlify` and double opt-in on, served by
 * Netlify's local runtime (`@netlify/dev`, in-process, on 127.0.0.1), each request run by the generated
 * function in a worker thread, with SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_WEBHOOK_URL and SUBMISSIONS_SECRET in
 * the environment as a site's variables are. The function's delivery pass after each answer
 * (context.waitUntil) sends a contact message to an in-process SMTP sink (nodemailer) and to a webhook
 * receiver; a receiver that is down leaves the notification in the Blobs store's outbox with its error
 * until a later request, or the scheduled function, finds it due and it is up; the confirmation e-mail's
 * link confirms the signup, an issue's unsubscribe link unsubscribes, and `sitegen newsletter send --site`
 * sends an issue through the function.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getStore } from "@netlify/blobs";
import { BlobsSubmissionStore } from "../../src/api/blobs-store.ts";
import { unsubscribeLink, UnsubscribeTokens } from "../../src/api/unsubscribe.ts";
import { sendThroughSite } from "../../src/api/commands/newsletter-remote.ts";
import { signRequest } from "../../src/api/signed-requests.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { main } from "../../src/generator/cli.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { FUNCTIONS_DIR, FUNCTION_NAME } from "../../src/generator/targets/netlify.ts";
import { projectCopy, ROOT } from "../helpers.ts";
import { startNetlifyDev, type RunningNetlify } from "../netlify-dev.ts";
import { startSmtpSink, startWebhook, until, type SmtpSink, type WebhookReceiver } from "../notify-sinks.ts";

const SECRET = "a-test-signing-key-of-more-than-32-characters";
const FIRM = "leads@firma.example.com";
const VARIABLES = ["SMTP_URL", "NOTIFY_EMAIL_TO", "NOTIFY_WEBHOOK_URL", "SUBMISSIONS_SECRET"] as const;
const previous = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
const SITE = loadSiteConfig(ROOT);
const EN = loadLocaleContent(ROOT, "en", SITE).dictionary;
let project: string;
let netlify: RunningNetlify | undefined;
let smtp: SmtpSink;
let hook: WebhookReceiver;

beforeAll(async () => {
  project = projectCopy();
  const config = join(project, "content", "site.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("doubleOptIn: false", "doubleOptIn: true"));
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    expect(
      await main(["node", "sitegen", "build", "--target", "netlify", "--out", join(project, "dist")], project),
    ).toBe(0);
  } finally {
    log.mockRestore();
  }
  smtp = await startSmtpSink();
  hook = await startWebhook();
  // As a site's environment variables: the runtime's workers start with the process's environment.
  Object.assign(process.env, {
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_TO: FIRM,
    NOTIFY_WEBHOOK_URL: hook.url,
    SUBMISSIONS_SECRET: SECRET,
  });
  netlify = await startNetlifyDev(project);
}, 180_000);

afterAll(async () => {
  await netlify?.stop();
  await hook?.close();
  await smtp?.close();
  for (const name of VARIABLES) {
    if (previous[name] === undefined) delete process.env[name];
    else process.env[name] = previous[name];
  }
});

const fromOwnPage = () => ({ origin: netlify!.url, "sec-fetch-site": "same-origin" });
const post = (path: string, body: unknown) =>
  fetch(`${netlify!.url}${path}`, {
    method: "POST",
    redirect: "manual",
    body: JSON.stringify(body),
    headers: { ...fromOwnPage(), "content-type": "application/json", accept: "application/json" },
  });
/** As if the backoff's wait were over: every notification not yet delivered is due now. */
async function overdue(): Promise<void> {
  const blobs = getStore({ name: "submissions", consistency: "strong" });
  for (const { key } of (await blobs.list({ prefix: "outbox/" })).blobs) {
    const row = (await blobs.get(key, { type: "json" })) as { delivered_at: string | null };
    if (row.delivered_at === null) await blobs.setJSON(key, { ...row, next_attempt_at: "2000-01-01T00:00:00.000Z" });
  }
}
const outbox = async (email: string) =>
  (await new BlobsSubmissionStore().findByEmail(email)).outbox
    .map((o) => ({ kind: o.kind, attempts: o.attempts, last_error: o.last_error, delivered: o.delivered_at !== null }))
    .sort((a, b) => a.kind.localeCompare(b.kind));

describe("notifications on Netlify", () => {
  it("routes the confirmation and unsubscribe links to the function, with the endpoints", () => {
    const fn = readFileSync(join(project, FUNCTIONS_DIR, FUNCTION_NAME, `${FUNCTION_NAME}.mjs`), "utf8");
    expect(fn).toContain(
      'export const config = { path: ["/api/newsletter","/api/contact",' +
        '"/api/detect-language","/api/newsletter/confirm","/api/newsletter/unsubscribe",' +
        '"/api/newsletter/issues"] };',
    );
  });

  it("e-mails a contact message to the firm and posts it to the webhook after answering the visitor", async () => {
    const message = {
      firstName: "Ana",
      lastName: "Souza",
      email: "ana@cliente.example.com",
      company: "Cliente & Cia",
      message: "Olá!\nQueremos um piloto de IA.",
      locale: "pt",
    };
    const response = await post("/api/contact", message);
    expect(response.status).toBe(200);
    expect((await response.json()).ok).toBe(true);

    await until(() => smtp.mails.length === 1 && hook.bodies.length === 1, 30_000, "the e-mail and the webhook call");
    const [mail] = smtp.mails;
    expect(mail.to).toEqual([FIRM]);
    expect(mail.from).toBe("site@vetorai.com.br");
    expect(mail.headers["reply-to"]).toContain("<ana@cliente.example.com>");
    expect(mail.subject).toContain("Ana Souza");
    expect(mail.text).toContain("Olá!\nQueremos um piloto de IA.");
    expect(hook.bodies[0]).toMatchObject({
      event: "contact",
      submission: { type: "contact", firstName: "Ana", email: "ana@cliente.example.com", message: message.message },
    });
    await until(
      async () => (await outbox("ana@cliente.example.com")).every((row) => row.delivered),
      15_000,
      "the outbox rows marked delivered",
    );
    expect(await outbox("ana@cliente.example.com")).toEqual([
      { kind: "email", attempts: 1, last_error: null, delivered: true },
      { kind: "webhook", attempts: 1, last_error: null, delivered: true },
    ]);
  });

  const keepsUndeliveredNotification =
    "keeps a notification whose receiver is down in the outbox with its error, and a later request delivers it once " +
    "it is up";
  it(keepsUndeliveredNotification, async () => {
    const port = hook.port;
    await hook.close();
    const response = await post("/api/contact", {
      firstName: "Bruno",
      lastName: "Lima",
      email: "bruno@cliente.example.com",
      message: "Retorno, por favor.",
      locale: "en",
    });
    expect(response.status).toBe(200);
    // Both rows, each tried once: an empty list (the rows not written yet) would pass `every` at once.
    await until(
      async () => {
        const rows = await outbox("bruno@cliente.example.com");
        return rows.length === 2 && rows.every((row) => row.attempts === 1);
      },
      30_000,
      "the e-mail sent and the webhook's failed try recorded",
    );
    const [email, webhook] = await outbox("bruno@cliente.example.com");
    expect(email).toEqual({ kind: "email", attempts: 1, last_error: null, delivered: true });
    expect(webhook.delivered).toBe(false);
    expect(webhook.last_error).toMatch(/^the webhook could not be reached/);

    hook = await startWebhook(port);
    await overdue();
    expect((await fetch(`${netlify!.url}/api/detect-language`, { headers: { "accept-language": "en" } })).status).toBe(
      200,
    );
    await until(() => hook.bodies.length === 1, 30_000, "the webhook call on a later request");
    expect(hook.bodies[0]).toMatchObject({
      event: "contact",
      submission: { firstName: "Bruno", message: "Retorno, por favor." },
    });
    await until(
      async () => (await outbox("bruno@cliente.example.com"))[1]?.delivered === true,
      15_000,
      "the row marked delivered",
    );
    expect((await outbox("bruno@cliente.example.com"))[1]).toMatchObject({ attempts: 2, last_error: null });
  });

  it("sends what is due from the scheduled function too, with no visitor's request", async () => {
    const scheduled = readFileSync(join(project, FUNCTIONS_DIR, "sitegen-deliver", "sitegen-deliver.mjs"), "utf8");
    expect(scheduled).toContain('export const config = { schedule: "*/5 * * * *" };');
    const port = hook.port;
    await hook.close();
    const response = await post("/api/contact", {
      firstName: "Carla",
      lastName: "Dias",
      email: "carla@cliente.example.com",
      message: "Sem pressa.",
      locale: "pt",
    });
    expect(response.status).toBe(200);
    // Both rows, each tried once: an empty list (the rows not written yet) would pass `every` at once.
    await until(
      async () => {
        const rows = await outbox("carla@cliente.example.com");
        return rows.length === 2 && rows.every((row) => row.attempts === 1);
      },
      30_000,
      "the e-mail sent and the webhook's failed try recorded",
    );
    hook = await startWebhook(port);
    await overdue();
    // What Netlify's scheduler does; the local runtime runs a scheduled function when its address is called.
    const run = await fetch(`${netlify!.url}/.netlify/functions/sitegen-deliver`, { method: "POST" });
    expect(run.status).toBe(204);
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]).toMatchObject({
      event: "contact",
      submission: { firstName: "Carla", message: "Sem pressa." },
    });
    expect((await outbox("carla@cliente.example.com"))[1]).toMatchObject({
      attempts: 2,
      last_error: null,
      delivered: true,
    });
  });

  it("sends the double opt-in confirmation through the outbox, and its link confirms the signup", async () => {
    const before = smtp.mails.length;
    const response = await post("/api/newsletter", { email: "reader@example.com", locale: "en" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      title: EN.get("newsletter.pendingTitle"),
      message: EN.get("newsletter.pendingMessage"),
    });
    const [stored] = await new BlobsSubmissionStore().list("newsletter");
    expect([stored.email, stored.confirmed_at]).toEqual(["reader@example.com", null]);

    await until(() => smtp.mails.length === before + 1, 30_000, "the confirmation e-mail");
    const mail = smtp.mails[before];
    expect(mail.to).toEqual(["reader@example.com"]);
    expect(mail.subject).toBe(EN.get("newsletterConfirm.mail.subject"));
    const link = /https:\/\/\S+\/api\/newsletter\/confirm\?token=[\w.-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    const url = new URL(link!);

    const confirm = await fetch(`${netlify!.url}${url.pathname}${url.search}`, { redirect: "manual" });
    expect([confirm.status, confirm.headers.get("location")]).toEqual([303, "/en/forms/newsletter-confirmed"]);
    expect((await new BlobsSubmissionStore().list("newsletter"))[0].confirmed_at).not.toBeNull();
  });

  it("answers an issue's unsubscribe link: the GET changes nothing, the one-click POST unsubscribes", async () => {
    const subscribed = async () => (await new BlobsSubmissionStore().list("newsletter")).map((r) => r.email);
    const tokens = new UnsubscribeTokens(SECRET);
    const subscriber = { email: "reader@example.com", locale: "en" } as const;
    const url = new URL(await unsubscribeLink(SITE.siteUrl, SITE.endpoints.newsletterUnsubscribe!, tokens, subscriber));
    const at = `${netlify!.url}${url.pathname}${url.search}`;
    expect(await subscribed()).toEqual(["reader@example.com"]);

    const page = await fetch(at, { redirect: "manual" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<html lang="en">`);
    expect(html).toContain(`<button type="submit">${EN.get("newsletterUnsubscribe.button")}</button>`);
    expect(await subscribed()).toEqual(["reader@example.com"]);

    const token = url.searchParams.get("token")!;
    const altered = `${netlify!.url}${url.pathname}?token=${token.slice(0, -2)}xx`;
    const forged = await fetch(altered, { method: "POST", body: "List-Unsubscribe=One-Click", headers: ONE_CLICK });
    expect(forged.status).toBe(400);
    expect(await subscribed()).toEqual(["reader@example.com"]);

    // The page's own button: the POST is answered with the page that confirms it.
    const button = await fetch(`${at}&page`, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: ONE_CLICK,
      redirect: "manual",
    });
    expect([button.status, button.headers.get("location")]).toEqual([303, "/en/forms/newsletter-unsubscribed"]);
    expect(await subscribed()).toEqual([]);
  });
});

/** A mail client's one-click unsubscribe (RFC 8058). */
const ONE_CLICK = { "content-type": "application/x-www-form-urlencoded" };

describe("sending an issue through the Netlify Function (sitegen newsletter send --site)", () => {
  const PATH = SITE.endpoints.newsletterIssues!;
  const lines: string[] = [];
  const send = async () => {
    const base = commandContext(project);
    const site = { ...base.site(), newsletter: { ...(base.site().newsletter as object), ratePerMinute: 600 } };
    lines.length = 0;
    return sendThroughSite(
      { ...base, site: () => site },
      { site: netlify!.url, since: "2026-11-01" },
      { env: { SUBMISSIONS_SECRET: SECRET }, print: (line) => lines.push(line) },
    );
  };
  const issues = async () =>
    (await getStore({ name: "submissions", consistency: "strong" }).list({ prefix: "issues/" })).blobs.length;

  it("refuses an unsigned or altered request, and changes nothing", async () => {
    const body = JSON.stringify({ action: "deliver" });
    const signed = await signRequest(SECRET, "POST", PATH, body, Date.now());
    const at = `${netlify!.url}${PATH}`;
    expect((await fetch(at)).status).toBe(401);
    expect((await fetch(at, { method: "POST", body })).status).toBe(401);
    const altered = JSON.stringify({ action: "queue", issues: [], ratePerMinute: 60 });
    expect((await fetch(at, { method: "POST", body: altered, headers: signed })).status).toBe(401);
    expect(await issues()).toBe(0);
  });

  it("sends each confirmed subscriber of a language one copy, with both List-Unsubscribe headers", async () => {
    const store = new BlobsSubmissionStore();
    const createdAt = "2026-11-01T10:00:00.000Z";
    for (const [email, locale, confirmed] of [
      ["ana@exemplo.com.br", "pt", true],
      ["bruno@exemplo.com.br", "pt", true],
      ["carla@exemplo.com.br", "pt", false],
      ["dan@example.com", "en", true],
      ["erin@example.com", "en", true],
    ] as const)
      await store.addNewsletter({ email, locale, createdAt, confirmed });
    const before = smtp.mails.length;
    const summary = await send();
    expect(summary).toEqual({ recorded: 2, progress: { total: 4, delivered: 4, failing: 0, pending: 0, refused: 0 } });
    expect(lines.at(-1)).toBe("Sent 4, failed 0 (tried again later), waiting 0, of 4 copies.");
    const mails = smtp.mails.slice(before);
    expect(mails.map((m) => m.to.join(",")).sort()).toEqual([
      "ana@exemplo.com.br",
      "bruno@exemplo.com.br",
      "dan@example.com",
      "erin@example.com",
    ]);
    for (const mail of mails) {
      const pt = mail.to[0].endsWith(".br");
      expect(mail.subject).toMatch(pt ? /^Insights da Vetor AI · / : /^Vetor AI Insights · /);
      const [web, mailto] = mail.headers["list-unsubscribe"].split(", ");
      expect(web).toMatch(/^<https:\/\/www\.vetorai\.com\.br\/api\/newsletter\/unsubscribe\?token=[\w.-]+>$/);
      expect(mailto).toBe("<mailto:privacidade@vetorai.com.br?subject=unsubscribe>");
      expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      expect(mail.text).toContain(web.slice(1, -1));
    }
    expect(await issues()).toBe(2);
  });

  it("run again, sends nothing", async () => {
    const before = smtp.mails.length;
    await send();
    expect(lines).toEqual(["No new article since 2026-11-01: nothing to send."]);
    expect(await new BlobsSubmissionStore().findByEmail("ana@exemplo.com.br")).toMatchObject({
      outbox: [{ kind: "issue", attempts: 1, last_error: null }],
    });
    expect(smtp.mails.length).toBe(before);
    expect(await issues()).toBe(2);
  });
});
