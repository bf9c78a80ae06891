import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite, type BuildOptions, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { cacheFolder } from "../../src/generator/project.ts";
import { loadState, saveState } from "../../src/generator/pipeline/state.ts";
import { projectCopy, treeHashes } from "../helpers.ts";

/**
 * `sitegen serve` rebuilds from the build state its previous build left in memory, and looks again only at the
 * entry files the watcher reported. Whatever it skips reading, the output must be byte for byte what a cold
 * build of the same sources writes, and the state it saves must serve the next process as well.
 */
const GENERATED = 20;
let project: string;
let work: string;
let out: string;
let cold: string;
let last: BuildResult;

const article = (
  locale: string,
  i: number,
  title = `${locale === "pt" ? "Artigo de memória" : "Memory article"} ${i}`,
) =>
  [
    "---",
    `title: "${title}"`,
    `description: "${locale === "pt" ? "Resumo" : "Summary"} ${i}."`,
    `date: 2025-03-${String((i % 28) + 1).padStart(2, "0")}`,
    "author: cto",
    "tags: [governance]",
    "---",
    "",
    `${locale === "pt" ? "Texto" : "Text"} ${i}.`,
    "",
  ].join("\n");
const articlePath = (locale: string, i: number) => join("content", locale, "insights", `memory-${i}.md`);
const read = (file: string) => readFileSync(join(out, file), "utf8");

const serveOptions = (): BuildOptions => ({ root: project, outDir: out, precompress: "fast", drafts: true });

/**
 * A rebuild as sitegen serve makes it after the watcher reported `reported` (paths relative to the project); then a
 * cold build to compare with.
 */
async function rebuild(reported: string[]): Promise<BuildResult> {
  last = await buildSite({ ...serveOptions(), state: last.state, changed: new Set(reported), saveState: false });
  rmSync(cold, { recursive: true, force: true });
  await buildSite({ ...serveOptions(), outDir: cold, incremental: false });
  expect(treeHashes(out)).toEqual(treeHashes(cold));
  return last;
}

beforeAll(async () => {
  project = projectCopy();
  work = mkdtempSync(join(tmpdir(), "sitegen-memory-"));
  out = join(work, "dist");
  cold = join(work, "cold");
  for (const locale of ["pt", "en"])
    for (let i = 0; i < GENERATED; i++) writeFileSync(join(project, articlePath(locale, i)), article(locale, i));
  last = await buildSite(serveOptions());
}, 180_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("a rebuild from the previous build's state in memory (sitegen serve)", () => {
  it("keeps pages by the state it holds, without the one on disk", async () => {
    rmSync(join(cacheFolder(project), "state"), { recursive: true, force: true });
    writeFileSync(join(project, articlePath("pt", 3)), article("pt", 3).replace("Texto 3.", "Um texto revisto."));
    const result = await rebuild([articlePath("pt", 3)]);
    expect(result.rendered).toBe(1);
    expect(read("insights/memory-3.html")).toContain("Um texto revisto.");
  }, 120_000);

  const rendersOnePagePerEdit =
    "renders one page for each of two edits in a row, saves no state meanwhile, and the one saved on stopping " +
    "lets a new process keep every page";
  it(
    rendersOnePagePerEdit,
    async () => {
      // Older articles (outside the feeds), their text alone edited: their own pages are all they change.
      writeFileSync(join(project, articlePath("pt", 2)), article("pt", 2).replace("Texto 2.", "Texto dois, revisto."));
      const first = await rebuild([articlePath("pt", 2)]);
      writeFileSync(join(project, articlePath("en", 1)), article("en", 1).replace("Text 1.", "Text one, revised."));
      const second = await rebuild([articlePath("en", 1)]);
      expect([first.rendered, second.rendered]).toEqual([1, 1]);
      expect(read("insights/memory-2.html")).toContain("Texto dois, revisto.");
      expect(read("en/insights/memory-1.html")).toContain("Text one, revised.");
      // A rebuild forgets the state on disk (it no longer describes the output) and saves none: serve saves
      // the state it holds when it stops.
      expect(loadState(project, out)).toBeUndefined();
      saveState(project, out, second.state);
      const next = await buildSite(serveOptions());
      expect(next.rendered).toBe(0);
      expect(treeHashes(out)).toEqual(treeHashes(cold));
    },
    120_000,
  );

  it("sees an edited title, a new article and a removed one, each reported by the watcher", async () => {
    writeFileSync(join(project, articlePath("en", 4)), article("en", 4, "A retitled memory article"));
    writeFileSync(join(project, articlePath("en", 50)), article("en", 50, "A memory article added"));
    rmSync(join(project, articlePath("en", 7)));
    const result = await rebuild([articlePath("en", 4), articlePath("en", 50), articlePath("en", 7)]);
    expect(result.rendered).toBeLessThan(result.pages.length);
    expect(read("en/insights/memory-4.html")).toContain("A retitled memory article");
    expect(read("en/insights.html")).toContain("A memory article added");
    expect(existsSync(join(out, "en/insights/memory-7.html"))).toBe(false);
    expect(read("sitemap.xml")).not.toContain("/en/insights/memory-7<");
  }, 120_000);

  it("plans again the translation of an entry that leaves its pair, and only the pages of that pair", async () => {
    expect(read("insights/memory-8.html")).toContain('/en/insights/memory-8"');
    writeFileSync(
      join(project, articlePath("en", 8)),
      article("en", 8).replace("tags: [governance]", "tags: [governance]\ntranslationKey: memory-eight-alone"),
    );
    const result = await rebuild([articlePath("en", 8)]);
    expect(read("insights/memory-8.html")).not.toContain('/en/insights/memory-8"');
    expect(result.rendered).toBeLessThan(result.pages.length / 2);
  }, 120_000);

  const notesBodyReadFromKeptEntry =
    "notes the body read by a page rendered again from an entry it kept, and renders it again when that body changes";
  it(
    notesBodyReadFromKeptEntry,
    async () => {
      // The English date makes the pair's route change (its last change): the Portuguese page is rendered again, its
      // entry kept from memory.
      writeFileSync(
        join(project, articlePath("en", 9)),
        article("en", 9).replace(/^date: .*$/m, "$&\nupdated: 2026-04-01"),
      );
      const renders = await rebuild([articlePath("en", 9)]);
      expect(renders.rendered).toBeGreaterThanOrEqual(2);
      writeFileSync(
        join(project, articlePath("pt", 9)),
        article("pt", 9).replace("Texto 9.", "Um corpo novo para o nove."),
      );
      const result = await rebuild([articlePath("pt", 9)]);
      expect(read("insights/memory-9.html")).toContain("Um corpo novo para o nove.");
      expect(result.rendered).toBeLessThan(result.pages.length / 2);
    },
    120_000,
  );

  const rereadsReportedFolder =
    "looks again at every file under a folder the watcher reported (a folder moved in, or its events merged)";
  it(
    rereadsReportedFolder,
    async () => {
      const file = join(project, articlePath("pt", 5));
      const { mtime } = statSync(file);
      // The same size and time of change as before: only reading the file shows the edit, and only a file reported is
      // read.
      writeFileSync(file, article("pt", 5).replace("Texto 5.", "Texto 9."));
      utimesSync(file, mtime, mtime);
      last = await buildSite({ ...serveOptions(), state: last.state, changed: new Set(["content/en"]) });
      expect(read("insights/memory-5.html")).toContain("Texto 5.");
      await rebuild([join("content", "pt", "insights")]);
      expect(read("insights/memory-5.html")).toContain("Texto 9.");
    },
    120_000,
  );
});
