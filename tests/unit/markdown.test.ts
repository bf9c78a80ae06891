import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countWords, readingMinutes } from "../../src/generator/markdown.ts";

/**
 * What countWords counts, as one pattern: the runs between white space and markup that start with a letter or a
 * digit.
 */
const reference = (source: string) => source.match(/[\p{L}\p{N}][^\s#>*_`|[\]()-]*/gu)?.length ?? 0;

describe("the words of an article (its reading time)", () => {
  it("counts the words of prose, not its markup", () => {
    expect(
      countWords(
        "# Governança de IA\n\nA **LGPD** já pede isso — e o PL 2338/2023 também.\n\n" +
          "- item _um_\n- [link](https://example.com)",
      ),
    ).toBe(17);
    expect(countWords("")).toBe(0);
    expect(countWords("  --- *** ### ```  ")).toBe(0);
  });

  it("counts as the pattern does, on every article of the site and on text made to trip it", () => {
    const samples: string[] = [];
    for (const locale of ["pt", "en"]) {
      const dir = join("content", locale, "insights");
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".md")))
        samples.push(readFileSync(join(dir, file), "utf8"));
    }
    expect(samples.length).toBeGreaterThan(6);
    samples.push(
      "ação\u00a0reação\u2003três\u3000四つ\ufeffword\u2028line\u2029para\u202fnarrow\u205fmath\u1680ogham",
      "emoji 🙂 between, 𝐀𝐁 letters outside the BMP, ٣٤ digits, ½ and ² (numbers), lone \ud800 and \udc00 surrogates",
      "tabs\tand\vvertical\ffeeds\r\nand 'quotes', \"double\", a-b c_d e*f g|h [i] (j) k#l m>n o`p",
    );
    for (const sample of samples) expect(countWords(sample)).toBe(reference(sample));
    // Every character of the first plane, alone and between two letters.
    const differences: { c: number; text: string; words: number; reference: number }[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [ch, `a${ch}b`, `${ch}a`]) {
        const words = countWords(text);
        if (words !== reference(text)) differences.push({ c, text, words, reference: reference(text) });
      }
    }
    expect(differences).toEqual([]);
  });

  it("gives one minute per 200 words, at least one", () => {
    expect(readingMinutes(countWords("palavra ".repeat(1000)))).toBe(5);
    expect(readingMinutes(countWords("curto"))).toBe(1);
  });
});
