import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHandlers, describeError } from "../../src/api/index.ts";
import { OptInTokens } from "../../src/api/opt-in.ts";
import { UnsubscribeTokens, unsubscribeLink } from "../../src/api/unsubscribe.ts";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { parseHtml, ROOT, visibleText } from "../helpers.ts";
import {
  blobsBackend,
  d1Backend,
  postgresBackend,
  sqliteBackend,
  type Backend,
  type Place,
} from "../store-backends.ts";

/**
 * Leaving the newsletter through the personal link of an issue: the token is signed and names its purpose,
 * a GET shows a page and changes nothing, a POST (the page's button or a mail client's one-click) erases the
 * subscription and what is queued for it, and a forged or unknown token changes nothing.
 */
const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
const SECRET = "a-test-secret-of-more-than-thirty-two-characters";
const PATH = "/api/newsletter/unsubscribe";

describe("unsubscribe tokens", () => {
  it("name the address and language, never expire, and refuse a change, another key, another kind", async () => {
    const tokens = new UnsubscribeTokens(SECRET);
    const token = await tokens.sign({ email: "Ana@Example.com", locale: "en" });
    expect(await tokens.verify(token)).toEqual({ email: "Ana@Example.com", locale: "en" });
    expect(await new UnsubscribeTokens(`${SECRET}!`).verify(token)).toBeUndefined();
    const [body, mac] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ p: "unsubscribe", e: "bia@example.com", l: "en" })).toString(
      "base64url",
    );
    expect(await tokens.verify(`${forged}.${mac}`)).toBeUndefined();
    expect(await tokens.verify(`${body}.${mac.slice(0, -2)}AA`)).toBeUndefined();
    for (const garbage of ["", ".", "x", body, `${body}.${mac}.x`, "%%%.###", "a".repeat(5000)])
      expect(await tokens.verify(garbage), garbage.slice(0, 20)).toBeUndefined();
    // A confirmation link does not unsubscribe, and an unsubscribe link does not confirm.
    const optIn = new OptInTokens(SECRET);
    const confirm = await optIn.sign({ email: "ana@example.com", locale: "en", expires: Date.now() + 60_000 });
    expect(await tokens.verify(confirm)).toBeUndefined();
    expect((await optIn.verify(token, 0)).ok).toBe(false);
    expect(
      await unsubscribeLink("https://www.vetorai.com.br", PATH, tokens, { email: "a@b.co", locale: "pt" }),
    ).toMatch(/^https:\/\/www\.vetorai\.com\.br\/api\/newsletter\/unsubscribe\?token=[\w-]+\.[\w-]+$/);
  });
});

describe("the unsubscribe endpoint", () => {
  it("is mounted only with SUBMISSIONS_SECRET, and refuses a secret too short to sign with", () => {
    const place = { submissions: { database: ":memory:", rateLimitPerMinute: 5 } };
    const site: SiteConfig = { ...SITE, ...place };
    const without = createApiHandlers({ site, root: ROOT, messages: MESSAGES, env: {} });
    expect(Object.keys(without.handlers)).not.toContain(PATH);
    void without.close();
    const withSecret = createApiHandlers({ site, root: ROOT, messages: MESSAGES, env: { SUBMISSIONS_SECRET: SECRET } });
    expect(Object.keys(withSecret.handlers)).toContain(PATH);
    void withSecret.close();
    let error: unknown;
    try {
      createApiHandlers({ site, root: ROOT, messages: MESSAGES, env: { SUBMISSIONS_SECRET: "short" } });
    } catch (thrown) {
      error = thrown;
    }
    // Catalogued without a setting to turn off: the way out is a longer secret, or none.
    expect(describeError(error)).toEqual({
      name: "DoubleOptInSecretMissing",
      params: {
        variable: "SUBMISSIONS_SECRET",
        problem:
          "SUBMISSIONS_SECRET has 5 characters, fewer than the 32 a signing key needs: the newsletter's unsubscribe " +
          "links cannot be signed.",
      },
    });
  });
});

for (const backend of [sqliteBackend(), postgresBackend()] as Backend[]) {
  describe(`unsubscribing under sitegen serve and start (${backend.name})`, () => {
    const closing: { close(): Promise<void> | void }[] = [];
    beforeAll(() => backend.start());
    afterAll(async () => {
      for (const c of closing) await c.close();
      await backend.stop();
    });

    const setUp = async () => {
      const place: Place = await backend.fresh();
      const site: SiteConfig = { ...SITE, submissions: { ...place.settings, rateLimitPerMinute: 100 } };
      const api = createApiHandlers({
        site,
        root: place.root,
        messages: MESSAGES,
        env: { ...place.env, SUBMISSIONS_SECRET: SECRET },
      });
      const store = place.open();
      closing.push(api, store);
      await store.addNewsletter({ email: "Leitora@Exemplo.com.br", locale: "pt", createdAt: "2026-11-01T10:00:00Z" });
      await store.addNewsletter({ email: "reader@example.com", locale: "en", createdAt: "2026-11-02T10:00:00Z" }, [
        { kind: "email", payload: { queued: "for this subscriber" } },
      ]);
      await store.addContact({
        ...{ firstName: "Ana", lastName: "Souza", email: "reader@example.com", company: null },
        ...{ message: "Olá", locale: "en", createdAt: "2026-11-03T10:00:00Z" },
      });
      const tokens = new UnsubscribeTokens(SECRET);
      const link = async (email: string, locale: "pt" | "en") =>
        new URL(await unsubscribeLink("https://www.vetorai.com.br", PATH, tokens, { email, locale }));
      const call = (url: URL | string, init: RequestInit = {}) => {
        const u = new URL(url, "http://localhost");
        return api.handlers[PATH](new Request(`http://localhost${u.pathname}${u.search}`, init));
      };
      const emails = async () => (await store.list("newsletter")).map((r) => r.email);
      return { place, store, link, call, emails };
    };

    it("a GET shows a page in the subscriber's language with one button that posts, and changes nothing", async () => {
      const { link, call, emails } = await setUp();
      const url = await link("Leitora@Exemplo.com.br", "pt");
      const page = await call(url, { headers: { "accept-language": "en" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("content-security-policy")).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'; base-uri 'none'/,
      );
      const html = await page.text();
      const root = parseHtml(html);
      expect(root.querySelector("html")?.getAttribute("lang")).toBe("pt-BR");
      expect(root.querySelector("main h1")?.text).toBe("Cancelar a inscrição na newsletter");
      expect(visibleText(root.querySelector("main")!)).toContain(
        "Para deixar de receber a newsletter da Vetor AI no endereço Leitora@Exemplo.com.br, confirme abaixo.",
      );
      const forms = root.querySelectorAll("form");
      expect(forms).toHaveLength(1);
      expect(forms[0].getAttribute("method")).toBe("post");
      expect(forms[0].getAttribute("action")).toBe(`${PATH}${url.search}&page`);
      expect(forms[0].querySelectorAll("button").map((b) => b.text)).toEqual(["Cancelar a inscrição"]);
      expect(root.querySelectorAll("script")).toHaveLength(0);
      // A HEAD, a second GET: still subscribed.
      expect((await call(url, { method: "HEAD" })).status).toBe(200);
      expect(await emails()).toEqual(["Leitora@Exemplo.com.br", "reader@example.com"]);
    });

    it("the page's button unsubscribes at once and leads to a page that confirms it, offering to rejoin", async () => {
      const { link, call, emails, place } = await setUp();
      const url = await link("READER@example.com", "en");
      const html = await (await call(url)).text();
      const action = parseHtml(html).querySelector("form")!.getAttribute("action")!;
      const posted = await call(action.replace(/&amp;/g, "&"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect([posted.status, posted.headers.get("location")]).toEqual([303, "/en/forms/newsletter-unsubscribed"]);
      expect(await emails()).toEqual(["Leitora@Exemplo.com.br"]);
      // What was queued for the subscription went with it; the contact message of the same address stays.
      expect(await place.count("outbox")).toBe(0);
      expect(await place.count("contact")).toBe(1);
      expect(MESSAGES.en.get("newsletterUnsubscribe.doneMessage")).toContain(
        "Subscribe again with the form at the bottom of this page.",
      );
      // The link followed again afterwards: the page that says it unsubscribes no one.
      const again = await call(url);
      expect([again.status, again.headers.get("location")]).toEqual([303, "/en/forms/newsletter-unsubscribe-failed"]);
    });

    it("a mail client's one-click POST (RFC 8058) unsubscribes at once and is answered 200", async () => {
      const { link, call, emails } = await setUp();
      const url = await link("leitora@exemplo.com.br", "pt");
      const oneClick = () =>
        call(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        });
      const first = await oneClick();
      expect([first.status, await first.text()]).toEqual([200, "Unsubscribed.\n"]);
      expect(await emails()).toEqual(["reader@example.com"]);
      // Twice is no error.
      expect((await oneClick()).status).toBe(200);
    });

    it("a forged, altered or foreign token gets a clear page and changes nothing", async () => {
      const { link, call, emails } = await setUp();
      const url = await link("reader@example.com", "en");
      const token = url.searchParams.get("token")!;
      const [body, mac] = token.split(".");
      const forged = Buffer.from(JSON.stringify({ p: "unsubscribe", e: "leitora@exemplo.com.br", l: "pt" })).toString(
        "base64url",
      );
      const foreign = await new UnsubscribeTokens(`${SECRET}-elsewhere`).sign({
        email: "reader@example.com",
        locale: "en",
      });
      for (const bad of [`${forged}.${mac}`, `${body}.${mac.slice(0, -3)}AAA`, foreign, "", "x"]) {
        const query = `${PATH}?token=${encodeURIComponent(bad)}`;
        const shown = await call(query, { headers: { "accept-language": "en-US" } });
        expect([shown.status, shown.headers.get("location")], bad).toEqual([
          303,
          "/en/forms/newsletter-unsubscribe-failed",
        ]);
        const fromPage = await call(`${query}&page`, { method: "POST" });
        expect(fromPage.headers.get("location")).toBe("/forms/newsletter-unsubscribe-failed");
        const oneClick = await call(query, { method: "POST", body: "List-Unsubscribe=One-Click" });
        expect(oneClick.status).toBe(400);
      }
      expect((await call(url, { method: "PUT" })).status).toBe(405);
      expect(await emails()).toEqual(["Leitora@Exemplo.com.br", "reader@example.com"]);
    });
  });
}

for (const backend of [d1Backend(), blobsBackend()] as Backend[]) {
  describe(`store.unsubscribe (${backend.name})`, () => {
    beforeAll(() => backend.start());
    afterAll(() => backend.stop());

    it("erases the subscription and what is queued for it, and nothing else", async () => {
      const place = await backend.fresh();
      const store = place.open();
      try {
        await store.addNewsletter({ email: "Um@Example.com", locale: "pt", createdAt: "2026-11-01T10:00:00Z" }, [
          { kind: "email", payload: {} },
        ]);
        await store.addNewsletter({ email: "dois@example.com", locale: "en", createdAt: "2026-11-01T10:00:00Z" });
        await store.addContact({
          ...{ firstName: "Um", lastName: "Dois", email: "um@example.com", company: null },
          ...{ message: "Olá", locale: "pt", createdAt: "2026-11-03T10:00:00Z" },
        });
        expect(await store.unsubscribe("UM@example.com")).toBe("removed");
        expect(await store.unsubscribe("um@example.com")).toBe("missing");
        expect((await store.list("newsletter")).map((r) => r.email)).toEqual(["dois@example.com"]);
        expect(await place.count("outbox")).toBe(0);
        expect(await place.count("contact")).toBe(1);
      } finally {
        await store.close();
      }
    });
  });
}
