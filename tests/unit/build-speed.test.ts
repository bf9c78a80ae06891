import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/build/build.ts";
import { SitegenError } from "../../src/generator/errors.ts";
import { projectCopy, treeHashes } from "../helpers.ts";

/**
 * What makes a large build fast must not change what it writes: the files written on a thread of their own
 * are the same bytes as those written one by one, a file that cannot be written still fails the build by
 * name, and the entries read by an earlier build are reused by a build into any folder.
 */
let project: string;
let work: string;

const articleFile = (locale: string, i: number) => join(project, "content", locale, "insights", `generated-${i}.md`);
const article = (locale: string, i: number, body: string) =>
  ["---", `title: "${locale === "pt" ? "Artigo gerado" : "Generated article"} ${i}"`, `description: "${locale === "pt" ? "Resumo" : "Summary"} ${i}."`, `date: 2025-03-${String((i % 27) + 1).padStart(2, "0")}`, "author: cto", "tags: [governance]", "---", "", body, ""].join("\n");

beforeAll(() => {
  project = projectCopy();
  work = mkdtempSync(join(tmpdir(), "sitegen-speed-"));
  for (const locale of ["pt", "en"]) for (let i = 0; i < 40; i++) writeFileSync(articleFile(locale, i), article(locale, i, `${locale === "pt" ? "Texto original" : "Original text"} ${i}.`));
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("the files written on a thread of their own", () => {
  it("are byte for byte the files written one by one", async () => {
    // One day for both builds: the sitemap dates pages with the day of the build, and a run at midnight saw two.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date(2026, 5, 1, 12));
      const threaded = await buildSite({ root: project, outDir: join(work, "threaded"), incremental: false, writeThread: true });
      const inline = await buildSite({ root: project, outDir: join(work, "inline"), incremental: false, writeThread: false });
      expect(threaded.pages.length).toBeGreaterThan(80);
      expect(threaded.files).toBe(inline.files);
      expect(threaded.bytes).toBe(inline.bytes);
      expect(treeHashes(join(work, "threaded"))).toEqual(treeHashes(join(work, "inline")));
    } finally {
      vi.useRealTimers();
    }
  }, 120_000);

  it("fail the build naming the file that could not be written, and leave the previous output as it was", async () => {
    const out = join(work, "failing");
    await buildSite({ root: project, outDir: out, incremental: false, writeThread: true });
    const before = treeHashes(out);
    // A file of public/ where the pages need a folder: it cannot be written once the pages' folder exists.
    mkdirSync(join(project, "public"), { recursive: true });
    writeFileSync(join(project, "public", "insights"), "not a folder\n");
    try {
      for (const writeThread of [true, false]) {
        const error = await buildSite({ root: project, outDir: out, incremental: false, writeThread }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SitegenError);
        expect((error as SitegenError).name).toBe("OutputWriteFailed");
        expect((error as SitegenError).message).toMatch(new RegExp(`^Writing ${join(out, "insights")} failed: .*\\(EISDIR\\)`));
        expect(treeHashes(out)).toEqual(before);
        expect(readdirSync(work).filter((name) => name.includes(".building-"))).toEqual([]);
      }
    } finally {
      rmSync(join(project, "public", "insights"));
    }
  }, 120_000);
});

describe("the entries read by an earlier build", () => {
  it("are reused by a build into another folder, and read again when their file changes", async () => {
    // A time of change the file system keeps exactly (whole seconds), to be set again after the edit.
    const file = articleFile("pt", 7);
    const atime = new Date("2026-01-02T03:04:05Z");
    const mtime = new Date("2026-01-02T03:04:05Z");
    utimesSync(file, atime, mtime);
    await buildSite({ root: project, outDir: join(work, "first") });
    // Same size and time of change, as make judges a file: the earlier reading stands, whatever the folder.
    writeFileSync(file, article("pt", 7, "Texto revisado 7."));
    utimesSync(file, atime, mtime);
    await buildSite({ root: project, outDir: join(work, "second") });
    expect(readFileSync(join(work, "second", "insights", "generated-7.html"), "utf8")).toContain("Texto original 7.");
    // A cold build reads every file.
    await buildSite({ root: project, outDir: join(work, "cold"), incremental: false });
    expect(readFileSync(join(work, "cold", "insights", "generated-7.html"), "utf8")).toContain("Texto revisado 7.");
    // Saved again, the file is read again.
    utimesSync(file, atime, new Date(mtime.getTime() + 5_000));
    await buildSite({ root: project, outDir: join(work, "third") });
    expect(readFileSync(join(work, "third", "insights", "generated-7.html"), "utf8")).toContain("Texto revisado 7.");
    expect(existsSync(join(work, "third", "insights", "generated-8.html"))).toBe(true);
  }, 120_000);

  it("are saved as one more line for each file changed or removed, not written afresh", async () => {
    const fields = join(project, "node_modules", ".cache", "sitegen", "entries.ndjson");
    await buildSite({ root: project, outDir: join(work, "lines-1") });
    const before = readFileSync(fields, "utf8");
    writeFileSync(articleFile("en", 3), article("en", 3, "Revised text 3."));
    await buildSite({ root: project, outDir: join(work, "lines-2") });
    const after = readFileSync(fields, "utf8");
    expect(after.startsWith(before)).toBe(true);
    // An entry's line is an array that starts with its file's name.
    const added = after.slice(before.length).trim().split("\n").map((line) => JSON.parse(line) as unknown[]);
    expect(added.map((line) => line[0])).toEqual(["content/en/insights/generated-3.md"]);
    rmSync(articleFile("en", 4));
    try {
      await buildSite({ root: project, outDir: join(work, "lines-3") });
      expect(readFileSync(fields, "utf8").slice(after.length)).toBe(`${JSON.stringify({ gone: "content/en/insights/generated-4.md" })}\n`);
      // Read back, the latest line of each file stands: a build into a new folder shows the revised text, and no removed page.
      await buildSite({ root: project, outDir: join(work, "lines-4") });
      expect(readFileSync(join(work, "lines-4", "en", "insights", "generated-3.html"), "utf8")).toContain("Revised text 3.");
      expect(existsSync(join(work, "lines-4", "en", "insights", "generated-4.html"))).toBe(false);
    } finally {
      writeFileSync(articleFile("en", 4), article("en", 4, "Original text 4."));
    }
  }, 120_000);

  it("are read from their own file when the body kept for them is not there as it was written", async () => {
    await buildSite({ root: project, outDir: join(work, "bodies-1") });
    const bodies = join(project, "node_modules", ".cache", "sitegen", "entries.bodies");
    expect(readFileSync(bodies, "utf8")).toContain("Texto original 12.");
    // Another build rewrote the bodies file, or it was cut short: every body is elsewhere now.
    writeFileSync(bodies, readFileSync(bodies, "utf8").replaceAll("Texto original", "Texto estragado"));
    await buildSite({ root: project, outDir: join(work, "bodies-2") });
    expect(readFileSync(join(work, "bodies-2", "insights", "generated-12.html"), "utf8")).toContain("Texto original 12.");
    rmSync(bodies);
    await buildSite({ root: project, outDir: join(work, "bodies-3") });
    expect(treeHashes(join(work, "bodies-3"))).toEqual(treeHashes(join(work, "bodies-1")));
  }, 120_000);

  it("are checked again when the text their references name changes", async () => {
    await buildSite({ root: project, outDir: join(work, "before-rename") });
    // The author "cto" taken out of the text: every cached entry naming it must fail as a fresh one would.
    const about = join(project, "content", "pt", "about.yaml");
    const text = readFileSync(about, "utf8");
    expect(text).toMatch(/^ {2}cto:/m);
    writeFileSync(about, text.replace(/^( {2})cto:/m, "$1cto-renamed:"));
    try {
      const error = await buildSite({ root: project, outDir: join(work, "after-rename") }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as SitegenError).name).toBe("EntryInvalid");
      expect((error as SitegenError).message).toContain("author");
    } finally {
      writeFileSync(about, text);
    }
  }, 120_000);
});

describe("the code an earlier build compiled", () => {
  it("is compiled again when a component, a stylesheet or the list of islands changes", async () => {
    const footer = join(project, "src", "components", "Footer.tsx");
    const css = join(project, "src", "styles", "base.css");
    const read = (dir: string, file: string) => readFileSync(join(work, dir, file), "utf8");
    const stylesheetOf = (dir: string) => readdirSync(join(work, dir, "assets")).find((f) => /^site\.\w+\.css$/.test(f))!;
    await buildSite({ root: project, outDir: join(work, "code-1") });
    await buildSite({ root: project, outDir: join(work, "code-2") });
    expect(treeHashes(join(work, "code-2"))).toEqual(treeHashes(join(work, "code-1")));

    writeFileSync(footer, readFileSync(footer, "utf8").replace('<div className="container footer-legal">', '<div className="container footer-legal" data-edited="footer">'));
    writeFileSync(css, `${readFileSync(css, "utf8")}\n.edited-rule { outline-offset: 7px; }\n`);
    await buildSite({ root: project, outDir: join(work, "code-3") });
    expect(read("code-3", "about.html")).toContain('data-edited="footer"');
    expect(stylesheetOf("code-3")).not.toBe(stylesheetOf("code-1"));
    expect(read("code-3", `assets/${stylesheetOf("code-3")}`)).toContain(".edited-rule{outline-offset:7px}");

    // A new island file: listed, not imported by anything yet, it is still compiled and shipped.
    writeFileSync(join(project, "src", "islands", "edited-island.ts"), "export default function EditedIsland() { return null; }\n");
    await buildSite({ root: project, outDir: join(work, "code-4") });
    expect(readdirSync(join(work, "code-4", "assets")).some((f) => f.startsWith("edited-island."))).toBe(true);
  }, 180_000);
});
