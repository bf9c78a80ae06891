#!/usr/bin/env node
// `npm run docs:errors [-- <file>]`: writes docs/errors.md (or <file>) from the error catalogue. The text is
// made by errorsDoc() in scripts/errors-doc.ts, which tests/unit/errors-doc.test.ts also calls. Node 20
// cannot import TypeScript, so esbuild (a dependency already) bundles that module in memory first.
import { writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.argv[2] ?? join(root, "docs", "errors.md"));
const bundle = await build({
  entryPoints: [join(root, "scripts", "errors-doc.ts")],
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  logLevel: "error",
});
const { errorsDoc } = await import(
  `data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`
);
writeFileSync(out, errorsDoc());
console.log(`Wrote ${relative(process.cwd(), out) || out}`);
