import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sendThroughSite } from "../../src/api/commands/newsletter-remote.ts";
import type { SendOptions } from "../../src/api/commands/newsletter-send.ts";
import { createEndpoints, type Endpoints } from "../../src/api/endpoints.ts";
import { createMailer } from "../../src/api/notify/email.ts";
import { signRequest } from "../../src/api/signed-requests.ts";
import type { SubmissionStore } from "../../src/api/store.ts";
import { submissionSettings } from "../../src/api/submission-settings.ts";
import type { CommandContext, PublishedEntry } from "../../src/generator/plugin.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { createSiteServer, type SiteServer } from "../../src/server/server.ts";
import { projectCopy } from "../helpers.ts";
import { startSmtpSink, type SmtpSink } from "../notify-sinks.ts";
import {
  blobsBackend,
  d1Backend,
  postgresBackend,
  sqliteBackend,
  type Backend,
  type Place,
} from "../store-backends.ts";

/**
 * sitegen newsletter send --site: the issues endpoint (newsletter-issues.ts) over every store, served by
 * sitegen start's server on loopback (the Cloudflare and Netlify runtimes are in
 * cloudflare-delivery.test.ts and netlify-delivery.test.ts): each confirmed subscriber gets one copy with
 * both List-Unsubscribe headers, a second run sends nothing, posting an issue twice queues nothing twice,
 * and an unsigned, altered or stale request is refused and changes nothing.
 */
const SECRET = "a-test-secret-of-more-than-thirty-two-characters";
const PATH = "/api/newsletter/issues";
/** The day the issues are dated (the site's clock checks the signatures: the real one). */
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

let project: string;
let entries: PublishedEntry[];
let smtp: SmtpSink;
beforeAll(async () => {
  project = projectCopy();
  entries = await commandContext(project).entries("insights");
  smtp = await startSmtpSink();
});
afterAll(() => smtp.close());

async function subscribe(store: SubmissionStore): Promise<void> {
  const at = "2026-11-01T10:00:00.000Z";
  for (const [email, locale, confirmed] of [
    ["ana@example.com", "pt", true],
    ["Bruno@Example.com", "pt", true],
    ["carla@example.com", "pt", false],
    ["dan@example.com", "en", true],
    ["erin@example.com", "en", true],
  ] as const)
    await store.addNewsletter({ email, locale, createdAt: at, confirmed });
}

for (const backend of [sqliteBackend(), postgresBackend(), d1Backend(), blobsBackend()] as Backend[]) {
  describe(`sitegen newsletter send --site (${backend.name})`, () => {
    let place: Place;
    let store: SubmissionStore;
    let endpoints: Endpoints;
    let context: CommandContext;
    const lines: string[] = [];
    const env = { SUBMISSIONS_SECRET: SECRET };
    /** The deployed site: the endpoints served by sitegen start's server, on loopback. */
    let server: SiteServer;
    let SITE_URL: string;
    const site = (input: string, init?: RequestInit) => fetch(input, init);
    const send = (opts: SendOptions) =>
      sendThroughSite(context, { ...opts, site: SITE_URL }, { env, now: () => NOW, print: (line) => lines.push(line) });
    const issueCount = async () => (await (store as never as { issues(): Promise<unknown[]> }).issues()).length;

    beforeAll(async () => {
      await backend.start();
      place = await backend.fresh();
      const base = commandContext(project);
      const config = {
        ...base.site(),
        submissions: { ...place.settings },
        newsletter: { ratePerMinute: 6000, unsubscribeEmail: "privacidade@vetorai.com.br" },
      };
      context = { ...base, site: () => config, entries: async () => entries };
      store = place.open();
      await subscribe(store);
      endpoints = createEndpoints({
        ...{ site: config, settings: submissionSettings(config, {}), messages: { pt: new Map(), en: new Map() } },
        ...{ env: { SMTP_URL: smtp.url, SUBMISSIONS_SECRET: SECRET }, openStore: () => store, createMailer },
      });
      const dist = join(mkdtempSync(join(tmpdir(), "sitegen-send-site-")), "dist");
      mkdirSync(dist);
      server = createSiteServer({ outDir: dist, site: config, api: endpoints.handlers });
      await new Promise<void>((resolve) => server.server.listen(0, "127.0.0.1", resolve));
      SITE_URL = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    }, 60_000);
    afterAll(async () => {
      await new Promise((resolve) => server?.server.close(resolve));
      endpoints?.close();
      await store?.close();
      await backend.stop();
    });

    it("--dry-run prints what the site's store holds, and records nothing", async () => {
      lines.length = 0;
      await send({ since: "2026-11-01", dryRun: true });
      expect(lines).toEqual([
        "pt: 1 new article, 2 confirmed subscribers: nothing sent (--dry-run).",
        "en: 1 new article, 2 confirmed subscribers: nothing sent (--dry-run).",
      ]);
      expect(await issueCount()).toBe(0);
    });

    it("--test-to sends one copy of each language's issue from here, and records nothing", async () => {
      lines.length = 0;
      smtp.mails.length = 0;
      await sendThroughSite(
        context,
        { site: SITE_URL, since: "2026-11-01", testTo: "editor@firma.example.com" },
        { env: { ...env, SMTP_URL: smtp.url }, now: () => NOW, print: (line) => lines.push(line) },
      );
      expect(smtp.mails.map((m) => [m.to, m.subject])).toEqual([
        [["editor@firma.example.com"], "Insights da Vetor AI · 29 de novembro de 2026"],
        [["editor@firma.example.com"], "Vetor AI Insights · November 29, 2026"],
      ]);
      expect(await issueCount()).toBe(0);
      smtp.mails.length = 0;
    });

    it("refuses an unsigned, altered or stale request, and changes nothing", async () => {
      const url = `${SITE_URL}${PATH}`;
      const body = JSON.stringify({ action: "queue", issues: [], ratePerMinute: 60 });
      const signed = await signRequest(SECRET, "POST", PATH, body, Date.now());
      const post = (headers: Record<string, string>, text = body) =>
        site(url, { method: "POST", body: text, headers: { "content-type": "application/json", ...headers } });
      expect((await site(url)).status).toBe(401);
      expect((await post({})).status).toBe(401);
      expect((await post(signed, body.replace("60", "61"))).status).toBe(401);
      const other = await signRequest(`${SECRET}x`, "POST", PATH, body, Date.now());
      expect((await post(other)).status).toBe(401);
      const stale = await signRequest(SECRET, "POST", PATH, body, Date.now() - 6 * 60_000);
      expect((await post(stale)).status).toBe(401);
      const asGet = await signRequest(SECRET, "GET", PATH, body, Date.now());
      expect((await post(asGet)).status).toBe(401);
      const huge = JSON.stringify({ action: "queue", pad: "x".repeat(600 * 1024) });
      const hugeSigned = await signRequest(SECRET, "POST", PATH, huge, Date.now());
      expect((await post(hugeSigned, huge)).status).toBe(413);
      // Above the server's cap for forms, as two languages' issues may be: read.
      const large = JSON.stringify({ action: "deliver", pad: "x".repeat(200 * 1024) });
      expect((await post(await signRequest(SECRET, "POST", PATH, large, Date.now()), large)).status).toBe(200);
      expect((await post(signed)).status).toBe(200);
      expect(await issueCount()).toBe(0);
      expect(smtp.mails).toEqual([]);
    });

    it("sends each confirmed subscriber one copy in their language, with both List-Unsubscribe headers", async () => {
      lines.length = 0;
      smtp.mails.length = 0;
      const summary = await send({ since: "2026-11-01" });
      expect(summary).toEqual({
        recorded: 2,
        progress: { total: 4, delivered: 4, failing: 0, pending: 0, refused: 0 },
      });
      expect(smtp.mails.map((m) => m.to.join(",")).sort()).toEqual([
        "Bruno@example.com",
        "ana@example.com",
        "dan@example.com",
        "erin@example.com",
      ]);
      for (const mail of smtp.mails) {
        const pt = mail.to[0] !== "dan@example.com" && mail.to[0] !== "erin@example.com";
        expect(mail.subject).toBe(
          pt ? "Insights da Vetor AI · 29 de novembro de 2026" : "Vetor AI Insights · November 29, 2026",
        );
        const [web, mailto] = mail.headers["list-unsubscribe"].split(", ");
        const link = /^<(https:\/\/www\.vetorai\.com\.br\/api\/newsletter\/unsubscribe\?token=[\w.-]+)>$/.exec(
          web,
        )?.[1];
        expect(link, mail.to[0]).toBeDefined();
        expect(mailto).toBe("<mailto:privacidade@vetorai.com.br?subject=unsubscribe>");
        expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
        expect(mail.text).toContain(link!);
        expect(mail.text).not.toContain("unsubscribe.invalid");
      }
      expect(lines.at(-1)).toBe("Sent 4, failed 0 (tried again later), waiting 0, of 4 copies.");
    });

    it("run again, sends nothing; the same issue posted again is recorded and queued once", async () => {
      lines.length = 0;
      smtp.mails.length = 0;
      await send({});
      expect(lines).toEqual(["No new article since the last issue: nothing to send."]);
      const records = await (store as never as { issues(): Promise<Record<string, unknown>[]> }).issues();
      const again = JSON.stringify({
        action: "queue",
        ratePerMinute: 60,
        issues: records.map(({ locale, day, articles, intro, subject, html, text }) => ({
          ...{ locale, day, articles, intro, subject, html, text },
        })),
      });
      const headers = await signRequest(SECRET, "POST", PATH, again, Date.now());
      const answer = await site(`${SITE_URL}${PATH}`, { method: "POST", body: again, headers });
      expect(await answer.json()).toMatchObject({ ok: true, recorded: 0, queued: [] });
      const deliver = JSON.stringify({ action: "deliver" });
      const pass = await site(`${SITE_URL}${PATH}`, {
        method: "POST",
        body: deliver,
        headers: await signRequest(SECRET, "POST", PATH, deliver, Date.now()),
      });
      expect(await pass.json()).toMatchObject({ progress: { total: 4, delivered: 4, pending: 0 } });
      expect(await issueCount()).toBe(2);
      expect(smtp.mails).toEqual([]);
    });
  });
}
