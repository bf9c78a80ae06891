import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendNewsletter } from "../../src/api/commands/newsletter-send.ts";
import { createDeliverers } from "../../src/api/notify/deliverers.ts";
import { createMailer } from "../../src/api/notify/email.ts";
import { notifySettings, NotifyConfigError } from "../../src/api/notify/settings.ts";
import type { OutboxRow } from "../../src/api/store.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { DKIM_PEM, DKIM_PEM_ONE_LINE, verifyDkim } from "../dkim-keys.ts";
import { projectCopy, ROOT } from "../helpers.ts";
import { startSmtpSink, type SmtpSink } from "../notify-sinks.ts";

/**
 * DKIM: with DKIM_PRIVATE_KEY and DKIM_SELECTOR set, every e-mail (a newsletter issue, a lead's notification)
 * leaves signed for the domain of notifications.from (or DKIM_DOMAIN), and mailauth verifies the signature
 * against the public key as DNS would publish it. A message changed on the way fails.
 */
const SECRET = "a-test-secret-of-more-than-thirty-two-characters";
const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp.close());

describe("DKIM-signed e-mail", () => {
  it("signs each newsletter issue for the sender's domain, and the signature verifies", async () => {
    const project = projectCopy();
    const base = commandContext(project);
    const entries = await base.entries("insights");
    const context = { ...base, entries: async () => entries };
    smtp.mails.length = 0;
    const env = {
      SMTP_URL: smtp.url,
      SUBMISSIONS_SECRET: SECRET,
      DATABASE_URL: "",
      DKIM_PRIVATE_KEY: DKIM_PEM_ONE_LINE,
      DKIM_SELECTOR: "news2026",
    };
    await sendNewsletter(context, { since: "2026-11-01", testTo: "editor@example.com" }, { env, print: () => {} });
    expect(smtp.mails).toHaveLength(2);
    for (const mail of smtp.mails) {
      expect(await verifyDkim(mail.raw, "news2026", "vetorai.com.br")).toEqual([
        { result: "pass", domain: "vetorai.com.br", selector: "news2026" },
      ]);
      expect(mail.headers["dkim-signature"]).toMatch(/\bh=[^;]*list-unsubscribe/i);
    }
    // A message altered on the way no longer verifies.
    const altered = Buffer.from(smtp.mails[0].raw.toString("latin1").replace("Insights", "Inside"), "latin1");
    expect(altered.equals(smtp.mails[0].raw)).toBe(false);
    expect((await verifyDkim(altered, "news2026", "vetorai.com.br"))[0].result).toBe("fail");
    // Nor does it against another key.
    expect((await verifyDkim(smtp.mails[0].raw, "other", "vetorai.com.br"))[0].result).not.toBe("pass");
  });

  it("signs a lead's notification to the firm for DKIM_DOMAIN when it is set", async () => {
    smtp.mails.length = 0;
    const env = {
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL_TO: "contato@example.com",
      DKIM_PRIVATE_KEY: DKIM_PEM,
      DKIM_SELECTOR: "leads",
      DKIM_DOMAIN: "mail.example.com",
    };
    const settings = notifySettings({ from: "Site <site@example.com>" }, env);
    const { deliverers, close } = createDeliverers(settings, MESSAGES, "pt", { createMailer });
    const row: OutboxRow = {
      ...{ id: 1, kind: "email", submission_type: "contact", submission_id: 1, attempts: 0 },
      ...{ next_attempt_at: "2026-11-29T12:00:00.000Z", last_error: null, delivered_at: null },
      created_at: "2026-11-29T12:00:00.000Z",
      payload: {
        ...{ type: "contact", email: "ana@example.com", locale: "pt", createdAt: "2026-11-29T12:00:00.000Z" },
        ...{ firstName: "Ana", lastName: "Souza", company: null, message: "Olá, gostaria de conversar." },
      },
    };
    try {
      await deliverers.email(row, new AbortController().signal);
    } finally {
      close();
    }
    expect(smtp.mails).toHaveLength(1);
    expect(await verifyDkim(smtp.mails[0].raw, "leads", "mail.example.com")).toEqual([
      { result: "pass", domain: "mail.example.com", selector: "leads" },
    ]);
  });

  it("refuses settings that cannot sign, without showing the key", () => {
    const config = { from: "site@example.com" };
    const failure = (env: Record<string, string>) => {
      try {
        notifySettings(config, { SMTP_URL: "smtp://127.0.0.1:25", ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(NotifyConfigError);
        return [(error as NotifyConfigError).variable, (error as Error).message];
      }
      return undefined;
    };
    expect(failure({ DKIM_PRIVATE_KEY: DKIM_PEM })).toEqual([
      "DKIM_SELECTOR",
      "DKIM_PRIVATE_KEY is set, but DKIM_SELECTOR is not: DKIM signing needs both.",
    ]);
    expect(failure({ DKIM_PRIVATE_KEY: "hunter2", DKIM_SELECTOR: "s1" })).toEqual([
      "DKIM_PRIVATE_KEY",
      "DKIM_PRIVATE_KEY is not a PEM private key (-----BEGIN PRIVATE KEY----- ...); its value is not shown.",
    ]);
    expect(failure({ DKIM_PRIVATE_KEY: DKIM_PEM, DKIM_SELECTOR: "s1", DKIM_DOMAIN: "not a domain" })).toEqual([
      "DKIM_DOMAIN",
      'DKIM_DOMAIN is "not a domain", which is no domain name.',
    ]);
    expect(notifySettings(config, { SMTP_URL: "smtp://127.0.0.1:25" }).dkim).toBeUndefined();
  });
});
