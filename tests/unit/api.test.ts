import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSqlite, pragmaValue, type SqliteDatabase } from "../../src/api/sqlite-driver.ts";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { SitegenError } from "../../src/generator/errors.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { printSubmissions as printWithContext, csvField } from "../../src/api/commands/list.ts";
import { submissionSettings, type SubmissionSettings } from "../../src/api/submission-settings.ts";
import { submissionsProject } from "../helpers.ts";
import { createApiHandlers, type ApiHandler } from "../../src/api/index.ts";
import { API_MESSAGE_KEYS, MAX_BODY_BYTES } from "../../src/api/forms.ts";
import { RateLimiter } from "../../src/api/rate-limit.ts";
import { detectLanguage } from "../../src/api/detect-language.ts";
import { localeFromAcceptLanguage } from "../../src/api/http.ts";
import { isValidEmail } from "../../src/api/validate.ts";

const ROOT = join(import.meta.dirname, "../..");
const SITE = loadSiteConfig(ROOT);
/** site.yaml's submissions settings, as the endpoints read them. */
const SETTINGS = submissionSettings(SITE, process.env);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

const opened: { close(): void }[] = [];
/** Each test's temporary folder (its database), removed once its handlers are closed. */
const folders: string[] = [];
afterAll(() => {
  for (const api of opened) api.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A fresh set of handlers over a temporary database, with a clock the test moves. */
function setup(submissions: Partial<SubmissionSettings> = {}, endpoints: Partial<SiteConfig["endpoints"]> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "sitegen-api-"));
  folders.push(dir);
  const settings = { ...SETTINGS, database: join(dir, "data", "submissions.db"), ...submissions };
  const site: SiteConfig = {
    ...SITE,
    endpoints: { ...SITE.endpoints, ...endpoints } as SiteConfig["endpoints"],
    submissions: settings,
  };
  let clock = T0;
  const api = createApiHandlers({ site, root: ROOT, messages: MESSAGES, now: () => clock });
  opened.push(api);
  const h = api.handlers;
  return {
    api,
    site,
    database: settings.database,
    newsletter: h["/api/newsletter"],
    contact: h["/api/contact"],
    detect: h["/api/detect-language"],
    advance(ms: number) {
      clock += ms;
    },
    now: () => clock,
    rows(table: "newsletter" | "contact"): Record<string, unknown>[] {
      let db: SqliteDatabase;
      try {
        db = openSqlite(settings.database, { readonly: true });
      } catch {
        return [];
      }
      try {
        return db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
  };
}

interface PostInit {
  /** "json" (default) sends JSON; "form" sends urlencoded; a raw body is sent as is. */
  as?: "json" | "form";
  accept?: string | null;
  headers?: Record<string, string>;
  remote?: string;
  method?: string;
}

const JSON_ACCEPT = "application/json";
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

function request(path: string, body: unknown, init: PostInit = {}): Request {
  const as = init.as ?? "json";
  const headers: Record<string, string> = { "x-sitegen-remote-address": init.remote ?? "203.0.113.7", ...init.headers };
  const accept = init.accept === undefined ? (as === "json" ? JSON_ACCEPT : BROWSER_ACCEPT) : init.accept;
  if (accept !== null) headers.accept = accept;
  let payload: BodyInit | undefined;
  if (typeof body === "string" || body instanceof Uint8Array || body instanceof ReadableStream) {
    payload = body as BodyInit;
  } else if (body !== undefined) {
    if (as === "json") {
      headers["content-type"] ??= "application/json";
      payload = JSON.stringify(body);
    } else {
      headers["content-type"] ??= "application/x-www-form-urlencoded";
      payload = new URLSearchParams(body as Record<string, string>).toString();
    }
  }
  const method = init.method ?? "POST";
  return new Request(`http://localhost${path}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : payload,
    ...(payload instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function call(handler: ApiHandler, body: unknown, init: PostInit = {}) {
  const response = await handler(request("/api/x", body, init));
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const CONTACT = {
  firstName: "Ana",
  lastName: "Souza",
  email: "ana@empresa.com.br",
  company: "Empresa SA",
  message: "Queremos falar sobre IA.",
};
const t = (locale: "pt" | "en", key: string) => MESSAGES[locale].get(key)!;

describe("content", () => {
  it("defines every message the API answers with, in both languages", () => {
    for (const key of API_MESSAGE_KEYS) {
      expect(MESSAGES.pt.get(key), `pt ${key}`).toBeTruthy();
      expect(MESSAGES.en.get(key), `en ${key}`).toBeTruthy();
    }
  });
});

describe("successful submissions", () => {
  it("answers the island's fetch with JSON in Portuguese and stores the address", async () => {
    const s = setup();
    const r = await call(
      s.newsletter,
      { email: "  ana@empresa.com.br " },
      { headers: { "accept-language": "pt-BR,pt;q=0.9" } },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.json).toEqual({ ok: true, title: "Sucesso!", message: "Obrigado por se inscrever em nossa newsletter!" });
    const rows = s.rows("newsletter");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: "ana@empresa.com.br",
      locale: "pt",
      created_at: new Date(T0).toISOString(),
    });
  });

  it("answers in English when the body's locale says so, whatever Accept-Language says", async () => {
    const s = setup();
    const r = await call(s.contact, { ...CONTACT, locale: "en" }, { headers: { "accept-language": "pt-BR" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      ok: true,
      title: "Success!",
      message: "Your message has been sent. We'll get back to you soon!",
    });
    expect(s.rows("contact")[0]).toMatchObject({
      first_name: "Ana",
      last_name: "Souza",
      email: "ana@empresa.com.br",
      company: "Empresa SA",
      message: "Queremos falar sobre IA.",
      locale: "en",
    });
  });

  it("picks the language from Accept-Language without a locale field, Portuguese when absent", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    expect(
      (await call(s.newsletter, { email: "a1@x.com" }, { headers: { "accept-language": "en-US,en;q=0.9" } })).json
        .title,
    ).toBe("Success!");
    expect(
      (await call(s.newsletter, { email: "a2@x.com" }, { headers: { "accept-language": "fr-FR" } })).json.title,
    ).toBe("Success!");
    expect((await call(s.newsletter, { email: "a3@x.com" })).json.title).toBe("Sucesso!");
    expect(
      (await call(s.newsletter, { email: "a4@x.com", locale: "xx" }, { headers: { "accept-language": "en" } })).json
        .title,
    ).toBe("Success!");
    expect((await call(s.contact, CONTACT)).json.title).toBe("Mensagem Enviada!");
  });

  it("without a locale field, answers in the language of the same-origin page the form was posted from", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const post = (referer: string, body: Record<string, string> = { email: "" }) =>
      call(s.newsletter, body, { as: "form", headers: { referer, "accept-language": "pt-BR" } });
    expect((await post("http://localhost/en/about")).headers.get("location")).toBe("/en/forms/error?reason=invalid");
    expect((await post("http://localhost/en")).headers.get("location")).toBe("/en/forms/error?reason=invalid");
    expect((await post("http://localhost/about")).headers.get("location")).toBe("/forms/error?reason=invalid");
    expect((await post("http://localhost/entrar")).headers.get("location")).toBe("/forms/error?reason=invalid");
    // Another site's page is no hint; Accept-Language decides.
    expect((await post("https://evil.example/en/x")).headers.get("location")).toBe("/forms/error?reason=invalid");
    expect((await post("not a url")).headers.get("location")).toBe("/forms/error?reason=invalid");
    // The body's locale field wins.
    expect((await post("http://localhost/en/about", { email: "", locale: "pt" })).headers.get("location")).toBe(
      "/forms/error?reason=invalid",
    );
  });

  it("stores the contact form without the optional company as NULL", async () => {
    const s = setup();
    const { company: _, ...rest } = CONTACT;
    expect((await call(s.contact, rest)).status).toBe(200);
    expect((await call(s.contact, { ...rest, company: "   " })).status).toBe(200);
    expect(s.rows("contact").map((r) => r.company)).toEqual([null, null]);
  });

  it("redirects plain form posts (JavaScript off) with 303 to the localised result page", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const cases: [ApiHandler, Record<string, string>, string][] = [
      [s.newsletter, { email: "p@x.com", locale: "pt" }, "/forms/newsletter-success"],
      [s.newsletter, { email: "e@x.com", locale: "en" }, "/en/forms/newsletter-success"],
      [s.contact, { ...CONTACT, locale: "pt" }, "/forms/contact-success"],
      [s.contact, { ...CONTACT, locale: "en" }, "/en/forms/contact-success"],
      [s.newsletter, { email: "", locale: "en" }, "/en/forms/error?reason=invalid"],
      [s.contact, { ...CONTACT, message: "", locale: "pt" }, "/forms/error?reason=invalid"],
    ];
    for (const [handler, body, location] of cases) {
      const r = await call(handler, body, { as: "form" });
      expect(r.status, location).toBe(303);
      expect(r.headers.get("location")).toBe(location);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
    }
    // No Accept at all (curl, fetch's */*): a urlencoded body is a form post.
    for (const accept of [null, "*/*"]) {
      const r = await call(
        s.newsletter,
        { email: `n${accept}@x.com` },
        { as: "form", accept, headers: { "accept-language": "en-GB" } },
      );
      expect(r.status).toBe(303);
      expect(r.headers.get("location")).toBe("/en/forms/newsletter-success");
    }
    expect(s.rows("newsletter").map((r) => r.email)).toEqual(["p@x.com", "e@x.com", "nnull@x.com", "n*/*@x.com"]);
    expect(s.rows("contact")).toHaveLength(2);
  });

  it("answers JSON to a urlencoded post that asks for JSON, and to a JSON post without Accept", async () => {
    const s = setup();
    const a = await call(s.newsletter, { email: "f@x.com" }, { as: "form", accept: "application/json" });
    expect(a.status).toBe(200);
    expect(a.json.ok).toBe(true);
    const b = await call(s.newsletter, { email: "" }, { accept: null });
    expect(b.status).toBe(422);
    expect(b.json.ok).toBe(false);
  });

  it("accepts a repeated newsletter address once and does not duplicate it", async () => {
    const s = setup();
    for (const email of ["ana@empresa.com.br", "ANA@Empresa.com.br", " ana@empresa.com.br"]) {
      const r = await call(s.newsletter, { email });
      expect(r.status).toBe(200);
      expect(r.json.ok).toBe(true);
    }
    expect(s.rows("newsletter")).toHaveLength(1);
  });
});

describe("body limits and formats", () => {
  it("refuses a declared Content-Length over the limit with 413 before reading", async () => {
    const s = setup();
    const r = await call(s.newsletter, JSON.stringify({ email: "a@x.com" }), {
      headers: { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) },
    });
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ ok: false, message: t("pt", "api.tooLarge") });
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(s.rows("newsletter")).toHaveLength(0);
  });

  it("refuses a body that is over the limit in fact (no or a lying Content-Length)", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const big = JSON.stringify({ email: "a@x.com", locale: "en", pad: "x".repeat(MAX_BODY_BYTES) });
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          const bytes = new TextEncoder().encode(big);
          for (let i = 0; i < bytes.length; i += 1000) c.enqueue(bytes.slice(i, i + 1000));
          c.close();
        },
      });
    // The body is not read, so its locale field cannot choose the language: the headers do.
    const chunked = await call(s.newsletter, stream(), {
      headers: { "content-type": "application/json", "accept-language": "en" },
    });
    expect(chunked.status).toBe(413);
    expect(chunked.json.message).toBe(t("en", "api.tooLarge"));
    const lying = await call(s.newsletter, big, {
      headers: { "content-type": "application/json", "content-length": "20" },
    });
    expect(lying.status).toBe(413);
    const form = await call(
      s.contact,
      { ...CONTACT, message: "x".repeat(MAX_BODY_BYTES), locale: "en" },
      { as: "form", headers: { referer: "http://localhost/en/contact" } },
    );
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/en/forms/error?reason=too-large");
    expect(s.rows("newsletter")).toHaveLength(0);
    expect(s.rows("contact")).toHaveLength(0);
  });

  it("accepts a body of exactly MAX_BODY_BYTES and refuses one byte more", async () => {
    const s = setup();
    const sized = (n: number) => {
      const base = JSON.stringify({ email: "edge@x.com", pad: "" });
      return JSON.stringify({ email: "edge@x.com", pad: "y".repeat(n - base.length) });
    };
    expect(new TextEncoder().encode(sized(MAX_BODY_BYTES)).length).toBe(MAX_BODY_BYTES);
    expect(
      (await call(s.newsletter, sized(MAX_BODY_BYTES + 1), { headers: { "content-type": "application/json" } })).status,
    ).toBe(413);
    expect(
      (await call(s.newsletter, sized(MAX_BODY_BYTES), { headers: { "content-type": "application/json" } })).status,
    ).toBe(200);
  });

  it("answers 400 for malformed JSON and for JSON that is not an object", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const bodies: (string | Uint8Array)[] = [
      '{"email":',
      "",
      "[]",
      '["a@x.com"]',
      "null",
      '"a@x.com"',
      "42",
      "true",
      "{'email':'a@x.com'}",
      new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    ];
    for (const body of bodies) {
      const r = await call(s.newsletter, body, {
        headers: { "content-type": "application/json; charset=utf-8", "accept-language": "en" },
      });
      expect(r.status, String(body)).toBe(400);
      expect(r.json).toEqual({ ok: false, message: t("en", "api.malformed") });
    }
    const html = await call(s.contact, "{nope", {
      accept: BROWSER_ACCEPT,
      headers: { "content-type": "application/json" },
    });
    expect(html.status).toBe(303);
    expect(html.headers.get("location")).toBe("/forms/error?reason=malformed");
  });

  it("answers 415 for other content types, even to a browser", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml", undefined]) {
      const headers: Record<string, string> = type ? { "content-type": type } : {};
      const r = await call(s.newsletter, "email=a@x.com", { headers });
      expect(r.status, type).toBe(415);
      expect(r.json.ok).toBe(false);
      const browser = await call(s.contact, "email=a@x.com", { headers, accept: BROWSER_ACCEPT });
      expect(browser.status).toBe(415);
      expect(browser.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    }
    expect(s.rows("newsletter")).toHaveLength(0);
  });

  it("answers 405 with Allow to other methods", async () => {
    const s = setup();
    for (const method of ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      for (const handler of [s.newsletter, s.contact]) {
        const r = await call(handler, method === "GET" || method === "HEAD" ? undefined : { email: "a@x.com" }, {
          method,
          headers: { "accept-language": "en" },
        });
        expect(r.status, method).toBe(405);
        expect(r.headers.get("allow")).toBe("POST");
        expect(r.headers.get("cache-control")).toBe("no-store");
        expect(r.json?.message ?? r.text.trim()).toBe(t("en", "api.method"));
      }
      const d = await call(s.detect, undefined, { method: method === "GET" || method === "HEAD" ? "POST" : method });
      expect(d.status).toBe(405);
      expect(d.headers.get("allow")).toBe("GET, HEAD");
    }
    const browser = await call(s.newsletter, undefined, { method: "GET", accept: BROWSER_ACCEPT });
    expect(browser.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(browser.text.trim()).toBe(t("pt", "api.method"));
  });
});

describe("validation", () => {
  it("gives the spec's messages for an empty newsletter email, in each language", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const en = await call(s.newsletter, { email: "", locale: "en" });
    expect(en.status).toBe(422);
    expect(en.json).toEqual({
      ok: false,
      message: "Please enter your email address",
      errors: { email: "Please enter your email address" },
    });
    const pt = await call(s.newsletter, { email: "   " }, { headers: { "accept-language": "pt-BR" } });
    expect(pt.status).toBe(422);
    expect(pt.json).toEqual({
      ok: false,
      message: "Por favor, insira um email válido.",
      errors: { email: "Por favor, insira um email válido." },
    });
    const missing = await call(s.newsletter, {}, { headers: { "accept-language": "en" } });
    expect(missing.json.errors.email).toBe("Please enter your email address");
    expect(s.rows("newsletter")).toHaveLength(0);
  });

  it("refuses invalid addresses with the invalid-email message", async () => {
    const s = setup({ rateLimitPerMinute: 1000 });
    const bad: unknown[] = [
      "plainaddress",
      "a@b",
      "a@b.c",
      "a b@x.com",
      "a@x .com",
      "<script>@x.com",
      "a@<x>.com",
      "Ana <ana@x.com>",
      "a@@x.com",
      ".a@x.com",
      "a.@x.com",
      "a..b@x.com",
      "a@-x.com",
      "a@x..com",
      "a@x.com\u0000",
      `${"a".repeat(65)}@x.com`,
      `a@${"b".repeat(250)}.com`,
      42,
      ["a@x.com"],
      { email: "a@x.com" },
      true,
    ];
    for (const email of bad) {
      const r = await call(s.newsletter, { email, locale: "en" });
      expect(r.status, JSON.stringify(email)).toBe(422);
      expect(r.json.errors).toEqual({ email: t("en", "newsletter.invalidEmail") });
    }
    expect(s.rows("newsletter")).toHaveLength(0);
    for (const good of [
      "a@x.co",
      "o'brien+news@empresa.com.br",
      "joão@exemplo.com.br",
      "a.b-c_d@sub.xn--p1ai",
      "UPPER@EXAMPLE.COM",
    ]) {
      expect(isValidEmail(good), good).toBe(true);
    }
  });

  it("gives a message per contact field, in Portuguese and English", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    for (const locale of ["pt", "en"] as const) {
      const r = await call(s.contact, { locale });
      expect(r.status).toBe(422);
      expect(r.json).toEqual({
        ok: false,
        message: t(locale, "api.invalid"),
        errors: {
          firstName: t(locale, "contactForm.errors.firstName"),
          lastName: t(locale, "contactForm.errors.lastName"),
          email: t(locale, "contactForm.errors.email"),
          message: t(locale, "contactForm.errors.message"),
        },
      });
    }
    const en = await call(s.contact, { ...CONTACT, email: "not-an-email", locale: "en" });
    expect(en.json.errors).toEqual({ email: "Enter a valid email address, such as name@company.com" });
    const pt = await call(s.contact, { ...CONTACT, firstName: " ", locale: "pt" });
    expect(pt.json.errors).toEqual({ firstName: "Informe o seu nome" });
    expect(s.rows("contact")).toHaveLength(0);
  });

  it("enforces the length limits, accepting values exactly at them", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const tooLong = t("en", "contactForm.errors.tooLong");
    const over = await call(s.contact, {
      firstName: "a".repeat(101),
      lastName: "b".repeat(101),
      email: `${"c".repeat(60)}@${"d".repeat(190)}.com`,
      company: "e".repeat(201),
      message: "f".repeat(5001),
      locale: "en",
    });
    expect(over.status).toBe(422);
    expect(over.json.errors).toEqual({
      firstName: tooLong,
      lastName: tooLong,
      email: t("en", "contactForm.errors.emailInvalid"),
      company: tooLong,
      message: tooLong,
    });
    const at = await call(s.contact, {
      firstName: "a".repeat(100),
      lastName: "b".repeat(100),
      // 64 + 1 + 189 = 254 characters, the longest address accepted.
      email: `${"c".repeat(64)}@${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(57)}.com`,
      company: "e".repeat(200),
      message: "f".repeat(5000),
    });
    expect(at.status).toBe(200);
    // Limits apply after trimming.
    expect((await call(s.contact, { ...CONTACT, firstName: `  ${"a".repeat(100)}  ` })).status).toBe(200);
    expect(s.rows("contact")).toHaveLength(2);
  });

  const acceptsStringsOnly =
    "accepts strings only: numbers, arrays, objects, booleans and repeated form fields get 422 for that field";
  it(acceptsStringsOnly, async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    for (const value of [123, ["Ana"], { first: "Ana" }, false]) {
      const r = await call(s.contact, { ...CONTACT, firstName: value, company: value, locale: "en" });
      expect(r.status, JSON.stringify(value)).toBe(422);
      expect(Object.keys(r.json.errors).sort()).toEqual(["company", "firstName"]);
    }
    const repeated = await s.contact(
      request("/api/contact", "firstName=Ana&firstName=Bia&lastName=S&email=a%40x.com&message=oi", {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        accept: JSON_ACCEPT,
      }),
    );
    expect(repeated.status).toBe(422);
    expect(Object.keys((await repeated.json()).errors)).toEqual(["firstName"]);
    expect(s.rows("contact")).toHaveLength(0);
  });

  it("refuses control characters other than tab and line breaks, and lone surrogates, with 422", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    for (const bad of ["Ana\u0000", "A\u0007na", "Ana\u001b[31m", "Ana\u007f", "Ana\u0085", "Ana\ud800"]) {
      const r = await call(s.contact, { ...CONTACT, message: bad, locale: "en" });
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.json.errors).toEqual({ message: t("en", "api.invalid") });
    }
    const ok = await call(s.contact, { ...CONTACT, message: "Linha 1\r\nLinha 2\n\tRecuo" });
    expect(ok.status).toBe(200);
    expect(s.rows("contact").map((r) => r.message)).toEqual(["Linha 1\r\nLinha 2\n\tRecuo"]);
  });

  it("stores injection strings, markup, emoji and right-to-left marks verbatim (bidi overrides aside)", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const hostile = {
      firstName: "Robert'); DROP TABLE contact;--",
      lastName: '" OR 1=1 --',
      email: "o'brien+test@empresa.com.br",
      company: "<script>alert('x')</script> & Cia",
      message: "Olá 👋🏽 \u202Egnp.exe\u202C \u200Fمرحبا\u200F\n%00 ${7*7} {{7*7}} \\x00 `rm -rf /`",
    };
    const r = await call(s.contact, hostile);
    expect(r.status).toBe(200);
    const news = await call(s.newsletter, { email: "x'--@evil.com" });
    expect(news.status).toBe(200);
    const [row] = s.rows("contact");
    expect(row).toMatchObject({
      first_name: hostile.firstName,
      last_name: hostile.lastName,
      email: hostile.email,
      company: hostile.company,
      // The override pair is removed (see the bidi test below); the right-to-left marks stay.
      message: hostile.message.replace("\u202Egnp.exe\u202C", "gnp.exe"),
    });
    expect(s.rows("newsletter").map((n) => n.email)).toEqual(["x'--@evil.com"]);
    // Both tables are still there.
    expect(s.rows("contact")).toHaveLength(1);
  });

  it("ignores prototype keys in JSON bodies", async () => {
    const s = setup();
    const r = await call(s.newsletter, '{"__proto__":{"email":"a@x.com"},"constructor":{"email":"b@x.com"}}', {
      headers: { "content-type": "application/json" },
      accept: JSON_ACCEPT,
    });
    expect(r.status).toBe(422);
    expect(s.rows("newsletter")).toHaveLength(0);
  });
});

describe("spam protection", () => {
  it("silently accepts a filled honeypot without storing anything", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const json = await call(s.newsletter, { email: "bot@x.com", website: "http://spam.example" });
    expect(json.status).toBe(200);
    expect(json.json).toEqual({
      ok: true,
      title: "Sucesso!",
      message: "Obrigado por se inscrever em nossa newsletter!",
    });
    const form = await call(s.contact, { ...CONTACT, website: "x", locale: "en" }, { as: "form" });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/en/forms/contact-success");
    // Even with invalid fields: a bot learns nothing.
    expect((await call(s.contact, { website: "x" })).status).toBe(200);
    expect(s.rows("newsletter")).toHaveLength(0);
    expect(s.rows("contact")).toHaveLength(0);
    // An empty honeypot is a person.
    expect((await call(s.newsletter, { email: "person@x.com", website: "" })).status).toBe(200);
    expect(s.rows("newsletter")).toHaveLength(1);
  });

  const quickFormsSuspect =
    "stores forms sent faster than minFillSeconds marked suspect (a person with autofill can be that fast); a " +
    "missing or odd startedAt is not suspect";
  it(quickFormsSuspect, async () => {
    const s = setup({ rateLimitPerMinute: 100, minFillSeconds: 2 });
    const fast = [s.now(), s.now() - 1999, String(s.now() - 500)];
    for (const startedAt of fast) {
      const r = await call(s.newsletter, { email: `fast${startedAt}@x.com`, startedAt });
      expect(r.status).toBe(200);
      expect(r.json.ok).toBe(true);
    }
    const form = await call(s.contact, { ...CONTACT, startedAt: String(s.now() - 100) }, { as: "form" });
    expect(form.headers.get("location")).toBe("/forms/contact-success");
    expect(s.rows("newsletter").map((r) => [r.email, r.suspect])).toEqual(fast.map((t) => [`fast${t}@x.com`, 1]));
    expect(s.rows("contact").map((r) => [r.email, r.suspect])).toEqual([[CONTACT.email, 1]]);

    // A timestamp ahead of the server's clock is a browser clock running fast, not a bot.
    for (const [i, startedAt] of [
      s.now() - 2000,
      String(s.now() - 60_000),
      undefined,
      "",
      "soon",
      null,
      { at: 1 },
      s.now() + 60_000,
    ].entries()) {
      expect((await call(s.newsletter, { email: `slow${i}@x.com`, startedAt })).status).toBe(200);
    }
    expect((await call(s.contact, CONTACT, { as: "form" })).headers.get("location")).toBe("/forms/contact-success");
    expect(s.rows("newsletter").filter((r) => r.suspect === 0)).toHaveLength(8);
    expect(s.rows("contact").map((r) => r.suspect)).toEqual([1, 0]);

    // The same address sent again at a person's pace clears the mark; a suspect repeat does not set it.
    expect((await call(s.newsletter, { email: `fast${fast[0]}@x.com` })).status).toBe(200);
    expect((await call(s.newsletter, { email: "slow0@x.com", startedAt: s.now() })).status).toBe(200);
    const byEmail = Object.fromEntries(s.rows("newsletter").map((r) => [r.email, r.suspect]));
    expect([byEmail[`fast${fast[0]}@x.com`], byEmail["slow0@x.com"], s.rows("newsletter").length]).toEqual([0, 0, 11]);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After past the limit per rolling minute, and resets as the clock moves", async () => {
    const s = setup({ rateLimitPerMinute: 5 });
    for (let i = 0; i < 5; i++) expect((await call(s.newsletter, { email: `r${i}@x.com` })).status).toBe(200);
    const refused = await call(s.newsletter, { email: "r5@x.com", locale: "en" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.json).toEqual({ ok: false, message: t("en", "api.rateLimited") });
    // The budget is per client, across both forms.
    expect((await call(s.contact, CONTACT)).status).toBe(429);
    expect((await call(s.newsletter, { email: "other@x.com" }, { remote: "198.51.100.9" })).status).toBe(200);

    s.advance(30_000);
    const later = await call(s.newsletter, { email: "r6@x.com" });
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("30");
    const form = await call(s.newsletter, { email: "r6@x.com", locale: "en" }, { as: "form" });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/en/forms/error?reason=rate-limited");

    s.advance(30_001);
    expect((await call(s.newsletter, { email: "r7@x.com" })).status).toBe(200);
    expect(s.rows("newsletter")).toHaveLength(7);
  });

  it("ignores X-Forwarded-For unless trustProxy is on", async () => {
    const off = setup({ rateLimitPerMinute: 2, trustProxy: false });
    const statuses = async (s: ReturnType<typeof setup>, xff: (i: number) => string, remote: (i: number) => string) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) {
        out.push(
          (
            await call(
              s.newsletter,
              { email: `t${i}@x.com` },
              { remote: remote(i), headers: { "x-forwarded-for": xff(i) } },
            )
          ).status,
        );
      }
      return out;
    };
    // Spoofed, rotating X-Forwarded-For from one socket: still one client.
    expect(
      await statuses(
        off,
        (i) => `10.0.0.${i}`,
        () => "203.0.113.7",
      ),
    ).toEqual([200, 200, 429, 429]);

    const on = setup({ rateLimitPerMinute: 2, trustProxy: true });
    // Behind the proxy every socket is the proxy; the first forwarded address is the client.
    expect(
      await statuses(
        on,
        (i) => `198.51.100.${i}, 10.0.0.1`,
        () => "10.0.0.1",
      ),
    ).toEqual([200, 200, 200, 200]);
    const same = setup({ rateLimitPerMinute: 2, trustProxy: true });
    expect(
      await statuses(
        same,
        () => "198.51.100.50, 10.0.0.1",
        (i) => `10.0.0.${i}`,
      ),
    ).toEqual([200, 200, 429, 429]);
    // Without the header it falls back to the socket address.
    const fallback = setup({ rateLimitPerMinute: 1, trustProxy: true });
    expect((await call(fallback.newsletter, { email: "f1@x.com" })).status).toBe(200);
    expect((await call(fallback.newsletter, { email: "f2@x.com" })).status).toBe(429);
    expect((await call(fallback.newsletter, { email: "f3@x.com" }, { remote: "::ffff:203.0.113.7" })).status).toBe(429);
  });

  it("keeps the limiter's memory bounded", () => {
    const limiter = new RateLimiter({ limit: 2, windowMs: 60_000, maxClients: 100 });
    for (let i = 0; i < 5000; i++) limiter.hit(`client-${i}`, T0 + i);
    expect(limiter.size).toBeLessThanOrEqual(100);
    limiter.hit("late", T0 + 5000 + 61_000);
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 50; i++) limiter.hit("busy", T0 + 100_000 + i);
    expect(limiter.hit("busy", T0 + 100_100)).toEqual({ allowed: false, retryAfter: 60 });
    expect(limiter.hit("busy", T0 + 160_000)).toEqual({ allowed: true, retryAfter: 0 });
  });
});

describe("cross-site posts", () => {
  const SITE_ORIGIN = new URL(SITE.siteUrl).origin;

  const refusesCrossSite =
    "refuses a post from another site with 403 in the visitor's language: JSON to fetch, the error page to a form";
  it(refusesCrossSite, async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const fetched = await call(
      s.newsletter,
      { email: "victim@x.com", locale: "en" },
      { headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } },
    );
    expect(fetched.status).toBe(403);
    expect(fetched.headers.get("cache-control")).toBe("no-store");
    expect(fetched.json).toEqual({
      ok: false,
      message: "This form can only be sent from our website. Open the page on our site and send it again.",
    });
    const pt = await call(s.contact, CONTACT, {
      headers: { origin: "https://evil.example", "accept-language": "pt-BR" },
    });
    expect(pt.status).toBe(403);
    expect(pt.json).toEqual({
      ok: false,
      message:
        "Por segurança, este formulário só pode ser enviado pelo nosso site. " +
        "Abra a página no site e envie de novo.",
    });
    // A plain form post (no JavaScript) from another site's page goes to the error page of its language.
    const form = await call(
      s.contact,
      { ...CONTACT, locale: "en" },
      { as: "form", headers: { origin: "https://evil.example" } },
    );
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/en/forms/error?reason=cross-site");
    // An opaque origin (a sandboxed frame, a page opened from a file), a sibling subdomain and a lookalike host.
    const foreign: Record<string, string>[] = [
      { origin: "null" },
      { origin: "null", "sec-fetch-site": "cross-site" },
      { origin: "https://blog.vetorai.com.br", "sec-fetch-site": "same-site" },
      { origin: `${SITE_ORIGIN}.evil.example` },
      { origin: "http://localhost.evil.example" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of foreign) {
      expect((await call(s.newsletter, { email: "victim@x.com" }, { headers })).status, JSON.stringify(headers)).toBe(
        403,
      );
    }
    expect(s.rows("newsletter")).toHaveLength(0);
    expect(s.rows("contact")).toHaveLength(0);
  });

  it("lets through the site's own pages, its siteUrl origin, and browsers that send neither header", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const allowed: Record<string, string>[] = [
      {},
      { origin: "http://localhost" },
      { origin: "http://localhost", "sec-fetch-site": "same-origin" },
      // The endpoint reached through a proxy that rewrote Host: the browser still says same-origin.
      { origin: "https://www.example.org", "sec-fetch-site": "same-origin" },
      // TLS ended at a proxy: the browser's https origin, the handler's http URL, one host.
      { origin: "https://localhost" },
      // The pages at siteUrl posting to this endpoint on another origin.
      { origin: SITE_ORIGIN, "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "none" },
    ];
    for (const [i, headers] of allowed.entries()) {
      const r = await call(s.newsletter, { email: `own${i}@x.com` }, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(200);
    }
    expect(s.rows("newsletter")).toHaveLength(allowed.length);
  });
});

describe("rate limit counts what is stored", () => {
  it("does not count invalid submissions against rateLimitPerMinute: typos never lock a visitor out", async () => {
    const s = setup({ rateLimitPerMinute: 3 });
    for (let i = 0; i < 6; i++) expect((await call(s.newsletter, { email: "ana@" })).status).toBe(422);
    expect((await call(s.contact, { ...CONTACT, email: "" })).status).toBe(422);
    expect((await call(s.newsletter, "{", { headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await call(s.newsletter, "x", { headers: { "content-type": "text/plain" } })).status).toBe(415);
    for (let i = 0; i < 3; i++) expect((await call(s.newsletter, { email: `ok${i}@x.com` })).status).toBe(200);
    const fourth = await call(s.contact, { ...CONTACT, locale: "en" });
    expect(fourth.status).toBe(429);
    expect(fourth.json).toEqual({ ok: false, message: t("en", "api.rateLimited") });
    expect(s.rows("newsletter")).toHaveLength(3);
    expect(s.rows("contact")).toHaveLength(0);
    // Over the limit, a typo still gets its own message, so the visitor can fix it while waiting.
    expect((await call(s.newsletter, { email: "", locale: "en" })).json.message).toBe(
      "Please enter your email address",
    );
  });

  it("caps invalid submissions on their own, at ten times the accepted limit per minute", async () => {
    const s = setup({ rateLimitPerMinute: 2 });
    // A GET is no submission: it counts against neither budget.
    for (let i = 0; i < 30; i++) expect((await call(s.newsletter, undefined, { method: "GET" })).status).toBe(405);
    for (let i = 0; i < 20; i++) expect((await call(s.newsletter, { email: `bad${i}` })).status, String(i)).toBe(422);
    const over = await call(s.newsletter, { email: "bad20", locale: "en" });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("60");
    expect(over.json).toEqual({ ok: false, message: t("en", "api.rateLimited") });
    // A client past that cap is a script probing the validator: its valid posts wait too.
    expect((await call(s.newsletter, { email: "good@x.com" })).status).toBe(429);
    expect((await call(s.newsletter, { email: "else@x.com" }, { remote: "198.51.100.9" })).status).toBe(200);
    s.advance(60_000);
    expect((await call(s.newsletter, { email: "good@x.com" })).status).toBe(200);
  });

  it("does not count a submission the store could not keep", async () => {
    let failing = true;
    const rows: unknown[] = [];
    const store = {
      async addNewsletter(entry: unknown) {
        if (failing) throw new Error("disk full");
        rows.push(entry);
        return "added" as const;
      },
      async addContact() {},
      async close() {},
    };
    const site: SiteConfig = { ...SITE, submissions: { ...SETTINGS, rateLimitPerMinute: 1 } };
    const api = createApiHandlers({ site, root: ROOT, messages: MESSAGES, now: () => T0, store });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const newsletter = api.handlers["/api/newsletter"];
    expect((await call(newsletter, { email: "a@x.com" })).status).toBe(503);
    expect((await call(newsletter, { email: "a@x.com" })).status).toBe(503);
    failing = false;
    expect((await call(newsletter, { email: "a@x.com" })).status).toBe(200);
    expect((await call(newsletter, { email: "b@x.com" })).status).toBe(429);
    expect(rows).toHaveLength(1);
  });
});

describe("body size follows the field limits", () => {
  /** The longest contact form the validators accept, every character a CJK one (3 bytes in UTF-8). */
  const longestChinese = () => ({
    firstName: "王".repeat(100),
    lastName: "李".repeat(100),
    // 64 + 1 + 63 + 1 + 63 + 1 + 58 + 1 + 2 = 254 characters.
    email: `${"邮".repeat(64)}@${"域".repeat(63)}.${"域".repeat(63)}.${"域".repeat(58)}.中国`,
    company: "公".repeat(200),
    message: "中".repeat(5000),
    locale: "en",
    startedAt: String(T0 - 600_000),
    website: "",
  });

  const acceptsLongestChinese =
    "accepts a 5,000-character Chinese message sent without JavaScript, every other field at its maximum";
  it(acceptsLongestChinese, async () => {
    const s = setup();
    const fields = longestChinese();
    expect(fields.email.length).toBe(254);
    const body = new URLSearchParams(fields).toString();
    expect(body.length).toBeGreaterThan(50_000);
    const r = await call(s.contact, body, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      accept: BROWSER_ACCEPT,
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/forms/contact-success");
    const [row] = s.rows("contact");
    expect((row.message as string).length).toBe(5000);
    expect(row.email).toBe(fields.email);
    // The same as JSON with every character escaped (\uXXXX, 6 bytes each) is accepted too.
    const escaped = JSON.stringify({ ...fields, email: "ana@x.com" }).replace(
      /[^\x00-\x7f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    expect((await call(s.contact, escaped, { headers: { "content-type": "application/json" } })).status).toBe(200);
  });

  it("refuses one character over the limit as too long, not too large", async () => {
    const s = setup();
    const body = new URLSearchParams({ ...longestChinese(), message: "中".repeat(5001) }).toString();
    const r = await call(s.contact, body, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      accept: JSON_ACCEPT,
    });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual({ message: t("en", "contactForm.errors.tooLong") });
  });
});

describe("addresses and invisible characters", () => {
  it("refuses addresses holding bidi controls, zero-width, other format or control characters", async () => {
    const s = setup({ rateLimitPerMinute: 1000 });
    const bad = [
      "ana\u202E@x.com",
      "\u202Emoc.x@ana",
      "ana\u202A@x.com",
      "ana\u2066@x.com",
      "ana\u2069@x.com",
      "an\u200Ba@x.com",
      "ana\u200C@x.com",
      "ana\u200D@x.com",
      "ana\u2060@x.com",
      "ana\uFEFFb@x.com",
      "ana\u00AD@x.com",
      "ana\u200E@x.com",
      "ana\u{E0041}@x.com",
      "ana\u0085@x.com",
      "ana\u3164@x.com",
    ];
    for (const email of bad) {
      const r = await call(s.newsletter, { email, locale: "en" });
      expect(r.status, JSON.stringify(email)).toBe(422);
      expect(r.json.errors).toEqual({ email: t("en", "newsletter.invalidEmail") });
      expect(isValidEmail(email), JSON.stringify(email)).toBe(false);
    }
    expect(s.rows("newsletter")).toHaveLength(0);
  });

  it("stores addresses trimmed and in NFC, so a decomposed spelling is the same subscriber", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    expect((await call(s.newsletter, { email: " jo\u00e3o@exemplo.com.br\u3000" })).status).toBe(200);
    expect((await call(s.newsletter, { email: "joa\u0303o@exemplo.com.br" })).status).toBe(200);
    expect(s.rows("newsletter").map((r) => r.email)).toEqual(["jo\u00e3o@exemplo.com.br"]);
    expect((await call(s.contact, { ...CONTACT, email: "Jose\u0301@exemplo.com" })).status).toBe(200);
    expect(s.rows("contact").map((r) => r.email)).toEqual(["Jos\u00e9@exemplo.com"]);
  });

  const stripsBidiControls =
    "strips bidi embedding, override and isolate controls from names and messages, keeping the visible text";
  it(stripsBidiControls, async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const r = await call(s.contact, {
      ...CONTACT,
      firstName: "\u202EAna\u202C",
      lastName: "Souza\u2067",
      company: "\u202B\u05E9\u05DC\u05D5\u05DD\u202C Ltda",
      message: "Fatura \u202Egnp.exe\u202C anexa \u2066ok\u2069 \u200F\u0645\u0631\u062D\u0628\u0627\u200F",
    });
    expect(r.status).toBe(200);
    expect(s.rows("contact")[0]).toMatchObject({
      first_name: "Ana",
      last_name: "Souza",
      company: "\u05E9\u05DC\u05D5\u05DD Ltda",
      // Right-to-left marks (U+200F) are no override: they stay.
      message: "Fatura gnp.exe anexa ok \u200F\u0645\u0631\u062D\u0628\u0627\u200F",
    });
    // A name that is nothing but controls is an empty name.
    const empty = await call(s.contact, { ...CONTACT, firstName: "\u202E\u202C", locale: "en" });
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({ firstName: t("en", "contactForm.errors.firstName") });
  });
});

describe("invalid UTF-8", () => {
  it("refuses form bodies whose percent-encoded bytes are not UTF-8, as JSON bodies are refused", async () => {
    const s = setup({ rateLimitPerMinute: 100 });
    const post = (body: string | Uint8Array, accept = JSON_ACCEPT) =>
      call(s.contact, body, {
        accept,
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      });
    const rest = "firstName=Ana&lastName=Souza&email=ana%40x.com";
    for (const body of [
      `${rest}&message=Ol%E1`,
      `${rest}&message=%C3%28`,
      `${rest}&message=trunc%E4%B8`,
      `${rest}&message=%ED%A0%80`,
      `${rest}&message=%C0%AE`,
      `${rest}&message=ok&m%FF=1`,
      `firstName=Ana&lastName=Souza&email=a%FF%40x.com&message=oi`,
    ]) {
      const r = await post(body);
      expect(r.status, body).toBe(400);
      expect(r.json).toEqual({ ok: false, message: t("en", "api.malformed") });
    }
    // Raw bytes that are not UTF-8, and the same answer as a JSON body with them.
    const raw = new Uint8Array([...new TextEncoder().encode(`${rest}&message=Ol`), 0xe1]);
    expect((await post(raw)).json).toEqual({ ok: false, message: t("en", "api.malformed") });
    const json = await call(
      s.contact,
      new Uint8Array([...new TextEncoder().encode('{"message":"Ol'), 0xe1, 0x22, 0x7d]),
      { headers: { "content-type": "application/json", "accept-language": "en" } },
    );
    expect([json.status, json.json]).toEqual([400, { ok: false, message: t("en", "api.malformed") }]);
    // Without JavaScript: the error page.
    const browser = await post(`${rest}&message=Ol%E1`, BROWSER_ACCEPT);
    expect(browser.headers.get("location")).toBe("/en/forms/error?reason=malformed");
    expect(s.rows("contact")).toHaveLength(0);

    // Valid percent-encoding, plus signs, and a stray % that is no escape are read as a browser reads them.
    expect((await post(`${rest}&message=Ol%C3%A1+%F0%9F%91%8B+100%25+%zz`)).status).toBe(200);
    expect(s.rows("contact").map((r) => r.message)).toEqual(["Olá 👋 100% %zz"]);
  });
});

describe("storage", () => {
  it("stores 50 concurrent submissions, every one acknowledged and in the database", async () => {
    const s = setup({ rateLimitPerMinute: 1000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? call(s.newsletter, { email: `c${i}@x.com` })
          : call(s.contact, { ...CONTACT, email: `c${i}@x.com`, message: `m${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const emails = [...s.rows("newsletter"), ...s.rows("contact")].map((r) => r.email).sort();
    expect(emails).toEqual(Array.from({ length: 50 }, (_, i) => `c${i}@x.com`).sort());
  });

  it("creates the database with its folder on first use, in WAL mode, readable by its owner only", async () => {
    const s = setup();
    expect((await call(s.newsletter, { email: "w@x.com" })).status).toBe(200);
    const db = openSqlite(s.database, { readonly: true });
    expect(pragmaValue(db, "journal_mode")).toBe("wal");
    db.close();
    expect(statSync(s.database).mode & 0o777).toBe(0o600);
  });

  it("answers 503 with the failure message when the database cannot be written, and keeps working", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-api-broken-"));
    folders.push(dir);
    writeFileSync(join(dir, "not-a-folder"), "");
    const s = setup({ database: join(dir, "not-a-folder", "submissions.db"), rateLimitPerMinute: 100 });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const news = await call(s.newsletter, { email: "a@x.com", locale: "en" });
    expect(news.status).toBe(503);
    expect(news.json).toEqual({ ok: false, message: "Failed to subscribe. Please try again." });
    const contact = await call(s.contact, { ...CONTACT, locale: "pt" });
    expect(contact.status).toBe(503);
    expect(contact.json).toEqual({ ok: false, message: t("pt", "contactForm.failure") });
    expect(contact.json.message).toContain(SITE.email);
    const form = await call(s.newsletter, { email: "a@x.com", locale: "en" }, { as: "form" });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/en/forms/error?reason=unavailable");
    expect(logged).toHaveBeenCalled();
    expect(String(logged.mock.calls[0][0])).toMatch(/could not store a newsletter submission/);
    // Validation still answers first.
    expect((await call(s.newsletter, { email: "" })).status).toBe(422);
  });

  it("closes the database on close()", async () => {
    const s = setup();
    expect((await call(s.newsletter, { email: "close@x.com" })).status).toBe(200);
    s.api.close();
    s.api.close();
    // The WAL was checkpointed into the file on close: a fresh reader sees the row.
    expect(s.rows("newsletter")).toHaveLength(1);
  });
});

describe("endpoints", () => {
  const mountsEndpointPaths =
    "mounts paths as they are and absolute http(s) URLs at their paths (that deployment answers them), nothing else";
  it(mountsEndpointPaths, () => {
    const s = setup(
      {},
      {
        newsletter: "https://forms.example.com/newsletter",
        contact: "//evil.example/contact",
        detectLanguage: "/lang",
      },
    );
    expect(Object.keys(s.api.handlers).sort()).toEqual(["/lang", "/newsletter"]);
    const other = setup(
      {},
      { newsletter: "ftp://forms.example.com/n", contact: "mailto:a@b.c", detectLanguage: "lang" },
    );
    expect(Object.keys(other.api.handlers)).toEqual([]);
    const d = setup();
    expect(Object.keys(d.api.handlers).sort()).toEqual(["/api/contact", "/api/detect-language", "/api/newsletter"]);
  });
});

describe("detect-language", () => {
  const ask = async (headers: Record<string, string>, method = "GET") => {
    const s = setup();
    const r = await s.detect(new Request("http://localhost/api/detect-language", { method, headers }));
    return r;
  };

  it("answers JSON with private caching and Vary", async () => {
    const r = await ask({ "accept-language": "pt-BR" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("private, max-age=300");
    // Origin too: a page of the site on another origin gets a CORS header that others do not.
    expect(r.headers.get("vary")).toBe("Accept-Language, CF-IPCountry, Origin");
    expect(await r.json()).toEqual({ language: "pt" });
    expect((await ask({}, "HEAD")).status).toBe(200);
  });

  it("follows a CDN country header first: Portuguese-speaking countries get pt", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "cf-ipcountry": "BR", "accept-language": "en-US" }, "pt"],
      [{ "cf-ipcountry": "pt" }, "pt"],
      [{ "cloudfront-viewer-country": "AO" }, "pt"],
      [{ "x-vercel-ip-country": "MZ" }, "pt"],
      [{ "x-country-code": "TL" }, "pt"],
      [{ "fastly-geo-country-code": "MO" }, "pt"],
      [{ "cf-ipcountry": "US", "accept-language": "pt-BR" }, "en"],
      [{ "x-vercel-ip-country": "DE" }, "en"],
      // Unknown placeholders fall through to the next signal.
      [{ "cf-ipcountry": "XX", "accept-language": "pt-BR" }, "pt"],
      [{ "cf-ipcountry": "T1", "x-vercel-ip-country": "BR" }, "pt"],
      [{ "cf-ipcountry": "<script>", "accept-language": "en" }, "en"],
    ];
    for (const [headers, language] of cases) {
      const r = await ask(headers);
      expect(await r.json(), JSON.stringify(headers)).toEqual({ language });
    }
  });

  it("applies the browser-language rule to Accept-Language, English when nothing matches", () => {
    const cases: [string | undefined, string][] = [
      ["pt-BR,pt;q=0.9,en-US;q=0.8", "pt"],
      ["pt-PT", "pt"],
      ["PT", "pt"],
      ["en-US,en;q=0.9", "en"],
      ["en-US,en;q=0.9,pt;q=0.1", "pt"],
      ["en-BR", "pt"],
      ["es-BR;q=0.5, en", "pt"],
      ["pt;q=0, en", "en"],
      ["fr-FR,de", "en"],
      ["*", "en"],
      ["", "en"],
      [";;;,,q=", "en"],
      [undefined, "en"],
    ];
    for (const [header, language] of cases) {
      const headers = new Headers(header === undefined ? {} : { "accept-language": header });
      expect(detectLanguage(headers), String(header)).toBe(language);
    }
    expect(localeFromAcceptLanguage(null)).toBeUndefined();
  });
});

describe("sitegen submissions", () => {
  const project = () => submissionsProject(".data/submissions.db", 100);
  /** The command as the CLI runs it in the project folder `root`. */
  const printSubmissions = (root: string, opts: { type?: string; format: string }) =>
    printWithContext(commandContext(root), opts);

  async function capture(run: () => Promise<void>): Promise<{ out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
    vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
    try {
      await run();
    } finally {
      vi.restoreAllMocks();
    }
    return { out: out.join("\n"), err: err.join("\n") };
  }

  /** A small RFC 4180 reader, to check the output parses back to the stored values. */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = "";
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
        else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ",") (row.push(field), (field = ""));
      else if (c === "\n") (row.push(field), rows.push(row), (row = []), (field = ""));
      else field += c;
    }
    row.push(field);
    rows.push(row);
    return rows;
  }

  it("says nothing was stored yet when there is no database, on stderr, without failing", async () => {
    const root = project();
    const { out, err } = await capture(() => printSubmissions(root, { format: "csv" }));
    expect(out).toBe("");
    expect(err).toMatch(/No submissions stored yet/);
  });

  it("refuses an unknown type or format with a hint listing the valid values", async () => {
    const root = project();
    const thrown = async (fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (error) {
        return error as SitegenError;
      }
      throw new Error("did not throw");
    };
    const type = await thrown(() => printSubmissions(root, { type: "orders", format: "csv" }));
    expect(type).toBeInstanceOf(SitegenError);
    expect(type.hint).toMatch(/newsletter/);
    expect(type.hint).toMatch(/contact/);
    const format = await thrown(() => printSubmissions(root, { format: "xml" }));
    expect(format).toBeInstanceOf(SitegenError);
    expect(format.hint).toMatch(/csv/);
    expect(format.hint).toMatch(/json/);
  });

  it("prints CSV with quoting of commas, quotes and line breaks, and JSON", async () => {
    const root = project();
    const site = loadSiteConfig(root);
    const api = createApiHandlers({ site, root, messages: MESSAGES, now: () => T0 });
    opened.push(api);
    const tricky = {
      firstName: 'Ana "Aninha"',
      lastName: "Souza, Jr.",
      email: "ana@x.com",
      company: '=HYPERLINK("x")',
      message: "Linha 1\nLinha 2, com vírgula",
    };
    expect((await call(api.handlers["/api/contact"], tricky)).status).toBe(200);
    expect((await call(api.handlers["/api/newsletter"], { email: "news@x.com", locale: "en" })).status).toBe(200);
    api.close();

    const contactCsv = parseCsv((await capture(() => printSubmissions(root, { type: "contact", format: "csv" }))).out);
    expect(contactCsv[0]).toEqual([
      "id",
      "first_name",
      "last_name",
      "email",
      "company",
      "message",
      "locale",
      "created_at",
      "suspect",
      "delivery",
      "delivery_attempts",
      "delivery_error",
    ]);
    expect(contactCsv[1]).toEqual([
      "1",
      tricky.firstName,
      tricky.lastName,
      "ana@x.com",
      `'${tricky.company}`,
      tricky.message,
      "pt",
      new Date(T0).toISOString(),
      "0",
      "none",
      "0",
      "",
    ]);
    expect(contactCsv).toHaveLength(2);

    const both = parseCsv((await capture(() => printSubmissions(root, { format: "csv" }))).out);
    expect(both[0]).toEqual([
      "type",
      "id",
      "created_at",
      "locale",
      "email",
      "first_name",
      "last_name",
      "company",
      "message",
      "suspect",
      "delivery",
      "delivery_attempts",
      "delivery_error",
      "confirmed_at",
      "bounced_at",
      "bounce_reason",
    ]);
    expect(both.slice(1).map((r) => [r[0], r[4]])).toEqual([
      ["newsletter", "news@x.com"],
      ["contact", "ana@x.com"],
    ]);

    const news = JSON.parse((await capture(() => printSubmissions(root, { type: "newsletter", format: "json" }))).out);
    expect(news).toEqual([
      {
        id: 1,
        email: "news@x.com",
        locale: "en",
        created_at: new Date(T0).toISOString(),
        suspect: 0,
        confirmed_at: new Date(T0).toISOString(),
        bounced_at: null,
        bounce_reason: null,
        delivery: "none",
        delivery_attempts: 0,
        delivery_error: null,
      },
    ]);
    const all = JSON.parse((await capture(() => printSubmissions(root, { format: "json" }))).out);
    expect(all.contact[0]).toMatchObject({
      first_name: tricky.firstName,
      company: tricky.company,
      message: tricky.message,
    });
    expect(all.newsletter).toHaveLength(1);
  });

  it("reads and migrates a database made before the suspect mark existed", async () => {
    const root = project();
    const site = loadSiteConfig(root);
    const file = join(root, submissionSettings(site, {}).database);
    mkdirSync(dirname(file), { recursive: true });
    const old = openSqlite(file);
    old.exec(
      "CREATE TABLE newsletter (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE, " +
        "locale TEXT NOT NULL, created_at TEXT NOT NULL);",
    );
    old
      .prepare("INSERT INTO newsletter (email, locale, created_at) VALUES (?, ?, ?)")
      .run("early@x.com", "pt", "2026-01-01T00:00:00.000Z");
    old.close();
    expect(
      JSON.parse((await capture(() => printSubmissions(root, { type: "newsletter", format: "json" }))).out),
    ).toEqual([
      {
        id: 1,
        email: "early@x.com",
        locale: "pt",
        created_at: "2026-01-01T00:00:00.000Z",
        suspect: 0,
        confirmed_at: "2026-01-01T00:00:00.000Z",
        bounced_at: null,
        bounce_reason: null,
        delivery: "none",
        delivery_attempts: 0,
        delivery_error: null,
      },
    ]);
    const api = createApiHandlers({ site, root, messages: MESSAGES, now: () => T0 });
    opened.push(api);
    expect((await call(api.handlers["/api/newsletter"], { email: "later@x.com", startedAt: T0 })).status).toBe(200);
    api.close();
    expect(
      JSON.parse((await capture(() => printSubmissions(root, { type: "newsletter", format: "json" }))).out).map(
        (r: { email: string; suspect: number }) => [r.email, r.suspect],
      ),
    ).toEqual([
      ["early@x.com", 0],
      ["later@x.com", 1],
    ]);
  });

  /** How a reader splitting on `;` sees the text (Excel's default in pt-BR): quotes count only at a cell's start. */
  function semicolonCells(text: string): string[] {
    const cells: string[] = [];
    let i = 0;
    while (i <= text.length) {
      let cell = "";
      if (text[i] === '"') {
        for (i++; i < text.length; i++) {
          if (text[i] === '"' && text[i + 1] === '"') ((cell += '"'), i++);
          else if (text[i] === '"') {
            i++;
            break;
          } else cell += text[i];
        }
      }
      for (; i < text.length && text[i] !== ";" && text[i] !== "\n"; i++) cell += text[i];
      cells.push(cell);
      i++;
    }
    return cells;
  }

  it("guards every cell a ;-separated reader would see: x;=1+1;y and a line break before =cmd", async () => {
    expect(csvField("x;=1+1;y")).toBe(`"x;'=1+1;y"`);
    expect(csvField("Olá\n=cmd")).toBe(`"Olá\n'=cmd"`);
    expect(csvField("a\r\n+1")).toBe(`"a\r\n'+1"`);
    expect(csvField("a\tb")).toBe(`"a\tb"`);
    expect(csvField("a;b")).toBe(`"a;b"`);

    const root = project();
    const api = createApiHandlers({ site: loadSiteConfig(root), root, messages: MESSAGES, now: () => T0 });
    opened.push(api);
    const hostile = {
      firstName: "Ana",
      lastName: "Souza;-2+3+cmd|' /C calc'!A0",
      email: "ana@x.com",
      company: "x;=1+1;y",
      message: "Olá,\n=cmd|' /C calc'!A0\n@SUM(1)",
    };
    expect((await call(api.handlers["/api/contact"], hostile)).status).toBe(200);
    expect((await call(api.handlers["/api/newsletter"], { email: "n@x.com" })).status).toBe(200);
    api.close();

    for (const type of ["contact", undefined]) {
      const out = (await capture(() => printSubmissions(root, { type, format: "csv" }))).out;
      expect(out).not.toMatch(/(^|[;\n])[=+\-@]/);
      for (const cell of semicolonCells(out)) expect(cell, JSON.stringify(out)).not.toMatch(/^[=+\-@\t\r]/);
    }
    // A comma-separated reader gets each field back whole, with the guards.
    const [, row] = parseCsv((await capture(() => printSubmissions(root, { type: "contact", format: "csv" }))).out);
    expect(row.slice(2, 6)).toEqual([
      "Souza;'-2+3+cmd|' /C calc'!A0",
      "ana@x.com",
      "x;'=1+1;y",
      "Olá,\n'=cmd|' /C calc'!A0\n'@SUM(1)",
    ]);
  });

  it("quotes CSV fields only when needed", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
    expect(csvField(null)).toBe("");
    expect(csvField(7)).toBe("7");
    expect(csvField("-1+1")).toBe("'-1+1");
    expect(csvField("@cmd")).toBe("'@cmd");
  });
});
