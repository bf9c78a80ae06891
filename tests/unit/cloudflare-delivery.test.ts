import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { unsubscribeLink, UnsubscribeTokens } from "../../src/api/unsubscribe.ts";
import { sendThroughSite } from "../../src/api/commands/newsletter-remote.ts";
import { signRequest } from "../../src/api/signed-requests.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { DKIM_PEM_ONE_LINE, verifyDkim } from "../dkim-keys.ts";
import { projectCopy, ROOT } from "../helpers.ts";
import { startSmtpSink, startWebhook, until, type SmtpSink, type WebhookReceiver } from "../notify-sinks.ts";
import { d1Query, startPagesDev, type PagesDev } from "../wrangler.ts";

/**
 * Leads reach people from Cloudflare Pages: the site built with `--target cloudflare` and double opt-in on,
 * run by `wrangler pages dev` (workerd, offline) with SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_WEBHOOK_URL and
 * SUBMISSIONS_SECRET as the project's variables (.dev.vars). The worker's delivery pass after each answer
 * (ctx.waitUntil) sends a contact message to an in-process SMTP sink, through workerd's sockets, and to a
 * webhook receiver; a receiver that is down leaves the notification in D1's outbox with its error until a
 * later request finds it due and it is up; the confirmation e-mail's link confirms the signup, an issue's
 * unsubscribe link unsubscribes, and `sitegen newsletter send --site` sends an issue through the worker.
 */
const project = projectCopy();
const SECRET = "a-test-signing-key-of-more-than-32-characters";
const FIRM = "leads@firma.example.com";
const SELECTOR = "pages2026";
/** Every message the worker sends is DKIM-signed for the sender's domain, and mailauth verifies it. */
const signed = async (raw: Buffer) =>
  expect(await verifyDkim(raw, SELECTOR, "vetorai.com.br")).toEqual([
    { result: "pass", domain: "vetorai.com.br", selector: SELECTOR },
  ]);
let pages: PagesDev | undefined;
let smtp: SmtpSink;
let hook: WebhookReceiver;

beforeAll(async () => {
  const config = join(project, "content", "site.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("doubleOptIn: false", "doubleOptIn: true"));
  smtp = await startSmtpSink();
  hook = await startWebhook();
  const build = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--target", "cloudflare"], {
    cwd: project,
    encoding: "utf8",
    timeout: 170_000,
  });
  if (build.status !== 0)
    throw new Error(`sitegen build --target cloudflare failed:\n${build.stdout}\n${build.stderr}`);
  // How wrangler gives a Pages project's variables and secrets to the worker locally.
  writeFileSync(
    join(project, ".dev.vars"),
    `SMTP_URL=${smtp.url}\nNOTIFY_EMAIL_TO=${FIRM}\nNOTIFY_WEBHOOK_URL=${hook.url}\nSUBMISSIONS_SECRET=${SECRET}\n` +
      `DKIM_PRIVATE_KEY=${DKIM_PEM_ONE_LINE}\nDKIM_SELECTOR=${SELECTOR}\n`,
  );
  pages = await startPagesDev(project);
}, 240_000);

afterAll(async () => {
  await pages?.stop();
  await hook?.close();
  await smtp?.close();
});

const SITE = loadSiteConfig(ROOT);
const PT = loadLocaleContent(ROOT, "pt", SITE).dictionary;
const json = (client: string) => ({
  "content-type": "application/json",
  accept: "application/json",
  "cf-connecting-ip": client,
});
const post = (path: string, body: unknown, client: string) =>
  fetch(`${pages!.url}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: json(client),
    redirect: "manual",
  });
const outbox = (email: string) =>
  d1Query(
    project,
    "SELECT o.kind, o.attempts, o.last_error, o.delivered_at IS NOT NULL AS delivered FROM outbox o " +
      "JOIN contact c ON c.id = o.submission_id AND o.submission_type = 'contact' " +
      `WHERE c.email = '${email}' ORDER BY o.kind`,
  );

describe("notifications on Cloudflare Pages", () => {
  it("routes the confirmation and unsubscribe links to the worker, with the endpoints", () => {
    expect(JSON.parse(readFileSync(join(project, "dist", "_routes.json"), "utf8")).include).toEqual([
      "/api/contact",
      "/api/detect-language",
      "/api/newsletter",
      "/api/newsletter/confirm",
      "/api/newsletter/issues",
      "/api/newsletter/unsubscribe",
    ]);
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
    const response = await post("/api/contact", message, "203.0.113.10");
    expect(response.status).toBe(200);
    expect((await response.json()).ok).toBe(true);

    await until(() => smtp.mails.length === 1 && hook.bodies.length === 1, 30_000, "the e-mail and the webhook call");
    const [mail] = smtp.mails;
    expect(mail.to).toEqual([FIRM]);
    expect(mail.from).toBe("site@vetorai.com.br");
    expect(mail.headers["reply-to"]).toBe("Ana Souza <ana@cliente.example.com>");
    expect(mail.subject).toContain("Ana Souza");
    expect(mail.text).toContain("Olá!\nQueremos um piloto de IA.");
    expect(mail.text).toContain("Cliente & Cia");
    await signed(mail.raw);
    expect(hook.bodies[0]).toMatchObject({
      event: "contact",
      submission: { type: "contact", firstName: "Ana", email: "ana@cliente.example.com", message: message.message },
    });
    await until(
      async () => (await outbox("ana@cliente.example.com")).every((row) => row.delivered === 1),
      15_000,
      "the outbox rows marked delivered",
    );
    expect(await outbox("ana@cliente.example.com")).toEqual([
      { kind: "email", attempts: 1, last_error: null, delivered: 1 },
      { kind: "webhook", attempts: 1, last_error: null, delivered: 1 },
    ]);
  });

  const keepsUndeliveredNotification =
    "keeps a notification whose receiver is down in the outbox with its error, and a later request delivers it once " +
    "it is up";
  it(keepsUndeliveredNotification, async () => {
    const port = hook.port;
    await hook.close();
    const response = await post(
      "/api/contact",
      {
        firstName: "Bruno",
        lastName: "Lima",
        email: "bruno@cliente.example.com",
        message: "Retorno, por favor.",
        locale: "en",
      },
      "203.0.113.11",
    );
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
    expect(email).toEqual({ kind: "email", attempts: 1, last_error: null, delivered: 1 });
    expect(webhook.delivered).toBe(0);
    expect(webhook.last_error).toMatch(/^the webhook could not be reached/);

    hook = await startWebhook(port);
    // As if the backoff's wait were over.
    await d1Query(project, "UPDATE outbox SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE delivered_at IS NULL");
    expect((await fetch(`${pages!.url}/api/detect-language`, { headers: { "accept-language": "en" } })).status).toBe(
      200,
    );
    await until(() => hook.bodies.length === 1, 30_000, "the webhook call on a later request");
    expect(hook.bodies[0]).toMatchObject({
      event: "contact",
      submission: { firstName: "Bruno", message: "Retorno, por favor." },
    });
    await until(
      async () => (await outbox("bruno@cliente.example.com"))[1].delivered === 1,
      15_000,
      "the row marked delivered",
    );
    expect((await outbox("bruno@cliente.example.com"))[1]).toMatchObject({ attempts: 2, last_error: null });
  });

  it("sends the double opt-in confirmation through the outbox, and its link confirms the signup", async () => {
    const before = smtp.mails.length;
    const response = await post("/api/newsletter", { email: "Leitora@Exemplo.com.br", locale: "pt" }, "203.0.113.12");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, title: PT.get("newsletter.pendingTitle") });
    expect(
      await d1Query(project, "SELECT confirmed_at FROM newsletter WHERE email_key = 'leitora@exemplo.com.br'"),
    ).toEqual([{ confirmed_at: null }]);

    await until(() => smtp.mails.length === before + 1, 30_000, "the confirmation e-mail");
    const mail = smtp.mails[before];
    // The local part as typed; a domain is case-blind, and nodemailer writes it lower-cased, as on Node.
    expect(mail.to).toEqual(["Leitora@exemplo.com.br"]);
    expect(mail.subject).toBe(PT.get("newsletterConfirm.mail.subject"));
    await signed(mail.raw);
    const link = /https:\/\/\S+\/api\/newsletter\/confirm\?token=[\w.-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    const url = new URL(link!);
    expect(url.origin).toBe(new URL(SITE.siteUrl).origin);

    const confirm = await fetch(`${pages!.url}${url.pathname}${url.search}`, { redirect: "manual" });
    expect([confirm.status, confirm.headers.get("location")]).toEqual([303, "/forms/newsletter-confirmed"]);
    expect(
      await d1Query(
        project,
        "SELECT confirmed_at IS NOT NULL AS confirmed FROM newsletter WHERE email_key = 'leitora@exemplo.com.br'",
      ),
    ).toEqual([{ confirmed: 1 }]);
    const altered = await fetch(`${pages!.url}${url.pathname}?token=${url.searchParams.get("token")!.slice(0, -2)}xx`, {
      redirect: "manual",
    });
    expect(altered.headers.get("location")).toBe("/forms/newsletter-confirm-failed");
  });

  it("answers an issue's unsubscribe link: the GET changes nothing, the one-click POST unsubscribes", async () => {
    const subscribed = () =>
      d1Query(project, "SELECT count(*) AS n FROM newsletter WHERE email_key = 'leitora@exemplo.com.br'");
    const link = await unsubscribeLink(
      SITE.siteUrl,
      SITE.endpoints.newsletterUnsubscribe!,
      new UnsubscribeTokens(SECRET),
      {
        email: "Leitora@Exemplo.com.br",
        locale: "pt",
      },
    );
    const url = new URL(link);
    const at = `${pages!.url}${url.pathname}${url.search}`;
    expect(await subscribed()).toEqual([{ n: 1 }]);

    const page = await fetch(at, { redirect: "manual" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<html lang="pt-BR">`);
    expect(html).toContain(
      `<form method="post" action="${url.pathname}${url.search.replaceAll("&", "&amp;")}&amp;page">`,
    );
    expect(await subscribed()).toEqual([{ n: 1 }]);

    const token = url.searchParams.get("token")!;
    const altered = `${pages!.url}${url.pathname}?token=${token.slice(0, -2)}xx`;
    expect((await fetch(altered, { redirect: "manual" })).headers.get("location")).toBe(
      "/forms/newsletter-unsubscribe-failed",
    );
    const forged = await fetch(altered, { method: "POST", body: "List-Unsubscribe=One-Click", headers: ONE_CLICK });
    expect(forged.status).toBe(400);
    expect(await subscribed()).toEqual([{ n: 1 }]);

    const oneClick = await fetch(at, { method: "POST", body: "List-Unsubscribe=One-Click", headers: ONE_CLICK });
    expect([oneClick.status, await oneClick.text()]).toEqual([200, "Unsubscribed.\n"]);
    expect(await subscribed()).toEqual([{ n: 0 }]);
    // The link leads to the page that says it no longer applies.
    expect((await fetch(at, { redirect: "manual" })).headers.get("location")).toBe(
      "/forms/newsletter-unsubscribe-failed",
    );
  });
});

describe("sending an issue through the Pages worker (sitegen newsletter send --site)", () => {
  const PATH = SITE.endpoints.newsletterIssues!;
  const lines: string[] = [];
  const send = async () => {
    const base = commandContext(project);
    const site = { ...base.site(), newsletter: { ...(base.site().newsletter as object), ratePerMinute: 600 } };
    lines.length = 0;
    return sendThroughSite(
      { ...base, site: () => site },
      { site: pages!.url, since: "2026-11-01" },
      { env: { SUBMISSIONS_SECRET: SECRET }, print: (line) => lines.push(line) },
    );
  };
  const issues = () =>
    d1Query(project, "SELECT locale, articles, queued_at IS NOT NULL AS queued FROM newsletter_issues");

  it("refuses an unsigned or altered request, and changes nothing", async () => {
    const body = JSON.stringify({ action: "deliver" });
    const signed = await signRequest(SECRET, "POST", PATH, body, Date.now());
    const at = `${pages!.url}${PATH}`;
    expect((await fetch(at)).status).toBe(401);
    expect((await fetch(at, { method: "POST", body, headers: json("203.0.113.30") })).status).toBe(401);
    const altered = JSON.stringify({ action: "queue", issues: [], ratePerMinute: 60 });
    expect((await fetch(at, { method: "POST", body: altered, headers: signed })).status).toBe(401);
    expect(await issues()).toEqual([]);
  });

  it("sends each confirmed subscriber of a language one copy, with both List-Unsubscribe headers", async () => {
    for (const [email, locale, confirmed] of [
      ["ana@exemplo.com.br", "pt", "'2026-11-01T10:00:00.000Z'"],
      ["bruno@exemplo.com.br", "pt", "'2026-11-01T10:00:00.000Z'"],
      ["carla@exemplo.com.br", "pt", "NULL"],
      ["dan@example.com", "en", "'2026-11-01T10:00:00.000Z'"],
      ["erin@example.com", "en", "'2026-11-01T10:00:00.000Z'"],
    ])
      await d1Query(
        project,
        "INSERT INTO newsletter (email, email_key, locale, created_at, suspect, confirmed_at) " +
          `VALUES ('${email}', '${email}', '${locale}', '2026-11-01T10:00:00.000Z', 0, ${confirmed})`,
      );
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
      await signed(mail.raw);
      expect(mail.headers["dkim-signature"]).toMatch(/\bh=[^;]*list-unsubscribe/i);
    }
    expect((await issues()).map((i) => [i.locale, i.queued])).toEqual([
      ["pt", 1],
      ["en", 1],
    ]);
  });

  it("run again, sends nothing", async () => {
    const before = smtp.mails.length;
    await send();
    expect(lines).toEqual(["No new article since 2026-11-01: nothing to send."]);
    // Nothing a later request's delivery pass could send either.
    expect((await fetch(`${pages!.url}/api/detect-language`)).status).toBe(200);
    expect(await d1Query(project, "SELECT count(*) AS n FROM outbox WHERE delivered_at IS NULL")).toEqual([{ n: 0 }]);
    expect(smtp.mails.length).toBe(before);
    expect(await issues()).toHaveLength(2);
  });
});

/** A mail client's one-click unsubscribe (RFC 8058). */
const ONE_CLICK = { "content-type": "application/x-www-form-urlencoded" };
