import { afterAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEntryCache, saveEditedEntries, saveEntryCache } from "../../src/generator/build/entry-cache.ts";
import type { CachedEntry } from "../../src/generator/collections.ts";

/**
 * The entry cache as the next process reads it: each file's stamp (hash, size, time of change) without
 * parsing its fields, its fields when asked for, whatever characters its name holds, and nothing at all
 * from a file cut short.
 */
describe("the entry cache", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-entry-cache-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const fieldsFile = join(root, "node_modules", ".cache", "sitegen", "entries.ndjson");
  const fields = (n: number, title = `Título ${n}`): CachedEntry => ({
    hash: `${n}`.padStart(40, "a"),
    size: 100 + n,
    mtimeMs: 1795839808309.7178 + n,
    data: { title, date: "2026-11-28" },
    dataHash: `${n}`.padStart(40, "b"),
    readingMinutes: 1 + n,
    firstLine: 0,
    bodyImages: undefined,
    body: `Corpo ${n}`,
    bodyAt: undefined,
  });
  // Names JSON writes with escapes (a quote, a backslash), accents, and a plain one.
  const names = ['content/pt/insights/aspas-"citadas".md', "content/pt/insights/barra\\invertida.md", "content/pt/insights/governança.md", "content/en/insights/plain.md"];

  it("gives each file's stamp and fields back, whatever its name", () => {
    saveEntryCache(root, "key-1", Object.fromEntries(names.map((name, i) => [name, fields(i)])));
    const cache = loadEntryCache(root, "key-1")!;
    expect(cache.count).toBe(names.length);
    names.forEach((name, i) => {
      expect(cache.stamp(name)).toMatchObject({ hash: fields(i).hash, size: fields(i).size, mtimeMs: fields(i).mtimeMs });
      expect(cache.fields(name)).toMatchObject({ data: fields(i).data, dataHash: fields(i).dataHash, readingMinutes: fields(i).readingMinutes });
      expect(cache.body(cache.fields(name)!)).toBe(`Corpo ${i}`);
    });
    expect(Object.keys(cache.entries).sort()).toEqual([...names].sort());
    expect(loadEntryCache(root, "key-2")).toBeUndefined();
    cache.close();
  });

  it("takes a quick update's entries as appended lines over the earlier ones", () => {
    const before = loadEntryCache(root, "key-1")!;
    const size = readFileSync(fieldsFile).length;
    saveEditedEntries(root, "key-1", { [names[2]]: fields(2, "Governança revisada") }, before);
    before.close();
    expect(readFileSync(fieldsFile).length).toBeGreaterThan(size);
    const after = loadEntryCache(root, "key-1")!;
    expect(after.count).toBe(names.length);
    expect(after.fields(names[2])!.data.title).toBe("Governança revisada");
    expect(after.body(after.fields(names[2])!)).toBe("Corpo 2");
    expect(after.fields(names[0])!.data.title).toBe("Título 0");
    after.close();
  });

  it("reads as no cache a file cut short, and leaves out a file marked gone", () => {
    appendFileSync(fieldsFile, `${JSON.stringify({ gone: names[3] })}\n`);
    const cache = loadEntryCache(root, "key-1")!;
    expect(cache.stamp(names[3])).toBeUndefined();
    expect(Object.keys(cache.entries)).not.toContain(names[3]);
    cache.close();
    writeFileSync(fieldsFile, readFileSync(fieldsFile, "utf8").slice(0, -20));
    expect(loadEntryCache(root, "key-1")).toBeUndefined();
  });
});
