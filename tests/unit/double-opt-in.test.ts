import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHandlers } from "../../src/api/index.ts";
import { OptInTokens } from "../../src/api/opt-in.ts";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { ROOT } from "../helpers.ts";
import { startSmtpSink, startWebhook, until, type SmtpSink, type WebhookReceiver } from "../notify-sinks.ts";
import { postgresBackend, sqliteBackend, type Backend, type Place } from "../store-backends.ts";

/**
 * Double opt-in for the newsletter: the signup is stored unconfirmed, the subscriber gets an e-mail in their
 * language with a signed link, the link confirms and leads to a page saying so (an altered or expired one to
 * a page inviting a new signup), the firm hears of a subscriber once confirmed, and signups never confirmed
 * expire. Against SQLite and PostgreSQL.
 */
const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;
const SECRET = "a-test-secret-of-more-than-thirty-two-characters";

describe("confirmation tokens", () => {
  it("name the address, the language and an expiry, and refuse any change, another key or a late use", async () => {
    const tokens = new OptInTokens(SECRET);
    const token = await tokens.sign({ email: "Ana@Example.com", locale: "en", expires: T0 + DAY });
    expect(await tokens.verify(token, T0)).toEqual({
      ok: true,
      claims: { email: "Ana@Example.com", locale: "en", expires: T0 + DAY },
    });
    expect(await tokens.verify(token, T0 + DAY + 1)).toEqual({ ok: false, reason: "expired", locale: "en" });
    expect(await new OptInTokens(`${SECRET}!`).verify(token, T0)).toEqual({ ok: false, reason: "invalid" });
    const [body, mac] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ e: "bia@example.com", l: "en", x: T0 + DAY })).toString("base64url");
    expect(await tokens.verify(`${forged}.${mac}`, T0)).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.verify(`${body}.${mac.slice(0, -2)}AA`, T0)).toEqual({ ok: false, reason: "invalid" });
    for (const garbage of ["", ".", "x", `${body}`, `${body}.${mac}.x`, "%%%.###"])
      expect((await tokens.verify(garbage, T0)).ok, garbage).toBe(false);
  });
});

for (const backend of [sqliteBackend(), postgresBackend()] as Backend[]) {
  describe(`newsletter double opt-in (${backend.name})`, () => {
    let smtp: SmtpSink;
    let hook: WebhookReceiver;
    const closing: { close(): Promise<void> }[] = [];
    beforeAll(async () => {
      await backend.start();
      smtp = await startSmtpSink();
      hook = await startWebhook();
    });
    afterAll(async () => {
      for (const c of closing) await c.close().catch(() => {});
      await smtp.close();
      await hook.close();
      backend.stop();
    });

    const instance = (place: Place, now: () => number) => {
      const site: SiteConfig = {
        ...SITE,
        submissions: { ...place.settings, rateLimitPerMinute: 100, doubleOptIn: true, unconfirmedDays: 7 },
        notifications: {
          from: "Site <site@firma.example.com>",
          to: "leads@firma.example.com",
          newsletter: true,
          timeoutSeconds: 2,
        },
      };
      const api = createApiHandlers({
        site,
        root: place.root,
        messages: MESSAGES,
        now,
        env: { ...place.env, SMTP_URL: smtp.url, SUBMISSIONS_SECRET: SECRET, NOTIFY_WEBHOOK_URL: hook.url },
        deliveryIntervalMs: 50,
      });
      closing.push(api);
      return api;
    };
    const confirmUrl = (mailText: string) =>
      new URL(/https?:\/\/\S+\/api\/newsletter\/confirm\?token=\S+/.exec(mailText)![0]);
    const get = (api: ReturnType<typeof instance>, url: URL, language = "pt-BR") =>
      api.handlers["/api/newsletter/confirm"](
        new Request(`http://localhost${url.pathname}${url.search}`, { headers: { "accept-language": language } }),
      );

    const storesSignupUnconfirmed =
      "stores the signup unconfirmed, e-mails the subscriber a link in their language, and confirms it once followed";
    it(storesSignupUnconfirmed, async () => {
      const place = await backend.fresh();
      let clock = T0;
      smtp.mails.length = 0;
      hook.bodies.length = 0;
      const api = instance(place, () => clock);
      const store = place.open();
      closing.push(store);
      api.startBackground();

      const signup = await api.handlers["/api/newsletter"](
        new Request("http://localhost/api/newsletter", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ email: "Reader@Example.com", locale: "en" }),
        }),
      );
      expect(await signup.json()).toEqual({
        ok: true,
        title: "One more step",
        message: "We sent you an email with a confirmation link. Open it to complete your subscription.",
      });
      // Without JavaScript: the page that says to check the inbox, in the visitor's language.
      const plain = await api.handlers["/api/newsletter"](
        new Request("http://localhost/api/newsletter", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "email=outro%40example.com&locale=pt",
        }),
      );
      expect([plain.status, plain.headers.get("location")]).toEqual([303, "/forms/newsletter-pending"]);

      await until(() => smtp.mails.length === 2, 10_000, "the confirmation e-mails");
      const mail = smtp.mails.find((m) => m.to[0].toLowerCase() === "reader@example.com")!;
      expect(mail.subject).toBe("Confirm your subscription to the Vetor AI newsletter");
      expect(mail.text).toContain("To confirm, open the link below within 7 days:");
      expect(smtp.mails.find((m) => m.to[0] === "outro@example.com")!.subject).toBe(
        "Confirme a sua inscrição na newsletter da Vetor AI",
      );
      const link = confirmUrl(mail.text);
      expect(link.origin).toBe(SITE.siteUrl);
      // Not yet a subscriber, and the firm has not heard of it.
      expect((await store.list("newsletter")).map((r) => [r.email, r.confirmed_at])).toEqual([
        ["Reader@Example.com", null],
        ["outro@example.com", null],
      ]);
      expect(hook.bodies).toEqual([]);

      clock = T0 + 3 * DAY;
      // A link checker's HEAD changes nothing.
      const head = await api.handlers["/api/newsletter/confirm"](
        new Request(`http://localhost${link.pathname}${link.search}`, { method: "HEAD" }),
      );
      expect([head.status, head.headers.get("allow")]).toEqual([405, "GET"]);
      expect((await store.list("newsletter"))[0].confirmed_at).toBe(null);
      const confirmed = await get(api, link);
      expect([confirmed.status, confirmed.headers.get("location"), confirmed.headers.get("cache-control")]).toEqual([
        303,
        "/en/forms/newsletter-confirmed",
        "no-store",
      ]);
      expect((await store.list("newsletter"))[0].confirmed_at).toBe(new Date(clock).toISOString());
      await until(() => hook.bodies.length === 1, 10_000, "the firm's notice of the subscriber");
      expect(hook.bodies[0]).toMatchObject({
        event: "newsletter",
        submission: { email: "Reader@Example.com", locale: "en" },
      });
      // Following it again still says confirmed, and tells the firm nothing new.
      expect((await get(api, link)).headers.get("location")).toBe("/en/forms/newsletter-confirmed");

      // An altered link, and one past its expiry: the page inviting a new signup.
      const altered = new URL(link);
      altered.searchParams.set("token", `${link.searchParams.get("token")!.slice(0, -3)}abc`);
      expect((await get(api, altered, "en-US")).headers.get("location")).toBe("/en/forms/newsletter-confirm-failed");
      expect((await get(api, new URL("http://localhost/api/newsletter/confirm"))).headers.get("location")).toBe(
        "/forms/newsletter-confirm-failed",
      );
      const other = confirmUrl(smtp.mails.find((m) => m.to[0] === "outro@example.com")!.text);
      clock = T0 + 7 * DAY + 1;
      expect((await get(api, other)).headers.get("location")).toBe("/forms/newsletter-confirm-failed");
      await api.stopBackground(1000);
      expect(hook.bodies).toHaveLength(1);

      // The unconfirmed signup expires with its link: erased at the next start.
      const later = instance(place, () => T0 + 8 * DAY);
      later.startBackground();
      await until(
        async () => (await store.list("newsletter")).length === 1,
        10_000,
        "the expiry of the unconfirmed signup",
      );
      expect((await store.list("newsletter")).map((r) => r.email)).toEqual(["Reader@Example.com"]);
      await later.stopBackground(1000);
    });
  });
}
