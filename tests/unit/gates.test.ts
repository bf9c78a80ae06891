import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import fg from "fast-glob";
import { buildSite, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { ROOT, parseHtml, projectCopy } from "../helpers.ts";

let out: string;
let result: BuildResult;
let htmlFiles: string[];

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-gates-")), "dist");
  result = await buildSite({ root: projectCopy(), outDir: out });
  htmlFiles = fg.sync("**/*.html", { cwd: out }).sort();
});

/** A file of dist as a host serves it compressed: brotli's bytes, computed once per file (pages share assets). */
const compressed = new Map<string, number>();
const br = (file: string) => {
  let size = compressed.get(file);
  if (size === undefined) compressed.set(file, (size = brotliCompressSync(readFileSync(join(out, file))).byteLength));
  return size;
};

describe("quality gates over every built page", () => {
  it("passes the W3C Nu HTML Checker with zero errors", () => {
    const jar = join(ROOT, "node_modules", "vnu-jar", "build", "dist", "vnu.jar");
    let report = "";
    try {
      execFileSync("java", ["-jar", jar, "--errors-only", "--format", "json", ...htmlFiles.map((f) => join(out, f))], {
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (error) {
      report = (error as { stderr?: string }).stderr ?? String(error);
    }
    const messages = report
      ? (JSON.parse(report) as { messages: { url: string; message: string; lastLine?: number }[] }).messages
      : [];
    expect(messages.map((m) => `${m.url.replace(`file:${out}`, "")}:${m.lastLine}: ${m.message}`)).toEqual([]);
  }, 180_000);

  it("resolves every internal link, asset reference and fragment (the build's own check: links.ts)", () => {
    expect(result.warnings.filter((w) => w.name === "BrokenLinks").map((w) => w.message)).toEqual([]);
  });

  it("keeps every page within 14 KB of HTML, brotli-compressed (one TCP round trip)", () => {
    const over = result.pages.filter((p) => br(p.file) > 14 * 1024).map((p) => `${p.file}: ${br(p.file)} B`);
    expect(over).toEqual([]);
  });

  it("keeps the stylesheet within 12 KB, brotli-compressed", () => {
    const css = fg.sync("assets/*.css", { cwd: out });
    expect(css).toHaveLength(1);
    expect(br(css[0])).toBeLessThanOrEqual(12 * 1024);
  });

  const typefaceWithinBudget =
    "keeps the typeface within 30 KB (a WOFF2 is compressed already), and all a page loads to draw its text within " +
    "64 KB";
  it(typefaceWithinBudget, () => {
    const fonts = fg.sync("assets/*.woff2", { cwd: out });
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(statSync(join(out, font)).size, font).toBeLessThanOrEqual(30 * 1024);
    const over: string[] = [];
    for (const file of htmlFiles) {
      const html = readFileSync(join(out, file), "utf8");
      const doc = parseHtml(html);
      // The page, its stylesheet, the fonts it preloads and the scripts it starts: brotli as a host serves
      // them, the WOFF2 as it is.
      const linked = [
        ...doc
          .querySelectorAll('link[rel="stylesheet"], script[src], link[rel="modulepreload"]')
          .map((el) => el.getAttribute("href") ?? el.getAttribute("src")!),
      ];
      let total = br(file);
      for (const url of linked) total += br(url.slice(1));
      for (const el of doc.querySelectorAll('link[rel="preload"][as="font"]'))
        total += statSync(join(out, el.getAttribute("href")!.slice(1))).size;
      if (total > 64 * 1024) over.push(`${file}: ${total} B`);
    }
    expect(over).toEqual([]);
  });

  it("keeps all JavaScript a page loads within 15 KB, brotli-compressed", () => {
    const over: string[] = [];
    for (const file of htmlFiles) {
      const doc = parseHtml(readFileSync(join(out, file), "utf8"));
      const seen = new Set<string>();
      // Entry scripts, preloads, and every island module the page can load (data-src), with their imports.
      const queue = [
        ...doc.querySelectorAll("script[src]").map((el) => el.getAttribute("src")!),
        ...doc.querySelectorAll('link[rel="modulepreload"]').map((el) => el.getAttribute("href")!),
        ...doc.querySelectorAll("[data-src]").map((el) => el.getAttribute("data-src")!),
      ];
      let total = 0;
      while (queue.length) {
        const url = queue.shift()!;
        if (seen.has(url)) continue;
        seen.add(url);
        const code = readFileSync(join(out, url.slice(1)), "utf8");
        total += br(url.slice(1));
        // Static imports between chunks: the browser fetches them before running the module.
        for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w{},*\s]+from\s*)?"(\.\/[^"]+)"/g))
          queue.push(`/assets/${m[1].slice(2)}`);
      }
      if (total > 15 * 1024) over.push(`${file}: ${total} B`);
    }
    expect(over).toEqual([]);
  });
});
