import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { filesBelow } from "../files.ts";
import { hostFiles } from "../security-headers.ts";
import { serverBundleFiles } from "../server-bundle.ts";
import { feedFiles } from "../seo/feeds.ts";
import { buildRobots, sitemapKey, sitemapXml } from "../seo/sitemap.ts";
import { TARGETS, type TargetName, type TargetOutput } from "../targets/targets.ts";
import type { Bundles } from "./bundle.ts";
import type { Collections } from "./collections.ts";
import type { LoadedContent } from "./load-content.ts";
import type { ProcessedImages } from "./images.ts";
import type { PagePlan } from "./plan-pages.ts";
import type { OutputFile } from "./write-output.ts";

export interface OutputFilesInput {
  root: string;
  outDir: string;
  target: TargetName;
  content: LoadedContent;
  bundles: Bundles;
  images: ProcessedImages;
  plan: PagePlan;
  collections: Collections;
  /** What the previous build into the same folder made sitemap.xml from, and its output's files and sizes. */
  previous?: { sitemap?: string; output: Record<string, number> };
}

export interface OutputFiles {
  /** Every file of the output but the pages. */
  output: OutputFile[];
  /** What `sitegen start` reads (server-bundle.ts), when the target keeps it. */
  server: OutputFile[];
  /** The stylesheet, its fonts and the islands' modules, for the build's summary. */
  assets: { file: string; code: Uint8Array }[];
  /** What the deploy target makes besides the output (targets/). */
  target: TargetOutput;
  /** What sitemap.xml was made from, for the next build. */
  sitemapKey?: string;
}

/**
 * Every file of the output but the pages: the hashed assets and images, the feeds, sitemap.xml and robots.txt,
 * the files of public/ as they are, the host files (_headers, _redirects), what the deploy target adds, and
 * what `sitegen start` needs.
 */
export async function outputFiles(input: OutputFilesInput): Promise<OutputFiles> {
  const { root, content, bundles, plan } = input;
  const { site, dictionaries } = content;
  const assets = [
    { file: bundles.stylesheet.file, code: bundles.stylesheet.code },
    ...bundles.stylesheet.assets.map(({ file, code }) => ({ file, code })),
    ...bundles.islands.files,
  ];
  const definitions = bundles.pages.site.collections ?? [];
  const feeds = feedFiles({ site, definitions, collections: input.collections, routes: plan.routes, dictionaries });
  const { outDir, previous } = input;
  const today = new Date().toISOString().slice(0, 10);
  const key = sitemapKey(site, plan.routes, today);
  const sitemap = sameSitemap(outDir, key, previous)
    ? readFileSync(join(outDir, "sitemap.xml"), "utf8")
    : await sitemapXml(site, plan.routes, today);
  const target = await TARGETS[input.target]({ root, outDir, site, dictionaries, apiCode: bundles.apiCode });
  const publicFile = (file: string) => ({ file: file.slice("public/".length), data: readFileSync(join(root, file)) });
  const host = hostFiles(site);
  const output: OutputFile[] = [
    ...assets.map(({ file, code }) => ({ file, data: code })),
    ...input.images.files.map(({ file, code }) => ({ file, data: code })),
    ...feeds,
    ...(sitemap === undefined ? [] : [{ file: "sitemap.xml", data: sitemap }]),
    { file: "robots.txt", data: buildRobots(site, sitemap !== undefined) },
    ...filesBelow(root, "public").map(publicFile),
    { file: "_headers", data: host.headers },
    ...(host.redirects && target.redirects ? [{ file: "_redirects", data: host.redirects }] : []),
    ...target.outputFiles,
  ];
  const server = target.serverBundle ? serverBundleFiles({ site, dictionaries, apiCode: bundles.apiCode }) : [];
  return { output, server, assets, target, sitemapKey: sitemap === undefined ? undefined : key };
}

/**
 * Whether the output folder's sitemap.xml is the one the previous build made from the same routes: a rebuild
 * after an edit that adds, removes or redates no page (most of sitegen serve's) then reads it back rather than
 * writing thousands of URLs again.
 */
function sameSitemap(outDir: string, key: string, previous: OutputFilesInput["previous"]): boolean {
  const file = join(outDir, "sitemap.xml");
  const size = previous?.output["sitemap.xml"];
  return previous?.sitemap === key && size !== undefined && existsSync(file) && statSync(file).size === size;
}
