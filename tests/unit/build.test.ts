import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite, type BuildResult } from "../../src/generator/build.ts";
import { routes, LOCALES, outputFileForPath, counterpartPath } from "../../src/generator/routes.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { ROOT, attr, decodeEntities } from "../helpers.ts";

const SITE = "https://build-test.example.com.br";
let out: string;
let result: BuildResult;
const read = (file: string) => readFileSync(join(out, file), "utf8");
const site = loadSiteConfig(ROOT);
const text = Object.fromEntries(LOCALES.map((l) => [l, loadLocaleContent(ROOT, l, site).dictionary]));

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-build-")), "dist");
  result = await buildSite({ root: ROOT, outDir: out, siteUrl: SITE });
});

const pages = routes.flatMap((route) => LOCALES.map((locale) => ({ route, locale, path: route.paths[locale] })));

describe("every route in both languages", () => {
  it.each(pages.map((p) => [p.path, p]))("%s", (_path, { route, locale, path }) => {
    const html = read(outputFileForPath(path));
    const lang = locale === "pt" ? "pt-BR" : "en";
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(attr(html, /<html[^>]*>/, "lang")).toBe(lang);

    const abs = (p: string) => (p === "/" ? `${SITE}/` : SITE + p);
    expect(attr(html, /<link rel="canonical"[^>]*>/, "href")).toBe(abs(path));
    const alternates = [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(alternates).toEqual([["pt-BR", abs(route.paths.pt)], ["en", abs(route.paths.en)], ["x-default", abs(route.paths.pt)]]);

    const title = decodeEntities(html.match(/<title>([^<]*)<\/title>/)![1]);
    const metaTitle = text[locale].get(`${route.metaKey}.title`)!;
    expect(metaTitle).toBeTruthy();
    expect(title).toContain(metaTitle);
    const description = decodeEntities(attr(html, /<meta name="description"[^>]*>/, "content")!);
    expect(description).toBe(text[locale].get(`${route.metaKey}.description`));
    expect(attr(html, /<meta property="og:locale"[^>]*>/, "content")).toBe(locale === "pt" ? "pt_BR" : "en_US");
    expect(attr(html, /<meta property="og:locale:alternate"[^>]*>/, "content")).toBe(locale === "pt" ? "en_US" : "pt_BR");
    expect(html).toContain('<meta name="twitter:card"');

    // The language switcher points at the counterpart page and names its language.
    const switcher = html.match(/<a class="lang-switch"[^>]*>/)![0];
    expect(attr(switcher, /.*/, "href")).toBe(counterpartPath(path));
    expect(attr(switcher, /.*/, "hreflang")).toBe(locale === "pt" ? "en" : "pt-BR");

    const jsonLd = JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/)![1]);
    const types = jsonLd["@graph"].map((n: { "@type": string }) => n["@type"]);
    expect(types).toContain("Organization");
    expect(types).toContain("WebSite");
    const org = jsonLd["@graph"].find((n: { "@type": string }) => n["@type"] === "Organization");
    expect(org.address.addressLocality).toBe("São Paulo");
    expect(org.address.addressCountry).toBe("BR");
    const expectedNode = route.schemaType === "CollectionPage" ? "CollectionPage" : route.schemaType;
    expect(types).toContain(expectedNode);

    const isHome = route.id === "home";
    expect(types.includes("BreadcrumbList")).toBe(!isHome);
    const nav = html.match(/<nav[^>]*class="breadcrumbs[^"]*"[^>]*>.*?<\/nav>/)?.[0];
    if (isHome) {
      expect(nav).toBeUndefined();
    } else {
      expect(nav).toMatch(/aria-label="[^"]+"/);
      const items = [...nav!.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => m[1]);
      const segments = (locale === "en" ? path.slice(3) : path).split("/").filter(Boolean);
      expect(items).toHaveLength(segments.length + 1);
      expect(items[0]).toContain(`href="${locale === "en" ? "/en" : "/"}"`);
      expect(items.at(-1)).not.toContain("<a ");
      expect(items.at(-1)).toContain('aria-current="page"');
      const list = jsonLd["@graph"].find((n: { "@type": string }) => n["@type"] === "BreadcrumbList");
      expect(list.itemListElement).toHaveLength(segments.length + 1);
      expect(list.itemListElement[0].item).toBe(abs(locale === "en" ? "/en" : "/"));
    }
    // Speculation Rules in the page itself (no script needed): prefetch on intent, never the endpoints.
    const rules = JSON.parse(html.match(/<script type="speculationrules">(.*?)<\/script>/)![1]);
    expect(rules.prefetch[0].where).toEqual({ and: [{ href_matches: "/*" }, { not: { href_matches: "/api/*" } }] });
    expect(rules.prefetch[0].eagerness).toBe("moderate");
    // No raw content key may reach a visitor.
    expect(html).not.toMatch(/>(hero|nav|meta|footer|industries|services|labels)\.[a-zA-Z.]+</);
  });

  it("gives every page a unique title and description per language", () => {
    for (const locale of LOCALES) {
      const titles = pages.filter((p) => p.locale === locale).map((p) => read(outputFileForPath(p.path)).match(/<title>([^<]*)</)![1]);
      expect(new Set(titles).size).toBe(titles.length);
    }
  });
});

describe("spec §9 marketing figures, on the page they belong to, in both languages", () => {
  const visible = (file: string) => decodeEntities(read(file).replace(/<script[\s\S]*?<\/script>|<template[\s\S]*?<\/template>|<[^>]+>/g, " ")).replace(/\s+/g, " ");
  const FIGURES = {
    industries: {
      en: ["40% less downtime", "30% lower maintenance cost", "99.5% defect detection accuracy", "50% faster inspection", "25% less inventory", "20% higher throughput", "30% lower delivery costs", "35% fewer stockouts", "15% better diagnostic accuracy", "30% faster drug discovery", "95% imaging accuracy", "40% faster patient recruitment"],
      // Portuguese words the figures its own way; every number is there, with the decimal comma.
      pt: ["40%", "30%", "99,5%", "50%", "25%", "20%", "35%", "15%", "95%"],
    },
    about: {
      en: ["US$25 million P&L", "from 200 to 700+ people", "245-person consultancy", "US$36M raised", "300+ people"],
      pt: ["US$ 25 milhões", "de 200 para mais de 700 pessoas", "245 pessoas", "US$ 36 milhões", "mais de 300 pessoas"],
    },
  };
  it.each(Object.entries(FIGURES).flatMap(([page, byLocale]) => Object.entries(byLocale).map(([locale, figures]) => [page, locale, figures] as const)))(
    "%s (%s)",
    (page, locale, figures) => {
      const text = visible(locale === "en" ? `en/${page}.html` : `${page}.html`);
      expect(figures.filter((f) => !text.includes(f))).toEqual([]);
    },
  );

  it("shows manufacturing and healthcare, which have no page of their own, whole on the industries page: challenges, solutions and use cases", () => {
    for (const locale of ["pt", "en"] as const) {
      const page = visible(locale === "en" ? "en/industries.html" : "industries.html");
      const dictionary = text[locale];
      const titles = [...dictionary.keys()].filter((k) => /^industries\.(manufacturing|healthcare)\.(challenge|solution|useCase)\d+\.title$/.test(k));
      expect(titles.filter((k) => k.includes(".solution")).length).toBeGreaterThanOrEqual(8);
      expect(titles.filter((k) => !page.includes(decodeEntities(dictionary.get(k)!)))).toEqual([]);
    }
  });

  it("shows no text that looks like a content key on any page", () => {
    const keyLike = /(?:^|\s)([a-z][a-zA-Z0-9]*(?:\.[a-z][a-zA-Z0-9]*){1,})(?=\s|$)/g;
    const suspicious = result.pages.flatMap((p) =>
      [...visible(p.file).matchAll(keyLike)].map((m) => m[1]).filter((k) => text.pt.has(k) || text.en.has(k) || /^(nav|hero|meta|services|industries|about|footer|cookies|forms?|legal|error|notFound)\./.test(k)).map((k) => `${p.file}: ${k}`),
    );
    expect(suspicious).toEqual([]);
  });
});

describe("special pages and files", () => {
  it("writes both not-found pages, not indexable, in their language", () => {
    const pt = read("404.html");
    const en = read("en/404.html");
    expect(attr(pt, /<html[^>]*>/, "lang")).toBe("pt-BR");
    expect(attr(en, /<html[^>]*>/, "lang")).toBe("en");
    for (const html of [pt, en]) expect(html).toContain('<meta name="robots" content="noindex">');
    expect(pt).toContain(text.pt.get("notFound.title"));
    expect(en).toContain(text.en.get("notFound.title"));
  });

  it("never lets a page without a route pass for the home page it is rendered from", () => {
    for (const file of ["404.html", "en/404.html", "500.html", "forms/newsletter-success.html", "en/forms/error.html"]) {
      const html = read(file);
      expect(html, file).not.toContain('property="og:url"');
      expect(html, file).not.toContain('rel="canonical"');
      expect(html, file).not.toMatch(/class="brand"[^>]*aria-current/);
      const graph = (JSON.parse(html.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]) as { "@graph": Record<string, unknown>[] })["@graph"];
      const page = graph.find((node) => node["@type"] === "WebPage")!;
      expect(page, file).toBeDefined();
      expect([page["@id"], page.url], file).toEqual([undefined, undefined]);
    }
    // The real home page keeps all of it.
    expect(read("index.html")).toMatch(/class="brand"[^>]*aria-current="page"/);
    expect(read("index.html")).toContain('property="og:url"');
  });

  it("writes an error page titled 'Unexpected Application Error!' with a status", () => {
    for (const file of ["500.html", "en/500.html"]) {
      const html = read(file);
      expect(html).toContain("<h1>Unexpected Application Error!</h1>");
      expect(html).toContain("500");
    }
  });

  it("writes a sitemap with every page and its hreflang trio, and a robots.txt naming it", () => {
    const xml = read("sitemap.xml");
    const urls = [...xml.matchAll(/<url>(.*?)<\/url>/gs)].map((m) => m[1]);
    expect(urls).toHaveLength(routes.length * 2);
    for (const route of routes) {
      for (const locale of LOCALES) {
        const loc = route.paths[locale] === "/" ? `${SITE}/` : SITE + route.paths[locale];
        const entry = urls.find((u) => u.includes(`<loc>${loc}</loc>`))!;
        expect(entry).toBeDefined();
        for (const lang of ["pt-BR", "en", "x-default"]) expect(entry).toMatch(new RegExp(`<xhtml:link rel="alternate" hreflang="${lang}" href="[^"]+"`));
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
    expect(read("_redirects")).toContain("/en/*  /en/404.html  404");
  });

  it("writes one hashed, minified stylesheet", () => {
    const css = result.assets.find((a) => a.file.endsWith(".css"))!;
    expect(css.file).toMatch(/^assets\/site\.[0-9a-f]{10}\.css$/);
    expect(read(css.file)).not.toMatch(/\n\s+/);
  });

  it("cross-fades full page loads with a view transition, only when motion is welcome", () => {
    const css = read(result.assets.find((a) => a.file.endsWith(".css"))!.file);
    const motion = css.match(/@media \(prefers-reduced-motion:no-preference\)\{(.*?)\}\}/g)?.join("") ?? "";
    expect(motion).toContain("@view-transition{navigation:auto}");
    expect(motion).toMatch(/main\{transition:opacity \.2s/);
    expect(css.replace(/@media \(prefers-reduced-motion:no-preference\)\{.*?\}\}/g, "")).not.toContain("@view-transition");
  });

  it("gives every page the navigation island's skeleton and error templates in its language", () => {
    for (const [file, loading, status] of [["about.html", "Carregando a página…", "Código de status"], ["en/about.html", "Loading the page…", "Status code"]]) {
      const html = decodeEntities(read(file));
      const skeleton = html.match(/<template data-nav-template="skeleton">([\s\S]*?)<\/template>/)![1];
      expect(skeleton).toContain(loading);
      expect(skeleton.match(/data-skeleton-card/g)).toHaveLength(6);
      expect(skeleton.match(/data-skeleton-column/g)).toHaveLength(4);
      const error = html.match(/<template data-nav-template="error">([\s\S]*?)<\/template>/)![1];
      expect(error).toContain("Unexpected Application Error!");
      expect(error).toContain(`data-status-label="${status}"`);
    }
  });

  it("reports pages per locale and sizes", () => {
    expect(result.pages.filter((p) => p.locale === "pt")).toHaveLength(routes.length + 5); // routes, not-found, error, three form results
    expect(result.pages.every((p) => p.brotliBytes > 0 && p.brotliBytes < p.bytes)).toBe(true);
    expect(Object.keys(result.timings)).toEqual(expect.arrayContaining(["content", "render", "minify", "write"]));
  });

  it("has the flat layout hosts need", () => {
    for (const f of ["index.html", "en.html", "about.html", "en/about.html", "404.html", "en/404.html"]) expect(existsSync(join(out, f))).toBe(true);
    expect(existsSync(join(out, "about", "index.html"))).toBe(false);
  });

  it("writes no compressed twins unless asked: static hosts compress by themselves", () => {
    const all = readdirSync(out, { recursive: true }).map(String);
    expect(all.filter((f) => /\.(br|gz)$/.test(f))).toEqual([]);
    expect(result.files).toBe(all.filter((f) => statSync(join(out, f)).isFile()).length);
  });
});
