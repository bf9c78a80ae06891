import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERRORS } from "../../src/generator/error-catalogue.ts";
import { errorsDoc } from "../../scripts/errors-doc.ts";
import { ROOT } from "../helpers.ts";

/** docs/errors.md is generated from the error catalogue (scripts/errors-doc.ts); these fail when it is stale. */
describe("docs/errors.md", () => {
  it("is what `npm run docs:errors` writes from the catalogue today", () => {
    const onDisk = readFileSync(join(ROOT, "docs", "errors.md"), "utf8");
    // On failure: run `npm run docs:errors` and commit docs/errors.md.
    expect(onDisk).toBe(errorsDoc());
  });

  it("has a section with the title of every catalogued error", () => {
    const doc = errorsDoc();
    const names = Object.keys(ERRORS) as (keyof typeof ERRORS)[];
    expect(names.length).toBeGreaterThan(40);
    const missing = names.filter((name) => !doc.includes(`## ${name}\n\n**${ERRORS[name].title}**\n`));
    expect(missing).toEqual([]);
  });

  it("shows a parameter as a placeholder, and each variant of a hint that depends on one", () => {
    const doc = errorsDoc();
    expect(doc).toContain("{file} does not exist: sitegen reads the site's address, locales and endpoints from it.");
    expect(doc).toContain(
      "Hint: The disk is full: free some space (or build elsewhere with --out &lt;dir>) and build again.",
    );
    expect(doc).toContain(
      "Hint: sitegen may not write there: check the folder's permissions, or choose another with --out &lt;dir>.",
    );
    expect(doc).not.toMatch(/undefined|\[object |NaN/);
  });

  it("is written by the script itself, through esbuild, with the same text", () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-errors-doc-"));
    try {
      const out = join(dir, "errors.md");
      const run = spawnSync(process.execPath, [join(ROOT, "scripts", "errors-doc.mjs"), out], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(readFileSync(out, "utf8")).toBe(errorsDoc());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
