import { existsSync, realpathSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { filesIn } from "../files.ts";
import { PROJECT_FILES } from "../project.ts";
import { compileError } from "./esbuild-errors.ts";

/** esbuild, loaded when something is compiled: a build whose code is compiled already never starts it. */
const esbuild = () => import("esbuild");

export interface IslandsBundle {
  files: { file: string; code: Uint8Array }[];
  /** Module scripts every page loads (the runtime that finds and hydrates islands). */
  scripts: string[];
  /** Chunks the runtime imports at once: each worth a modulepreload. */
  preloads: string[];
  /** Island name (its file name) → URL of its hashed module. */
  islands: Record<string, string>;
}

const NONE: IslandsBundle = { files: [], scripts: [], preloads: [], islands: {} };

/**
 * Stage 2b. The browser code: the runtime (src/islands/runtime/main.ts) plus one entry per island
 * (src/islands/*.ts, *.tsx), as ES modules with shared chunks and content-hashed names. Islands are written
 * against React's API and shipped as Preact: `react` resolves to src/islands/runtime/react.ts when the site
 * has one, else to preact/compat. A site without the runtime ships no JavaScript.
 */
export async function bundleIslands(site: string, inputs?: Set<string>): Promise<IslandsBundle> {
  const runtime = PROJECT_FILES.islandsRuntime;
  if (!existsSync(join(site, runtime))) return NONE;
  // The real path: esbuild names inputs and outputs by theirs, relative to where it works from.
  const root = realpathSync(site);
  const islandFiles = filesIn(root, PROJECT_FILES.islands, ["ts", "tsx"]);
  const outdir = join(root, "assets");
  const reactShim = join(root, PROJECT_FILES.islandsReact);
  let result;
  try {
    result = await (
      await esbuild()
    ).build({
      absWorkingDir: root,
      entryPoints: [runtime, ...islandFiles],
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
      alias: { react: existsSync(reactShim) ? reactShim : "preact/compat", "react-dom": "preact/compat" },
      define: { "process.env.NODE_ENV": '"production"' },
      legalComments: "none",
      logLevel: "silent",
    });
  } catch (error) {
    throw compileError("IslandCompileError", error, PROJECT_FILES.islands);
  }
  for (const input of Object.keys(result.metafile.inputs)) inputs?.add(join(root, input));
  const urlOf = (outPath: string) => `/assets/${relative(outdir, join(root, outPath))}`;
  const outputs = result.metafile.outputs;
  const islands: Record<string, string> = {};
  let runtimeOut = "";
  for (const [outPath, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint) continue;
    if (meta.entryPoint === runtime) runtimeOut = outPath;
    else islands[basename(meta.entryPoint).replace(/\.tsx?$/, "")] = urlOf(outPath);
  }
  return {
    files: result.outputFiles.map((f) => ({ file: `assets/${relative(outdir, f.path)}`, code: f.contents })),
    scripts: [urlOf(runtimeOut)],
    preloads: outputs[runtimeOut].imports.filter((i) => i.kind === "import-statement").map((i) => urlOf(i.path)),
    islands,
  };
}
