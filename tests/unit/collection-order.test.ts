import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCollections } from "../../src/generator/pipeline/collections.ts";
import type { CollectionDefinition } from "../../src/generator/site-definition.ts";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { parseHtml } from "../helpers.ts";
import { catalogueSite } from "../catalogue-site.ts";

/**
 * The order of a collection's entries, which listings, feeds, the home page's newest articles and
 * previous/next links all follow: by the sort field, greatest first, then by slug.
 */
describe("a collection's order", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-order-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  /** An entry's file: text quoted, numbers and booleans as YAML writes them. */
  const write = (
    collection: string,
    slug: string,
    fields: Record<string, string | number | boolean>,
    locale = "pt",
  ) => {
    const dir = join(root, "content", locale, collection);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${slug}.yaml`),
      Object.entries(fields)
        .map(([k, v]) => `${k}: ${typeof v === "string" ? `"${v}"` : v}`)
        .join("\n") + "\n",
    );
  };
  const load = (definition: CollectionDefinition, locale = "pt") =>
    loadCollections({
      root,
      siteUrl: "https://example.com",
      locales: [locale],
      dictionaries: { [locale]: new Map() },
      definitions: [definition],
      drafts: false,
    })[definition.name][locale].map((e) => e.slug);

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

  it("orders by a number as a number, ascending or descending, entries without it last", () => {
    write("prices", "p1", { title: "Nine", price: 9 });
    write("prices", "p2", { title: "Ten", price: 10 });
    write("prices", "p3", { title: "Big", price: 120 });
    write("prices", "p4", { title: "Half", price: 45.5 });
    write("prices", "p5", { title: "No price" });
    const schema = { title: { type: "text" as const }, price: { type: "number" as const } };
    // As text, "10" would come before "9" and "120" before "45.5".
    expect(load({ name: "prices", schema, sortBy: { field: "price", order: "asc" } })).toEqual([
      "p1",
      "p2",
      "p4",
      "p3",
      "p5",
    ]);
    expect(load({ name: "prices", schema, sortBy: { field: "price", order: "desc" } })).toEqual([
      "p3",
      "p4",
      "p2",
      "p1",
      "p5",
    ]);
    // The string form: the greatest first, as for a date.
    expect(load({ name: "prices", schema, sortBy: "price" })).toEqual(["p3", "p4", "p2", "p1", "p5"]);
  });

  it("refuses a sort field the schema lacks, and an order other than asc or desc, naming routes.ts", () => {
    const schema = { title: { type: "text" as const }, price: { type: "number" as const } };
    expect(() => load({ name: "prices", schema, sortBy: "prise" })).toThrow(
      'the collection "prices"\'s sortBy names "prise", which its schema does not define.',
    );
    const ascending = { field: "price", order: "ascending" } as unknown as { field: string; order: "asc" };
    expect(() => load({ name: "prices", schema, sortBy: ascending })).toThrow(
      'the collection "prices"\'s sortBy order is "ascending": write "asc" or "desc".',
    );
  });

  it("orders text ascending as the locale's language does: ö beside o in German, after z in Swedish", () => {
    for (const locale of ["de", "sv"]) {
      write("names", "n1", { title: "Zucker" }, locale);
      write("names", "n2", { title: "Öl" }, locale);
      write("names", "n3", { title: "Obst" }, locale);
    }
    const definition: CollectionDefinition = {
      name: "names",
      schema: { title: { type: "text", required: true } },
      sortBy: { field: "title", order: "asc" },
    };
    expect(load(definition, "de")).toEqual(["n3", "n2", "n1"]);
    expect(load(definition, "sv")).toEqual(["n3", "n1", "n2"]);
  });

  it("orders oldest first with an ascending date, and a yes/no field false first", () => {
    write("events", "e1", { title: "Late", date: "2027-02-01", open: true });
    write("events", "e2", { title: "Early", date: "2026-05-01", open: false });
    write("events", "e3", { title: "Middle", date: "2026-09-15", open: true });
    const schema = {
      title: { type: "text" as const },
      date: { type: "date" as const },
      open: { type: "boolean" as const },
    };
    expect(load({ name: "events", schema, sortBy: { field: "date", order: "asc" } })).toEqual(["e2", "e3", "e1"]);
    expect(load({ name: "events", schema, sortBy: { field: "open", order: "asc" } })).toEqual(["e2", "e1", "e3"]);
  });
});

describe("a catalogue sorted by price, cheapest first", () => {
  it("lists its pieces in that order on the listing page, in each locale", async () => {
    const site = catalogueSite(
      `{ title: { type: "text", required: true }, description: { type: "text", required: true }, ` +
        `price: { type: "number", required: true, shared: true } }`,
      `{ field: "price", order: "asc" }`,
    );
    const pieces: [string, string, number][] = [
      ["rosace", "Rose window", 120],
      ["medaillon", "Medallion", 45],
      ["lanterne", "Lantern", 9.5],
    ];
    for (const [slug, english, price] of pieces) {
      site.write(
        `content/fr/pieces/${slug}.md`,
        `---\ntitle: ${slug}\ndescription: Un vitrail.\nprice: ${price}\n---\n`,
      );
      site.write(`content/en/pieces/${slug}.md`, `---\ntitle: ${english}\ndescription: Stained glass.\n---\n`);
    }
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-order-site-")), "dist");
    await buildSite({ root: site.root, outDir: out });
    const listed = (file: string) =>
      parseHtml(readFileSync(join(out, file), "utf8"))
        .querySelectorAll(".pieces li")
        .map((li) => li.textContent.trim());
    expect(listed("boutique.html")).toEqual([
      "lanterne number 9.5 undefined undefined",
      "medaillon number 45 undefined undefined",
      "rosace number 120 undefined undefined",
    ]);
    expect(listed("en/shop.html")).toEqual([
      "Lantern number 9.5 undefined undefined",
      "Medallion number 45 undefined undefined",
      "Rose window number 120 undefined undefined",
    ]);
  });
});
