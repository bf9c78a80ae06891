import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { formatError } from "../../src/generator/errors.ts";
import { entryTranslationWarnings } from "../../src/generator/entry-translations.ts";
import { parseHtml, ROOT, sitePlan } from "../helpers.ts";
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

/** A piece's price and photo, written once in French and shared by its English translation. */
const SHARED = `{
  title: { type: "text", required: true },
  description: { type: "text", required: true },
  price: { type: "number", min: 0, max: 500, required: true, shared: true },
  inStock: { type: "boolean", shared: true },
  photo: { type: "image", shared: true },
  translationKey: { type: "text" },
}`;

describe("shared fields", () => {
  it("are written once in the default locale and inherited by each translation, unless it sets its own", async () => {
    const site = catalogueSite(SHARED);
    copyFileSync(join(ROOT, "tests", "fixtures", "images", "portrait.jpg"), join(site.root, "rosace.jpg"));
    site.write(
      "content/fr/pieces/rosace.md",
      piece({ title: "Rosace", description: "Une rosace.", price: 120, inStock: true, photo: "../../../rosace.jpg" }),
    );
    // Paired by translationKey: another file name in English.
    site.write(
      "content/en/pieces/rose-window.md",
      piece({ title: "Rose window", description: "A rose window.", translationKey: "rosace" }),
    );
    // Paired by the file name; its own price and stock over the French ones.
    site.write(
      "content/fr/pieces/bleu.md",
      piece({ title: "Bleu", description: "Du bleu.", price: 89, inStock: true }),
    );
    site.write(
      "content/en/pieces/bleu.md",
      piece({ title: "Blue", description: "Blue glass.", price: 95, inStock: false }),
    );
    const dir = out();
    await buildSite({ root: site.root, outDir: dir });
    expect(texts(dir, "en/shop.html", ".pieces li").sort()).toEqual([
      "Blue number 95 boolean false",
      "Rose window number 120 boolean true",
    ]);
    expect(texts(dir, "en/shop/rose-window.html", ".price")).toEqual(["number 120"]);
    const photo = (file: string) => page(dir, file).querySelector("article img")!.getAttribute("src");
    expect(photo("en/shop/rose-window.html")).toMatch(/^\/assets\/img\/rosace-\d+\.[0-9a-f]+\.jpg$/);
    expect(photo("en/shop/rose-window.html")).toBe(photo("boutique/rosace.html"));
    // The two pages are translations of each other.
    expect(
      page(dir, "en/shop/rose-window.html")
        .querySelectorAll('link[rel="alternate"][hreflang]')
        .map((l) => l.getAttribute("href")),
    ).toContain("https://atelier.example.fr/boutique/rosace");

    // A new price in French reaches the English pages on the next (incremental) build.
    site.write(
      "content/fr/pieces/rosace.md",
      piece({ title: "Rosace", description: "Une rosace.", price: 135, inStock: true, photo: "../../../rosace.jpg" }),
    );
    await buildSite({ root: site.root, outDir: dir });
    expect(texts(dir, "en/shop/rose-window.html", ".price")).toEqual(["number 135"]);
    expect(texts(dir, "en/shop.html", ".pieces li")).toContain("Rose window number 135 boolean true");
  });

  it("reach a translation whose schema names `body`, beside its own body text", async () => {
    const schema = SHARED.replace("translationKey:", 'body: { type: "text" },\n  translationKey:');
    const site = catalogueSite(schema);
    site.write(
      "content/fr/pieces/rosace.yaml",
      "title: Rosace\ndescription: Une rosace.\nprice: 120\nbody: Du verre.\n",
    );
    site.write(
      "content/en/pieces/rose-window.yaml",
      "title: Rose window\ndescription: A rose window.\ntranslationKey: rosace\nbody: |\n  Stained glass.\n",
    );
    const dir = out();
    await buildSite({ root: site.root, outDir: dir });
    expect(texts(dir, "en/shop/rose-window.html", ".price")).toEqual(["number 120"]);
    expect(texts(dir, "en/shop/rose-window.html", ".body")).toEqual(["Stained glass."]);
    expect(texts(dir, "boutique/rosace.html", ".body")).toEqual(["Du verre."]);
  });

  it("required, and missing from a translation with no file in the default locale, fail the build", async () => {
    const site = catalogueSite(SHARED);
    site.write("content/fr/pieces/rosace.md", piece({ title: "Rosace", description: "Une rosace.", price: 120 }));
    site.write("content/en/pieces/lantern.md", piece({ title: "Lantern", description: "A lantern." }));
    const error = await buildSite({ root: site.root, outDir: out() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(formatError(error).split("\n").slice(0, 2)).toEqual([
      "EntryInvalid: Invalid entry",
      "  content/en/pieces/lantern.md, `price`: is required and missing, and this entry has no file in the default " +
        'locale ("fr") to inherit it from: write it here, or add that file (same file name, or same translationKey).',
    ]);
  });
});

describe("entries missing in a locale", () => {
  const sitegen = (root: string, ...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--out", out(), ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });

  it("are a warning naming the collection, the entry, the locale and the file that has it; --strict fails", () => {
    const site = catalogueSite(SHARED);
    site.write("content/fr/pieces/rosace.md", piece({ title: "Rosace", description: "Une rosace.", price: 120 }));
    site.write("content/fr/pieces/bleu.md", piece({ title: "Bleu", description: "Du bleu.", price: 89 }));
    site.write("content/en/pieces/bleu.md", piece({ title: "Blue", description: "Blue glass." }));
    site.write(
      "content/en/pieces/lantern.md",
      piece({ title: "Lantern", description: "A lantern.", price: 30, translationKey: "lanterne" }),
    );
    const message =
      "EntryTranslationMissing: Entry missing in a locale\n" +
      '  fr lacks the entry "lanterne" of the collection "pieces" (content/en/pieces/lantern.md has it).\n' +
      '  en lacks the entry "rosace" of the collection "pieces" (content/fr/pieces/rosace.md has it).\n' +
      "  hint: Add each entry's file in the locale named (content/fr/pieces/ for the first), with the same file " +
      "name or the same translationKey as the file that has it: until then its page exists only in the other " +
      "locales. A warning, unless --strict makes it fail the build.";
    const built = sitegen(site.root);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain(`\nwarning: ${message}\n`);
    const strict = sitegen(site.root, "--strict");
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain(message);
    expect(strict.stdout).not.toMatch(/^Built /m);
  });

  it("and a collection empty in a locale where another has entries, are reported as such; --strict fails", () => {
    const site = catalogueSite(SHARED);
    site.write("content/fr/pieces/rosace.md", piece({ title: "Rosace", description: "Une rosace.", price: 120 }));
    site.write("content/fr/pieces/bleu.md", piece({ title: "Bleu", description: "Du bleu.", price: 89 }));
    const message =
      "CollectionEmptyInLocale: Collection empty in a locale\n" +
      '  en has no entry of the collection "pieces" (content/en/pieces/ holds none; fr has 2): its listings in en ' +
      "are empty.\n" +
      "  hint: Add the translated entries to content/en/pieces/, each with the same file name or the same " +
      "translationKey as the original. A warning, unless --strict makes it fail the build.";
    const built = sitegen(site.root);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain(`\nwarning: ${message}\n`);
    // Its entries are not listed one by one as well.
    expect(built.stdout).not.toContain("EntryTranslationMissing");
    const strict = sitegen(site.root, "--strict");
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain(message);
  });

  it("are none on the consultancy site, whose --strict build they must not fail", async () => {
    const { collections, locales } = await sitePlan();
    expect(Object.values(collections.insights).map((entries) => entries.length)).toEqual([7, 7]);
    expect(entryTranslationWarnings(collections, locales, true)).toEqual([]);
  });
});
