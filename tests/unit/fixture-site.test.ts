import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, jsonLdGraph, parseHtml } from "../helpers.ts";
import { startProcess } from "../start-process.ts";

/**
 * A second site (tests/fixtures/minimal-site: one locale, French, other pages, no islands, no endpoints)
 * built by the same CLI, run in that site's folder: the generator is a generator, not this site's build.
 */
const site = join(ROOT, "tests", "fixtures", "minimal-site");
const out = join(mkdtempSync(join(tmpdir(), "sitegen-fixture-")), "dist");
let stdout = "";
const page = (file: string) => parseHtml(readFileSync(join(out, file), "utf8"));

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--out", out], {
    cwd: site,
    encoding: "utf8",
  });
  expect(built.status, built.stderr).toBe(0);
  stdout = built.stdout;
});

describe("a second site, built by the same CLI from its own folder", () => {
  it("writes its own pages, in its one locale, and nothing of the main site", () => {
    expect(stdout).toMatch(/^Built 4 pages \(fr 4\) into /);
    const files = readdirSync(out, { recursive: true }).map(String).sort();
    // No _sitegen/: this site has no endpoints (no src/api), so its output is static files only.
    expect(files).toEqual([
      "404.html",
      "500.html",
      "_headers",
      "assets",
      expect.stringMatching(/^assets\/site\.[0-9a-f]{10}\.css$/),
      "atelier.html",
      "favicon.svg",
      "index.html",
      "robots.txt",
      "sitemap.xml",
    ]);
    const home = page("index.html");
    expect(home.querySelector("html")!.getAttribute("lang")).toBe("fr-FR");
    expect(home.querySelector("title")!.textContent).toBe("Atelier Lumière, vitraux sur mesure");
    expect(home.querySelector("main p")!.textContent).toBe(
      "Atelier Lumière restaure les vitraux anciens et en crée de nouveaux, pièce par pièce.",
    );
    expect(home.querySelectorAll("script[src]")).toHaveLength(0);
  });

  it("gives a one-language site canonical links, breadcrumbs, its business type, and no hreflang alternates", () => {
    const workshop = page("atelier.html");
    expect(workshop.querySelector('link[rel="canonical"]')!.getAttribute("href")).toBe(
      "https://atelier.example.fr/atelier",
    );
    expect(workshop.querySelectorAll('link[rel="alternate"]')).toHaveLength(0);
    expect(workshop.querySelectorAll(".trail li").map((li) => li.textContent)).toEqual(["Accueil", "L'atelier"]);
    const graph = jsonLdGraph(workshop);
    // Its site.yaml's organizationType and address, in place of the default Organization with none.
    expect(graph.map((n) => n["@type"])).toEqual(["LocalBusiness", "WebSite", "AboutPage", "BreadcrumbList"]);
    expect(graph[0].address).toEqual({
      "@type": "PostalAddress",
      streetAddress: "12 rue de l'Exemple",
      postalCode: "69001",
      addressLocality: "Lyon",
      addressCountry: "FR",
    });
    expect(page("404.html").querySelector("h1")!.textContent).toBe("Cette page n'existe pas");
  });

  it("is served by sitegen start from its own folder, which reads its content/site.yaml", async () => {
    const server = await startProcess({ cwd: site, args: ["--host", "127.0.0.1", "--port", "0", "--out", out] });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const workshop = await fetch(`${base}/atelier`);
      expect(workshop.status).toBe(200);
      expect(await workshop.text()).toContain("Trois artisans verriers");
      const missing = await fetch(`${base}/vitraux/inconnu`);
      expect(missing.status).toBe(404);
      expect(parseHtml(await missing.text()).querySelector("h1")!.textContent).toBe("Cette page n'existe pas");
      expect(server.lines.find((l) => l.event === "listening")).toMatchObject({ endpoints: [] });
    } finally {
      server.stop();
    }
  });

  it("lists its pages in its sitemap, and needs no _redirects (no prefixed locale)", () => {
    const locs = parseHtml(readFileSync(join(out, "sitemap.xml"), "utf8"))
      .querySelectorAll("loc")
      .map((l) => l.textContent);
    expect(locs).toEqual(["https://atelier.example.fr/", "https://atelier.example.fr/atelier"]);
    expect(readdirSync(out)).not.toContain("_redirects");
  });
});
