import { existsSync, mkdirSync, realpathSync, renameSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { HeadData, PageData, SiteDefinition } from "../site-definition.ts";
import { sitegenError } from "../errors.ts";
import { cacheFolder, PROJECT_FILES } from "../project.ts";
import { compileError } from "./esbuild-errors.ts";

/** esbuild, loaded when something is compiled: a build whose code is compiled already never starts it. */
const esbuild = () => import("esbuild");

/** The site's pages, compiled for Node: its definition, and one function that renders a whole document. */
export interface PagesBundle {
  site: SiteDefinition;
  /** The hash of the compiled code. */
  hash: string;
  /** The compiled module's file (in the project's cache folder). */
  file: string;
  render(
    head: HeadData,
    page: PageData,
    component: SiteDefinition["routes"][number]["page"],
    props?: Record<string, unknown>,
  ): string;
}

/**
 * Stage 2a. Bundles src/pages/routes.ts (and everything it imports: pages, components) into one
 * CommonJS module for Node with esbuild, and loads it. React stays outside the bundle, loaded from the
 * project's node_modules, so the bundle and the renderer share one React. Each bundle is written under a
 * name made of its code's hash, so `sitegen serve` loads fresh code after every change.
 */
export async function bundlePages(root: string, inputs?: Set<string>): Promise<PagesBundle> {
  const routesFile = join(root, PROJECT_FILES.routes);
  if (!existsSync(routesFile)) throw sitegenError("SiteDefinitionMissing", { file: PROJECT_FILES.routes });
  const entry = [
    `import { createElement } from "react";`,
    `import { renderToString } from "react-dom/server";`,
    `import site from ${JSON.stringify(`./${PROJECT_FILES.routes}`)};`,
    `export { site };`,
    `export function render(head, page, component, props) {`,
    `  return "<!doctype html>" + renderToString(createElement(site.document, { head, page }, ` +
      `createElement(component, props ?? {})));`,
    `}`,
  ].join("\n");
  // The project's real path: esbuild names the sources it reads relative to it (through a link, it would not).
  const real = realpathSync(root);
  let code: string;
  try {
    const result = await (
      await esbuild()
    ).build({
      stdin: { contents: entry, resolveDir: real, sourcefile: "sitegen-pages.js", loader: "js" },
      absWorkingDir: real,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      external: ["react", "react-dom", "react/*", "react-dom/*"],
      jsx: "automatic",
      write: false,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
      metafile: true,
      // For a page that throws: its stack is mapped back to src/ (page-stack.ts).
      sourcemap: "inline",
      sourcesContent: false,
    });
    code = result.outputFiles[0].text;
    for (const input of Object.keys(result.metafile.inputs))
      if (input !== "sitegen-pages.js") inputs?.add(join(real, input));
  } catch (error) {
    throw compileError("PageCompileError", error, PROJECT_FILES.routes);
  }
  const dir = join(cacheFolder(root), "pages");
  mkdirSync(dir, { recursive: true });
  const hash = createHash("sha1").update(code).digest("hex");
  const file = join(dir, `pages-${hash.slice(0, 12)}.cjs`);
  if (!existsSync(file)) writeAtomically(file, code);
  pruneOldBundles(dir, file);
  return loadPagesBundle(root, file, hash);
}

/**
 * The compiled pages loaded from their file: by bundlePages, or by a build that found them compiled already
 * (bundle-cache.ts).
 */
export function loadPagesBundle(root: string, file: string, hash: string): PagesBundle {
  let loaded: { site?: SiteDefinition; render: PagesBundle["render"] };
  try {
    loaded = createRequire(join(root, "package.json"))(file);
  } catch (error) {
    // React and react-dom are the site's own (peers of sitegen): a site without them fails here.
    const module = /^Cannot find module '((?:@[^/']+\/)?[^./'][^/']*)/.exec((error as Error).message)?.[1];
    if (!module) throw error;
    const install = module === "react" || module === "react-dom" ? "react react-dom" : module;
    throw sitegenError("PagesDependencyMissing", { module, root, install }, { cause: error });
  }
  const site = loaded.site;
  if (!site || typeof site.document !== "function" || !Array.isArray(site.routes)) {
    throw sitegenError("SiteDefinitionInvalid", {
      file: PROJECT_FILES.routes,
      problem:
        "its default export must be defineSite({ document, routes, ... }), with a document component and a list " +
        "of routes.",
    });
  }
  return { site, hash, file, render: loaded.render };
}

/** Keeps the newest few bundles: `sitegen serve` makes one per change. */
function pruneOldBundles(dir: string, current: string): void {
  const old = readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => path !== current)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const path of old.slice(4)) rmSync(path, { force: true });
}

/** Written beside its final name, then renamed: another build in another process may be loading the same file. */
function writeAtomically(file: string, code: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, file);
}
