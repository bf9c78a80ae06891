import { afterAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, type Font } from "fontkitten";
import { bundleStyles } from "../../src/generator/compile/styles.ts";
import { ROOT } from "../helpers.ts";

const INTER = join(ROOT, "node_modules", "@fontsource-variable", "inter", "files", "inter-latin-wght-normal.woff2");

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A project holding only a stylesheet (and the files it names), as any site using sitegen could. */
function project(css: string): string {
  const root = mkdtempSync(join(tmpdir(), "sitegen-styles-"));
  made.push(root);
  mkdirSync(join(root, "src", "styles", "fonts"), { recursive: true });
  mkdirSync(join(root, "src", "styles", "img"), { recursive: true });
  copyFileSync(INTER, join(root, "src", "styles", "fonts", "body.woff2"));
  writeFileSync(
    join(root, "src", "styles", "img", "grid.svg"),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1"/></svg>',
  );
  writeFileSync(join(root, "src", "styles", "main.css"), css);
  return root;
}

describe("the files a stylesheet names with url()", () => {
  const copiedWithHashes =
    "are copied under assets/ with hashed names and the stylesheet points at them; other origins and data: stay as " +
    "written";
  it(copiedWithHashes, async () => {
    const root = project(
      `.a { background: url("./img/grid.svg"); } .b { background: url("https://cdn.example.com/x.png"); } ` +
        `.c { background: url("data:image/gif;base64,R0lGODlhAQABAAAAACw="); }`,
    );
    const sheet = await bundleStyles(root);
    expect(sheet.assets.map((a) => a.file)).toEqual([expect.stringMatching(/^assets\/grid\.[0-9a-f]{10}\.svg$/)]);
    expect(Buffer.from(sheet.assets[0].code).toString()).toBe(
      readFileSync(join(root, "src", "styles", "img", "grid.svg"), "utf8"),
    );
    const css = Buffer.from(sheet.code).toString();
    expect(css).toContain(`url(${sheet.assets[0].href})`);
    expect(css).toContain("https://cdn.example.com/x.png");
    expect(css).toContain("data:image/gif;base64,");
    // An image is not a font: nothing to preload.
    expect(sheet.fonts).toEqual([]);
  });

  it("cut a font to its @font-face rule's unicode-range and weight range, and list it for preloading", async () => {
    const root = project(
      `@font-face { font-family: Body; font-weight: 500 700; src: url("./fonts/body.woff2") format("woff2"); ` +
        "unicode-range: U+0041-005A; } body { font-family: Body; }",
    );
    const sheet = await bundleStyles(root);
    expect(sheet.fonts).toEqual([{ href: sheet.assets[0].href, type: "font/woff2" }]);
    const font = create(Buffer.from(sheet.assets[0].code)) as Font;
    expect(font.hasGlyphForCodePoint("Q".codePointAt(0)!)).toBe(true);
    expect(font.hasGlyphForCodePoint("q".codePointAt(0)!)).toBe(false);
    expect(font.variationAxes.wght).toMatchObject({ min: 500, max: 700 });
    expect(sheet.assets[0].code.byteLength).toBeLessThan(readFileSync(INTER).byteLength / 2);
    // The same inputs give the same file (from the cache on the second build), so its hashed name holds.
    expect((await bundleStyles(root)).assets[0].file).toBe(sheet.assets[0].file);
  });

  it("leave a font whose rule declares no unicode-range as it is", async () => {
    const root = project(`@font-face { font-family: Body; src: url("./fonts/body.woff2") format("woff2"); }`);
    const sheet = await bundleStyles(root);
    expect(Buffer.compare(Buffer.from(sheet.assets[0].code), readFileSync(INTER))).toBe(0);
  });
});
