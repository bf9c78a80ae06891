#!/usr/bin/env node
// `npm run bench`: compiles the benchmark tooling (bench/main.ts) with esbuild into the cache folder, as
// bin/sitegen.js compiles the CLI, and runs it with the arguments given.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = join(root, "node_modules", ".cache", "sitegen", "bench.mjs");
await build({
  entryPoints: [join(root, "bench", "main.ts")],
  absWorkingDir: root,
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  // The tooling finds the project from its own place: its source file's, not the compiled file's.
  define: { "import.meta.url": JSON.stringify(pathToFileURL(join(root, "bench", "main.ts")).href) },
  logLevel: "error",
});
await import(pathToFileURL(outfile).href);
