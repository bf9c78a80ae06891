import { describe, expect, it } from "vitest";
import { sitemapXml } from "../../src/generator/seo/sitemap.ts";
import { alternatesFor } from "../../src/generator/seo/hreflang.ts";
import {
  serializeJsonLd,
  structuredData,
  structuredDataJson,
  type StructuredDataInput,
} from "../../src/generator/seo/structured-data.ts";
import { loadSiteConfig, normaliseSiteUrl } from "../../src/generator/config.ts";
import { planPages } from "../../src/generator/pipeline/plan-pages.ts";
import { ROOT, sitePlan } from "../helpers.ts";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const config = { ...loadSiteConfig(ROOT), siteUrl: "https://example.com.br" };
const { site, collections } = await sitePlan();
const { routes } = planPages({ definition: site, site: config, collections });
const route = (id: string) => routes.find((r) => r.id === id)!;

describe("hreflang alternates", () => {
  it("list pt-BR, en and x-default (the Portuguese page), absolute with the site address", () => {
    expect(alternatesFor(route("services.advisory"), config)).toEqual([
      { hreflang: "pt-BR", href: "https://example.com.br/services/advisory" },
      { hreflang: "en", href: "https://example.com.br/en/services/advisory" },
      { hreflang: "x-default", href: "https://example.com.br/services/advisory" },
    ]);
    expect(alternatesFor(route("home"), config).map((a) => a.href)).toEqual([
      "https://example.com.br/",
      "https://example.com.br/en",
      "https://example.com.br/",
    ]);
  });

  it("link only to pages that exist: a page in one language points x-default at itself", () => {
    const englishOnly = { id: "x", paths: { en: "/en/only" }, schemaType: "WebPage" };
    expect(alternatesFor(englishOnly, config)).toEqual([
      { hreflang: "en", href: "https://example.com.br/en/only" },
      { hreflang: "x-default", href: "https://example.com.br/en/only" },
    ]);
  });

  it("grow with the locales: four links with a third locale", () => {
    const three = {
      ...config,
      locales: [...config.locales, { code: "es", lang: "es", ogLocale: "es_ES", prefix: "/es" }],
    };
    const about = planPages({ definition: site, site: three, collections }).routes.find((r) => r.id === "about")!;
    expect(alternatesFor(about, three).map((a) => `${a.hreflang} ${a.href}`)).toEqual([
      "pt-BR https://example.com.br/about",
      "en https://example.com.br/en/about",
      "es https://example.com.br/es/about",
      "x-default https://example.com.br/about",
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
    const graph = structuredData({
      site,
      route: undefined,
      lang: "pt-BR",
      path: "/",
      title: "Início",
      description: "",
      crumbs: [],
    })["@graph"] as Record<string, unknown>[];
    return graph.find((n) => String(n["@id"]).endsWith("#organization"))!;
  };

  it("is of the type site.yaml's organizationType names, Organization without it, its address escaped", () => {
    expect(organization({ organizationType: undefined })["@type"]).toBe("Organization");
    const bakery = organization({ organizationType: "Bakery", streetAddress: "Rua </script><b>, 5" });
    expect(bakery["@type"]).toBe("Bakery");
    const json = serializeJsonLd(bakery);
    expect(json).toContain('"streetAddress":"Rua \\u003c/script\\u003e\\u003cb\\u003e, 5"');
    expect(JSON.parse(json).address.streetAddress).toBe("Rua </script><b>, 5");
  });

  it("takes a schema.org type name as organizationType, and names the field of anything else", () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-org-"));
    mkdirSync(join(dir, "content"));
    const locales = "locales:\n  - { code: en, lang: en, ogLocale: en_GB }\n";
    const write = (type: string) =>
      writeFileSync(
        join(dir, "content", "site.yaml"),
        `siteUrl: https://example.org\norganizationType: ${type}\n${locales}`,
      );
    write("Restaurant");
    expect(loadSiteConfig(dir, {}, {}).organizationType).toBe("Restaurant");
    write('"Bakery\\" onload"');
    expect(() => loadSiteConfig(dir, {}, {})).toThrow(/organizationType/);
  });

  it("carries the street address, postal code, tax id and profiles site.yaml gives", () => {
    const org = organization({
      streetAddress: "Av. Exemplo, 100",
      postalCode: "01000-000",
      taxId: "00.000.000/0001-00",
      sameAs: ["https://www.linkedin.com/company/exemplo"],
    });
    expect(org.taxID).toBe("00.000.000/0001-00");
    expect(org.sameAs).toEqual(["https://www.linkedin.com/company/exemplo"]);
    expect(org.address).toMatchObject({
      "@type": "PostalAddress",
      streetAddress: "Av. Exemplo, 100",
      postalCode: "01000-000",
      addressLocality: "São Paulo",
      addressCountry: "BR",
    });
  });

  it("leaves out each fact site.yaml leaves empty: no phone, street address, tax id or profiles to invent", () => {
    const org = JSON.parse(
      JSON.stringify(organization({ phone: "", streetAddress: "", postalCode: "", taxId: "", sameAs: [] })),
    );
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
    const route = (schemaType?: string) =>
      ({ id: "x", paths: { pt: "/x", en: "/en/x" }, schemaType }) as unknown as StructuredDataInput["route"];
    const entry = {
      data: { title: "Governança <de> IA", description: "P&D", date: "2026-11-20", updated: "2026-11-22" },
      image: "/assets/cover.avif",
    } as unknown as StructuredDataInput["entry"];
    const inputs: StructuredDataInput[] = [
      { site, route: route(), lang: "pt-BR", path: "/x", title: "Início", description: "Home", crumbs: [] },
      {
        site,
        route: route("Service"),
        lang: "en",
        path: "/en/x",
        title: "Advisory",
        description: "What we do",
        crumbs: [{ label: "Home", href: "/en" }, { label: "Advisory" }],
      },
      {
        site: hostileSite,
        route: route(),
        lang: "pt-BR",
        path: "/insights/a",
        title: "T </script>",
        description: "d & e",
        crumbs: [{ label: "Insights", href: "/insights" }, { label: "<b>" }],
        entry,
        author: { name: "Ana", jobTitle: "CTO", url: "/about" },
      },
      { site, route: undefined, lang: "pt-BR", path: "/404", title: "Não encontrada", description: "", crumbs: [] },
    ];
    for (const input of inputs) {
      // Twice: the second time, the site's nodes come from what the first made.
      for (let i = 0; i < 2; i++) expect(structuredDataJson(input)).toBe(serializeJsonLd(structuredData(input)));
      expect(structuredDataJson(input)).not.toMatch(/[<>&\u2028]/);
    }
  });
});

describe("sitemap.xml", () => {
  it("lists every route in every locale it has, with the day as lastmod unless the route has its own", async () => {
    const xml = (await sitemapXml(config, routes, "2026-11-24"))!;
    expect(xml).toContain("<loc>https://example.com.br/en/about</loc>");
    expect(xml.match(/<url>/g)?.length).toBe(routes.reduce((n, r) => n + Object.keys(r.paths).length, 0));
    expect(xml).toMatch(/<loc>https:\/\/example\.com\.br\/en\/about<\/loc><lastmod>2026-11-24/);
    expect(xml).toMatch(/<\/urlset>$/);
  });

  it("is not written for a site with no page at an address of its own", async () => {
    expect(await sitemapXml(config, [{ id: "x", paths: {}, schemaType: "WebPage" }], "2026-11-24")).toBeUndefined();
  });
});
