import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { createSiteServer, type SiteServer } from "../../src/server/server.ts";
import { ROOT, parseHtml, projectCopy, sitePlan } from "../helpers.ts";

/**
 * Issue 16: a third locale takes one more item in site.yaml's `locales` and a content/es/ folder, nothing
 * else. Built on a copy of the real site whose es/ text is the English text (the test is about paths and
 * links, not words).
 */
const project = projectCopy();
const out = join(mkdtempSync(join(tmpdir(), "sitegen-es-")), "dist");
const SITE = "https://www.vetorai.com.br";
const abs = (p: string) => (p === "/" ? `${SITE}/` : SITE + p);
const read = (file: string) => readFileSync(join(out, file), "utf8");
let server: SiteServer;
let port = 0;

beforeAll(async () => {
  const config = join(project, "content", "site.yaml");
  writeFileSync(
    config,
    readFileSync(config, "utf8").replace(
      /(\n  - code: en\n(?: {4}.*\n)+)/,
      "$1  - code: es\n    lang: es\n    ogLocale: es_ES\n    prefix: /es\n",
    ),
  );
  cpSync(join(project, "content", "en"), join(project, "content", "es"), { recursive: true });
  const built = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--out", out], {
    cwd: project,
    encoding: "utf8",
  });
  expect(built.status, built.stderr).toBe(0);
  // content/es is a copy of content/en: as many pages as English, articles included.
  const perLocale = built.stdout.match(/^Built (\d+) pages \(pt (\d+), en (\d+), es (\d+)\)/)!;
  expect(Number(perLocale[4])).toBe(Number(perLocale[3]));
  expect(Number(perLocale[1])).toBe(Number(perLocale[2]) + 2 * Number(perLocale[3]));
  server = createSiteServer({ outDir: out, site: loadSiteConfig(project) });
  await new Promise<void>((ready) => server.server.listen(0, "127.0.0.1", ready));
  port = (server.server.address() as { port: number }).port;
});
afterAll(() => server?.close());

const { routes, articles } = await sitePlan();
const es = (path: string) => (path === "/" ? "/es" : `/es${path}`);

describe("a third locale, added by configuration and content only", () => {
  it.each(routes.map((r) => [r.paths.pt, r] as const))(
    "%s exists under /es with four hreflang links, Spanish lang and breadcrumbs under /es",
    (_path, route) => {
      const file = route.paths.pt === "/" ? "es.html" : `es${route.paths.pt}.html`;
      const doc = parseHtml(read(file));
      expect(doc.querySelector("html")!.getAttribute("lang")).toBe("es");
      expect(doc.querySelector('link[rel="canonical"]')!.getAttribute("href")).toBe(abs(es(route.paths.pt)));
      expect(
        doc
          .querySelectorAll('link[rel="alternate"][hreflang]')
          .map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`),
      ).toEqual([
        `pt-BR ${abs(route.paths.pt)}`,
        `en ${abs(route.paths.en)}`,
        `es ${abs(es(route.paths.pt))}`,
        `x-default ${abs(route.paths.pt)}`,
      ]);
      expect(
        doc.querySelectorAll('meta[property="og:locale:alternate"]').map((m) => m.getAttribute("content")),
      ).toEqual(["pt_BR", "en_US"]);
      // More than two languages: a menu of the other two, each link to this page in that language.
      const menu = doc
        .querySelectorAll("#language-menu a")
        .map((a) => `${a.getAttribute("hreflang")} ${a.getAttribute("href")} ${a.textContent}`);
      expect(menu).toEqual([`pt-BR ${route.paths.pt} Português (Brasil)`, `en ${route.paths.en} English`]);
      // The trail links the Spanish home, then each page above this one (the home page has none).
      const trail = doc.querySelectorAll("nav.breadcrumbs a").map((a) => a.getAttribute("href"));
      const segments = route.paths.pt.split("/").filter(Boolean);
      expect(trail).toEqual(segments.map((_, i) => es(`/${segments.slice(0, i).join("/")}`)));
    },
  );

  it("lists every page of every locale in the sitemap, each with the four links", () => {
    const urls = parseHtml(read("sitemap.xml")).querySelectorAll("url");
    expect(urls).toHaveLength(
      routes.length * 3 +
        articles.reduce((n, a) => n + Object.keys(a.paths).length, 0) +
        articles.filter((a) => a.paths.en).length,
    );
    // Every address under /insights/ is an article's or a tag's, but the page of all tags.
    const fixedPages = urls.filter((u) => !/\/insights\/(?!tags$)./.test(u.querySelector("loc")!.textContent));
    expect(fixedPages).toHaveLength(routes.length * 3);
    for (const url of fixedPages)
      expect(url.querySelectorAll("*").filter((el) => el.rawTagName === "xhtml:link")).toHaveLength(4);
  });

  const spanishNotFound =
    "writes the Spanish not-found page, a host rule for it, and the server answers unknown /es addresses with it";
  it(spanishNotFound, async () => {
    expect(parseHtml(read("es/404.html")).querySelector("html")!.getAttribute("lang")).toBe("es");
    expect(read("_redirects")).toBe("/en/*  /en/404.html  404\n/es/*  /es/404.html  404\n");
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ host: "127.0.0.1", port, path: "/es/no-such-page" }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
        .on("error", reject)
        .end();
    });
    expect(answer.status).toBe(404);
    expect(parseHtml(answer.body).querySelector("html")!.getAttribute("lang")).toBe("es");
  });
});
