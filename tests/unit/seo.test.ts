import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSitemap } from "../../src/generator/seo/sitemap.ts";
import { FileWriter } from "../../src/generator/build/file-writer.ts";
import { alternatesFor } from "../../src/generator/seo/hreflang.ts";
import { serializeJsonLd, structuredData, structuredDataJson, type StructuredDataInput } from "../../src/generator/seo/structured-data.ts";
import { loadSiteConfig, normaliseSiteUrl } from "../../src/generator/config.ts";
import { planPages } from "../../src/generator/build/plan-pages.ts";
import { ROOT, sitePlan } from "../helpers.ts";

const config = { ...loadSiteConfig(ROOT), siteUrl: "https://example.com.br" };
const { site, collections } = await sitePlan();
const { routes } = planPages(site, config, collections);
const route = (id: string) => routes.find((r) => r.id === id)!;

describe("hreflang alternates", () => {
  it("list pt-BR, en and x-default (the Portuguese page), absolute with the site address", () => {
    expect(alternatesFor(route("services.advisory"), config)).toEqual([
      { hreflang: "pt-BR", href: "https://example.com.br/services/advisory" },
      { hreflang: "en", href: "https://example.com.br/en/services/advisory" },
      { hreflang: "x-default", href: "https://example.com.br/services/advisory" },
    ]);
    expect(alternatesFor(route("home"), config).map((a) => a.href)).toEqual(["https://example.com.br/", "https://example.com.br/en", "https://example.com.br/"]);
  });

  it("link only to pages that exist: a page in one language points x-default at itself", () => {
    const englishOnly = { id: "x", paths: { en: "/en/only" }, schemaType: "WebPage" };
    expect(alternatesFor(englishOnly, config)).toEqual([
      { hreflang: "en", href: "https://example.com.br/en/only" },
      { hreflang: "x-default", href: "https://example.com.br/en/only" },
    ]);
  });

  it("grow with the locales: four links with a third locale", () => {
    const three = { ...config, locales: [...config.locales, { code: "es", lang: "es", ogLocale: "es_ES", prefix: "/es" }] };
    const about = planPages(site, three, collections).routes.find((r) => r.id === "about")!;
    expect(alternatesFor(about, three).map((a) => `${a.hreflang} ${a.href}`)).toEqual([
      "pt-BR https://example.com.br/about", "en https://example.com.br/en/about", "es https://example.com.br/es/about", "x-default https://example.com.br/about",
    ]);
  });

  it("normalise the base address given by flag or SITE_URL, and name the option of a bad one", () => {
    expect(normaliseSiteUrl("https://example.com/", "--site-url")).toBe("https://example.com");
    expect(() => normaliseSiteUrl("not a url", "--site-url")).toThrowError(/"not a url" \(from --site-url\)/);
  });
});

describe("the Organization in JSON-LD", () => {
  const organization = (facts: Record<string, unknown>) => {
    const site = { ...loadSiteConfig(ROOT, {}, {}), ...facts };
    const graph = structuredData({ site, route: undefined, lang: "pt-BR", path: "/", title: "Início", description: "", crumbs: [] })["@graph"] as Record<string, unknown>[];
    return graph.find((n) => n["@type"] === "Organization")!;
  };

  it("carries the street address, postal code, tax id and profiles site.yaml gives", () => {
    const org = organization({ streetAddress: "Av. Exemplo, 100", postalCode: "01000-000", taxId: "00.000.000/0001-00", sameAs: ["https://www.linkedin.com/company/exemplo"] });
    expect(org.taxID).toBe("00.000.000/0001-00");
    expect(org.sameAs).toEqual(["https://www.linkedin.com/company/exemplo"]);
    expect(org.address).toMatchObject({ "@type": "PostalAddress", streetAddress: "Av. Exemplo, 100", postalCode: "01000-000", addressLocality: "São Paulo", addressCountry: "BR" });
  });

  it("leaves out each fact site.yaml leaves empty: no phone, street address, tax id or profiles to invent", () => {
    const org = JSON.parse(JSON.stringify(organization({ phone: "", streetAddress: "", postalCode: "", taxId: "", sameAs: [] })));
    for (const field of ["telephone", "taxID", "sameAs"]) expect(org).not.toHaveProperty(field);
    expect(Object.keys(org.address).sort()).toEqual(["@type", "addressCountry", "addressLocality", "addressRegion"]);
  });
});

describe("JSON-LD serialisation", () => {
  it("cannot close the script element, and stays valid JSON", () => {
    const hostile = { name: "</script><script>alert(1)</script>", note: "<!-- & \u2028 -->" };
    const out = serializeJsonLd(hostile);
    expect(out).not.toMatch(/[<>]/);
    expect(out).not.toContain("&");
    expect(out).not.toContain("\u2028");
    expect(JSON.parse(out)).toEqual(hostile);
  });

  it("writes a page's graph as a whole serialisation would, the site's nodes made once and escaped alike", () => {
    const site = loadSiteConfig(ROOT, {}, {});
    const hostileSite = { ...site, brand: "A&B </script>", city: "São Paulo \u2028" };
    const route = (schemaType?: string) => ({ id: "x", paths: { pt: "/x", en: "/en/x" }, schemaType }) as unknown as StructuredDataInput["route"];
    const entry = { data: { title: "Governança <de> IA", description: "P&D", date: "2026-11-20", updated: "2026-11-22" }, image: "/assets/cover.avif" } as unknown as StructuredDataInput["entry"];
    const inputs: StructuredDataInput[] = [
      { site, route: route(), lang: "pt-BR", path: "/x", title: "Início", description: "Home", crumbs: [] },
      { site, route: route("Service"), lang: "en", path: "/en/x", title: "Advisory", description: "What we do", crumbs: [{ label: "Home", href: "/en" }, { label: "Advisory" }] },
      { site: hostileSite, route: route(), lang: "pt-BR", path: "/insights/a", title: "T </script>", description: "d & e", crumbs: [{ label: "Insights", href: "/insights" }, { label: "<b>" }], entry, author: { name: "Ana", jobTitle: "CTO", url: "/about" } },
      { site, route: undefined, lang: "pt-BR", path: "/404", title: "Não encontrada", description: "", crumbs: [] },
    ];
    for (const input of inputs) {
      // Twice: the second time, the site's nodes come from what the first made.
      for (let i = 0; i < 2; i++) expect(structuredDataJson(input)).toBe(serializeJsonLd(structuredData(input)));
      expect(structuredDataJson(input)).not.toMatch(/[<>&\u2028]/);
    }
  });
});

describe("sitemap.xml, written as it is made", () => {
  it("lists every route and locale in its file, and returns the file's size", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-sitemap-"));
    const file = join(dir, "sitemap.xml");
    const bytes = await writeSitemap(config, routes, "2026-11-24", file);
    const xml = readFileSync(file, "utf8");
    expect(bytes).toBe(statSync(file).size);
    expect(xml).toContain("<loc>https://example.com.br/en/about</loc>");
    expect(xml.match(/<url>/g)?.length).toBe(routes.reduce((n, r) => n + Object.keys(r.paths).length, 0));
    rmSync(dir, { recursive: true, force: true });
  });

  it("fails, without waiting for ever, when its file cannot be written", async () => {
    const missing = join(tmpdir(), "sitegen-no-such-folder", String(process.pid), "sitemap.xml");
    await expect(writeSitemap(config, routes, "2026-11-24", missing)).rejects.toMatchObject({ code: "ENOENT" });
    const writer = new FileWriter(true);
    try {
      await expect(writeSitemap(config, routes, "2026-11-24", missing, writer)).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await writer.close();
    }
  });

  it("is finished before the writing thread stops when the build closes it at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-sitemap-"));
    try {
      // Enough routes for the task to pause between them (every 64), when the thread takes its messages.
      const many = Array.from({ length: 2_000 }, (_, i) => ({ id: `r${i}`, paths: { pt: `/artigo-${i}`, en: `/en/article-${i}` }, schemaType: "WebPage" }));
      const writer = new FileWriter(true);
      const sitemap = writeSitemap(config, many, "2026-11-24", join(dir, "sitemap.xml"), writer);
      expect(await writer.close()).toBeUndefined();
      expect(await sitemap).toBe(statSync(join(dir, "sitemap.xml")).size);
      const xml = readFileSync(join(dir, "sitemap.xml"), "utf8");
      expect(xml).toMatch(/<\/urlset>$/);
      expect(xml.match(/<url>/g)).toHaveLength(4_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is the same file when the writing thread makes it between pages, and a thread stopped midway writes no more", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-sitemap-"));
    try {
      const here = await writeSitemap(config, routes, "2026-11-24", join(dir, "here.xml"));
      const writer = new FileWriter(true);
      const threaded = writeSitemap(config, routes, "2026-11-24", join(dir, "threaded.xml"), writer);
      // Pages sent while the thread makes the sitemap are written too, each told what it made.
      const written: number[] = [];
      for (let i = 0; i < 40; i++) writer.writePage(join(dir, `page-${i}.html`), `<p>Page  ${i}</p>`, [], false, (made) => written.push(made.bytes));
      expect(await threaded).toBe(here);
      expect(await writer.close()).toBeUndefined();
      expect(written).toHaveLength(40);
      expect(readFileSync(join(dir, "page-39.html"), "utf8")).toBe("<p>Page 39</p>");
      expect(readFileSync(join(dir, "threaded.xml"), "utf8")).toBe(readFileSync(join(dir, "here.xml"), "utf8"));
      // A build that fails while the thread works stops it: the promise says so and the file stays short.
      const many = Array.from({ length: 20_000 }, (_, i) => ({ id: `r${i}`, paths: { pt: `/artigo-${i}`, en: `/en/article-${i}` }, schemaType: "WebPage" }));
      const stopping = new FileWriter(true);
      const stopped = writeSitemap(config, many, "2026-11-24", join(dir, "stopped.xml"), stopping);
      // Stopped once it has begun the file (a bounded wait: the thread starts it within moments).
      for (let i = 0; i < 500 && !existsSync(join(dir, "stopped.xml")); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      await stopping.abandon();
      await expect(stopped).rejects.toThrow(/stopped/);
      const size = existsSync(join(dir, "stopped.xml")) ? statSync(join(dir, "stopped.xml")).size : 0;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(existsSync(join(dir, "stopped.xml")) ? statSync(join(dir, "stopped.xml")).size : 0).toBe(size);
      expect(readFileSync(join(dir, "stopped.xml"), "utf8")).not.toMatch(/<\/urlset>$/);
      expect(readFileSync(join(dir, "threaded.xml"), "utf8")).toMatch(/<\/urlset>$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
