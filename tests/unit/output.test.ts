import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { build } from "esbuild";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { StagedOutput } from "../../src/generator/output.ts";
import { FileWriter, runOutputJob } from "../../src/generator/output-thread.ts";
import { minifyHtml, SharedParts } from "../../src/generator/minify-html.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The staged output folder: files go to a sibling folder, and the output folder changes only on commit.
 * Run from TypeScript sources, jobs run on this thread; the compiled CLI runs the same function on its
 * output thread (tests/unit/cli-and-failures.test.ts checks that both give the same site).
 */
describe("staged output", () => {
  const fresh = () => {
    const parent = mkdtempSync(join(tmpdir(), "sitegen-output-"));
    return { parent, target: join(parent, "dist") };
  };
  const page = `<!DOCTYPE html><html lang="pt-BR"><head><meta charSet="utf-8"/><title>Sobre</title></head><body>${"<p>Transformação com IA, do piloto à produção.</p>\n  ".repeat(20)}</body></html>`;

  it("minifies pages, compresses files, writes twins only when asked, and swaps the folder in on commit", async () => {
    const { parent, target } = fresh();
    mkdirSync(target);
    writeFileSync(join(target, "old.html"), "previous build");
    const out = new StagedOutput(target);
    const [made, plain, asset] = await Promise.all([
      out.emit("pt/sobre.html", page, { minify: true, br: 6, gz: true, twins: true }),
      out.emit("robots.txt", "User-agent: *\n"),
      out.emit("assets/site.css", new TextEncoder().encode("body{color:#123}"), { br: 10 }),
    ]);
    // Nothing shows in the output folder before the commit.
    expect(readdirSync(target)).toEqual(["old.html"]);
    await out.commit();
    expect(readdirSync(target).sort()).toEqual(["assets", "pt", "robots.txt"]);
    const minified = minifyHtml(page);
    expect(minified.length).toBeLessThan(page.length);
    expect(made.html).toBe(minified);
    expect(readFileSync(join(target, "pt/sobre.html"), "utf8")).toBe(minified);
    expect(brotliDecompressSync(made.br!).toString("utf8")).toBe(minified);
    expect(brotliDecompressSync(readFileSync(join(target, "pt/sobre.html.br"))).toString("utf8")).toBe(minified);
    expect(gunzipSync(readFileSync(join(target, "pt/sobre.html.gz"))).toString("utf8")).toBe(minified);
    expect(plain).toEqual({});
    expect(brotliDecompressSync(asset.br!).toString("utf8")).toBe("body{color:#123}");
    expect(existsSync(join(target, "assets/site.css.br"))).toBe(false);
    expect(out.files).toBe(5);
    expect(out.bytes).toBe(Buffer.byteLength(minified) + made.br!.byteLength + made.gz!.byteLength + 14 + 16);
    // The staging folder is gone: what remains is dist and the old tree, deleted in the background.
    expect(readdirSync(parent).filter((f) => f.includes("building"))).toEqual([]);
  });

  it("holds cache files until it knows whether its thread will write them, and never loses one", async () => {
    const { parent, target } = fresh();
    const cache = join(parent, "cache", "yaml.json");
    const out = new StagedOutput(target);
    out.writeCache(cache, '{"a":1}');
    expect(existsSync(cache)).toBe(false);
    await out.commit();
    expect(readFileSync(cache, "utf8")).toBe('{"a":1}');
  });

  it("uses a copy it is given instead of compressing again", async () => {
    const { target } = fresh();
    const out = new StagedOutput(target);
    const made = await out.emit("index.html", "<p>Olá</p>", { br: new Uint8Array([1, 2, 3]), twins: true });
    await out.commit();
    expect(made.br).toBeUndefined();
    expect([...readFileSync(join(target, "index.html.br"))]).toEqual([1, 2, 3]);
  });

  it("fails the commit when a file cannot be written, and leaves the output folder as it was", async () => {
    const { target } = fresh();
    mkdirSync(target);
    writeFileSync(join(target, "index.html"), "previous build");
    const out = new StagedOutput(target);
    await out.emit("about", "<p>a file</p>", { br: 6 });
    // "about" is a file, so nothing can be written under it.
    await out.emit("about/team.html", "<p>team</p>", { br: 6 });
    await expect(out.commit()).rejects.toThrow(/EEXIST|ENOTDIR/);
    expect(readdirSync(target)).toEqual(["index.html"]);
    expect(readFileSync(join(target, "index.html"), "utf8")).toBe("previous build");
    await out.discard();
    expect(readdirSync(join(target, "..")).filter((f) => f.includes("building"))).toEqual([]);
  });
});

describe("the output thread", () => {
  it("shares the jobs with the build's thread when that one catches up, and does each exactly once", async () => {
    // The thread's entry, compiled as bin/sitegen.js compiles it beside the CLI.
    const dir = mkdtempSync(join(tmpdir(), "sitegen-thread-"));
    const entry = join(dir, "output-thread.cjs");
    await build({ entryPoints: [join(ROOT, "src/generator/output-thread.ts")], outfile: entry, bundle: true, platform: "node", format: "cjs", define: { "import.meta.url": "__sitegenFileUrl" }, banner: { js: 'const __sitegenFileUrl = require("node:url").pathToFileURL(__filename).href;' }, logLevel: "error" });
    const { target } = (() => {
      const parent = mkdtempSync(join(tmpdir(), "sitegen-output-"));
      return { target: join(parent, "dist") };
    })();
    const out = new StagedOutput(target, entry);
    out.prepareThread();
    expect(out.threaded).toBe(availableParallelism() > 1);
    // Pages the output thread needs a while for (brotli at 11), handed over at once, as a build's
    // thread does while it renders. Once the first is done, this thread catches up from the newest:
    // the two meet somewhere in the middle. Every page has a shared footer that only the first one
    // brings (and a shared banner from the third on), so whichever thread does a page must know them.
    const footer = `<footer class="site-footer">\n  <p>São Paulo,   Brasil</p>\n  <input disabled=""/></footer>`;
    const banner = `<aside hidden="">\n  <p>Cookies &amp; privacidade</p></aside>`;
    const placeholder = (key: string) => `<template data-shared-markup="${key}"></template>`;
    const pages = Array.from(
      { length: 24 },
      (_, i) =>
        `<!DOCTYPE html><html lang="en"><head><title>Page ${i}</title></head><body>${i >= 2 ? placeholder("en.banner") : ""}${`<p>Page ${i}: from pilot to production, line ${"x".repeat(i)}.</p>\n  `.repeat(400)}${placeholder("en.footer")}</body></html>`,
    );
    const partsOf = (i: number): [string, string][] | undefined => (i === 0 ? [["en.footer", footer]] : i === 2 ? [["en.banner", banner]] : undefined);
    const made = pages.map((html, i) => out.emit(`p${i}.html`, html, { minify: true, parts: partsOf(i), br: 11 }));
    await made[0];
    const taken = out.catchUp();
    if (out.threaded) {
      expect(taken).toBeGreaterThan(0);
      expect(taken).toBeLessThan(23);
    }
    const results = await Promise.all(made);
    await out.commit();
    results.forEach((result, i) => {
      const minified = minifyHtml(pages[i].replace(placeholder("en.footer"), footer).replace(placeholder("en.banner"), banner));
      expect(minified).toContain('<footer class="site-footer"> <p>São Paulo, Brasil</p> <input disabled></footer></body>');
      expect(result.html).toBe(minified);
      expect(readFileSync(join(target, `p${i}.html`), "utf8")).toBe(minified);
      expect(brotliDecompressSync(result.br!).toString("utf8")).toBe(minified);
    });
    expect(out.files).toBe(24);
    expect(readdirSync(target)).toHaveLength(24);
  });
});

describe("an output job (what the output thread runs)", () => {
  it("stops writing after the first failure and keeps that error", () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-job-"));
    writeFileSync(join(dir, "blocker"), "");
    const writer = new FileWriter();
    runOutputJob({ id: 1, file: join(dir, "blocker", "a.html"), data: "<p>a</p>" }, writer, new SharedParts());
    runOutputJob({ id: 2, file: join(dir, "b.html"), data: "<p>b</p>" }, writer, new SharedParts());
    expect(writer.failure?.code).toMatch(/EEXIST|ENOTDIR/);
    expect(existsSync(join(dir, "b.html"))).toBe(false);
  });
});
