#!/usr/bin/env node
// The executable: compiles the TypeScript CLI on the fly with esbuild (a dependency the build needs anyway),
// so `npx sitegen` always runs the current sources and there is no separate compile step to forget.
// The compiled file is reused while none of its inputs changed, which keeps start-up near 50 ms.
import { build } from "esbuild";
import { existsSync, readFileSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir = join(root, "node_modules", ".cache", "sitegen");
const outFile = join(cacheDir, "cli.mjs");
const inputsFile = join(cacheDir, "cli.inputs.json");

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

if (!isFresh()) {
  mkdirSync(cacheDir, { recursive: true });
  const result = await build({
    entryPoints: [join(root, "src/generator/cli.ts")],
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    metafile: true,
    logLevel: "error",
  });
  const inputs = Object.keys(result.metafile.inputs).map((file) => resolve(root, file));
  writeFileSync(inputsFile, JSON.stringify(inputs));
}

const { main } = await import(pathToFileURL(outFile).href);
process.exitCode = await main(process.argv);
