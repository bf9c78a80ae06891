import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { ROOT, fixtureCopy, parseHtml } from "../helpers.ts";

/**
 * A site with no page at an address of its own: no route at all, or only draft entries. It still builds
 * (its not-found and error pages), with no sitemap.xml (the sitemap schema wants at least one <url>) and a
 * robots.txt that names none, and the build says, as a catalogued warning, that there is nothing to publish.
 */
const GENERATOR = join(ROOT, "src", "generator");

/** The minimal site's route table with these routes and collections, its document shell linking to no route. */
function setRoutes(project: string, routes: string, collections = "[]"): void {
  const pages = join(project, "src", "pages", "pages.tsx");
  writeFileSync(
    pages,
    readFileSync(pages, "utf8").replace(/<nav>[\s\S]*?<\/nav>/, "") +
      "\nexport function Note() {\n  return <h1>{String(usePage().entry!.data.title)}</h1>;\n}\n",
  );
  writeFileSync(
    join(project, "src", "pages", "routes.ts"),
    `import { defineSite } from "${GENERATOR}/site-definition.ts";
import { Document, Home, NotFound, Note } from "./pages.tsx";

export default defineSite({
  document: Document,
  routes: ${routes},
  collections: ${collections},
  notFound: { page: NotFound, meta: { title: "meta.not-found.title", description: "meta.not-found.description" } },
  error: { page: NotFound, meta: { title: "meta.error.title", description: "meta.error.description" } },
});
`,
  );
}

const sitegen = (project: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", ...args], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });

describe("a site with no page to publish", () => {
  const buildsNotFoundOnly =
    "builds its not-found page with no sitemap, and says why; an earlier build's sitemap goes; --strict fails";
  it(
    buildsNotFoundOnly,
    async () => {
      const project = fixtureCopy();
      const out = join(mkdtempSync(join(tmpdir(), "sitegen-empty-")), "dist");
      // A first build with pages: its sitemap is listed in robots.txt.
      await buildSite({ root: project, outDir: out });
      expect(readFileSync(join(out, "robots.txt"), "utf8")).toContain(
        "Sitemap: https://atelier.example.fr/sitemap.xml",
      );

      setRoutes(project, "[]");
      const strict = sitegen(project, "--out", out, "--strict");
      expect(strict.status).not.toBe(0);
      expect(strict.stderr).toContain(
        "NoPages: No page to publish\n  src/pages/routes.ts gives no page an address of its own in any locale",
      );
      // The failed build left the previous output as it was.
      expect(existsSync(join(out, "sitemap.xml"))).toBe(true);

      // The same build, incremental over the previous output, as a developer runs it.
      const built = sitegen(project, "--out", out);
      expect(built.status, built.stderr).toBe(0);
      expect(built.stdout).toMatch(/^Built 2 pages \(fr 2\) into /);
      expect(built.stdout).toContain(
        "warning: NoPages: No page to publish\n  src/pages/routes.ts gives no page an address of its own",
      );
      expect(built.stdout).toMatch(/hint: Add a route to `routes` in src\/pages\/routes\.ts, or publish an entry/);
      expect(
        readdirSync(out)
          .filter((f) => !f.startsWith("_") && f !== "assets")
          .sort(),
      ).toEqual(["404.html", "500.html", "favicon.svg", "robots.txt"]);
      expect(readFileSync(join(out, "robots.txt"), "utf8")).toBe("User-agent: *\nAllow: /\n");
      expect(parseHtml(readFileSync(join(out, "404.html"), "utf8")).querySelector("h1")!.textContent).toBe(
        "Cette page n'existe pas",
      );

      // Built again with --strict and nothing changed since, every page kept: the warning still fails it.
      const again = sitegen(project, "--out", out, "--strict");
      expect(again.status).not.toBe(0);
      expect(again.stderr).toContain("NoPages: No page to publish");
    },
    120_000,
  );

  const draftOnlyCollection =
    "counts a collection whose only entry is a draft as no page for sitegen build, and lists it for sitegen serve's " +
    "drafts";
  it(
    draftOnlyCollection,
    async () => {
      const project = fixtureCopy();
      setRoutes(
        project,
        '[{ id: "note", path: "/notes/:slug", page: Note, entries: { collection: "notes" } }]',
        '[{ name: "notes", schema: { title: { type: "text", required: true }, ' +
          'description: { type: "text", required: true }, date: { type: "date", required: true }, ' +
          'draft: { type: "boolean" } } }]',
      );
      mkdirSync(join(project, "content", "fr", "notes"));
      writeFileSync(
        join(project, "content", "fr", "notes", "vitrail.md"),
        "---\ntitle: Le plomb\ndescription: Sertir le verre.\ndate: 2026-11-01\ndraft: true\n---\nBientôt.\n",
      );

      const out = join(mkdtempSync(join(tmpdir(), "sitegen-drafts-")), "dist");
      const published = await buildSite({ root: project, outDir: out });
      expect(published.warnings.map((w) => w.name)).toEqual(["NoPages"]);
      expect(existsSync(join(out, "sitemap.xml"))).toBe(false);
      expect(existsSync(join(out, "notes", "vitrail.html"))).toBe(false);

      const drafts = await buildSite({ root: project, outDir: out, drafts: true });
      // No NoPages, and no broken link: the note's trail leaves out the home page and the /notes listing this
      // site has not.
      expect(drafts.warnings).toEqual([]);
      expect(readFileSync(join(out, "notes", "vitrail.html"), "utf8")).not.toMatch(/href="\/(notes)?"/);
      const locs = parseHtml(readFileSync(join(out, "sitemap.xml"), "utf8"))
        .querySelectorAll("loc")
        .map((l) => l.textContent);
      expect(locs).toEqual(["https://atelier.example.fr/notes/vitrail"]);
      expect(readFileSync(join(out, "robots.txt"), "utf8")).toBe(
        "User-agent: *\nAllow: /\n\nSitemap: https://atelier.example.fr/sitemap.xml\n",
      );
    },
    120_000,
  );
});
