import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCollections } from "../../src/generator/pipeline/collections.ts";
import type { CollectionDefinition } from "../../src/generator/site-definition.ts";

/**
 * The order of a collection's entries, which listings, feeds, the home page's newest articles and
 * previous/next links all follow: by the sort field, greatest first, then by slug.
 */
describe("a collection's order", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-order-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (collection: string, slug: string, fields: Record<string, string>) => {
    const dir = join(root, "content", "pt", collection);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${slug}.yaml`),
      Object.entries(fields)
        .map(([k, v]) => `${k}: "${v}"`)
        .join("\n") + "\n",
    );
  };
  const load = (definition: CollectionDefinition) =>
    loadCollections({
      root,
      siteUrl: "https://example.com",
      locales: ["pt"],
      dictionaries: { pt: new Map() },
      definitions: [definition],
      drafts: false,
    })[definition.name].pt.map((e) => e.slug);

  it("puts the newest date first, and entries of one date in the order of their slugs", () => {
    write("notes", "c-middle", { title: "C", date: "2026-03-10" });
    write("notes", "b-same-day", { title: "B", date: "2026-11-02" });
    write("notes", "a-same-day", { title: "A", date: "2026-11-02" });
    write("notes", "d-oldest", { title: "D", date: "2025-12-31" });
    write("notes", "e-newest", { title: "E", date: "2027-01-01" });
    expect(
      load({
        name: "notes",
        schema: { title: { type: "text", required: true }, date: { type: "date", required: true } },
      }),
    ).toEqual(["e-newest", "a-same-day", "b-same-day", "c-middle", "d-oldest"]);
  });

  it("orders by a text field as the language sorts it, accented letters beside their plain ones", () => {
    write("words", "w1", { title: "Árvore" });
    write("words", "w2", { title: "banana" });
    write("words", "w3", { title: "Abacaxi" });
    write("words", "w4", { title: "caju" });
    // Greatest first, as for dates: caju, banana, Árvore, Abacaxi (a code-unit comparison would put Árvore first).
    expect(load({ name: "words", sortBy: "title", schema: { title: { type: "text", required: true } } })).toEqual([
      "w4",
      "w2",
      "w1",
      "w3",
    ]);
  });
});
