import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { alternatesFor, serializeJsonLd } from "../../src/generator/seo.ts";
import { loadSiteConfig, normaliseSiteUrl } from "../../src/generator/config.ts";
import { routeById, routes } from "../../src/generator/routes.ts";

const site = { ...loadSiteConfig(join(import.meta.dirname, "../..")), siteUrl: "https://example.com.br" };

describe("hreflang alternates", () => {
  it("list pt-BR, en and x-default (the Portuguese page), absolute with the site address", () => {
    expect(alternatesFor(routeById("services.advisory"), site)).toEqual([
      { hreflang: "pt-BR", href: "https://example.com.br/services/advisory" },
      { hreflang: "en", href: "https://example.com.br/en/services/advisory" },
      { hreflang: "x-default", href: "https://example.com.br/services/advisory" },
    ]);
    expect(alternatesFor(routeById("home"), site).map((a) => a.href)).toEqual([
      "https://example.com.br/", "https://example.com.br/en", "https://example.com.br/",
    ]);
  });

  it("are the same set for both pages of every pair, so they are reciprocal", () => {
    for (const r of routes) {
      const set = alternatesFor(r, site);
      expect(set.find((a) => a.hreflang === "pt-BR")!.href.endsWith(r.paths.pt === "/" ? "/" : r.paths.pt)).toBe(true);
      expect(set.find((a) => a.hreflang === "en")!.href.endsWith(r.paths.en)).toBe(true);
    }
  });

  it("normalise the base address given by flag or SITE_URL", () => {
    expect(normaliseSiteUrl("https://example.com/")).toBe("https://example.com");
    expect(() => normaliseSiteUrl("not a url")).toThrow();
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
});
