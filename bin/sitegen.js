#!/usr/bin/env node
// The executable: compiles the TypeScript CLI on the fly with esbuild (a dependency the build needs anyway),
// so `npx sitegen` always runs the current sources and there is no separate compile step to forget.
// The compiled file is reused while none of its inputs changed, which keeps start-up near 50 ms.
// It is CommonJS (bin/package.json says so), and so is the compiled CLI: Node starts the same program
// as CommonJS 20-30 ms sooner than as ES modules, whose loader has that much to set up on every run.
const { existsSync, readFileSync, statSync, mkdirSync, writeFileSync } = require("node:fs");
const { join, resolve } = require("node:path");

const self = __filename;
const root = resolve(__dirname, "..");
// React picks its production build from NODE_ENV; the development build renders several times slower.
process.env.NODE_ENV ??= "production";
const cacheDir = join(root, "node_modules", ".cache", "sitegen");
const outFile = join(cacheDir, "cli.cjs");
// Compiled beside it: the output thread's entry (src/generator/output.ts starts it from there).
const threadFile = join(cacheDir, "output-thread.cjs");
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

/** Compiles the CLI and the output thread's entry into the cache folder, and notes what they were built from. */
async function compile() {
  // Loaded only to compile: most runs reuse the compiled CLI and never need it.
  const { build } = require("esbuild");
  mkdirSync(cacheDir, { recursive: true });
  const result = await build({
    entryPoints: { cli: join(root, "src/generator/cli.ts"), "output-thread": join(root, "src/generator/output-thread.ts") },
    outdir: cacheDir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Pure-JS dependencies are bundled in: one file loads much faster than hundreds of modules, which is
    // most of a cold build's fixed cost. Native or process-spawning ones stay external, and so do those a
    // build rarely needs, loaded when it does: `yaml` and `js-yaml` (a YAML file the fast path steps aside
    // for, or a broken one: yaml-file.ts) and `sitemap` (not needed when the sitemap comes from the cache).
    external: ["esbuild", "lightningcss", "better-sqlite3", "react", "react-dom", "fsevents", "yaml", "js-yaml", "sitemap"],
    // The sources are ES modules and find files beside themselves with import.meta.url, which CommonJS
    // does not have: it is the compiled file's own URL.
    define: { "import.meta.url": "__sitegenFileUrl" },
    banner: { js: 'const __sitegenFileUrl = require("node:url").pathToFileURL(__filename).href;' },
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

async function run() {
  if (!isFresh()) await compile();
  const { main } = require(outFile);
  process.exitCode = await main(process.argv);
}

run();
