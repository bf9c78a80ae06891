import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SitegenError } from "../../src/generator/errors.ts";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { ROOT, fixtureCopy } from "../helpers.ts";

/**
 * A page that fails to render, on the second site (tests/fixtures/minimal-site): the error names the page and
 * the line of src/pages/ that failed, never the compiled bundle (node_modules/.cache/sitegen/pages/pages-*.cjs)
 * nor the generator's or React's own frames.
 */
const out = () => join(mkdtempSync(join(tmpdir(), "sitegen-render-")), "dist");

/** The fixture site with `line` added as the first line of its workshop page's component; the line's number. */
function withLine(line: string): { project: string; number: number } {
  const project = fixtureCopy();
  const pages = join(project, "src", "pages", "pages.tsx");
  const text = readFileSync(pages, "utf8").replace(
    "export function Workshop() {",
    `export function Workshop() {\n${line}`,
  );
  writeFileSync(pages, text);
  return { project, number: text.split("\n").indexOf(line) + 1 };
}

describe("a page that fails to render", () => {
  it("names the line of src/pages/ that passed an unknown route id to page.href", () => {
    const { project, number } = withLine('  const menu = usePage().href("cardapio");');
    const built = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--out", out()], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(built.status).not.toBe(0);
    expect(built.stderr).toContain(
      "PageRenderError: A page failed to render\n" +
        '  Rendering route "workshop" at /atelier (fr) failed: ' +
        'No route has the id "cardapio" (src/pages/routes.ts).\n' +
        `      at Workshop (src/pages/pages.tsx:${number}:26)\n` +
        "  hint: ",
    );
    expect(built.stderr).not.toMatch(/\.cjs|node_modules/);
  }, 120_000);

  it("names the line of the component that threw, when the site's folder is reached through a link", async () => {
    const { project, number } = withLine('  throw new Error("no oven");');
    const linked = join(mkdtempSync(join(tmpdir(), "sitegen-linked-")), "site");
    symlinkSync(project, linked, "dir");
    const error = await buildSite({ root: linked, outDir: out() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, String((error as Error).stack)).toBeInstanceOf(SitegenError);
    expect((error as SitegenError).message).toBe(
      `Rendering route "workshop" at /atelier (fr) failed: no oven\n    at Workshop (src/pages/pages.tsx:${number}:9)`,
    );
  }, 120_000);
});
