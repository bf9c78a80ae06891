import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";

/**
 * What `npm pack` of the checkout gives a site that installs sitegen (`npm i -D sitegen-<version>.tgz`): the
 * CLI, the generator's and the server's sources, the declarations of its entry point and the starter, and
 * nothing of this repository's own site, tests or benchmarks.
 * tests/unit/starter.test.ts installs such a tarball and builds a site with it.
 */
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  bin: Record<string, string>;
  exports: Record<string, Record<string, string> | string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

describe("the package npm pack makes of the checkout", () => {
  it("holds the CLI, the generator, the server and the starter, and no test, benchmark or site content", () => {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" }),
    ) as [{ files: { path: string }[] }];
    const files = packed.files.map((f) => f.path);
    expect(files).toContain("bin/sitegen.js");
    expect(files).toContain("src/generator/cli.ts");
    expect(files).toContain("src/generator/site-definition.ts");
    expect(files).toContain("src/server/start.ts");
    expect(files).toContain("starter/site/src/pages/routes.ts");
    expect(files).toContain("starter/text/pt-BR/text.yaml");
    // types/ is written by the prepack script, which this dry run skips (starter.test.ts packs for real).
    const tops = [...new Set(files.map((f) => f.split("/")[0]))].filter((f) => f !== "types").sort();
    expect(tops).toEqual(["README.md", "bin", "package.json", "src", "starter"]);
    expect(files.filter((f) => f.startsWith("src/") && !/^src\/(generator|server)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /\.test\.|\.spec\.|^(tests|bench|content|public|docs|scripts)\//.test(f))).toEqual([]);
  });

  it("exports defineSite and the page types, runs its CLI as the bin, and leaves React to the site", () => {
    const entry = pkg.exports["."] as Record<string, string>;
    expect(entry.types).toBe("./types/site-definition.d.ts");
    expect(entry.default).toBe("./src/generator/site-definition.ts");
    const source = readFileSync(join(ROOT, entry.default), "utf8");
    for (const name of ["function defineSite", "interface PageData", "interface DocumentProps", "type FieldRule"])
      expect(source).toContain(`export ${name}`);
    expect(existsSync(join(ROOT, pkg.bin.sitegen))).toBe(true);
    for (const peer of ["react", "react-dom"]) {
      expect(pkg.peerDependencies[peer], peer).toMatch(/^\^19\./);
      expect(pkg.dependencies[peer], peer).toBeUndefined();
    }
  });
});
