import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { formatError } from "../../src/generator/errors.ts";
import { parseHtml } from "../helpers.ts";
import { catalogueSite } from "../catalogue-site.ts";

/**
 * The field types of a catalogue's collection, on a small shop in French and English (tests/catalogue-site.ts):
 * numbers and yes/no fields reach the pages as numbers and booleans, and a wrong value is named with its file,
 * line and field.
 */
const SCHEMA = `{
  title: { type: "text", required: true },
  description: { type: "text", required: true },
  price: { type: "number", min: 0, max: 500, required: true },
  inStock: { type: "boolean" },
  translationKey: { type: "text" },
}`;

const piece = (fields: Record<string, string | number | boolean>) =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\nUn vitrail.\n`;
const out = () => join(mkdtempSync(join(tmpdir(), "sitegen-fields-")), "dist");
const page = (dir: string, file: string) => parseHtml(readFileSync(join(dir, file), "utf8"));
const texts = (dir: string, file: string, selector: string) =>
  page(dir, file)
    .querySelectorAll(selector)
    .map((e) => e.textContent.trim());

describe("number and boolean fields", () => {
  it("reach the listing and the entry's page as a number and a boolean", async () => {
    const site = catalogueSite(SCHEMA);
    site.write("content/fr/pieces/rosace.md", piece({ title: "Rosace", description: "Une rosace.", price: 120 }));
    site.write(
      "content/fr/pieces/vitrail-bleu.md",
      piece({ title: "Vitrail bleu", description: "Du bleu.", price: 89.5, inStock: true }),
    );
    const dir = out();
    await buildSite({ root: site.root, outDir: dir });
    expect(texts(dir, "boutique.html", ".pieces li").sort()).toEqual([
      "Rosace number 120 undefined undefined",
      "Vitrail bleu number 89.5 boolean true",
    ]);
    expect(texts(dir, "boutique/vitrail-bleu.html", ".price")).toEqual(["number 89.5"]);
  });

  it("name each wrong value with its file, line, column and field, in words a user understands", async () => {
    const site = catalogueSite(SCHEMA);
    site.write(
      "content/fr/pieces/rosace.md",
      piece({ title: "Rosace", description: "Une rosace.", price: '"120"', inStock: "oui" }),
    );
    site.write("content/fr/pieces/grand.md", piece({ title: "Grand", description: "Grand.", price: 900 }));
    site.write("content/fr/pieces/vide.md", piece({ title: "Vide", description: "Sans prix.", price: "[]" }));
    const error = await buildSite({ root: site.root, outDir: out() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(formatError(error).split("\n").slice(0, 5)).toEqual([
      "EntryInvalid: Invalid entry",
      "  content/fr/pieces/grand.md:4:1, `price`: must be a number from 0 to 500, not 900.",
      '  content/fr/pieces/rosace.md:4:1, `price`: must be a number from 0 to 500, not "120" ' +
        "(write it without quotes).",
      '  content/fr/pieces/rosace.md:5:1, `inStock`: must be true or false, not "oui".',
      "  content/fr/pieces/vide.md:4:1, `price`: must be a number from 0 to 500, not [].",
    ]);
  });
});
