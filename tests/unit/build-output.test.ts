import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { SitegenError } from "../../src/generator/errors.ts";
import { projectCopy, treeHashes } from "../helpers.ts";

/**
 * What a build writes and what it keeps between builds: a file that cannot be written fails the build by name
 * and leaves the previous output as it was; the entries and the compiled code an earlier build left in its
 * state are reused only while their files are as they were.
 */
let project: string;
let work: string;

const articleFile = (locale: string, i: number) => join(project, "content", locale, "insights", `generated-${i}.md`);
const article = (locale: string, i: number, body: string) =>
  [
    "---",
    `title: "${locale === "pt" ? "Artigo gerado" : "Generated article"} ${i}"`,
    `description: "${locale === "pt" ? "Resumo" : "Summary"} ${i}."`,
    `date: 2025-03-${String((i % 27) + 1).padStart(2, "0")}`,
    "author: cto",
    "tags: [governance]",
    "---",
    "",
    body,
    "",
  ].join("\n");

beforeAll(() => {
  project = projectCopy();
  work = mkdtempSync(join(tmpdir(), "sitegen-output-"));
  for (const locale of ["pt", "en"])
    for (let i = 0; i < 40; i++)
      writeFileSync(
        articleFile(locale, i),
        article(locale, i, `${locale === "pt" ? "Texto original" : "Original text"} ${i}.`),
      );
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("the files written", () => {
  it("fail the build naming the file that could not be written, and leave the previous output as it was", async () => {
    const out = join(work, "failing");
    await buildSite({ root: project, outDir: out, incremental: false });
    const before = treeHashes(out);
    // A file of public/ where the pages need a folder: it cannot be written once the pages' folder exists.
    mkdirSync(join(project, "public"), { recursive: true });
    writeFileSync(join(project, "public", "insights"), "not a folder\n");
    try {
      for (const incremental of [false, true]) {
        const error = await buildSite({ root: project, outDir: out, incremental }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SitegenError);
        expect((error as SitegenError).name).toBe("OutputWriteFailed");
        expect((error as SitegenError).message).toMatch(
          new RegExp(`^Writing ${join(out, "insights")} failed: .*\\(EISDIR\\)`),
        );
        expect(treeHashes(out)).toEqual(before);
        expect(readdirSync(work).filter((name) => name.includes(".building-"))).toEqual([]);
      }
    } finally {
      rmSync(join(project, "public", "insights"));
    }
  }, 120_000);
});

describe("the entries read by an earlier build", () => {
  it("are reused by the next build into the same folder, and read again when their file changes", async () => {
    // A time of change the file system keeps exactly (whole seconds), to be set again after the edit.
    const file = articleFile("pt", 7);
    const atime = new Date("2026-01-02T03:04:05Z");
    const mtime = new Date("2026-01-02T03:04:05Z");
    utimesSync(file, atime, mtime);
    await buildSite({ root: project, outDir: join(work, "first") });
    // Same size and time of change, as make judges a file: the earlier reading stands.
    writeFileSync(file, article("pt", 7, "Texto revisado 7."));
    utimesSync(file, atime, mtime);
    await buildSite({ root: project, outDir: join(work, "first") });
    expect(readFileSync(join(work, "first", "insights", "generated-7.html"), "utf8")).toContain("Texto original 7.");
    // A cold build reads every file.
    await buildSite({ root: project, outDir: join(work, "cold"), incremental: false });
    expect(readFileSync(join(work, "cold", "insights", "generated-7.html"), "utf8")).toContain("Texto revisado 7.");
    // Saved again, the file is read again.
    utimesSync(file, atime, new Date(mtime.getTime() + 5_000));
    await buildSite({ root: project, outDir: join(work, "first") });
    expect(readFileSync(join(work, "first", "insights", "generated-7.html"), "utf8")).toContain("Texto revisado 7.");
    expect(existsSync(join(work, "first", "insights", "generated-8.html"))).toBe(true);
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
    const stylesheetOf = (dir: string) =>
      readdirSync(join(work, dir, "assets")).find((f) => /^site\.\w+\.css$/.test(f))!;
    await buildSite({ root: project, outDir: join(work, "code-1") });
    const compiled = treeHashes(join(work, "code-1"));
    await buildSite({ root: project, outDir: join(work, "code-1") });
    expect(treeHashes(join(work, "code-1"))).toEqual(compiled);

    writeFileSync(
      footer,
      readFileSync(footer, "utf8").replace(
        '<div className="container footer-legal">',
        '<div className="container footer-legal" data-edited="footer">',
      ),
    );
    writeFileSync(css, `${readFileSync(css, "utf8")}\n.edited-rule { outline-offset: 7px; }\n`);
    const before = stylesheetOf("code-1");
    await buildSite({ root: project, outDir: join(work, "code-1") });
    expect(read("code-1", "about.html")).toContain('data-edited="footer"');
    expect(stylesheetOf("code-1")).not.toBe(before);
    expect(read("code-1", `assets/${stylesheetOf("code-1")}`)).toContain(".edited-rule{outline-offset:7px}");

    // A new island file: listed, not imported by anything yet, it is still compiled and shipped.
    writeFileSync(
      join(project, "src", "islands", "edited-island.ts"),
      "export default function EditedIsland() { return null; }\n",
    );
    await buildSite({ root: project, outDir: join(work, "code-1") });
    expect(readdirSync(join(work, "code-1", "assets")).some((f) => f.startsWith("edited-island."))).toBe(true);
  }, 180_000);
});
