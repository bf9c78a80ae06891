import { loadSiteConfig, type ConfigOverrides, type SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import { sitegenError } from "../errors.ts";
import { compileEndpoints } from "../endpoints.ts";
import { serverBundleFiles } from "../server-bundle.ts";
import { loadContent } from "./load-content.ts";
import { bundlePages } from "./bundle-pages.ts";
import { bundleIslands } from "./bundle-islands.ts";
import { bundleStyles } from "./bundle-styles.ts";
import { planPages } from "./plan-pages.ts";
import { loadCollections } from "../collections.ts";
import { feedFiles } from "../seo/feeds.ts";
import { processImages } from "./images.ts";
import { renderPages } from "./render-pages.ts";
import { writeOutput } from "./write-output.ts";
import { formatMissing, missingTranslations, type MissingKey } from "./report.ts";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TARGETS, writeTargetFiles, type TargetName } from "../targets/targets.ts";

export interface BuildOptions extends ConfigOverrides {
  root: string;
  outDir: string;
  /** Fail on missing translations instead of warning. */
  strict?: boolean;
  /** Also write .br and .gz copies of text files (for servers that send precompressed files). */
  precompress?: boolean;
  /** Build entries marked `draft: true` too (sitegen serve does, sitegen build never). */
  drafts?: boolean;
  /** Where the output is deployed (targets/targets.ts): `node` by default. */
  target?: TargetName;
}

export interface BuildResult {
  outDir: string;
  site: SiteConfig;
  /** Each page's file, locale, address (or label, for special pages) and minified HTML. */
  pages: { file: string; locale: string; path: string; html: string }[];
  assets: { file: string; code: Uint8Array }[];
  missing: MissingKey[];
  /** Milliseconds per stage, in pipeline order. */
  timings: Record<string, number>;
  totalMs: number;
  files: number;
  bytes: number;
  /** Source images processed, and how many were encoded (the others came from the cache). */
  images: { count: number; encoded: number };
  /** The text of each locale, as loaded for this build (the server's endpoints answer with it). */
  dictionaries: Record<string, Dictionary>;
  /** What the deploy target made besides the output, for the summary (targets/). */
  targetSummary?: string;
}

/**
 * `sitegen build`: six stages, each a module with data in and data out, run in order.
 * 1. load-content: site.yaml and each locale's text;
 * 2. bundle-pages, bundle-islands, bundle-styles: the site's code for Node and for browsers, its CSS;
 *    then the site's collections (collections.ts: Markdown and YAML entries, checked and paired) and the
 *    images they and the text refer to (images.ts: AVIF, WebP and JPEG files, cached between builds);
 *    and its endpoints module (endpoints.ts), for `sitegen start`;
 * 3. plan-pages: every page of every locale, with its address and file;
 * 4. render-pages: each page to an HTML document;
 * 5. write-output: minified pages, assets, sitemap, robots.txt, host files and what `sitegen start` needs
 *    (server-bundle.ts), or what the deploy target needs instead (targets/), swapped in at the end;
 * 6. report (report.ts): the missing translations here, the summary in the CLI.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  let mark = started;
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = now - mark;
    mark = now;
  };
  const { root } = options;

  const content = loadContent(root, { siteUrl: options.siteUrl });
  lap("content");
  // The three compile at once; when several fail (pages import islands to render them, so an island's
  // syntax error breaks both), the island's error is the one reported, whatever finished first.
  const [islandsResult, pagesResult, apiResult] = await Promise.allSettled([bundleIslands(root), bundlePages(root), compileEndpoints(root)]);
  for (const result of [islandsResult, pagesResult, apiResult]) if (result.status === "rejected") throw result.reason;
  const islands = (islandsResult as PromiseFulfilledResult<Awaited<ReturnType<typeof bundleIslands>>>).value;
  const pagesBundle = (pagesResult as PromiseFulfilledResult<Awaited<ReturnType<typeof bundlePages>>>).value;
  const apiCode = (apiResult as PromiseFulfilledResult<Awaited<ReturnType<typeof compileEndpoints>>>).value;
  const stylesheet = await bundleStyles(root);
  lap("bundle");
  const definitions = pagesBundle.site.collections ?? [];
  const collections = loadCollections({ root, siteUrl: content.site.siteUrl, locales: content.site.locales.map((l) => l.code), dictionaries: content.dictionaries, definitions, drafts: options.drafts === true });
  lap("collections");
  const images = await processImages({ root, definitions, collections, contents: content.contents, imageKeys: pagesBundle.site.imageKeys ?? [] });
  lap("images");
  const plan = planPages(pagesBundle.site, content.site, collections);
  lap("plan");
  const assets = { stylesheet: stylesheet.href, fonts: stylesheet.fonts, scripts: islands.scripts, preloads: islands.preloads, islands: islands.islands };
  const rendered = renderPages(plan, plan.pages, pagesBundle, content.site, content.dictionaries, assets, collections, images.byKey);
  lap("render");
  const missing = missingTranslations(content.contents, rendered);
  if (missing.length && options.strict) throw sitegenError("MissingTranslations", { count: missing.length, list: formatMissing(missing) });
  const assetFiles = [{ file: stylesheet.file, code: stylesheet.code }, ...stylesheet.assets.map(({ file, code }) => ({ file, code })), ...islands.files];
  const feeds = feedFiles({ site: content.site, definitions, collections, routes: plan.routes, dictionaries: content.dictionaries });
  // site.yaml's own submissions settings: SUBMISSIONS_DB and SUBMISSIONS_RATE_LIMIT are for one run, and
  // the run that uses them is `sitegen start`'s, not this build's.
  const submissions = loadSiteConfig(root, { siteUrl: content.site.siteUrl }, {}).submissions;
  const serverFiles = serverBundleFiles({ site: content.site, submissions, dictionaries: content.dictionaries, apiCode });
  const target = await TARGETS[options.target ?? "node"]({ root, outDir: options.outDir, site: { ...content.site, submissions }, dictionaries: content.dictionaries });
  const written = await writeOutput({
    outDir: options.outDir,
    root,
    site: content.site,
    routes: plan.routes,
    pages: rendered,
    assets: [...assetFiles, ...images.files],
    files: [...feeds, ...target.outputFiles],
    serverFiles: target.serverBundle ? serverFiles : [],
    redirects: target.redirects,
    precompress: options.precompress === true,
  });
  writeTargetFiles(root, options.outDir, target);
  lap("write");

  return {
    outDir: options.outDir,
    targetSummary: target.summary,
    site: content.site,
    pages: rendered.map(({ page }, i) => ({ file: page.file, locale: page.locale, path: page.label, html: written.pages[i].html })),
    assets: assetFiles,
    missing,
    timings,
    totalMs: performance.now() - started,
    files: written.files,
    bytes: written.bytes,
    images: { count: images.count, encoded: images.encoded },
    dictionaries: content.dictionaries,
  };
}
