import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { FORM_KINDS } from "../../src/api/forms.ts";
import { migrateSqlite } from "../../src/api/sqlite-migrate.ts";
import { openSqlite } from "../../src/api/sqlite-driver.ts";
import { ROOT } from "../helpers.ts";

/** The generator and the server hold no fact of this site and reach into none of its folders. */
const sources = fg
  .sync("src/{generator,server}/**/*.ts", { cwd: ROOT })
  .map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));

/**
 * The names of the site's back office, as src/api defines them: its forms, the tables of its store and
 * their columns (those of more than one word: "id", "email" or "message" are ordinary words the generator
 * uses in other senses), what the forms store ("submission"), and the law its data-subject commands answer
 * to. The store's schema is read from a database its own migrations made.
 */
function backOfficeNames(): string[] {
  const db = openSqlite(":memory:");
  try {
    migrateSqlite(db);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    const columns = tables.flatMap((table) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
    );
    const law = ["LGPD", "Lei 13.709", "art. 18", "data subject"];
    return [
      ...new Set([...FORM_KINDS, ...tables, ...columns.filter((c) => c.includes("_")), "submission", ...law]),
    ].sort();
  } finally {
    db.close();
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("src/generator and src/server", () => {
  it("imports nothing from the site's folders (pages, components, islands, api)", () => {
    const reaches = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)]
        .map((m) => m[1])
        .filter((spec) => /(^|\/)(pages|components|islands|api)(\/|$)/.test(spec) && spec.startsWith("."))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(sources.length).toBeGreaterThan(30);
    expect(reaches).toEqual([]);
  });

  it('names no locale of this site: no "pt", "en", "pt-BR" or "/en" literal', () => {
    const literals = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/["'`](pt|en|pt-BR|pt_BR|en_US|\/en)["'`/]/g)].map((m) => `${file}: ${m[0]}`),
    );
    expect(literals).toEqual([]);
  });

  it("names none of the site's forms, store tables, columns or laws, in code or comments (src/api holds them)", () => {
    const names = backOfficeNames();
    expect(names).toEqual(
      expect.arrayContaining(["newsletter", "contact", "outbox", "first_name", "created_at", "submission", "LGPD"]),
    );
    // Whole words in any case ("Newsletter", "SUBMISSIONS_DB"), a plural or a camelCase tail included ("contactForm").
    const patterns = names.map((name) => {
      const forms = [name, name[0].toUpperCase() + name.slice(1), name.toUpperCase()].map(escape).join("|");
      return { name, pattern: new RegExp(`(?<![A-Za-z0-9_])(?:${forms})[sS]?(?![a-z0-9])`) };
    });
    const found = sources.flatMap(({ file, text }) =>
      text
        .split("\n")
        .flatMap((line, i) =>
          patterns.filter(({ pattern }) => pattern.test(line)).map(({ name }) => `${file}:${i + 1}: ${name}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it("names none of the site's collections or the text groups they refer to, in messages, hints or comments", () => {
    // Its route table's collections and references ("insights", "leadership"), but for words the generator uses
    // in their ordinary sense (a page's tags, a site's services).
    const routes = readFileSync(join(ROOT, "src", "pages", "routes.ts"), "utf8");
    const names = [...new Set([...routes.matchAll(/\b(?:name|to): "([a-z-]+)"/g)].map((m) => m[1]))].filter(
      (name) => !["tags", "services"].includes(name),
    );
    expect(names).toEqual(expect.arrayContaining(["insights", "cases", "leadership"]));
    const found = sources.flatMap(({ file, text }) =>
      text
        .split("\n")
        .flatMap((line, i) =>
          names
            .filter((name) => new RegExp(`\\b${name}\\b`, "i").test(line))
            .map((name) => `${file}:${i + 1}: ${name}`),
        ),
    );
    expect(found).toEqual([]);
  });
});

/** The code a newcomer reads: every tracked source file of the project. */
const code = fg
  .sync(["{src,tests,bench,scripts,bin}/**/*.{ts,tsx,mjs,cjs,js,css}", "*.{ts,mjs}"], {
    cwd: ROOT,
    ignore: ["**/node_modules/**", "bench/site/**", "bench/.incremental-*/**", "tests/fixtures/**/dist/**"],
  })
  .map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));

/** The lines of the files below a folder, as `wc -l` counts them. */
const lineCount = (folder: string) =>
  code.filter(({ file }) => file.startsWith(folder)).reduce((sum, { text }) => sum + text.split("\n").length - 1, 0);

describe("the code stays readable", () => {
  it("fits every line in 120 characters (Prettier cannot break strings and comments)", () => {
    const long = code.flatMap(({ file, text }) =>
      text.split("\n").flatMap((line, i) => ([...line].length > 120 ? [`${file}:${i + 1}`] : [])),
    );
    expect(code.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  it("runs no code made from text: no eval, no Function constructor, no node:vm, no worker from a string", () => {
    const made = /\beval\(|new Function\(|["']node:vm["']|eval: true/;
    const found = code
      .filter(({ file }) => file.startsWith("src/") || file.startsWith("bin/"))
      .flatMap(({ file, text }) =>
        text.split("\n").flatMap((line, i) => (made.test(line) ? [`${file}:${i + 1}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it("keeps the generator under 7,000 lines and its build stages under 2,500", () => {
    expect(lineCount("src/generator/")).toBeLessThan(7_000);
    expect(lineCount("src/generator/pipeline/")).toBeLessThan(2_500);
    expect(lineCount("src/generator/pipeline/")).toBeGreaterThan(1_000);
  });
});
