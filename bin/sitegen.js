#!/usr/bin/env node
// The executable: compiles the TypeScript CLI on the fly with esbuild (a dependency the build needs anyway),
// so `npx sitegen` always runs the current sources and there is no separate compile step to forget.
// The compiled file is reused while none of its inputs changed, which keeps start-up near 50 ms.
import { existsSync, readFileSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const self = fileURLToPath(import.meta.url);
const root = resolve(dirname(self), "..");
// React picks its production build from NODE_ENV; the development build renders several times slower.
process.env.NODE_ENV ??= "production";
const cacheDir = join(root, "node_modules", ".cache", "sitegen");
const outFile = join(cacheDir, "cli.mjs");
// Compiled beside it: the output thread's entry (src/generator/output.ts starts it from there).
const threadFile = join(cacheDir, "output-thread.mjs");
const inputsFile = join(cacheDir, "cli.inputs.json");

function isFresh() {
  if (!existsSync(outFile) || !existsSync(threadFile) || !existsSync(inputsFile)) return false;
  const builtAt = statSync(outFile).mtimeMs;
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    return inputs.every((file) => existsSync(file) && statSync(file).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

if (!isFresh()) {
  // Loaded only to compile: most runs reuse the compiled CLI and never need it.
  const { build } = await import("esbuild");
  mkdirSync(cacheDir, { recursive: true });
  const result = await build({
    entryPoints: { cli: join(root, "src/generator/cli.ts"), "output-thread": join(root, "src/generator/output-thread.ts") },
    outdir: cacheDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Pure-JS dependencies are bundled in: one file loads much faster than hundreds of modules, which is
    // most of a cold build's fixed cost. Native or process-spawning ones stay external, and so do those a
    // build rarely needs, loaded when it does: `yaml` and `js-yaml` (a YAML file the fast path steps aside
    // for, or a broken one: yaml-file.ts) and `sitemap` (not needed when the sitemap comes from the cache).
    external: ["esbuild", "lightningcss", "better-sqlite3", "react", "react-dom", "fsevents", "yaml", "js-yaml", "sitemap"],
    // Bundled CommonJS packages call require() for Node built-ins.
    banner: { js: 'import { createRequire as __sitegenRequire } from "node:module"; const require = __sitegenRequire(import.meta.url);' },
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    metafile: true,
    logLevel: "error",
  });
  // Our sources, plus the lockfile standing in for every bundled dependency (npm ci rewrites node_modules).
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.includes("node_modules"))
    .map((file) => resolve(root, file))
    .concat(join(root, "package-lock.json"), self);
  writeFileSync(inputsFile, JSON.stringify(inputs));
}

const { main } = await import(pathToFileURL(outFile).href);
process.exitCode = await main(process.argv);
