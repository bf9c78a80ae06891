import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite, type BuildResult, type BuildOptions } from "../../src/generator/pipeline/build.ts";
import { SitegenError } from "../../src/generator/errors.ts";
import { ROOT, treeHashes } from "../helpers.ts";

/**
 * An incremental build of a site whose entry pages show their own entry alone (the peer benchmark's page,
 * bench/site): after a few entries were edited, only their pages are rendered. Whatever the edit, the output
 * must be byte for byte a cold build's: each case edits the site, builds into the folder built before, builds
 * cold elsewhere, and compares both folders whole.
 */
const ENTRIES = 12;

let project: string;
let work: string;
let out: string;

const entryFile = (locale: string, i: number) =>
  join(project, "content", locale, "insights", `entry-${String(i).padStart(2, "0")}.yaml`);
const entry = (locale: string, i: number, fields: Partial<Record<"title" | "date" | "body", string>> = {}) =>
  [
    `title: "${fields.title ?? `${locale === "pt" ? "Artigo" : "Article"} ${i}`}"`,
    `excerpt: "${locale === "pt" ? "Resumo" : "Summary"} ${i}."`,
    `date: "${fields.date ?? `2026-0${(i % 9) + 1}-1${i % 10}`}"`,
    `author: "Ana Souza"`,
    `body: "${fields.body ?? `${locale === "pt" ? "Texto" : "Text"} ${i}.`}"`,
    "",
  ].join("\n");

/** Builds into `out` (incremental) and a cold copy; both must hold the same bytes. */
async function buildBoth(options: Partial<BuildOptions> = {}): Promise<BuildResult> {
  const result = await buildSite({ root: project, outDir: out, ...options });
  const cold = join(work, "cold");
  rmSync(cold, { recursive: true, force: true });
  await buildSite({ root: project, outDir: cold, incremental: false, ...options });
  expect(treeHashes(out)).toEqual(treeHashes(cold));
  return result;
}

beforeAll(async () => {
  // Beside bench/site, whose code imports sitegen's by relative paths.
  project = join(ROOT, "bench", `.incremental-${process.pid}`);
  cpSync(join(ROOT, "bench", "site", "src"), join(project, "src"), { recursive: true });
  cpSync(join(ROOT, "bench", "site", "content", "site.yaml"), join(project, "content", "site.yaml"));
  for (const locale of ["pt", "en"]) {
    cpSync(join(ROOT, "bench", "site", "content", locale, "text.yaml"), join(project, "content", locale, "text.yaml"));
    mkdirSync(join(project, "content", locale, "insights"), { recursive: true });
    for (let i = 0; i < ENTRIES; i++) writeFileSync(entryFile(locale, i), entry(locale, i));
  }
  work = mkdtempSync(join(tmpdir(), "sitegen-bench-site-"));
  out = join(work, "dist");
  const first = await buildSite({ root: project, outDir: out });
  expect(first.rendered).toBe(2 * ENTRIES);
}, 120_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("an incremental build of the bench site", () => {
  it("renders only the page of an entry whose title was edited, and keeps the others as they are", async () => {
    writeFileSync(entryFile("en", 3), entry("en", 3, { title: "A sharper title" }));
    const result = await buildBoth();
    expect(result.rendered).toBe(1);
    expect(result.pages).toHaveLength(2 * ENTRIES);
    expect(readFileSync(join(out, "en", "insights", "entry-03.html"), "utf8")).toContain("A sharper title");
  }, 60_000);

  it("renders the page again when only the body changed, and nothing when nothing changed", async () => {
    writeFileSync(entryFile("pt", 5), entry("pt", 5, { body: "Um texto revisado." }));
    const edited = await buildBoth();
    expect(edited.rendered).toBe(1);
    expect(readFileSync(join(out, "insights", "entry-05.html"), "utf8")).toContain("Um texto revisado.");
    const again = await buildSite({ root: project, outDir: out });
    expect(again.rendered).toBe(0);
    expect([again.files, again.bytes]).toEqual([edited.files, edited.bytes]);
  }, 60_000);

  it("keeps a page whose file was saved again with the same text", async () => {
    const later = new Date(Date.now() + 5_000);
    utimesSync(entryFile("en", 7), later, later);
    const result = await buildBoth();
    expect(result.rendered).toBe(0);
  }, 60_000);

  it("renders the page of an entry whose date was edited, which may move it among the others", async () => {
    writeFileSync(entryFile("pt", 2), entry("pt", 2, { date: "2027-01-01" }));
    const result = await buildBoth();
    expect(result.rendered).toBeGreaterThanOrEqual(1);
    expect(readFileSync(join(out, "sitemap.xml"), "utf8")).toMatch(/\/insights\/entry-02<\/loc><lastmod>2027-01-01/);
  }, 60_000);

  it("adds the page of an entry added, and removes it with the entry", async () => {
    writeFileSync(entryFile("en", 40), entry("en", 40));
    expect((await buildBoth()).pages).toHaveLength(2 * ENTRIES + 1);
    expect(existsSync(join(out, "en", "insights", "entry-40.html"))).toBe(true);
    rmSync(entryFile("en", 40));
    expect((await buildBoth()).pages).toHaveLength(2 * ENTRIES);
    expect(existsSync(join(out, "en", "insights", "entry-40.html"))).toBe(false);
  }, 60_000);

  it("writes again a page removed from the output by hand", async () => {
    rmSync(join(out, "insights", "entry-08.html"));
    writeFileSync(entryFile("en", 1), entry("en", 1, { title: "Another title" }));
    await buildBoth();
    expect(readFileSync(join(out, "insights", "entry-08.html"), "utf8")).toContain("Artigo 8");
  }, 60_000);

  it("copies a file added to public/", async () => {
    mkdirSync(join(project, "public"), { recursive: true });
    writeFileSync(join(project, "public", "humans.txt"), "Sitegen\n");
    writeFileSync(entryFile("en", 2), entry("en", 2, { title: "Yet another title" }));
    await buildBoth();
    expect(readFileSync(join(out, "humans.txt"), "utf8")).toBe("Sitegen\n");
  }, 60_000);

  it("sees an entry edited and read since by a build into another folder", async () => {
    writeFileSync(entryFile("pt", 9), entry("pt", 9, { title: "Lido por outra pasta" }));
    // Another folder's build reads the edit into the project's entry cache first.
    await buildSite({ root: project, outDir: join(work, "elsewhere") });
    await buildBoth();
    expect(readFileSync(join(out, "insights", "entry-09.html"), "utf8")).toContain("Lido por outra pasta");
  }, 60_000);

  it("fails on a broken entry as the full build does, naming the file and the field", async () => {
    writeFileSync(entryFile("en", 6), entry("en", 6).replace(/^title: .*\n/m, ""));
    try {
      const error = await buildSite({ root: project, outDir: out }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SitegenError);
      expect((error as SitegenError).name).toBe("EntryInvalid");
      expect((error as SitegenError).message).toContain("content/en/insights/entry-06.yaml");
      expect((error as SitegenError).message).toContain("title");
    } finally {
      writeFileSync(entryFile("en", 6), entry("en", 6));
    }
    // The file holds what the last good build read: nothing to render.
    expect((await buildBoth()).rendered).toBe(0);
  }, 60_000);

  it("writes the compressed twins of the page it renders as a cold build does", async () => {
    await buildSite({ root: project, outDir: out, precompress: true });
    writeFileSync(entryFile("en", 4), entry("en", 4, { title: "Compressed too" }));
    const result = await buildBoth({ precompress: true });
    expect(result.rendered).toBe(1);
  }, 60_000);
});
