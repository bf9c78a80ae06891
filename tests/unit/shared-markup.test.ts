import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/build/build.ts";
import { fillShared } from "../../src/generator/html/shared-markup.ts";
import { ROOT, fixtureCopy, treeHashes } from "../helpers.ts";

/**
 * Markup the same on every page of a locale (html/Shared.tsx, PageData.shared) is rendered once per
 * build, then put in each page that shows it. The pages must come out as if each had rendered
 * it, and an incremental build must know that each of them read what that markup read.
 */
describe("shared markup put in a page", () => {
  it("fills every placeholder with its part, and refuses one that names none", () => {
    const parts = ["<nav>menu</nav>", "<footer>pied</footer>"];
    expect(fillShared('<body><sitegen-shared data-id="0"></sitegen-shared><main>x</main><sitegen-shared data-id="1"></sitegen-shared><sitegen-shared data-id="0"></sitegen-shared></body>', parts)).toBe(
      "<body><nav>menu</nav><main>x</main><footer>pied</footer><nav>menu</nav></body>",
    );
    expect(fillShared("<body>none</body>", parts)).toBe("<body>none</body>");
    expect(() => fillShared('<sitegen-shared data-id="7"></sitegen-shared>', parts)).toThrow(/names no shared part/);
  });
});

describe("a site whose document shares its navigation between pages", () => {
  const project = fixtureCopy();
  const work = mkdtempSync(join(tmpdir(), "sitegen-shared-"));
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  // The minimal site's navigation, shared: it shows the newest note's title (a read of the collection) and a
  // text key its locale lacks; each note's page renders on its own.
  const pages = join(project, "src", "pages", "pages.tsx");
  writeFileSync(
    pages,
    readFileSync(pages, "utf8")
      .replace('import { createContext, useContext } from "react";', `import { createContext, useContext } from "react";\nimport { Shared } from "${join(ROOT, "src", "generator", "html", "Shared.tsx")}";`)
      .replace(
        /<nav>([\s\S]*?)<\/nav>/,
        `<Shared page={page} id="nav"><Page.Provider value={page}><Nav /></Page.Provider></Shared>`,
      ) +
      `
function Nav() {
  const { t, href, collection } = usePage();
  return (
    <nav>
      <a href={href("home")}>{t("breadcrumbs.home")}</a>   <a href={href("workshop")}>{t("nav.missing")}</a>
      <p>Dernière note : {String(collection("notes")[0]?.data.title ?? "")}</p>
    </nav>
  );
}

export function Note() {
  return <h1>{String(usePage().entry!.data.title)}</h1>;
}
`,
  );
  const routes = join(project, "src", "pages", "routes.ts");
  writeFileSync(
    routes,
    readFileSync(routes, "utf8")
      .replace("import { Document, Home, NotFound, Workshop }", "import { Document, Home, Note, NotFound, Workshop }")
      .replace(
        '{ id: "workshop", path: "/atelier", page: Workshop, schemaType: "AboutPage" },',
        '{ id: "workshop", path: "/atelier", page: Workshop, schemaType: "AboutPage" },\n    { id: "note", path: "/notes/:slug", page: Note, entries: { collection: "notes" } },',
      )
      .replace("routes: [", 'collections: [{ name: "notes", schema: { title: { type: "text", required: true }, description: { type: "text", required: true }, date: { type: "date", required: true } } }],\n  routes: ['),
  );
  const notes = join(project, "content", "fr", "notes");
  mkdirSync(notes);
  const note = (slug: string, title: string, date: string) => writeFileSync(join(notes, `${slug}.md`), `---\ntitle: ${title}\ndescription: Une note de l'atelier.\ndate: ${date}\n---\nLe texte de la note.\n`);
  note("plomb", "Le plomb", "2026-10-01");
  note("grisaille", "La grisaille", "2026-11-01");
  for (let i = 0; i < 5; i++) note(`verre-${i}`, `Verre ${i}`, `2025-0${i + 1}-10`);

  const out = join(work, "dist");
  const cold = join(work, "cold");
  const page = (file: string) => readFileSync(join(out, file), "utf8");
  const NAV = '<nav><a href="/">Accueil</a> <a href="/atelier">nav.missing</a><p>Dernière note : <!-- -->';

  it("gives every page the shared markup, and counts its missing key on each page", async () => {
    const result = await buildSite({ root: project, outDir: out });
    const files = result.pages.map((p) => p.file).sort();
    expect(files).toEqual(["404.html", "500.html", "atelier.html", "index.html", "notes/grisaille.html", "notes/plomb.html", ...[0, 1, 2, 3, 4].map((i) => `notes/verre-${i}.html`)]);
    for (const file of files) {
      expect(page(file)).toContain(`${NAV}La grisaille</p></nav>`);
      expect(page(file)).not.toContain("sitegen");
    }
    // Each page that shows the navigation lacks the key, not only the page it was rendered on.
    expect(result.missing.map(({ locale, key }) => `${locale} ${key}`)).toEqual(["fr nav.missing"]);
    expect(result.missing[0].pages).toHaveLength(files.length);
  });

  it("renders again, in an incremental build, every page whose shared markup read what changed", async () => {
    note("plomb", "Le plomb et l'étain", "2026-11-20");
    const result = await buildSite({ root: project, outDir: out });
    // The collection's newest entry changed: every page shows it in its navigation, so every page is rendered.
    expect(result.rendered).toBe(result.pages.length);
    for (const { file } of result.pages) expect(page(file)).toContain(`${NAV}Le plomb et l'étain</p></nav>`);
    await buildSite({ root: project, outDir: cold, incremental: false });
    expect(treeHashes(out)).toEqual(treeHashes(cold));
  });
});
