#!/usr/bin/env node
// The sitegen peer of ../shared/bench (run-peers.sh appends two absolute paths): links the generated
// entries (CONTENT/pt, CONTENT/en) in as bench/site's collection, then runs `sitegen build` there into OUT,
// in this process, as `sitegen build` runs in a project (a second Node process would count its start-up too).
// Usage: node bench/build-peer-site.cjs CONTENT OUT
const { rmSync, symlinkSync } = require("node:fs");
const { join, resolve } = require("node:path");

const [content, out] = process.argv.slice(2);
if (!content || !out) {
  console.error("usage: node bench/build-peer-site.cjs CONTENT_DIR OUT_DIR");
  process.exit(2);
}
const site = join(__dirname, "site");
for (const locale of ["pt", "en"]) {
  const link = join(site, "content", locale, "insights");
  rmSync(link, { force: true, recursive: true });
  symlinkSync(resolve(content, locale), link, "dir");
}
const sitegen = join(__dirname, "..", "bin", "sitegen.js");
process.chdir(site);
process.argv = [process.argv[0], sitegen, "build", "--out", resolve(out)];
require(sitegen);
