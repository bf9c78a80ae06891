import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { LinkCheck } from "../../src/generator/links.ts";
import type { PlannedPage } from "../../src/generator/pipeline/plan-pages.ts";
import { ROOT, fixtureCopy, projectCopy } from "../helpers.ts";

/**
 * The build's link check (src/generator/links.ts) on the second site (tests/fixtures/minimal-site) with a
 * collection of notes added: a broken link written in a component and one in a note's Markdown are reported
 * with the page, the link and the file they were written in; --strict fails the build; a correct site builds
 * with no word of it.
 */
const sitegen = (project: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", ...args], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });

/** The fixture site with a notes collection, a page per note, and links to the notes' fragments. */
function siteWithNotes(): string {
  const project = fixtureCopy();
  const pages = join(project, "src", "pages", "pages.tsx");
  writeFileSync(
    pages,
    readFileSync(pages, "utf8").replace(
      '<p>{t("workshop.body")}</p>',
      '<p>{t("workshop.body")}</p>\n      <p id="horaires">\n' +
        '        <a href="/notes/plomb#sertir">Le plomb</a>\n      </p>',
    ) +
      "\nexport function Notes() {\n  return <h1>{usePage().listing!.entries.length}</h1>;\n}\n" +
      "\nexport function Note() {\n  const { entry } = usePage();\n" +
      "  return <article dangerouslySetInnerHTML={{ __html: entry!.html }} />;\n}\n",
  );
  const routes = join(project, "src", "pages", "routes.ts");
  writeFileSync(
    routes,
    readFileSync(routes, "utf8")
      .replace("Workshop }", "Workshop, Note, Notes }")
      .replace(
        "  ],\n",
        '    { id: "notes", path: "/notes", page: Notes, list: { collection: "notes", pageSize: 10 } },\n' +
          '    { id: "note", path: "/notes/:slug", page: Note, entries: { collection: "notes" } },\n  ],\n' +
          '  collections: [{ name: "notes", schema: { title: { type: "text", required: true }, ' +
          'description: { type: "text", required: true } } }],\n',
      ),
  );
  const text = join(project, "content", "fr", "text.yaml");
  writeFileSync(
    text,
    readFileSync(text, "utf8").replace("meta:\n", "meta:\n  notes:\n    title: Notes\n    description: Nos notes.\n"),
  );
  mkdirSync(join(project, "content", "fr", "notes"));
  writeFileSync(
    join(project, "content", "fr", "notes", "plomb.md"),
    "---\ntitle: Le plomb\ndescription: Sertir le verre.\n---\n## Sertir\n\n" +
      "Voir [l'atelier](/atelier#horaires) et [nos horaires](#sertir).\n",
  );
  return project;
}

let project: string;
const out = join(mkdtempSync(join(tmpdir(), "sitegen-links-")), "dist");

beforeAll(() => {
  project = siteWithNotes();
});

describe("links checked at build time", () => {
  it("builds a site whose links all resolve with no warning", async () => {
    const built = sitegen(project, "--out", out, "--strict");
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^Built 6 pages \(fr 6\) into /);
    expect(built.stdout).not.toContain("warning");
    expect(built.stdout).toMatch(/stages: .*render \d+ ms, links \d+ ms, write/);
  }, 120_000);

  it("warns of a broken link in a component and in Markdown, naming page, link and source; --strict fails", () => {
    const pages = join(project, "src", "pages", "pages.tsx");
    writeFileSync(
      pages,
      readFileSync(pages, "utf8").replace(
        '<h1>{t("workshop.heading")}</h1>',
        '<h1>{t("workshop.heading")}</h1>\n      <a href="/cardapio">Carte</a>',
      ),
    );
    const line = readFileSync(pages, "utf8").split("\n").indexOf('      <a href="/cardapio">Carte</a>') + 1;
    const note = join(project, "content", "fr", "notes", "plomb.md");
    writeFileSync(note, readFileSync(note, "utf8") + "\nEt [ceci](/missing).\n");

    const strict = sitegen(project, "--out", out, "--strict");
    expect(strict.status).not.toBe(0);
    const list =
      "  /cardapio, written in src/pages/pages.tsx:" +
      `${line}:15: on /atelier (route "workshop", atelier.html)\n` +
      '    /missing, written in content/fr/notes/plomb.md: on /notes/plomb (route "note:plomb", notes/plomb.html)\n';
    expect(strict.stderr).toContain(
      "BrokenLinks: Broken links\n  2 link(s) lead to no page or file of the output, on the pages named:\n  " + list,
    );
    expect(strict.stderr).toContain("hint: Fix each link where it was written");
    // The failed build left the previous output as it was.
    expect(readFileSync(join(out, "atelier.html"), "utf8")).not.toContain("/cardapio");

    const built = sitegen(project, "--out", out);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain("warning: BrokenLinks: Broken links\n  2 link(s) lead to no page or file");
    expect(built.stdout).toContain(list);

    // Built again with --strict and nothing changed, every page kept: their broken links still fail it.
    const again = sitegen(project, "--out", out, "--strict");
    expect(again.stdout).not.toMatch(/^Built/);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain(list);
  }, 180_000);

  it("reports a fragment that names no id of the page it leads to", async () => {
    const copy = siteWithNotes();
    const note = join(copy, "content", "fr", "notes", "plomb.md");
    writeFileSync(note, readFileSync(note, "utf8").replace("/atelier#horaires", "/atelier#heures"));
    const result = await buildSite({ root: copy, outDir: join(mkdtempSync(join(tmpdir(), "sitegen-links-")), "d") });
    expect(result.warnings.map((w) => w.message)).toEqual([
      "1 link(s) lead to no page or file of the output, on the pages named:\n" +
        '  /atelier#heures (no id "heures" there), written in content/fr/notes/plomb.md: ' +
        'on /notes/plomb (route "note:plomb", notes/plomb.html)',
    ]);
  }, 120_000);
});

describe("a broken link's source, through a linked site folder", () => {
  it("names the component's file and line", async () => {
    const copy = fixtureCopy();
    const pages = join(copy, "src", "pages", "pages.tsx");
    writeFileSync(
      pages,
      readFileSync(pages, "utf8").replace('<h1>{t("home.heading")}</h1>', '<a href="/cardapio">x</a>'),
    );
    const linked = join(mkdtempSync(join(tmpdir(), "sitegen-links-")), "site");
    symlinkSync(copy, linked, "dir");
    const result = await buildSite({ root: linked, outDir: join(mkdtempSync(join(tmpdir(), "sitegen-links-")), "d") });
    expect(result.warnings.map((w) => w.message.split("\n")[1])).toEqual([
      '  /cardapio, written in src/pages/pages.tsx:42:15: on / (route "home", index.html)',
    ]);
  }, 120_000);
});

describe("the consultancy site, through a linked folder", () => {
  it("links each page to its islands' modules where the build wrote them", async () => {
    const linked = join(mkdtempSync(join(tmpdir(), "sitegen-links-")), "site");
    symlinkSync(projectCopy(), linked, "dir");
    const result = await buildSite({ root: linked, outDir: join(mkdtempSync(join(tmpdir(), "sitegen-links-")), "d") });
    expect(result.pages.length).toBeGreaterThan(50);
    expect(result.warnings.map((w) => w.message)).toEqual([]);
  }, 180_000);
});

describe("what a link resolves to", () => {
  const page = (file: string, path: string): PlannedPage =>
    ({ kind: "route", file, path, locale: "en", label: path }) as PlannedPage;
  const report = (pages: [PlannedPage, string][], endpoints: string[] = []) => {
    const files = [
      "index.html",
      "en.html",
      "en/about.html",
      "en/404.html",
      "assets/a.css",
      "img/x.avif",
      "docs/index.html",
    ];
    const check = new LinkCheck({ files, siteUrl: "https://example.org", endpoints });
    for (const _ of check.scan(pages.map(([p, html]) => ({ page: p, html, missing: [], reads: [] }))));
    const warning = check.report({ kept: [], contents: [], root: ROOT, sources: [], strict: false });
    return warning?.message.split("\n").slice(1) ?? [];
  };

  it("accepts pages, files, folders' index pages, endpoints, the site's own address and other sites", () => {
    const html =
      '<a href="/en/about?x=1&amp;y=2">a</a><a href="about">b</a><link href="/assets/a.css" rel="stylesheet">' +
      '<img src="/img/x.avif" srcset="/img/x.avif 1x, /img/x.avif 2x"><a href="/docs/">c</a><a href="/docs">d</a>' +
      '<a href="https://example.org/en">e</a><a href="https://other.example/x">f</a><a href="mailto:a@b.c">g</a>' +
      '<a href="/api/contact/confirm">h</a><a id="top-link" href="#top-link">j</a>';
    expect(report([[page("en/about.html", "/en/about"), html]], ["/api/contact"])).toEqual([]);
  });

  it("takes any link at or under a path served elsewhere (site.yaml's servedElsewhere) as leading somewhere", () => {
    const html = '<a href="/app">a</a><a href="/app/x/y?z=1">b</a><a href="/apple">c</a>';
    expect(report([[page("en/about.html", "/en/about"), html]], ["/app"])).toEqual(["  /apple: on en/about.html"]);
    expect(report([[page("en/about.html", "/en/about"), html]], ["/"])).toEqual([]);
  });

  it("reports each broken link once, with every page it is on", () => {
    const lines = report([
      [page("en/about.html", "/en/about"), '<a href="/en/team">a</a><img srcset="/img/y.avif 1x"><a href="#x">x</a>'],
      [page("en.html", "/en"), '<a href="/en/team">a</a><a href="/api/contact">b</a><a href="/en/about#z">c</a>'],
      [page("en/404.html", "/en"), '<a href="en/team">a</a><a href="#top">b</a><a href="/en#x">c</a>'],
    ]);
    expect(lines).toEqual([
      "  /en/team: on en/about.html, en.html",
      "  /img/y.avif: on en/about.html",
      '  #x (no id "x" there): on en/about.html',
      "  /api/contact: on en.html",
      '  /en/about#z (no id "z" there): on en.html',
      "  en/team: on en/404.html",
      '  /en#x (no id "x" there): on en/404.html',
    ]);
  });
});

describe("site.yaml's servedElsewhere", () => {
  const siteWith = (lines: string) => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-elsewhere-"));
    mkdirSync(join(dir, "content"));
    writeFileSync(
      join(dir, "content", "site.yaml"),
      "siteUrl: https://example.org\nlocales:\n  - { code: en, lang: en, ogLocale: en_GB, prefix: '' }\n" + lines,
    );
    return dir;
  };

  it("is a list of paths, a trailing slash dropped; none by default", () => {
    expect(loadSiteConfig(siteWith("servedElsewhere: [/app/, /shop]\n")).servedElsewhere).toEqual(["/app", "/shop"]);
    expect(loadSiteConfig(siteWith("")).servedElsewhere).toEqual([]);
  });

  it("refuses anything else, naming the setting", () => {
    expect(() => loadSiteConfig(siteWith("servedElsewhere: app\n"))).toThrow(
      'must be a list of paths, each starting with "/", such as /app.',
    );
  });
});
