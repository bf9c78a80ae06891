import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import fg from "fast-glob";
import { parseSimpleYaml } from "../../src/generator/yaml-fast.ts";
import { ROOT } from "../helpers.ts";

/** js-yaml's value, or "error" when it refuses the text. */
function reference(text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA });
  } catch {
    return "error";
  }
}

/** The fast path may only give js-yaml's value, or step aside (undefined). */
function expectSameOrDeferred(text: string): "parsed" | "deferred" {
  const fast = parseSimpleYaml(text);
  if (fast === undefined) return "deferred";
  expect(fast, text).toEqual(reference(text));
  return "parsed";
}

describe("the YAML fast path", () => {
  it("parses every content file itself, site.yaml included, to exactly what js-yaml gives", () => {
    const files = fg.sync("content/**/*.yaml", { cwd: ROOT }).sort();
    expect(files).toContain("content/site.yaml");
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(parseSimpleYaml(text), `${file} should take the fast path`).toEqual(reference(text));
    }
  });

  it("reads the forms content uses: nesting, comments, plain and quoted text, literal blocks", () => {
    const text = [
      "# Página inicial",
      "hero:",
      "  title: Leve a IA do piloto à produção  # comentário",
      '  eyebrow: "Consultoria · {city}: \\"IA\\" \\u00e9 aqui"',
      "  url: https://example.com.br/a#b",
      "",
      "  body: |",
      "    Primeiro parágrafo.",
      "",
      "      - um item mais recuado",
      "    Fim.",
      "",
      "  note: |-",
      "    Sem quebra final.",
      "empty:",
      "last: 2026-11-22 é uma data em texto",
    ].join("\n");
    expect(expectSameOrDeferred(text)).toBe("parsed");
    expect(parseSimpleYaml(text)).toMatchObject({ hero: { body: "Primeiro parágrafo.\n\n  - um item mais recuado\nFim.\n", note: "Sem quebra final." }, empty: null });
  });

  it("reads lists of text and of mappings, whole numbers and booleans, as site.yaml has them", () => {
    const text = ["locales:", "  - code: pt", "    prefix: \"\"", "  - code: en", "    prefix: /en", "tags:", "- IA", '- "LGPD"', "limits:", "  perMinute: 5", "  trustProxy: false", "  zero: 0"].join("\n");
    expect(expectSameOrDeferred(text)).toBe("parsed");
    expect(parseSimpleYaml(text)).toEqual({ locales: [{ code: "pt", prefix: "" }, { code: "en", prefix: "/en" }], tags: ["IA", "LGPD"], limits: { perMinute: 5, trustProxy: false, zero: 0 } });
  });

  it.each([
    ["a nested list", "items:\n  - - one\n"],
    ["a list at the top", "- one\n- two\n"],
    ["an empty list item", "items:\n  -\n  - two\n"],
    ["a flow mapping", "a: {b: 1}\n"],
    ["single quotes", "a: 'it''s'\n"],
    ["an anchor and alias", "a: &x text\nb: *x\n"],
    ["a tag", "a: !!str 12\n"],
    ["a number with a leading zero", "code: 012\n"],
    ["a negative number", "delta: -3\n"],
    ["a float", "ratio: 1.5e3\n"],
    ["a capitalised boolean", "on: True\n"],
    ["a null word", "a: null\n"],
    ["multi-line plain text", "a: first line\n  second line\n"],
    ["multi-line quoted text", 'a: "first\n  second"\n'],
    ["a folded block", "a: >\n  folded\n  text\n"],
    ["a kept block", "a: |+\n  kept\n\n"],
    ["an indentation indicator", "a: |2\n   text\n"],
    ["a duplicated key", "a: one\na: two\n"],
    ["a colon in plain text", "a: time: now\n"],
    ["a tab", "a:\n\tb: c\n"],
    ["a quoted key", '"a b": c\n'],
    ["a document marker", "---\na: b\n"],
    ["uneven indentation", "a:\n    b: c\n  d: e\n"],
    ["a missing colon", "a: b\nc\n"],
    ["text after a closing quote", 'a: "b" c\n'],
    ["an unknown escape", 'a: "\\q"\n'],
  ])("steps aside for %s", (_, text) => {
    expect(parseSimpleYaml(text)).toBeUndefined();
  });

  it("agrees with js-yaml on thousands of generated documents, or steps aside", () => {
    // A deterministic generator (mulberry32) of documents near the subset's edges.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T,>(items: T[]) => items[Math.floor(random() * items.length)];
    const words = ["Olá", "IA", "LGPD", "ção", "a", "dados", " ", " ", "-", ",", ".", "É", "x"];
    const edges = ["\u00a0", "\u2003", "\u00a0#", "1", "2026", "0x1F", "#", " #", ":", ": ", "'", '"', "\\", "|", ">", "{", "}", "[", "]", "&", "*", "!", "%", "@", "`", "~", "null", "true", ".5", "e3", "  ", "?", "\\n", "\\u00e9", "\\x41"];
    const values = ["5", "0", "012", "42", "true", "false", "True", "-3", "1e3", "1.5", "999999999999999", "9999999999999999", '""', "- x", "-"];
    const scalar = () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(random() < 0.95 ? words : edges)).join("");
    const keys = ["a", "title", "item", "_x", "k-2"];
    const oddKeys = ["true", "1", "a b", "null"];
    const doc = (depth: number, indent: string): string[] => {
      const out: string[] = [];
      const count = 1 + Math.floor(random() * 4);
      for (let k = 0; k < count; k++) {
        // Now and then a key YAML reads otherwise, or the same key twice.
        const key = random() < 0.03 ? pick(oddKeys) : `${pick(keys)}${random() < 0.03 ? "" : k}`;
        const form = random();
        if (form < 0.1) out.push(`${indent}# ${scalar()}`);
        if (form < 0.15) out.push("");
        if (depth < 3 && form < 0.35) {
          out.push(`${indent}${key}:`, ...doc(depth + 1, indent + pick(["  ", "  ", "    ", " "])));
        } else if (form < 0.45 && random() < 0.4) {
          out.push(`${indent}${key}:`);
          const dash = indent + pick(["", "  ", "  ", " ", "    "]);
          for (let item = 0; item < 1 + Math.floor(random() * 3); item++) {
            if (random() < 0.5) {
              out.push(`${dash}-${pick([" ", " ", "  ", ""])}${pick(keys)}${item}: ${random() < 0.3 ? pick(values) : scalar()}`);
              if (random() < 0.5) out.push(`${dash}${pick(["  ", "  ", "   ", " "])}${pick(keys)}x${item}: ${random() < 0.3 ? pick(values) : scalar()}`);
            } else {
              out.push(`${dash}- ${random() < 0.3 ? pick(values) : random() < 0.3 ? `"${scalar()}"` : scalar()}`);
            }
            if (random() < 0.1) out.push("");
          }
        } else if (form < 0.45) {
          out.push(`${indent}${key}: ${pick(["|", "|", "|-", "|-", "|+", ">", "|2"])}`);
          for (let l = 0; l < 1 + Math.floor(random() * 3); l++) out.push(random() < 0.2 ? "" : `${indent}${pick(["  ", "    ", " "])}${scalar()}`);
        } else if (form < 0.65) {
          out.push(`${indent}${key}: "${scalar()}"${pick(["", " # note", "x", "  "])}`);
        } else {
          out.push(`${indent}${key}:${pick([" ", " ", "  ", ""])}${random() < 0.15 ? pick(values) : scalar()}`);
        }
      }
      return out;
    };
    const tally = { parsed: 0, deferred: 0 };
    for (let n = 0; n < 6000; n++) tally[expectSameOrDeferred(doc(0, "").join("\n") + pick(["", "\n", "\n\n"]))]++;
    // Both outcomes must be common, or the generator tests nothing.
    expect(tally.parsed).toBeGreaterThan(1000);
    expect(tally.deferred).toBeGreaterThan(1000);
  });
});
