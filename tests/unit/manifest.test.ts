import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadManifest, markSwap, saveManifest, type BuildManifest } from "../../src/generator/build/manifest.ts";
import { lines } from "../../src/generator/build/json-lines.ts";
import type { PageRecord } from "../../src/generator/build/incremental.ts";

/**
 * The manifest of an output folder, as incremental builds leave it for the next process: what a build
 * changed is appended to the file, which must read back as the manifest saved, and a build stopped
 * between swapping its output in and saving leaves no manifest to trust.
 */
describe("build manifest", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-manifest-"));
  const outDir = join(root, "dist");
  mkdirSync(outDir);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const file = () => {
    const folder = join(root, "node_modules", ".cache", "sitegen", "builds");
    return join(folder, readdirSync(folder).filter((name) => name.endsWith(".ndjson"))[0]);
  };

  const record = (n: number, input = `plan-${n}`): PageRecord => ({
    file: `insights/${n}.html`,
    locale: "pt",
    label: `/insights/${n}`,
    input,
    reads: [[`body:content/pt/insights/${n}.md`, `hash-${n}`]],
    missing: [],
    bytes: 100 + n,
    files: 1,
    written: 100 + n,
  });
  const manifest = (count: number, key = "key-1"): BuildManifest => {
    const pages: Record<string, PageRecord> = {};
    const entries: Record<string, [string, string]> = {};
    for (let n = 0; n < count; n++) {
      pages[`insights/${n}.html`] = record(n);
      entries[`content/pt/insights/${n}.md`] = [`hash-${n}`, `insights\0${n}`];
    }
    return { key, routes: "routes-1", pages, files: [...Object.keys(pages), "sitemap.xml"], entries };
  };
  /** The next build's manifest, as build.ts makes it: kept records as they were, the file's state taken over. */
  const next = (previous: BuildManifest, change: (m: BuildManifest) => void): BuildManifest => {
    const m: BuildManifest = { key: previous.key, routes: previous.routes, pages: { ...previous.pages }, files: [...previous.files], entries: { ...previous.entries }, disk: previous.disk };
    change(m);
    return m;
  };
  const plain = (m: BuildManifest | undefined) => m && { key: m.key, routes: m.routes, pages: m.pages, files: [...m.files].sort(), entries: m.entries };

  it("appends what a build changed, and reads back as the manifest saved", () => {
    const first = manifest(50);
    saveManifest(root, outDir, first);
    const written = readFileSync(file(), "utf8");
    const loaded = loadManifest(root, outDir, "key-1")!;
    expect(plain(loaded)).toEqual(plain(first));

    // One page edited, one added, one removed, with its entry; the routes changed.
    const second = next(loaded, (m) => {
      m.pages["insights/3.html"] = record(3, "plan-3-edited");
      m.pages["insights/99.html"] = record(99);
      delete m.pages["insights/7.html"];
      m.files = m.files.filter((f) => f !== "insights/7.html").concat("insights/99.html");
      m.entries["content/pt/insights/3.md"] = ["hash-3-edited", "insights\u00003"];
      m.entries["content/pt/insights/99.md"] = ["hash-99", "insights\u000099"];
      delete m.entries["content/pt/insights/7.md"];
      m.routes = "routes-2";
    });
    markSwap(root, outDir, loaded);
    saveManifest(root, outDir, second);
    const after = readFileSync(file(), "utf8");
    expect(after.startsWith(written)).toBe(true);
    // Its lines: the swap mark, the routes, two pages and one gone, the files added and gone, entries set and gone, the end of the swap.
    expect(after.slice(written.length).trim().split("\n")).toHaveLength(10);
    expect(plain(loadManifest(root, outDir, "key-1"))).toEqual(plain(second));
    expect(loadManifest(root, outDir, "key-1")!.pages["insights/3.html"].input).toBe("plan-3-edited");
    expect(loadManifest(root, outDir, "key-2")).toBeUndefined();
  });

  it("counts as no manifest once a build swapped its output in without saving", () => {
    const loaded = loadManifest(root, outDir, "key-1")!;
    markSwap(root, outDir, loaded);
    expect(loadManifest(root, outDir, "key-1")).toBeUndefined();
    // The next save writes the file whole, and it can be trusted again.
    saveManifest(root, outDir, next(loaded, () => {}));
    expect(plain(loadManifest(root, outDir, "key-1"))).toEqual(plain(loaded));
  });

  it("writes the file whole when another build changed it, or when it would be mostly replaced lines", () => {
    let current = loadManifest(root, outDir, "key-1")!;
    // Another process's build wrote the file since this one read it.
    writeFileSync(file(), readFileSync(file(), "utf8") + JSON.stringify({ gone: "insights/1.html" }) + "\n");
    const other = next(current, (m) => (m.pages["insights/2.html"] = record(2, "plan-2-edited")));
    saveManifest(root, outDir, other);
    expect(readFileSync(file(), "utf8").split("\n")[0]).toBe(JSON.stringify({ key: "key-1", routes: "routes-2" }));
    expect(plain(loadManifest(root, outDir, "key-1"))).toEqual(plain(other));

    // Each save appends; once the file would hold more replaced lines than live ones, it is written anew.
    current = loadManifest(root, outDir, "key-1")!;
    const sizes: number[] = [];
    for (let round = 0; round < 60; round++) {
      const edited = next(current, (m) => (m.pages["insights/4.html"] = record(4, `plan-4-round-${round}`)));
      markSwap(root, outDir, current);
      saveManifest(root, outDir, edited);
      sizes.push(statSync(file()).size);
      current = edited;
    }
    expect(sizes.some((size, i) => i > 0 && size < sizes[i - 1])).toBe(true);
    expect(Math.max(...sizes)).toBeLessThan(3 * sizes[0]);
    expect(loadManifest(root, outDir, "key-1")!.pages["insights/4.html"].input).toBe("plan-4-round-59");
  });

  it("gives back pages whose names JSON escapes, and pages that lack text keys, and finds the pages that read a thing", () => {
    const odd = { ...record(1), file: 'insights/"aspas".html', label: '/insights/"aspas"', reads: [["collection:insights:pt", "digest-c"]] as [string, string][] };
    const lacking = { ...record(2), file: "insights/barra\\invertida.html", missing: ["footer.legal"], reads: [["body:content/pt/insights/2.md", "hash-2"], ["collection:insights:en", "digest-e"]] as [string, string][] };
    // What looks like a read's name in a label or a missing key is none; a read's name may hold a quote.
    const lookalike = { ...record(4), label: "collection:label:pt", missing: ["collection:missing:pt"] };
    const quoted = { ...record(5), reads: [["route:home", "digest-h"], ['collection:in"sights:pt', "digest-q"]] as [string, string][] };
    const pages = { [odd.file]: odd, [lacking.file]: lacking, "insights/3.html": record(3), [lookalike.file]: lookalike, [quoted.file]: quoted };
    const m: BuildManifest = { key: "key-odd", routes: "routes-1", pages, files: Object.keys(pages), entries: {} };
    const dir = join(root, "odd");
    mkdirSync(dir);
    saveManifest(root, dir, m);
    const loaded = loadManifest(root, dir, "key-odd")!;
    const lines = loaded.pageLines!;
    expect(lines.summaries().sort((a, b) => a.file.localeCompare(b.file))).toEqual(
      [odd, lacking, record(3), lookalike, quoted].map(({ file, locale, label, bytes, files, written, missing }) => ({ file, locale, label, bytes, files, written, missing })).sort((a, b) => a.file.localeCompare(b.file)),
    );
    expect(lines.page(lacking.file)).toEqual(lacking);
    expect(lines.readersOf("body:content/pt/insights/2.md")).toEqual([lacking.file]);
    expect(lines.readersOf("body:content/pt/insights/9.md")).toEqual([]);
    expect([...lines.readsStartingWith("collection:")].sort()).toEqual(['collection:in"sights:pt', "collection:insights:en", "collection:insights:pt"]);
    expect(loaded.pages).toEqual(m.pages);
  });

  it("reads a file's lines whole across the blocks it is read in, accented characters included", () => {
    // A first line of one letter then two-byte characters, longer than a block: the first block of 1 MiB
    // ends inside that line and inside a character. Then lines of both kinds.
    const written = ["a" + "ç".repeat(600_000), ...Array.from({ length: 2000 }, (_, i) => `${i} ${"governança ".repeat(40 + (i % 7))}`)];
    const path = join(root, "lines.ndjson");
    writeFileSync(path, written.join("\n"));
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(1 << 21);
    expect(bytes[1 << 20] & 0xc0).toBe(0x80);
    expect([...lines(path)]).toEqual(written);
  });
});
