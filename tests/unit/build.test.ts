import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { buildSite, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { buildSummary } from "../../src/generator/pipeline/report.ts";
import { outputFileForPath } from "../../src/generator/pipeline/plan-pages.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { FORM_RESULTS } from "../../src/pages/routes.ts";
import { ROOT, jsonLdGraph, parseHtml, projectCopy, sitePlan, visibleText } from "../helpers.ts";

const SITE = "https://build-test.example.com.br";
let out: string;
let result: BuildResult;
const read = (file: string) => readFileSync(join(out, file), "utf8");
const page = (file: string) => parseHtml(read(file));
const config = loadSiteConfig(ROOT);
const { routes, articles } = await sitePlan();
const LOCALES = config.locales.map((l) => l.code);
const LANG: Record<string, string> = { pt: "pt-BR", en: "en" };
const OG: Record<string, string> = { pt: "pt_BR", en: "en_US" };
const text = Object.fromEntries(LOCALES.map((l) => [l, loadLocaleContent(ROOT, l, config).dictionary]));
const abs = (p: string) => (p === "/" ? `${SITE}/` : SITE + p);
const other = (locale: string) => (locale === "pt" ? "en" : "pt");

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-build-")), "dist");
  result = await buildSite({ root: projectCopy(), outDir: out, siteUrl: SITE });
});

const pages = routes.flatMap((route) => LOCALES.map((locale) => ({ route, locale, path: route.paths[locale] })));

describe("every route in both languages", () => {
  it.each(pages.map((p) => [p.path, p] as const))("%s", (_path, { route, locale, path }) => {
    const html = read(outputFileForPath(path));
    expect(html.startsWith("<!doctype html>")).toBe(true);
    const doc = parseHtml(html);
    const head = doc.querySelector("head")!;
    expect(doc.querySelector("html")!.getAttribute("lang")).toBe(LANG[locale]);

    expect(head.querySelector('link[rel="canonical"]')!.getAttribute("href")).toBe(abs(path));
    const alternates = head
      .querySelectorAll('link[rel="alternate"][hreflang]')
      .map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]);
    expect(alternates).toEqual([
      ["pt-BR", abs(route.paths.pt)],
      ["en", abs(route.paths.en)],
      ["x-default", abs(route.paths.pt)],
    ]);

    const metaKey = `meta.${route.id}`;
    const title = head.querySelector("title")!.textContent;
    expect(title).toBe(
      route.id === "home" ? text[locale].get(`${metaKey}.title`) : `${text[locale].get(`${metaKey}.title`)} | Vetor AI`,
    );
    expect(head.querySelector('meta[name="description"]')!.getAttribute("content")).toBe(
      text[locale].get(`${metaKey}.description`),
    );
    expect(head.querySelector('meta[property="og:locale"]')!.getAttribute("content")).toBe(OG[locale]);
    expect(head.querySelector('meta[property="og:locale:alternate"]')!.getAttribute("content")).toBe(OG[other(locale)]);
    expect(head.querySelector('meta[property="og:url"]')!.getAttribute("content")).toBe(abs(path));
    expect(head.querySelector('meta[name="twitter:card"]')).not.toBeNull();

    // The language switcher points at the counterpart page and names its language.
    const switcher = doc.querySelector("a.lang-switch")!;
    expect(switcher.getAttribute("href")).toBe(route.paths[other(locale)]);
    expect(switcher.getAttribute("hreflang")).toBe(LANG[other(locale)]);

    const graph = jsonLdGraph(doc);
    const types = graph.map((n) => n["@type"]);
    expect(types).toEqual(
      expect.arrayContaining([
        "Organization",
        "WebSite",
        route.schemaType === "Service" ? "WebPage" : route.schemaType,
      ]),
    );
    const org = graph.find((n) => n["@type"] === "Organization")!;
    expect([org.address.addressLocality, org.address.addressCountry]).toEqual(["São Paulo", "BR"]);

    const isHome = route.id === "home";
    expect(types.includes("BreadcrumbList")).toBe(!isHome);
    const trail = doc.querySelector("nav.breadcrumbs");
    if (isHome) {
      expect(trail).toBeNull();
    } else {
      expect(trail!.getAttribute("aria-label")).toBe(text[locale].get("a11y.breadcrumbs"));
      const items = trail!.querySelectorAll("li");
      const segments = path
        .replace(/^\/en(?=\/|$)/, "")
        .split("/")
        .filter(Boolean);
      expect(items).toHaveLength(segments.length + 1);
      expect(items[0].querySelector("a")!.getAttribute("href")).toBe(locale === "en" ? "/en" : "/");
      expect(items.at(-1)!.querySelector("a")).toBeNull();
      expect(items.at(-1)!.querySelector('[aria-current="page"]')).not.toBeNull();
      const list = graph.find((n) => n["@type"] === "BreadcrumbList")!;
      expect(list.itemListElement.map((i: { name: string }) => i.name)).toEqual(items.map((li) => li.textContent));
      expect(list.itemListElement[0].item).toBe(abs(locale === "en" ? "/en" : "/"));
    }
    // Speculation Rules in the page itself (no script needed): prefetch on intent, never the endpoints.
    const rules = JSON.parse(head.querySelector('script[type="speculationrules"]')!.rawText);
    expect(rules.prefetch[0].where).toEqual({ and: [{ href_matches: "/*" }, { not: { href_matches: "/api/*" } }] });
    expect(rules.prefetch[0].eagerness).toBe("moderate");
  });

  it("gives every page a unique title and description per language", () => {
    for (const locale of LOCALES) {
      const docs = pages.filter((p) => p.locale === locale).map((p) => page(outputFileForPath(p.path)));
      const titles = docs.map((d) => d.querySelector("title")!.textContent);
      const descriptions = docs.map((d) => d.querySelector('meta[name="description"]')!.getAttribute("content"));
      expect(new Set(titles).size).toBe(titles.length);
      expect(new Set(descriptions).size).toBe(descriptions.length);
    }
  });
});

describe("spec §9 marketing figures, on the page they belong to, in both languages", () => {
  const FIGURES = {
    results: {
      en: [
        "40% less downtime",
        "30% lower maintenance cost",
        "99.5% defect detection accuracy",
        "50% faster inspection",
        "25% less inventory",
        "20% higher throughput",
        "30% lower delivery costs",
        "35% fewer stockouts",
        "15% better diagnostic accuracy",
        "30% faster drug discovery",
        "95% imaging accuracy",
        "40% faster patient recruitment",
      ],
      // Portuguese words the figures its own way; every number is there, with the decimal comma.
      pt: ["40%", "30%", "99,5%", "50%", "25%", "20%", "35%", "15%", "95%"],
    },
    about: {
      en: ["US$25 million P&L", "from 200 to 700+ people", "245-person consultancy", "US$36M raised", "300+ people"],
      pt: ["US$ 25 milhões", "de 200 para mais de 700 pessoas", "245 pessoas", "US$ 36 milhões", "mais de 300 pessoas"],
    },
  };
  it.each(
    Object.entries(FIGURES).flatMap(([name, byLocale]) =>
      Object.entries(byLocale).map(([locale, figures]) => [name, locale, figures] as const),
    ),
  )("%s (%s)", (name, locale, figures) => {
    const shown = visibleText(page(locale === "en" ? `en/${name}.html` : `${name}.html`));
    expect(figures.filter((f) => !shown.includes(f))).toEqual([]);
  });

  const unroutedSectorsWhole =
    "shows manufacturing and healthcare, which have no page of their own, whole on the industries page: challenges, " +
    "solutions and use cases";
  it(unroutedSectorsWhole, () => {
    for (const locale of LOCALES) {
      const shown = visibleText(page(locale === "en" ? "en/industries.html" : "industries.html"));
      const titles = [...text[locale].keys()].filter((k) =>
        /^industries\.(manufacturing|healthcare)\.(challenge|solution|useCase)\d+\.title$/.test(k),
      );
      expect(titles.filter((k) => k.includes(".solution")).length).toBeGreaterThanOrEqual(8);
      expect(titles.filter((k) => !shown.includes(text[locale].get(k)!))).toEqual([]);
    }
  });

  it("shows no text that is a content key on any page", () => {
    const keys = new Set(LOCALES.flatMap((l) => [...text[l].keys()]));
    const suspicious = result.pages.flatMap((p) =>
      visibleText(page(p.file))
        .split(" ")
        .filter((word) => keys.has(word))
        .map((k) => `${p.file}: ${k}`),
    );
    expect(suspicious).toEqual([]);
  });
});

describe("special pages and files", () => {
  it("writes both not-found pages, not indexable, in their language", () => {
    for (const [file, locale] of [
      ["404.html", "pt"],
      ["en/404.html", "en"],
    ]) {
      const doc = page(file);
      expect(doc.querySelector("html")!.getAttribute("lang")).toBe(LANG[locale]);
      expect(doc.querySelector('meta[name="robots"]')!.getAttribute("content")).toBe("noindex");
      expect(doc.querySelector("h1")!.textContent).toBe(text[locale].get("notFound.title"));
    }
  });

  it("never lets a page without a route pass for the home page it is rendered from", () => {
    for (const file of [
      "404.html",
      "en/404.html",
      "500.html",
      "forms/newsletter-success.html",
      "en/forms/error.html",
    ]) {
      const doc = page(file);
      expect(doc.querySelector('meta[property="og:url"]'), file).toBeNull();
      expect(doc.querySelector('link[rel="canonical"]'), file).toBeNull();
      expect(doc.querySelector("a.brand")!.getAttribute("aria-current"), file).toBeUndefined();
      const webPage = jsonLdGraph(doc).find((node) => node["@type"] === "WebPage")!;
      expect([webPage["@id"], webPage.url], file).toEqual([undefined, undefined]);
    }
    // The real home page keeps all of it.
    expect(page("index.html").querySelector("a.brand")!.getAttribute("aria-current")).toBe("page");
    expect(page("index.html").querySelector('meta[property="og:url"]')).not.toBeNull();
  });

  it("writes an error page titled 'Unexpected Application Error!' with a status", () => {
    for (const file of ["500.html", "en/500.html"]) {
      const main = page(file).querySelector("main")!;
      expect(main.querySelector("h1")!.textContent).toBe("Unexpected Application Error!");
      expect(main.querySelector(".error-detail")!.textContent).toMatch(/: 500$/);
    }
  });

  it("writes a sitemap with every page and its hreflang trio, and a robots.txt naming it", () => {
    const xml = parseHtml(read("sitemap.xml"));
    const urls = xml.querySelectorAll("url");
    expect(urls).toHaveLength(routes.length * 2 + articles.reduce((n, a) => n + Object.keys(a.paths).length, 0));
    for (const route of routes) {
      for (const locale of LOCALES) {
        const entry = urls.find((u) => u.querySelector("loc")!.textContent === abs(route.paths[locale]))!;
        expect(entry, route.paths[locale]).toBeDefined();
        const links = entry
          .querySelectorAll("*")
          .filter((el) => el.rawTagName === "xhtml:link")
          .map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`);
        expect(links).toEqual([
          `pt-BR ${abs(route.paths.pt)}`,
          `en ${abs(route.paths.en)}`,
          `x-default ${abs(route.paths.pt)}`,
        ]);
      }
    }
    expect(read("robots.txt")).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it("writes host files: security headers and the English not-found rule", () => {
    const headers = read("_headers");
    expect(headers).toMatch(/Content-Security-Policy: [^\n]*script-src 'self'/);
    expect(headers).not.toMatch(/script-src[^;\n]*unsafe-inline/);
    expect(headers).toContain("X-Content-Type-Options: nosniff");
    expect(headers).toContain("frame-ancestors 'none'");
    expect(read("_redirects")).toBe("/en/*  /en/404.html  404\n");
  });

  it("writes one hashed, minified stylesheet, and the files of public/ as they are", () => {
    const css = result.assets.find((a) => a.file.endsWith(".css"))!;
    expect(css.file).toMatch(/^assets\/site\.[0-9a-f]{10}\.css$/);
    expect(read(css.file)).not.toMatch(/\n\s+/);
    expect(read("favicon.svg")).toBe(readFileSync(join(ROOT, "public", "favicon.svg"), "utf8"));
  });

  it("cross-fades full page loads with a view transition, only when motion is welcome", () => {
    const css = read(result.assets.find((a) => a.file.endsWith(".css"))!.file);
    const motion = css.match(/@media \(prefers-reduced-motion:no-preference\)\{(.*?)\}\}/g)?.join("") ?? "";
    expect(motion).toContain("@view-transition{navigation:auto}");
    expect(motion).toMatch(/main\{transition:opacity \.2s/);
    expect(css.replace(/@media \(prefers-reduced-motion:no-preference\)\{.*?\}\}/g, "")).not.toContain(
      "@view-transition",
    );
  });

  it("gives every page the navigation island's skeleton and error templates in its language", () => {
    for (const [file, loading, status] of [
      ["about.html", "Carregando a página…", "Código de status"],
      ["en/about.html", "Loading the page…", "Status code"],
    ]) {
      const doc = page(file);
      const skeleton = parseHtml(doc.querySelector('template[data-nav-template="skeleton"]')!.innerHTML);
      expect(skeleton.querySelector(".visually-hidden")!.textContent).toBe(loading);
      expect(skeleton.querySelectorAll("[data-skeleton-card]")).toHaveLength(6);
      expect(skeleton.querySelectorAll("[data-skeleton-column]")).toHaveLength(4);
      const error = parseHtml(doc.querySelector('template[data-nav-template="error"]')!.innerHTML);
      expect(error.querySelector("h1")!.textContent).toBe("Unexpected Application Error!");
      expect(error.querySelector("[data-error-detail]")!.getAttribute("data-status-label")).toBe(status);
    }
  });

  it("reports pages per locale, sizes and every stage", () => {
    const ptArticles = articles.filter((a) => a.paths.pt).length;
    // routes, articles, not-found, error and each form result
    const special = 2 + Object.keys(FORM_RESULTS).length;
    expect(result.pages.filter((p) => p.locale === "pt")).toHaveLength(routes.length + ptArticles + special);
    expect(Object.keys(result.timings)).toEqual([
      "content",
      "bundle",
      "collections",
      "images",
      "plan",
      "render",
      "links",
      "write",
    ]);
    const summary = buildSummary({ ...result, outDir: out });
    const perLocale = (l: string) => routes.length + articles.filter((a) => a.paths[l]).length + special;
    expect(summary).toMatch(
      new RegExp(`^Built ${result.pages.length} pages \\(pt ${perLocale("pt")}, en ${perLocale("en")}\\) into `),
    );
    // The page named is the largest one, whichever page that is as the content grows.
    const largest = result.pages.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    expect(largest.bytes).toBe(statSync(join(out, largest.file)).size);
    expect(summary).toMatch(
      new RegExp(`largest page ${largest.file.replace(/\./g, "\\.")}, [\\d.]+ KB \\([\\d.]+ KB brotli\\)`),
    );
    // Text assets with what brotli makes of them; the font, compressed in its own format, as it is sent.
    expect(summary).toMatch(/\n  assets\/site\.[0-9a-f]+\.css [\d.]+ KB \([\d.]+ KB brotli\)\n/);
    expect(summary).toMatch(/\n  assets\/[\w.-]+\.woff2 [\d.]+ KB \(sent as it is\)\n/);
    // Each figure is its own file's, compressed as precompressed files are (brotli's best quality).
    const brotliKb = (data: Uint8Array) => `${(brotliCompressSync(data).byteLength / 1024).toFixed(1)} KB brotli`;
    for (const asset of result.assets.filter((a) => /\.(css|js)$/.test(a.file)))
      expect(summary).toContain(
        `  ${asset.file} ${(asset.code.byteLength / 1024).toFixed(1)} KB (${brotliKb(asset.code)})\n`,
      );
    expect(summary).toContain(`(${brotliKb(readFileSync(join(out, largest.file)))})`);
    expect(summary).toMatch(
      new RegExp(
        /stages: content \d+ ms, bundle \d+ ms, collections \d+ ms, images \d+ ms, /.source +
          /plan \d+ ms, render \d+ ms, links \d+ ms, write \d+ ms/.source,
      ),
    );
    expect(summary).toMatch(
      new RegExp(
        `\n  images: ${result.images.count} sources, ${result.images.encoded} encoded, ` +
          `${result.images.count - result.images.encoded} from the cache\n`,
      ),
    );
  });

  it("has the flat layout hosts need", () => {
    for (const f of ["index.html", "en.html", "about.html", "en/about.html", "404.html", "en/404.html"])
      expect(existsSync(join(out, f))).toBe(true);
    expect(existsSync(join(out, "about", "index.html"))).toBe(false);
  });

  it("writes no compressed twins unless asked (static hosts compress by themselves), and counts every file", () => {
    const all = readdirSync(out, { recursive: true }).map(String);
    expect(all.filter((f) => /\.(br|gz)$/.test(f))).toEqual([]);
    expect(result.files).toBe(all.filter((f) => statSync(join(out, f)).isFile()).length);
  });
});

describe("the legal pages", () => {
  it.each([
    "privacy-policy.html",
    "terms-of-service.html",
    "cookie-policy.html",
    "en/privacy-policy.html",
    "en/terms-of-service.html",
    "en/cookie-policy.html",
  ])("%s: every e-mail address in the text is a link that writes to it", (file) => {
    const main = page(file).querySelector("main")!;
    const addresses = visibleText(main).match(/[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/g) ?? [];
    const links = main.querySelectorAll('a[href^="mailto:"]').map((a) => `${a.getAttribute("href")} ${a.text}`);
    // Each legal page tells the visitor where to write.
    expect(addresses).not.toEqual([]);
    expect(addresses.filter((address) => !links.includes(`mailto:${address} ${address}`))).toEqual([]);
  });

  it.each(["privacy-policy.html", "en/privacy-policy.html"])("%s gives the privacy address of site.yaml", (file) => {
    const main = page(file).querySelector("main")!;
    expect(main.querySelectorAll('a[href^="mailto:"]').map((a) => a.getAttribute("href"))).toContain(
      `mailto:${config.privacyEmail}`,
    );
    expect(visibleText(main)).toContain(String(config.privacyEmail));
  });
});

describe("the illustrations (issue 40: art with a purpose per kind of page)", () => {
  const art = (file: string) => page(file).querySelector("main svg.illustration");
  const drawingPerSubject =
    "gives each sector and each service line a drawing of its own subject, and each other kind of page its own";
  it(drawingPerSubject, () => {
    const sectors = ["financial-services", "energy", "retail", "agriculture", "education", "professional"].map((s) =>
      art(`industries/${s}.html`)!.toString(),
    );
    const lines = ["advisory", "implementation", "managed"].map((l) => art(`services/${l}.html`)!.toString());
    const kinds = [
      "index.html",
      "services.html",
      "technologies.html",
      "industries.html",
      "about.html",
      "insights.html",
      "results.html",
      "contact.html",
    ].map((f) => art(f)!.toString());
    const all = [...sectors, ...lines, ...kinds];
    expect(new Set(all).size).toBe(all.length);
    for (const svg of all) expect(svg).toMatch(/aria-hidden="true"/);
    // The same drawing in both languages: it carries no words.
    expect(art("en/industries/energy.html")!.toString()).toBe(sectors[1]);
  });

  it("leaves the old single motif behind: no dot grid, no arrow mark over every heading", () => {
    for (const p of result.pages) {
      const html = read(p.file);
      expect(html, p.file).not.toMatch(/class="(hv-grid|hv-vector|divider)"/);
    }
  });

  it("draws the not-found, error and form result pages' quiet visuals, each for what happened", () => {
    const quiet = (file: string) => page(file).querySelector("main svg.illustration-quiet")!.getAttribute("data-art");
    expect(
      ["404.html", "500.html", "forms/contact-success.html", "forms/newsletter-pending.html", "forms/error.html"].map(
        quiet,
      ),
    ).toEqual(["notFound", "serverError", "sent", "waiting", "failed"]);
  });
});
