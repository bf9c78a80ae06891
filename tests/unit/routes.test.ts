import { describe, expect, it } from "vitest";
import { counterpartPath, localeOfPath, matchRoute, notFoundFile, outputFileForPath, routes, unprefixedPath } from "../../src/generator/routes.ts";

// Spec §2's screen list, Portuguese paths; the /en prefix applies to each.
const SPEC_PATHS = [
  "/", "/about", "/services", "/services/advisory", "/services/implementation", "/services/managed", "/technologies",
  "/industries", "/industries/financial-services", "/industries/energy", "/industries/retail", "/industries/agriculture",
  "/industries/education", "/industries/professional", "/contact", "/privacy-policy", "/terms-of-service", "/cookie-policy",
];

describe("route table", () => {
  it("has exactly the 18 screens of spec §2, each with its /en counterpart", () => {
    expect(routes.map((r) => r.paths.pt).sort()).toEqual([...SPEC_PATHS].sort());
    for (const r of routes) expect(r.paths.en).toBe(r.paths.pt === "/" ? "/en" : `/en${r.paths.pt}`);
  });

  it("has unique ids and paths", () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.flatMap((r) => [r.paths.pt, r.paths.en])).size).toBe(routes.length * 2);
  });

  it("gives manufacturing and healthcare no route (spec §2)", () => {
    expect(matchRoute("/industries/manufacturing")).toBeUndefined();
    expect(matchRoute("/en/industries/healthcare")).toBeUndefined();
  });

  it("matches paths with or without a trailing slash", () => {
    expect(matchRoute("/en/about/")?.route.id).toBe("about");
    expect(matchRoute("/en/about")?.locale).toBe("en");
    expect(matchRoute("/about")?.locale).toBe("pt");
  });
});

describe("language of a path", () => {
  it.each([
    ["/", "pt"], ["/about", "pt"], ["/en", "en"], ["/en/", "en"], ["/en/services/advisory", "en"],
    ["/english", "pt"], ["/enterprise/x", "pt"], ["/industries/en", "pt"],
  ])("%s is %s", (path, locale) => {
    expect(localeOfPath(path)).toBe(locale);
  });
});

describe("counterpart paths (the language switcher)", () => {
  it("maps every known page to its counterpart both ways", () => {
    for (const r of routes) {
      expect(counterpartPath(r.paths.pt)).toBe(r.paths.en);
      expect(counterpartPath(r.paths.en)).toBe(r.paths.pt);
    }
  });

  it.each([
    ["/", "/en"], ["/en", "/"], ["/nao-existe", "/en/nao-existe"], ["/en/missing/page", "/missing/page"],
    ["/industries/manufacturing", "/en/industries/manufacturing"], ["/en/", "/"],
  ])("adds or removes /en for %s", (from, to) => {
    expect(counterpartPath(from)).toBe(to);
  });

  it("strips the prefix for unprefixedPath", () => {
    expect(unprefixedPath("/en/about")).toBe("/about");
    expect(unprefixedPath("/en")).toBe("/");
    expect(unprefixedPath("/about")).toBe("/about");
  });
});

describe("output files", () => {
  it("uses flat files so hosts answer extensionless URLs without a redirect", () => {
    expect(outputFileForPath("/")).toBe("index.html");
    expect(outputFileForPath("/en")).toBe("en.html");
    expect(outputFileForPath("/about")).toBe("about.html");
    expect(outputFileForPath("/en/services/advisory")).toBe("en/services/advisory.html");
    expect(notFoundFile("pt")).toBe("404.html");
    expect(notFoundFile("en")).toBe("en/404.html");
  });
});
