import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { submissionSettings } from "../../src/api/submission-settings.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { contentSecurityPolicy } from "../../src/generator/security-headers.ts";
import { ROOT } from "../helpers.ts";
import { d1Query, startPagesDev, type PagesDev } from "../wrangler.ts";

/**
 * `sitegen build --target cloudflare`, run for real: the site built into a temporary folder, served by
 * Cloudflare's local runtime (`wrangler pages dev`, the pinned wrangler and its workerd, offline), its forms
 * posted as the island posts them (JSON) and as a browser without JavaScript does (urlencoded), and the rows
 * read back from wrangler's local D1.
 */
const folder = mkdtempSync(join(tmpdir(), "sitegen-cloudflare-"));
const dist = join(folder, "dist");
const SITE = loadSiteConfig(ROOT, {}, {});
const PT = loadLocaleContent(ROOT, "pt", SITE).dictionary;
const EN = loadLocaleContent(ROOT, "en", SITE).dictionary;
let pages: PagesDev | undefined;

beforeAll(async () => {
  const build = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "sitegen.js"), "build", "--target", "cloudflare", "--out", dist],
    { cwd: ROOT, encoding: "utf8", timeout: 170_000 },
  );
  if (build.status !== 0)
    throw new Error(`sitegen build --target cloudflare failed:\n${build.stdout}\n${build.stderr}`);
  pages = await startPagesDev(folder);
});

afterAll(async () => {
  await pages?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const url = (path: string) => `${pages!.url}${path}`;
const post = (path: string, body: string, headers: Record<string, string>) =>
  fetch(url(path), { method: "POST", body, headers, redirect: "manual" });
const json = (client: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  accept: "application/json",
  "cf-connecting-ip": client,
  ...extra,
});
const form = (client: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/x-www-form-urlencoded",
  accept: "text/html",
  "cf-connecting-ip": client,
  ...extra,
});

describe("sitegen build --target cloudflare", () => {
  const writesWorkerAndRoutes =
    "writes the worker, the routes that send only the endpoints to it, and the wrangler configuration beside the " +
    "output";
  it(writesWorkerAndRoutes, () => {
    expect(existsSync(join(dist, "_worker.js"))).toBe(true);
    expect(existsSync(join(dist, "_sitegen"))).toBe(false);
    expect(existsSync(join(dist, "_redirects"))).toBe(false);
    expect(existsSync(join(dist, "en", "404.html"))).toBe(true);
    expect(JSON.parse(readFileSync(join(dist, "_routes.json"), "utf8"))).toEqual({
      version: 1,
      include: [
        "/api/contact",
        "/api/detect-language",
        "/api/newsletter",
        "/api/newsletter/issues",
        "/api/newsletter/unsubscribe",
      ],
      exclude: [],
    });
    const worker = readFileSync(join(dist, "_worker.js"), "utf8");
    // Node's modules only as ES imports, which workerd's nodejs_compat flag resolves (nodemailer's).
    expect(worker).not.toMatch(/require\(["']node:/);
    expect(worker).toMatch(/from\s*["']node:tls["']/);
    expect(worker).toContain("export {");

    const text = readFileSync(join(folder, "wrangler.jsonc"), "utf8");
    expect(text.startsWith("// Written by `sitegen build --target cloudflare`")).toBe(true);
    const config = JSON.parse(text.replace(/^\/\/.*\n/, ""));
    expect(config).toEqual({
      name: "vetorai-com-br",
      pages_build_output_dir: "./dist",
      compatibility_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      compatibility_flags: ["nodejs_compat"],
      d1_databases: [{ binding: "SUBMISSIONS", database_name: "vetorai-com-br-submissions" }],
    });
    // The workerd of wrangler 4.86.0 refuses later dates.
    expect(config.compatibility_date <= "2026-05-03").toBe(true);
  });

  it("stores a newsletter signup and a contact message sent as JSON, answering in the form's language", async () => {
    const signup = await post(
      "/api/newsletter",
      JSON.stringify({ email: "Leitora@Exemplo.com.br", locale: "pt" }),
      json("203.0.113.1"),
    );
    expect(signup.status).toBe(200);
    expect(await signup.json()).toEqual({
      ok: true,
      title: PT.get("newsletter.successTitle"),
      message: PT.get("newsletter.successMessage"),
    });
    const message = await post(
      "/api/contact",
      JSON.stringify({
        firstName: "Ana",
        lastName: "Souza",
        email: "ana@empresa.com.br",
        company: "Empresa",
        message: "Queremos um piloto de IA.",
        locale: "en",
      }),
      json("203.0.113.1"),
    );
    expect(message.status).toBe(200);
    expect(await message.json()).toEqual({
      ok: true,
      title: EN.get("contactForm.successTitle"),
      message: EN.get("contactForm.successMessage"),
    });
    expect(message.headers.get("cache-control")).toBe("no-store");

    expect(
      await d1Query(
        folder,
        "SELECT email, email_key, locale, suspect FROM newsletter WHERE email_key = 'leitora@exemplo.com.br'",
      ),
    ).toEqual([{ email: "Leitora@Exemplo.com.br", email_key: "leitora@exemplo.com.br", locale: "pt", suspect: 0 }]);
    expect(
      await d1Query(
        folder,
        "SELECT first_name, last_name, email, company, message, locale FROM contact WHERE email = 'ana@empresa.com.br'",
      ),
    ).toEqual([
      {
        first_name: "Ana",
        last_name: "Souza",
        email: "ana@empresa.com.br",
        company: "Empresa",
        message: "Queremos um piloto de IA.",
        locale: "en",
      },
    ]);
    // No notifier set in the project's variables and no double opt-in for this site: signups are final and
    // nothing is queued (cloudflare-delivery.test.ts sets them).
    expect(
      await d1Query(
        folder,
        "SELECT confirmed_at = created_at AS confirmed FROM newsletter WHERE email_key = 'leitora@exemplo.com.br'",
      ),
    ).toEqual([{ confirmed: 1 }]);
    expect(await d1Query(folder, "SELECT count(*) AS queued FROM outbox")).toEqual([{ queued: 0 }]);
  });

  const storesPlainForms =
    "stores the forms posted without JavaScript and redirects with 303 to the result page, which Pages serves";
  it(storesPlainForms, async () => {
    const signup = await post("/api/newsletter", "email=sem-js%40exemplo.com.br&locale=pt", form("203.0.113.2"));
    expect(signup.status).toBe(303);
    expect(signup.headers.get("location")).toBe("/forms/newsletter-success");
    const message = await post(
      "/api/contact",
      "firstName=Jo%C3%A3o&lastName=Lima&email=joao%40exemplo.com.br&message=Ol%C3%A1%2C+equipe&locale=en",
      form("203.0.113.2"),
    );
    expect(message.status).toBe(303);
    expect(message.headers.get("location")).toBe("/en/forms/contact-success");
    const page = await fetch(url(message.headers.get("location")!));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<h1>${EN.get("contactForm.successTitle")}</h1>`);

    const invalid = await post("/api/contact", "firstName=&email=nope&locale=pt", form("203.0.113.2"));
    expect([invalid.status, invalid.headers.get("location")]).toEqual([303, "/forms/error?reason=invalid"]);

    expect(await d1Query(folder, "SELECT email FROM newsletter WHERE email = 'sem-js@exemplo.com.br'")).toHaveLength(1);
    expect(
      await d1Query(folder, "SELECT first_name, message, locale FROM contact WHERE email = 'joao@exemplo.com.br'"),
    ).toEqual([{ first_name: "João", message: "Olá, equipe", locale: "en" }]);
  });

  it("refuses a cross-site post, storing nothing", async () => {
    const response = await post(
      "/api/newsletter",
      JSON.stringify({ email: "vitima@exemplo.com.br" }),
      json("203.0.113.3", { origin: "https://attacker.example", "sec-fetch-site": "cross-site" }),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).ok).toBe(false);
    expect(await d1Query(folder, "SELECT email FROM newsletter WHERE email = 'vitima@exemplo.com.br'")).toEqual([]);
  });

  it("answers CORS for the site's own origin only, for its pages served by another host", async () => {
    const preflight = (origin: string) =>
      fetch(url("/api/contact"), {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    const own = await preflight(SITE.siteUrl);
    expect([
      own.status,
      own.headers.get("access-control-allow-origin"),
      own.headers.get("access-control-allow-methods"),
    ]).toEqual([204, SITE.siteUrl, "POST"]);
    const other = await preflight("https://attacker.example");
    expect([other.status, other.headers.get("access-control-allow-origin")]).toEqual([403, null]);
    const signup = await post(
      "/api/newsletter",
      JSON.stringify({ email: "cors@exemplo.com.br" }),
      json("203.0.113.6", { origin: SITE.siteUrl, "sec-fetch-site": "cross-site" }),
    );
    expect([signup.status, signup.headers.get("access-control-allow-origin")]).toEqual([200, SITE.siteUrl]);
  });

  it("rate-limits by CF-Connecting-IP, whatever address header the client adds", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < submissionSettings(SITE, {}).rateLimitPerMinute + 1; i++) {
      const response = await post(
        "/api/newsletter",
        JSON.stringify({ email: `limite${i}@exemplo.com.br` }),
        json("203.0.113.4", { "x-sitegen-remote-address": `198.51.100.${i}` }),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(submissionSettings(SITE, {}).rateLimitPerMinute).fill(200), 429]);
    expect(
      (await post("/api/newsletter", JSON.stringify({ email: "outro@exemplo.com.br" }), json("203.0.113.5"))).status,
    ).toBe(200);
  });

  it("serves the pages with the build's headers and CSP, and adds them to the endpoints' answers", async () => {
    const csp = contentSecurityPolicy(SITE);
    const page = await fetch(url("/en/contact"));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(csp);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await page.text()).toContain('action="/api/contact"');
    const asset = (await fetch(url("/en/contact")).then((r) => r.text())).match(/href="(\/assets\/[^"]+\.css)"/)![1];
    expect((await fetch(url(asset))).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // Not-found pages without _redirects: Pages answers the nearest 404.html, with status 404.
    const missing = await fetch(url("/en/no-such-page"));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<html lang="en"');
    const api = await fetch(url("/api/newsletter"));
    expect(api.status).toBe(405);
    expect(api.headers.get("content-security-policy")).toBe(csp);
    const detect = await fetch(url("/api/detect-language"), { headers: { "accept-language": "en-US,en;q=0.9" } });
    expect(detect.status).toBe(200);
  });
});
