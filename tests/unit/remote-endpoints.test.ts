import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiHandlers } from "../../src/api/index.ts";
import { SqliteSubmissionStore } from "../../src/api/sqlite-store.ts";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { compileEndpoints } from "../../src/generator/endpoints.ts";
import { cloudflareTarget } from "../../src/generator/targets/cloudflare.ts";
import { attr, parseHtml, projectCopy, ROOT } from "../helpers.ts";

/**
 * Pages on a host with no functions (GitHub Pages, S3 + CloudFront), forms posting to the endpoints
 * deployed on another origin: site.yaml's endpoints are absolute URLs there. The pages' Content-Security-
 * Policy names that origin, and the endpoints answer CORS, and send a form post back to the pages, for the
 * site's own origin only.
 */
const PAGES = "https://www.vetorai.com.br";
const API = "https://forms.vetorai.example";
const ENDPOINTS = {
  newsletter: `${API}/api/newsletter`,
  contact: `${API}/api/contact`,
  detectLanguage: `${API}/api/detect-language`,
};
const BASE = loadSiteConfig(ROOT, {}, {});
/** Folders this file makes, removed at the end. */
const made: string[] = [];
const temporary = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", BASE).dictionary,
  en: loadLocaleContent(ROOT, "en", BASE).dictionary,
};

describe("a build whose endpoints are on another origin", () => {
  let project: string;
  let dist: string;
  beforeAll(async () => {
    project = projectCopy();
    made.push(project);
    const file = join(project, "content", "site.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8")
        .replace("newsletter: /api/newsletter", `newsletter: ${ENDPOINTS.newsletter}`)
        .replace("contact: /api/contact", `contact: ${ENDPOINTS.contact}`)
        .replace("detectLanguage: /api/detect-language", `detectLanguage: ${ENDPOINTS.detectLanguage}`),
    );
    dist = join(temporary("sitegen-remote-"), "dist");
    await buildSite({ root: project, outDir: dist });
  });

  it("names that origin in the Content-Security-Policy's connect-src and form-action, and nothing else", () => {
    const csp = readFileSync(join(dist, "_headers"), "utf8").match(/Content-Security-Policy: (.*)/)![1];
    const directives = Object.fromEntries(
      csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]),
    );
    expect(directives["connect-src"]).toBe(`'self' ${API}`);
    expect(directives["form-action"]).toBe(`'self' ${API}`);
    expect(directives["default-src"]).toBe("'self'");
    expect(directives["script-src"]).not.toContain(API);
  });

  it("points the forms (with and without JavaScript) and the language detection at the absolute URLs", () => {
    const contact = readFileSync(join(dist, "en", "contact.html"), "utf8");
    expect(attr(contact, /<form class="contact-form"[^>]*>/, "action")).toBe(ENDPOINTS.contact);
    expect(attr(contact, /<form class="newsletter-form"[^>]*>/, "action")).toBe(ENDPOINTS.newsletter);
    const props = (html: string, island: string) =>
      JSON.parse(parseHtml(html).querySelector(`[data-island="${island}"]`)!.getAttribute("data-props")!);
    expect(props(contact, "contact-form").endpoint).toBe(ENDPOINTS.contact);
    expect(props(contact, "newsletter").endpoint).toBe(ENDPOINTS.newsletter);
    expect(props(readFileSync(join(dist, "index.html"), "utf8"), "language-detection").endpoint).toBe(
      ENDPOINTS.detectLanguage,
    );
  });

  it("gives the Cloudflare worker those endpoints' paths, for the deployment at that origin", async () => {
    const apiCode = await compileEndpoints(project);
    const target = await cloudflareTarget({
      root: project,
      outDir: join(project, "dist"),
      site: loadSiteConfig(project, {}, {}),
      dictionaries: {},
      apiCode,
    });
    const routes = JSON.parse(target.outputFiles.find((f) => f.file === "_routes.json")!.data);
    expect(routes.include).toEqual([
      "/api/contact",
      "/api/detect-language",
      "/api/newsletter",
      "/api/newsletter/issues",
      "/api/newsletter/unsubscribe",
    ]);
  });
});

describe("endpoints serving pages on another origin", () => {
  const site: SiteConfig = {
    ...BASE,
    siteUrl: PAGES,
    endpoints: ENDPOINTS,
    submissions: { ...(BASE.submissions as object), rateLimitPerMinute: 100 },
  };
  const root = temporary("sitegen-remote-api-");
  const api = createApiHandlers({
    site: { ...site, submissions: { ...(site.submissions as object), database: join(root, "submissions.db") } },
    root,
    messages: MESSAGES,
    env: {},
  });
  afterAll(() => api.close());
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> }) =>
    api.handlers[path](new Request(`${API}${path}`, init));

  it("mounts the handlers at the paths of the absolute URLs", () => {
    expect(Object.keys(api.handlers).sort()).toEqual(["/api/contact", "/api/detect-language", "/api/newsletter"]);
  });

  it("answers the preflight of the site's own origin, and refuses any other", async () => {
    const preflight = (origin: string) =>
      call("/api/contact", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    const own = await preflight(PAGES);
    expect(own.status).toBe(204);
    expect(own.headers.get("access-control-allow-origin")).toBe(PAGES);
    expect(own.headers.get("access-control-allow-methods")).toBe("POST");
    expect(own.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    expect(own.headers.get("access-control-allow-credentials")).toBeNull();
    expect(own.headers.get("vary")).toBe("Origin");
    const other = await preflight("https://attacker.example");
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets the site's island read the JSON answer, and no other origin's script", async () => {
    const post = (origin: string, email: string) =>
      call("/api/newsletter", {
        method: "POST",
        headers: {
          origin,
          "sec-fetch-site": "cross-site",
          "content-type": "application/json",
          accept: "application/json",
        },
        body: JSON.stringify({ email, locale: "en" }),
      });
    const own = await post(PAGES, "leitor@exemplo.com.br");
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe(PAGES);
    expect(own.headers.get("vary")).toContain("Origin");
    expect((await own.json()).title).toBe(MESSAGES.en.get("newsletter.successTitle"));
    const other = await post("https://attacker.example", "vitima@exemplo.com.br");
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const detect = await call("/api/detect-language", { headers: { origin: PAGES, "accept-language": "pt-BR" } });
    expect([detect.status, detect.headers.get("access-control-allow-origin")]).toEqual([200, PAGES]);
    expect(await detect.json()).toEqual({ language: "pt" });
  });

  it("sends a form posted without JavaScript back to the result page on the pages' origin", async () => {
    const form = (headers: Record<string, string>, body: string) =>
      call("/api/contact", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
        body,
        redirect: "manual",
      });
    const ok = await form(
      { origin: PAGES },
      "firstName=Ana&lastName=Souza&email=ana%40exemplo.com.br&message=Ol%C3%A1&locale=en",
    );
    expect([ok.status, ok.headers.get("location")]).toEqual([303, `${PAGES}/en/forms/contact-success`]);
    const invalid = await form({ origin: PAGES }, "firstName=Ana&locale=pt");
    expect([invalid.status, invalid.headers.get("location")]).toEqual([303, `${PAGES}/forms/error?reason=invalid`]);
    // An old browser that sends no Origin: the pages are where siteUrl says.
    const old = await form({}, "firstName=Bia&lastName=Lima&email=bia%40exemplo.com.br&message=Oi&locale=pt");
    expect([old.status, old.headers.get("location")]).toEqual([303, `${PAGES}/forms/contact-success`]);
    const store = new SqliteSubmissionStore(join(root, "submissions.db"));
    expect((await store.list("contact")).map((r) => [r.email, r.locale])).toEqual([
      ["ana@exemplo.com.br", "en"],
      ["bia@exemplo.com.br", "pt"],
    ]);
    await store.close();
  });
});

describe("endpoints beside their pages", () => {
  it("add no CORS header and redirect to a path, as before", async () => {
    const root = temporary("sitegen-local-api-");
    const api = createApiHandlers({
      site: { ...BASE, submissions: { ...(BASE.submissions as object), database: join(root, "s.db") } },
      root,
      messages: MESSAGES,
      env: {},
    });
    const response = await api.handlers["/api/newsletter"](
      new Request("http://127.0.0.1:4321/api/newsletter", {
        method: "POST",
        headers: { origin: "http://127.0.0.1:4321", "content-type": "application/x-www-form-urlencoded" },
        body: "email=a%40exemplo.com.br",
      }),
    );
    expect([
      response.status,
      response.headers.get("location"),
      response.headers.get("access-control-allow-origin"),
    ]).toEqual([303, "/forms/newsletter-success", null]);
    await api.close();
  });
});
