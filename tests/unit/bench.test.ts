import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * `npm run bench -- --incremental N` (docs/performance.md): on a small site it must run every part, render
 * only the edited page, see the edit served, and leave no copy of the bench site behind.
 */
const root = join(import.meta.dirname, "..", "..");

describe("npm run bench -- --incremental", () => {
  it.skipIf(!existsSync(join(root, "..", "shared", "bench", "gen-content.mjs")))(
    "times cold builds, a build after one edit and sitegen serve showing the edit, then cleans up",
    () => {
      const bench = spawnSync(
        process.execPath,
        [join(root, "bench", "run.mjs"), "--incremental", "15", "--runs", "1"],
        { cwd: root, encoding: "utf8", timeout: 240_000 },
      );
      expect(bench.stderr).toBe("");
      expect(bench.status).toBe(0);
      expect(bench.stdout).toMatch(/cold build 1\/1: \d+ ms \(30 pages\)/);
      expect(bench.stdout).toMatch(/incremental build 1\/1: \d+ ms \(1 of 30 pages rendered\)/);
      expect(bench.stdout).toMatch(/incremental \/ cold: +\d+\.\d %/);
      expect(bench.stdout).toMatch(/incremental build: +\d+ ms wall, \d+ ms CPU/);
      expect(bench.stdout).toMatch(/sitegen serve, save to the edit in the page: \d+ ms/);
      expect(readdirSync(join(root, "bench")).filter((name) => name.startsWith(".incremental-"))).toEqual([]);
    },
    300_000,
  );

  it.skipIf(!existsSync(join(root, "..", "shared", "bench", "gen-content.mjs")))(
    "on this site, edits a word of an older article's text, which renders that page alone",
    () => {
      const bench = spawnSync(
        process.execPath,
        [join(root, "bench", "run.mjs"), "--incremental", "15", "--runs", "1", "--on", "this"],
        { cwd: root, encoding: "utf8", timeout: 240_000 },
      );
      expect(bench.stderr).toBe("");
      expect(bench.status).toBe(0);
      const pages = Number(/cold build 1\/1: \d+ ms \((\d+) pages\)/.exec(bench.stdout)?.[1]);
      // The site's own pages and articles, and the thirty generated ones (the oldest is then not in the feeds' newest
      // twenty).
      expect(pages).toBeGreaterThan(90);
      expect(bench.stdout).toContain(`incremental build 1/1: `);
      expect(bench.stdout).toContain(`(1 of ${pages} pages rendered)`);
      expect(bench.stdout).toMatch(
        /this site with the generated articles added, \d+ pages, a word of an older article's text edited/,
      );
      expect(bench.stdout).toMatch(/sitegen serve, save to the edit in the page: \d+ ms/);
    },
    300_000,
  );
});
