import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where sitegen finds a site's parts in its project folder. Nothing else is configured: a project that
 * follows these names builds, whatever its pages, locales or content.
 */
export const PROJECT_FILES = {
  /** The site's facts: address, locales, endpoints. */
  config: "content/site.yaml",
  /** The keyed text, one folder per locale code: content/<code>/*.yaml. */
  content: "content",
  /** The route table, special pages and document shell (site-definition.ts says what it exports). */
  routes: "src/pages/routes.ts",
  /** The browser runtime that finds and hydrates islands; every other file of src/islands/ is an island. */
  islandsRuntime: "src/islands/runtime/main.ts",
  islands: "src/islands",
  /** What `react` means in the browser, when present (a thin layer over Preact); else preact/compat. */
  islandsReact: "src/islands/runtime/react.ts",
  stylesheet: "src/styles/main.css",
  styles: "src/styles",
  /** The form and detection endpoints `sitegen serve` mounts, when present. */
  api: "src/api/index.ts",
  /**
   * The Cloudflare Pages worker (`sitegen build --target cloudflare`): exports createPagesWorker({ site, messages,
   * headers }).
   */
  cloudflareWorker: "src/api/cloudflare.ts",
  /** The endpoints as a Netlify Function, for `sitegen build --target netlify` (targets/netlify.ts). */
  netlifyApi: "src/api/netlify.ts",
} as const;

/**
 * The project folder: the working folder when it holds content/site.yaml (the usual case), else the
 * nearest folder above it that does, so `sitegen build` works from a subfolder too. When none does, the
 * working folder, and the build says that site.yaml is missing.
 */
export function findProjectRoot(start = process.cwd()): string {
  let dir = start;
  while (!existsSync(join(dir, PROJECT_FILES.config))) {
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
  return dir;
}

/** Where sitegen keeps files between runs (the compiled pages and endpoints): safe to delete. */
export function cacheFolder(root: string): string {
  return join(root, "node_modules", ".cache", "sitegen");
}

/** Where `sitegen serve` builds (drafts and compressed copies included), so that dist/ holds only sitegen build's. */
export function serveFolder(root: string): string {
  return join(cacheFolder(root), "serve");
}

/**
 * sitegen's own folder: the nearest one above this module with a package.json named "sitegen" (the checkout, or
 * node_modules/sitegen), whether the module runs from its sources or from the CLI compiled under that folder.
 */
export function sitegenFolder(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string }).name === "sitegen")
        return dir;
    } catch {
      // no package.json here: look further up
    }
  }
  throw new Error(`sitegen's package.json was not found above ${fileURLToPath(import.meta.url)}`);
}
