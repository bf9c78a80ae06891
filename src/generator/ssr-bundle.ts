import { esbuildApi } from "./esbuild-service.ts";
import { existsSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { createRequire } from "node:module";
import { listFiles } from "./list-files.ts";
import type { HeadData } from "../components/Document.tsx";
import type { PageContextValue } from "../components/page-context.tsx";
import { SitegenError } from "./errors.ts";
import { cacheDir, inputsKey, pruneCache, readCachedJson, sha1, writeCached } from "./build-cache.ts";

/**
 * What the server-side bundle exports: page names and one function that renders a full document, in
 * which the parts shared by every page of a language are still placeholders (shared-markup.ts).
 */
export interface SsrModule {
  /** The compiled bundle on disk (the render worker imports it too). */
  file: string;
  pageNames: string[];
  renderDocument(head: HeadData, page: PageContextValue, pageName: string, props?: Record<string, unknown>): string;
}

/**
 * The compiled pages bundle: its file (named by a hash of its code, so it identifies the pages) and a way
 * to load it. Loading means loading React too (about 40 ms), which a build whose pages all come from the
 * page cache never needs.
 */
export interface SsrBundle {
  file: string;
  load(): Promise<SsrModule>;
}

function bundleAt(root: string, file: string): SsrBundle {
  let loading: Promise<SsrModule> | undefined;
  return { file, load: () => (loading ??= importSsr(root, file)) };
}

/**
 * Bundles src/pages and src/components into one CommonJS module for Node (React stays external, so the generator
 * and the pages share one React), writes it under node_modules/.cache with a content hash in its name
 * (so a rebuild in watch mode loads fresh code), and loads it.
 */
export async function loadSsrModule(root: string): Promise<SsrBundle> {
  const pageFiles = listFiles(root, "src/pages", [".tsx"]);
  const dir = cacheDir(root, "ssr");
  const manifestFile = cacheDir(root, "ssr.json");
  // The renderer's file depends on NODE_ENV (the tests run with "test"), so a bundle is kept per value.
  const renderer = renderToStringModule(root);
  const keyOf = (inputs: string[]) => inputsKey(root, [...pageFiles, renderer], inputs);
  // The bundle of an earlier build when none of esbuild's inputs changed since (build-cache.ts).
  const manifest = readCachedJson<{ key: string; inputs: string[]; file: string }>(manifestFile);
  if (manifest && manifest.key === keyOf(manifest.inputs) && existsSync(join(dir, manifest.file))) {
    return bundleAt(root, join(dir, manifest.file));
  }
  const names = pageFiles.map((f) => basename(f, ".tsx"));
  const entry = [
    `import { createElement } from "react";`,
    `import { createRequire } from "node:module";`,
    // By path, past react-dom's "exports" (which name only the file that also loads the streaming renderer).
    `const { renderToString } = createRequire(__filename)(${JSON.stringify(renderer)});`,
    `import { Document } from "./src/components/Document.tsx";`,
    `import { renderPendingParts } from "./src/components/SharedMarkup.tsx";`,
    ...pageFiles.map((f, i) => `import * as page${i} from "./${f}";`),
    `const pages = { ${names.map((n, i) => `${JSON.stringify(n)}: page${i}.default`).join(", ")} };`,
    `export const pageNames = Object.keys(pages);`,
    `export function renderDocument(head, page, pageName, props) {`,
    `  const html = renderToString(createElement(Document, { head, page }, createElement(pages[pageName], props ?? {})));`,
    `  renderPendingParts(page, renderToString);`,
    `  return "<!doctype html>" + html;`,
    `}`,
  ].join("\n");
  const { build } = esbuildApi();
  let code: string;
  let inputs: string[];
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: root, sourcefile: "ssr-entry.js", loader: "js" },
      // Metafile input paths are relative to this folder; the cache key stamps them from the project root.
      absWorkingDir: root,
      bundle: true,
      platform: "node",
      // CommonJS, loaded with require(): React is CommonJS, and importing it from an ES module makes Node
      // scan its 300 KB renderer for export names first (cjs-module-lexer, 20-30 ms of every first build).
      format: "cjs",
      target: "node20",
      // React stays external (one copy shared with everything else in the process); other packages
      // (lucide-react) are bundled from their ES builds, so only the icons the pages use are loaded:
      // importing lucide-react's CommonJS build whole cost about 140 ms of every cold build.
      external: ["react", "react-dom", "react/*", "react-dom/*"],
      mainFields: ["module", "main"],
      jsx: "automatic",
      write: false,
      metafile: true,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
    code = result.outputFiles[0].text;
    inputs = Object.keys(result.metafile.inputs).filter((i) => i !== "ssr-entry.js").map((i) => join(root, i));
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] }).errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}` : "src/pages";
    throw new SitegenError("PageCompileError", `${where}: ${first?.text ?? String(error)}`, "Fix the TypeScript/JSX error at that position.", { cause: error });
  }
  const name = `ssr-${sha1(code).slice(0, 12)}.cjs`;
  writeCached(join(dir, name), code, { now: true }); // loaded from there in a moment
  writeCached(manifestFile, JSON.stringify({ key: keyOf(inputs), inputs, file: name }));
  pruneCache(dir, 6);
  return bundleAt(root, join(dir, name));
}

/**
 * The file of React's renderToString. `react-dom/server` also loads the streaming renderer, a second
 * 300 KB file this build never calls (15-20 ms of every build that renders). The choice of build follows
 * NODE_ENV, as `react-dom/server` itself does.
 */
function renderToStringModule(root: string): string {
  const reactDom = dirname(createRequire(join(root, "package.json")).resolve("react-dom/package.json"));
  const build = process.env.NODE_ENV === "production" ? "production" : "development";
  return join(reactDom, "cjs", `react-dom-server-legacy.node.${build}.js`);
}

/** Loads the pages bundle (CommonJS, see loadSsrModule); each build's bundle has its own file name. */
export function requireSsr(file: string): Omit<SsrModule, "file"> {
  return createRequire(import.meta.url)(file) as Omit<SsrModule, "file">;
}

async function importSsr(root: string, file: string): Promise<SsrModule> {
  const mod = requireSsr(file);
  if (mod.pageNames.length === 0) {
    throw new SitegenError("NoPages", `No page components in ${relative(root, join(root, "src/pages"))}.`, "Add src/pages/home.tsx.");
  }
  return { pageNames: mod.pageNames, renderDocument: mod.renderDocument, file };
}
