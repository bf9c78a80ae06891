import { esbuildApi } from "./esbuild-service.ts";
import { existsSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { listFiles } from "./list-files.ts";
import { SitegenError } from "./errors.ts";
import { cacheDir, inputsKey, readCachedJson, writeCached } from "./build-cache.ts";

/** What the islands cache remembers: the key it was built under, esbuild's inputs, and the result (code included, so one file holds it all). */
interface IslandsManifest {
  key: string;
  inputs: string[];
  result: Omit<IslandBundle, "files"> & { files: { file: string; code: string }[] };
}

/** The bundle of an earlier build when none of its inputs changed since (build-cache.ts), else undefined. */
function cachedIslands(root: string, entries: string[]): IslandBundle | undefined {
  const manifest = readCachedJson<IslandsManifest>(cacheDir(root, "islands.json"));
  if (!manifest || manifest.key !== inputsKey(root, entries, manifest.inputs)) return undefined;
  const encoder = new TextEncoder();
  return { ...manifest.result, files: manifest.result.files.map((f) => ({ file: f.file, code: encoder.encode(f.code) })) };
}

function storeIslands(root: string, entries: string[], inputs: string[], bundle: IslandBundle): void {
  const decoder = new TextDecoder();
  const files = bundle.files.map((f) => ({ file: f.file, code: decoder.decode(f.code) }));
  const manifest: IslandsManifest = { key: inputsKey(root, entries, inputs), inputs, result: { ...bundle, files } };
  writeCached(cacheDir(root, "islands.json"), JSON.stringify(manifest));
}

export interface IslandBundle {
  files: { file: string; code: Uint8Array }[];
  /** Module scripts every page loads (the runtime that finds and hydrates islands). */
  entryScripts: string[];
  /** Chunks the runtime imports at once: worth a modulepreload. */
  preloads: string[];
  /** Island name → URL of its hashed module, written on each island's marker at build time. */
  islands: Record<string, string>;
}

const RUNTIME = "src/islands/runtime/main.ts";

/**
 * The browser bundle: the runtime plus one entry per island (src/islands/*.ts and *.tsx), as ES modules with code
 * splitting and content-hashed names. Islands are written against React; here `react` resolves to
 * preact/compat, so visitors download Preact.
 */
export async function buildIslands(root: string): Promise<IslandBundle> {
  const runtime = join(root, RUNTIME);
  if (!existsSync(runtime)) return { files: [], entryScripts: [], preloads: [], islands: {} };
  const islandFiles = listFiles(root, "src/islands", [".ts", ".tsx"]);
  const cached = cachedIslands(root, islandFiles);
  if (cached) return cached;
  const outdir = join(root, "assets");
  const { build } = esbuildApi();
  let result;
  try {
    result = await build({
      absWorkingDir: root,
      entryPoints: [RUNTIME, ...islandFiles],
      outdir,
      entryNames: "[name].[hash]",
      chunkNames: "chunk.[hash]",
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["chrome109", "firefox115", "safari15.4"],
      minify: true,
      write: false,
      metafile: true,
      jsx: "automatic",
      jsxImportSource: "preact",
      // Islands are written against React's API; in the browser "react" is a thin module over Preact's hooks.
      alias: { react: join(root, "src/islands/runtime/react.ts") },
      define: { "process.env.NODE_ENV": '"production"' },
      legalComments: "none",
      logLevel: "silent",
    });
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] }).errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}` : "src/islands";
    throw new SitegenError("IslandCompileError", `${where}: ${first?.text ?? String(error)}`, "Fix the error at that position.", { cause: error });
  }
  const files = result.outputFiles.map((f) => ({ file: `assets/${relative(outdir, f.path)}`, code: f.contents }));
  const outputs = result.metafile!.outputs;
  const urlOf = (outPath: string) => `/assets/${relative(outdir, join(root, outPath))}`;
  const islands: Record<string, string> = {};
  let runtimeOut = "";
  for (const [outPath, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint) continue;
    if (meta.entryPoint === RUNTIME) runtimeOut = outPath;
    else islands[basename(meta.entryPoint).replace(/\.tsx?$/, "")] = urlOf(outPath);
  }
  const preloads = outputs[runtimeOut].imports.filter((i) => i.kind === "import-statement").map((i) => urlOf(i.path));
  const bundle = { files, entryScripts: [urlOf(runtimeOut)], preloads, islands };
  storeIslands(root, islandFiles, Object.keys(result.metafile!.inputs).map((input) => join(root, input)), bundle);
  return bundle;
}
