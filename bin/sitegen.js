#!/usr/bin/env node
// The executable: compiles the TypeScript CLI with esbuild (a dependency the build needs anyway) into
// node_modules/.cache/sitegen/cli-<checkout>.cjs (under the package's own folder, in a checkout or in a site's
// node_modules/sitegen, so that it loads sitegen's dependencies as the sources would) and runs it, so
// `npx --no sitegen` always runs the current sources and there is no separate compile step to forget. The
// compiled file is reused while none of its inputs changed.
const { existsSync, readFileSync, statSync, mkdirSync, writeFileSync } = require("node:fs");
const { join, resolve } = require("node:path");

const root = resolve(__dirname, "..");
// React picks its production build from NODE_ENV; the development build renders several times slower.
process.env.NODE_ENV ??= "production";
const cacheDir = join(root, "node_modules", ".cache", "sitegen");
// Named after this checkout: checkouts that share one node_modules (git worktrees linking it) would
// otherwise each take the other's compiled CLI as fresh, its inputs being the other's unchanged files.
const checkout = require("node:crypto").createHash("sha256").update(root).digest("hex").slice(0, 12);
const outFile = join(cacheDir, `cli-${checkout}.cjs`);
const inputsFile = join(cacheDir, `cli-${checkout}.inputs.json`);

function isFresh() {
  if (!existsSync(outFile) || !existsSync(inputsFile)) return false;
  const builtAt = statSync(outFile).mtimeMs;
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    return inputs.every((file) => existsSync(file) && statSync(file).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

async function compile() {
  const { build } = require("esbuild");
  mkdirSync(cacheDir, { recursive: true });
  const result = await build({
    entryPoints: [join(root, "src/generator/cli.ts")],
    // The metafile names inputs relative to this folder: without it, relative to wherever sitegen was run,
    // and a run from another folder would find none of them and compile again every time.
    absWorkingDir: root,
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Packages are loaded from node_modules as they are, through their public entry points.
    packages: "external",
    // The sources are ES modules that find files beside themselves with import.meta.url, which CommonJS
    // does not have: here it is the compiled file's own URL.
    define: { "import.meta.url": "__sitegenFileUrl" },
    banner: { js: 'const __sitegenFileUrl = require("node:url").pathToFileURL(__filename).href;' },
    sourcemap: "linked",
    metafile: true,
    logLevel: "error",
  });
  // An installed package has no package-lock.json: it is an input only where it exists.
  const inputs = Object.keys(result.metafile.inputs)
    .map((file) => resolve(root, file))
    .concat(__filename, join(root, "package-lock.json"))
    .filter((file) => existsSync(file));
  writeFileSync(inputsFile, JSON.stringify(inputs));
}

async function run() {
  if (!isFresh()) await compile();
  const { main } = require(outFile);
  process.exitCode = await main(process.argv);
}

run();
