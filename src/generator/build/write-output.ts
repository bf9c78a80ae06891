import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { filesBelow } from "../files.ts";
import type { SiteConfig } from "../config.ts";
import type { Route } from "../site-definition.ts";
import { minifyHtml } from "../html/minify-html.ts";
import { buildRobots, writeSitemap } from "../seo/sitemap.ts";
import { sitegenError } from "../errors.ts";
import { hostFiles } from "../security-headers.ts";
import { StagingFolder } from "./staging.ts";
import type { RenderedPage } from "./render-pages.ts";
import type { PageRecord } from "./incremental.ts";
import { TWIN_LEVELS, type FileWriter, type TwinLevels } from "./file-writer.ts";

export interface OutputInput {
  outDir: string;
  root: string;
  site: SiteConfig;
  routes: Route[];
  /** The pages this build renders, written as they come and then let go (never all held at once). */
  pages: Iterable<RenderedPage>;
  /** Pages whose inputs did not change since the previous build: their files stay as they are. */
  kept: PageRecord[];
  /** Hashed assets: the stylesheet and the islands' modules. */
  assets: { file: string; code: Uint8Array }[];
  /** Other generated files (the feeds). */
  files: { file: string; data: string }[];
  /** What `sitegen start` reads (server-bundle.ts): written as they are, never compressed, never served. */
  serverFiles: { file: string; data: string }[];
  /** Also write .br and .gz copies of every text file (for servers that send precompressed files). */
  precompress: boolean;
  /** How hard those copies are compressed (the formats' best by default). */
  twinLevels?: TwinLevels;
  /** Write _redirects (Netlify's not-found rules); false for a host that refuses them. */
  redirects?: boolean;
  /** The files of the previous build's output, when this build updates it (incremental). */
  previousFiles?: string[];
  /** The routes are those of the previous build, whose sitemap then stands as it is (an incremental build's). */
  sameRoutes?: boolean;
  /** Whether the build renders enough pages for writing them on a thread of its own to pay. */
  manyPages?: boolean;
  /** The writing thread, when the build started it already (a cold build's, build.ts): used for many pages. */
  writer?: FileWriter;
  /** Run just before the new output replaces the old one, with every page: the kept ones' records, then those written. */
  beforeSwap?: (pages: (PageRecord | WrittenPage)[]) => void;
}

/** What is remembered of each page written (its HTML is not). */
export type WrittenPage = Omit<PageRecord, "input" | "reads"> & { reads: string[] };

export interface WrittenOutput {
  /** The pages written (the kept ones are `kept`, as they were). */
  pages: WrittenPage[];
  files: number;
  bytes: number;
  /** Every file of the output folder. */
  all: string[];
}

/** The compressed twins written beside each text file when precompressing. */
export const TWINS = [".br", ".gz"];

const TEXT_FILE = /\.(html|css|js|mjs|svg|xml|txt|json|webmanifest)$/;

/** Whether hosts compress the file (and a build with --precompress writes its twins): text, not a font or an image. */
export const isTextFile = (file: string) => TEXT_FILE.test(file);

/**
 * Stage 5. Everything the output folder holds: the pages (minified), the hashed assets, the feeds, the
 * files of public/ as they are, sitemap.xml (unless no page has an address of its own), robots.txt, the host files (_headers, _redirects) and
 * _sitegen/ for `sitegen start`, written into a staging folder, so a failure leaves the previous output
 * untouched. A cold build's folder replaces the output whole; an incremental build (`previousFiles` given)
 * writes only what it made, then moves those files into the output and removes the files no page or
 * asset has any more: the kept pages, and the assets (their content named by the build key), stay where they are.
 */
export async function writeOutput(input: OutputInput): Promise<WrittenOutput> {
  const update = input.previousFiles !== undefined;
  const levels = input.twinLevels ?? TWIN_LEVELS.best;
  // A thread of its own minifies and writes the pages (file-writer.ts), and makes the sitemap between them,
  // beside the rendering when there are many pages.
  const thread = input.manyPages === true && !update;
  const staging = new StagingFolder(input.outDir, thread, levels, thread ? input.writer : undefined);
  const all: string[] = [];
  let sitemapStarted: Promise<unknown> | undefined;
  try {
    const write = (file: string, data: string | Uint8Array) => {
      const twins = input.precompress && isTextFile(file) ? TWINS.map((t) => file + t) : [];
      // An incremental build leaves a file that has the same bytes as it is, and its twins: they need no compressing again.
      if (update && sameBytes(join(input.outDir, file), data) && twins.every((t) => existsSync(join(input.outDir, t)))) {
        for (const f of [file, ...twins]) keep(f, statSync(join(input.outDir, f)).size);
        return;
      }
      staging.write(file, data);
      all.push(file);
      if (twins.length) writeTwins(file, data);
    };
    const writeTwins = (file: string, data: string | Uint8Array) => {
      twinsOf(data, levels).forEach((twin, i) => staging.write(file + TWINS[i], twin));
      all.push(...TWINS.map((t) => file + t));
    };
    const keep = (file: string, bytes: number) => {
      staging.files++;
      staging.bytes += bytes;
      all.push(file);
    };
    // The sitemap is made from the routes alone (with the site and the day, both in the build's key), written
    // straight into the staging folder as the `sitemap` package makes it: on the thread that writes the pages,
    // between them, when they have one (see writeSitemap).
    const sitemapTwins = [...(input.precompress ? TWINS : [])].map((t) => `sitemap.xml${t}`);
    const keptSitemap = update && input.sameRoutes === true && ["sitemap.xml", ...sitemapTwins].every((file) => existsSync(join(input.outDir, file)));
    const sitemapPath = join(staging.dir, "sitemap.xml");
    const sitemap = keptSitemap ? Promise.resolve(undefined) : writeSitemap(input.site, input.routes, new Date().toISOString().slice(0, 10), sitemapPath, staging.tasks);
    // Awaited once the pages are written; a build that fails before then stops it with the thread.
    sitemapStarted = sitemap.catch(() => undefined);
    const pages: WrittenPage[] = [];
    for (const record of input.kept) {
      keep(record.file, record.written);
      staging.files += record.files - 1;
      if (input.precompress) all.push(...TWINS.map((t) => record.file + t));
    }
    for (const { page, html, shared, missing, reads } of input.pages) {
      const record: WrittenPage = { file: page.file, locale: page.locale, label: page.label, missing, reads, bytes: 0, files: 0, written: 0 };
      pages.push(record);
      if (update) {
        // An incremental build compares the page with the file there: a page whose bytes did not change stays.
        const before = { files: staging.files, bytes: staging.bytes };
        const minified = minifyHtml(html, shared);
        write(page.file, minified);
        Object.assign(record, { bytes: Buffer.byteLength(minified), files: staging.files - before.files, written: staging.bytes - before.bytes });
        continue;
      }
      all.push(page.file, ...(input.precompress ? TWINS.map((t) => page.file + t) : []));
      staging.writePage(page.file, html, shared, input.precompress, (written) => Object.assign(record, written));
      await staging.drain();
    }
    for (const asset of input.assets) {
      if (!update) write(asset.file, asset.code);
      else for (const file of [asset.file, ...(input.precompress && isTextFile(asset.file) ? TWINS.map((t) => asset.file + t) : [])]) keep(file, statSync(join(input.outDir, file)).size);
    }
    for (const generated of input.files) write(generated.file, generated.data);
    for (const file of publicFiles(input.root)) write(file, readFileSync(join(input.root, "public", file)));
    if (keptSitemap) for (const file of ["sitemap.xml", ...sitemapTwins]) keep(file, statSync(join(input.outDir, file)).size);
    const sitemapBytes = await sitemap.catch((error: NodeJS.ErrnoException) => {
      throw sitegenError("OutputWriteFailed", { file: join(input.outDir, "sitemap.xml"), code: error.code ?? "", reason: error.message }, { cause: error });
    });
    if (sitemapBytes !== undefined) {
      staging.files++;
      staging.bytes += sitemapBytes;
      all.push("sitemap.xml");
      if (input.precompress) writeTwins("sitemap.xml", readFileSync(sitemapPath));
    }
    write("robots.txt", buildRobots(input.site, keptSitemap || sitemapBytes !== undefined));
    const host = hostFiles(input.site);
    const plain = (file: string, data: string) => {
      staging.write(file, data);
      all.push(file);
    };
    plain("_headers", host.headers);
    if (host.redirects && input.redirects !== false) plain("_redirects", host.redirects);
    for (const { file, data } of input.serverFiles) plain(file, data);
    await staging.finish();
    input.beforeSwap?.([...input.kept, ...pages]);
    if (update) {
      const now = new Set(all);
      staging.apply(input.previousFiles!.filter((file) => !now.has(file)));
    } else {
      staging.commit();
    }
    return { pages, files: staging.files, bytes: staging.bytes, all };
  } catch (error) {
    await staging.discard();
    await sitemapStarted;
    throw error;
  }
}

/** A text file's compressed twins, in the order of TWINS (brotli, then gzip), as hard as `levels` says. */
export function twinsOf(data: string | Uint8Array, levels: TwinLevels): Uint8Array[] {
  return [brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: levels.brotli } }), gzipSync(data, { level: levels.gzip })];
}

/** Whether the file holds these bytes already (an incremental build leaves such a file as it is). */
export function sameBytes(path: string, data: string | Uint8Array): boolean {
  if (!existsSync(path)) return false;
  const old = readFileSync(path);
  return typeof data === "string" ? old.length === Buffer.byteLength(data) && old.toString() === data : Buffer.compare(old, data) === 0;
}

/** Files the site ships as they are (favicon, fonts, images): public/**, dot files left out. */
function publicFiles(root: string): string[] {
  return filesBelow(root, "public").map((file) => file.slice("public/".length));
}
