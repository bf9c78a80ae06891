import { describe, expect, it } from "vitest";
import { isHiddenFile, parseRequestPath } from "../../src/server/request-path.ts";

// Paths an attacker sends to reach files outside dist, in every encoding we know of.
const HOSTILE = [
  "/../package.json",
  "/..",
  "/assets/../../etc/passwd",
  "/%2e%2e/package.json",
  "/%2E%2E/%2E%2E/etc/passwd",
  "/..%2fpackage.json",
  "/..%2F..%2Fetc%2Fpasswd",
  "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "/..\\package.json",
  "/%5c..%5cpackage.json",
  "/about%00.html",
  "/%00",
  "/en/%2e%2e/%2e%2e/package.json",
  "/./about",
  "/assets/./x",
  "/%c0%ae%c0%ae/package.json",
  "/%E0%A4%A",
  "/%",
  "/%zz",
  "/\u0000",
  "/about\r\nSet-Cookie: x=1",
];

describe("request paths", () => {
  it.each(HOSTILE)("refuses %j", (path) => {
    expect(parseRequestPath(path).kind).toBe("bad");
  });

  it("refuses anything that is not a path", () => {
    expect(parseRequestPath(undefined).kind).toBe("bad");
    expect(parseRequestPath("*").kind).toBe("bad");
    expect(parseRequestPath("http://evil.example/").kind).toBe("bad");
  });

  it("accepts canonical paths and keeps the query", () => {
    expect(parseRequestPath("/en/about?utm=x")).toEqual({ kind: "path", pathname: "/en/about", search: "?utm=x" });
    expect(parseRequestPath("/s%C3%A3o")).toEqual({ kind: "path", pathname: "/são", search: "" });
    expect(parseRequestPath("/assets/site.abc.css")).toMatchObject({ kind: "path" });
  });

  it("redirects old forms to the canonical URL", () => {
    expect(parseRequestPath("/about/")).toEqual({ kind: "redirect", location: "/about" });
    expect(parseRequestPath("/en/?a=1")).toEqual({ kind: "redirect", location: "/en?a=1" });
    expect(parseRequestPath("/about.html")).toEqual({ kind: "redirect", location: "/about" });
    expect(parseRequestPath("/index.html")).toEqual({ kind: "redirect", location: "/" });
    expect(parseRequestPath("//evil.example")).toEqual({ kind: "redirect", location: "/evil.example" });
  });

  const hidesHostFiles =
    "hides host files, compressed twins and everything under _sitegen/ (what sitegen start reads), at any depth";
  it(hidesHostFiles, () => {
    for (const path of [
      "/_headers",
      "/_redirects",
      "/_sitegen",
      "/_sitegen/site.json",
      "/_sitegen/api.cjs",
      "/_sitegen/x/y.js",
      "/en/_private/page",
      "/.env",
      "/assets/.git/config",
      "/index.html.br",
      "/about.html.gz",
    ]) {
      expect(isHiddenFile(path), path).toBe(true);
    }
    for (const path of [
      "/",
      "/about",
      "/en/about",
      "/assets/site.abc123.css",
      "/favicon.svg",
      "/sitemap.xml",
      "/robots.txt",
      "/snake_case-page",
    ]) {
      expect(isHiddenFile(path), path).toBe(false);
    }
  });
});
