import { describe, expect, it } from "vitest";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { outputFileForPath, planPages, specialPageFile } from "../../src/generator/build/plan-pages.ts";
import { localeOfPath, localizedPath, switchPrefix, unprefixedPath } from "../../src/generator/locales.ts";
import { SitegenError } from "../../src/generator/errors.ts";
import { ROOT, sitePlan } from "../helpers.ts";

const config = loadSiteConfig(ROOT);
const { site, collections } = await sitePlan();
const plan = planPages(site, config, collections);
const fixed = <R extends { id: string }>(routes: R[]) => routes.filter((r) => !r.id.includes(":"));

// Spec §2's screen list, Portuguese paths; the /en prefix applies to each.
const SPEC_PATHS = [
  "/", "/about", "/services", "/services/advisory", "/services/implementation", "/services/managed", "/technologies",
  "/industries", "/industries/financial-services", "/industries/energy", "/industries/retail", "/industries/agriculture",
  "/industries/education", "/industries/professional", "/contact", "/privacy-policy", "/terms-of-service", "/cookie-policy",
];

describe("the site's page plan", () => {
  it("has the 18 screens of spec §2 and the Insights listing, each under /en too, and one route per article", () => {
    expect(fixed(plan.routes).map((r) => r.paths.pt).sort()).toEqual([...SPEC_PATHS, "/insights"].sort());
    for (const r of fixed(plan.routes)) expect(r.paths.en).toBe(r.paths.pt === "/" ? "/en" : `/en${r.paths.pt}`);
    const articles = plan.routes.filter((r) => r.id.startsWith("insights.article:"));
    expect(articles.find((r) => r.id === "insights.article:ai-governance")!.paths).toEqual({ pt: "/insights/governanca-de-ia", en: "/en/insights/ai-governance" });
  });

  it("gives manufacturing and healthcare no page (spec §2)", () => {
    const paths = plan.pages.map((p) => p.path);
    expect(paths).not.toContain("/industries/manufacturing");
    expect(paths).not.toContain("/en/industries/healthcare");
  });

  it("adds per locale the not-found and error pages and the form results, none of them indexed", () => {
    const special = plan.pages.filter((p) => p.kind !== "route").map((p) => `${p.kind} ${p.file}`);
    expect(special).toEqual([
      "not-found 404.html", "error 500.html", "unlisted forms/newsletter-success.html", "unlisted forms/contact-success.html", "unlisted forms/error.html",
      "unlisted forms/newsletter-pending.html", "unlisted forms/newsletter-confirmed.html", "unlisted forms/newsletter-confirm-failed.html",
      "not-found en/404.html", "error en/500.html", "unlisted en/forms/newsletter-success.html", "unlisted en/forms/contact-success.html", "unlisted en/forms/error.html",
      "unlisted en/forms/newsletter-pending.html", "unlisted en/forms/newsletter-confirmed.html", "unlisted en/forms/newsletter-confirm-failed.html",
    ]);
    expect(plan.pages.filter((p) => p.kind !== "route").every((p) => p.route === undefined)).toBe(true);
  });

  it("follows a third locale of site.yaml, and translated slugs", () => {
    const three = { ...config, locales: [...config.locales, { code: "es", lang: "es", ogLocale: "es_ES", prefix: "/es" }] };
    const withSlugs = { ...site, routes: site.routes.map((r) => (r.id === "about" ? { ...r, path: { pt: "/sobre", en: "/about", es: "/acerca" } } : r)) };
    const planned = planPages(withSlugs, three, collections);
    const notArticles = (pages: { entry?: unknown }[]) => pages.filter((p) => !p.entry).length;
    expect(notArticles(planned.pages)).toBe(notArticles(plan.pages) * 1.5);
    expect(planned.routes.find((r) => r.id === "about")!.paths).toEqual({ pt: "/sobre", en: "/en/about", es: "/es/acerca" });
    expect(planned.pages.map((p) => p.file)).toContain("es/404.html");
    expect(planned.pages.map((p) => p.file)).toContain("es.html");
  });

  it("refuses two pages at one address", () => {
    const clash = { ...site, routes: [...site.routes, { ...site.routes[1], id: "about-again" }] };
    expect(() => planPages(clash, config, collections)).toThrowError(SitegenError);
    expect(() => planPages(clash, config, collections)).toThrowError(/\/about is the address of both route "about" and route "about-again"/);
  });
});

describe("locale paths", () => {
  const locales = [{ code: "pt", prefix: "" }, { code: "en", prefix: "/en" }, { code: "es", prefix: "/es" }];
  it.each([
    ["/", "pt"], ["/about", "pt"], ["/en", "en"], ["/en/", "en"], ["/en/services/advisory", "en"], ["/es/x", "es"],
    ["/english", "pt"], ["/enterprise/x", "pt"], ["/industries/en", "pt"],
  ])("%s is %s", (path, locale) => {
    expect(localeOfPath(path, locales).code).toBe(locale);
  });

  it("add, swap and remove prefixes", () => {
    expect(localizedPath("/", locales[1])).toBe("/en");
    expect(localizedPath("/about", locales[0])).toBe("/about");
    expect(unprefixedPath("/en/about", locales)).toBe("/about");
    expect(unprefixedPath("/es", locales)).toBe("/");
    expect(switchPrefix("/en/missing/page", locales[0], locales)).toBe("/missing/page");
    expect(switchPrefix("/nao-existe", locales[2], locales)).toBe("/es/nao-existe");
  });

  it("write flat files, so hosts answer extensionless addresses without a redirect", () => {
    expect(outputFileForPath("/")).toBe("index.html");
    expect(outputFileForPath("/en")).toBe("en.html");
    expect(outputFileForPath("/en/services/advisory")).toBe("en/services/advisory.html");
    expect(specialPageFile("", "404")).toBe("404.html");
    expect(specialPageFile("/en", "500")).toBe("en/500.html");
  });
});
