#!/usr/bin/env node
// The sitegen peer of ../shared/bench (run-peers.sh appends two absolute paths): links the generated
// entries (CONTENT/pt, CONTENT/en) in as bench/site's collection, then runs `sitegen build` there into OUT.
// Usage: node bench/build-peer-site.mjs CONTENT OUT
import { rmSync, symlinkSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [content, out] = process.argv.slice(2);
if (!content || !out) {
  console.error("usage: node bench/build-peer-site.mjs CONTENT_DIR OUT_DIR");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const site = join(here, "site");
for (const locale of ["pt", "en"]) {
  const link = join(site, "content", locale, "insights");
  rmSync(link, { force: true, recursive: true });
  symlinkSync(resolve(content, locale), link, "dir");
}
const built = spawnSync(process.execPath, [join(here, "..", "bin", "sitegen.js"), "build", "--out", resolve(out)], { cwd: site, stdio: "inherit" });
process.exit(built.status ?? 1);
