import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fg from "fast-glob";
import { create, type Font } from "fontkitten";
import { createFontStack, type FontMetrics } from "@capsizecss/core";
import inter from "@capsizecss/metrics/inter";
import arial from "@capsizecss/metrics/arial";
import helvetica from "@capsizecss/metrics/helvetica";
import { fromFile } from "@capsizecss/unpack/fs";
import { buildSite, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { ROOT, parseHtml, projectCopy, visibleText } from "../helpers.ts";

let out: string;
let result: BuildResult;

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-fonts-")), "dist");
  result = await buildSite({ root: projectCopy(), outDir: out });
});

const fontsCss = readFileSync(join(ROOT, "src", "styles", "fonts.css"), "utf8");

/** The descriptors of the @font-face rule of `family` in src/styles/fonts.css. */
function face(family: string): Record<string, string> {
  const rule = fontsCss.match(new RegExp(`@font-face\\s*{[^}]*font-family:\\s*"${family}";[^}]*}`))?.[0];
  expect(rule, `an @font-face for "${family}"`).toBeDefined();
  return Object.fromEntries([...rule!.matchAll(/([a-z-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

describe("the typeface", () => {
  it("is one subset WOFF2 in dist, named by its hash, that every page preloads and the stylesheet names", () => {
    const fonts = fg.sync("assets/*.woff2", { cwd: out });
    expect(fonts).toEqual([expect.stringMatching(/^assets\/inter-latin-wght-normal\.[0-9a-f]{10}\.woff2$/)]);
    const css = readFileSync(join(out, fg.sync("assets/*.css", { cwd: out })[0]), "utf8");
    expect(css).toContain(`src:url(/${fonts[0]})format("woff2")`);
    expect(css).toContain("font-display:swap");
    for (const page of result.pages) {
      const links = parseHtml(readFileSync(join(out, page.file), "utf8")).querySelectorAll(
        'link[rel="preload"][as="font"]',
      );
      expect(
        links.map((l) => [l.getAttribute("href"), l.getAttribute("type"), l.hasAttribute("crossorigin")]),
        page.file,
      ).toEqual([[`/${fonts[0]}`, "font/woff2", true]]);
    }
  });

  const keepsInterWeights =
    "keeps Inter's weights 400 to 800 and has a glyph for every character of every page and text in both languages";
  it(keepsInterWeights, () => {
    const file = fg.sync("assets/*.woff2", { cwd: out })[0];
    const font = create(readFileSync(join(out, file))) as Font;
    expect(font.familyName).toBe("Inter");
    expect(font.variationAxes.wght).toMatchObject({ min: 400, max: 800 });
    const chars = new Set<string>();
    for (const page of result.pages)
      for (const c of visibleText(parseHtml(readFileSync(join(out, page.file), "utf8")))) chars.add(c);
    for (const dictionary of Object.values(result.dictionaries))
      for (const value of dictionary.values()) for (const c of value) chars.add(c);
    // Letters, digits, punctuation and currency: symbols (the footnotes' ↩) may come from a local font.
    const shown = [...chars].filter((c) => /[\p{L}\p{N}\p{P}\p{Sc}]/u.test(c));
    expect(shown.length).toBeGreaterThan(100);
    expect(
      shown
        .filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0)!))
        .map((c) => `U+${c.codePointAt(0)!.toString(16)} ${c}`),
    ).toEqual([]);
  });

  const fallbackFontsSized =
    "falls back to local fonts sized to Inter's metrics, as Capsize computes them, so the swap moves nothing";
  it(fallbackFontsSized, async () => {
    const dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    expect(existsSync(dejaVu), "Debian's fonts-dejavu-core, which Chromium installs").toBe(true);
    const fallbacks: [string, FontMetrics][] = [
      ["Inter Fallback Arial", arial],
      ["Inter Fallback Helvetica", helvetica],
      ["Inter Fallback DejaVu", (await fromFile(dejaVu)) as FontMetrics],
    ];
    for (const [family, metrics] of fallbacks) {
      const expected = createFontStack([inter, metrics], { fontFaceFormat: "styleObject" }).fontFaces[0]["@font-face"];
      const actual = face(family);
      for (const key of ["ascentOverride", "descentOverride", "sizeAdjust"] as const) {
        expect(actual[key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)], `${family} ${key}`).toBe(expected[key]);
      }
      expect(actual["line-gap-override"], `${family} line-gap-override`).toBe(expected.lineGapOverride ?? "0%");
    }
    const base = readFileSync(join(ROOT, "src", "styles", "base.css"), "utf8");
    expect(base).toContain(
      '--font: "Inter Variable", "Inter Fallback Arial", "Inter Fallback Helvetica", ' +
        '"Inter Fallback DejaVu", sans-serif;',
    );
    expect(face("Inter Variable")["font-display"]).toBe("swap");
  });
});
