import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { compileEndpoints } from "../endpoints.ts";
import { bundleIslands, type IslandsBundle } from "../compile/islands.ts";
import { bundlePages, loadPagesBundle, type PagesBundle } from "../compile/pages.ts";
import { bundleStyles, type Stylesheet } from "../compile/styles.ts";
import { stateKey } from "./state.ts";

/** The site's code and styles, compiled (stage 2). */
export interface Bundles {
  islands: IslandsBundle;
  pages: PagesBundle;
  /** The site's endpoints module for Node (endpoints.ts), when it has one. */
  apiCode: string | undefined;
  stylesheet: Stylesheet;
}

/** What the build state keeps of the compiled code: the outputs, and every file compiled with its stamp. */
export interface CompiledCode {
  /** sitegen's own code and the lock file, hashed with the project's folder (state.ts' stateKey). */
  key: string;
  /** Each file the compilers read (or listed), by absolute path, with its size and time of change. */
  inputs: [path: string, size: number, mtimeMs: number][];
  islands: IslandsBundle;
  pages: { file: string; hash: string };
  apiCode: string | undefined;
  stylesheet: Stylesheet;
}

/**
 * Besides the files the compilers read: the folders whose files are found by listing them (a new island, an
 * endpoints module or a shim that appears changes its folder), and the settings esbuild reads.
 */
const LISTED = [
  "src/islands",
  "src/islands/runtime",
  "src/api",
  "src/pages",
  "src/styles",
  "tsconfig.json",
  "package.json",
];

/**
 * Stage 2. The site's pages for Node, its islands for browsers, its endpoints and its stylesheet, compiled;
 * or as the previous build compiled them, when none of the files they were compiled from changed since.
 */
export async function bundleCode({ root, previous }: { root: string; previous?: CompiledCode }) {
  const key = stateKey(root, { compiled: root });
  if (previous?.key === key && unchanged(previous.inputs) && existsSync(previous.pages.file)) {
    const pages = loadPagesBundle(root, previous.pages.file, previous.pages.hash);
    return { bundles: { ...previous, pages }, code: previous };
  }
  const inputs = new Set(LISTED.map((p) => join(root, p)).filter((p) => existsSync(p)));
  // The three compile at once; when several fail (pages import islands to render them, so an island's syntax
  // error breaks both), the island's error is the one reported, whatever finished first.
  const [islands, pages, apiCode] = await Promise.allSettled([
    bundleIslands(root, inputs),
    bundlePages(root, inputs),
    compileEndpoints(root, inputs),
  ]);
  for (const result of [islands, pages, apiCode]) if (result.status === "rejected") throw result.reason;
  const value = <T>(result: PromiseSettledResult<T>) => (result as PromiseFulfilledResult<T>).value;
  const bundles = {
    islands: value(islands),
    pages: value(pages),
    apiCode: value(apiCode),
    stylesheet: await bundleStyles(root, inputs),
  };
  const stamps = [...inputs].sort().map((path): [string, number, number] => {
    const { size, mtimeMs } = statSync(path);
    return [path, size, mtimeMs];
  });
  const code = { ...bundles, key, inputs: stamps, pages: { file: bundles.pages.file, hash: bundles.pages.hash } };
  return { bundles, code };
}

function unchanged(inputs: CompiledCode["inputs"]): boolean {
  return inputs.every(([path, size, mtimeMs]) => {
    const now = statSync(path, { throwIfNoEntry: false });
    return now !== undefined && now.size === size && now.mtimeMs === mtimeMs;
  });
}
