import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { createRequire } from "node:module";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";
import type { SiteConfig } from "../config.ts";
import type { Route } from "../site-definition.ts";
import { absoluteUrl } from "./urls.ts";
import { alternatesFor } from "./hreflang.ts";

/** One route's lines of the sitemap: its address in each locale, the day it last changed, and its hreflang set. */
interface SitemapRoute {
  urls: string[];
  lastmod: string;
  links: { lang: string; hreflang: string; url: string }[];
}

/**
 * Writes sitemap.xml to `file` and returns its size (the `sitemap` package writes and escapes it): one <url> per route and locale, each with
 * the route's whole hreflang set, the same set the page's <head> carries, and the day of the build as
 * lastmod unless the route says otherwise. Undefined for a site with no page at an address of its own
 * (no route, or only draft entries): the sitemap schema requires at least one <url>, so there is none.
 *
 * With `thread`, the file is made on a thread of its own, so that a build of thousands of pages starts it
 * before rendering them and the second core makes it beside the rendering: the package's streams cost about
 * as much per address as a small page. Without it (a site of a few pages, where starting a thread costs more
 * than it saves), it is made here.
 */
export async function writeSitemap(site: SiteConfig, routes: Route[], lastmod: string, file: string, thread = false, signal?: AbortSignal): Promise<number | undefined> {
  if (!hasListedPages(routes)) return undefined;
  const listed: SitemapRoute[] = [];
  for (const route of routes) {
    const urls = site.locales.flatMap((locale) => (route.paths[locale.code] === undefined ? [] : [absoluteUrl(site, route.paths[locale.code])]));
    if (urls.length) listed.push({ urls, lastmod: route.lastmod || lastmod, links: alternatesFor(route, site).map((a) => ({ lang: a.hreflang, hreflang: a.hreflang, url: a.href })) });
  }
  if (thread) return sitemapThread(site.siteUrl, listed, file, signal);
  // Loaded when a sitemap is made: an incremental build whose routes did not change keeps the one there.
  const { SitemapStream } = await import("sitemap");
  return streamSitemap(SitemapStream, createWriteStream, pipeline, once, site.siteUrl, listed, file);
}

/**
 * The sitemap made by a thread of its own, from streamSitemap's source text; its failure keeps the system's
 * code. `signal` stops the thread (a build that failed meanwhile).
 */
function sitemapThread(hostname: string, listed: SitemapRoute[], file: string, signal?: AbortSignal): Promise<number> {
  const source = `const { parentPort, workerData: w } = require("node:worker_threads");
(${streamSitemap.toString()})(require(w.sitemap).SitemapStream, require("node:fs").createWriteStream, require("node:stream/promises").pipeline, require("node:events").once, w.hostname, w.listed, w.file)
  .then((bytes) => parentPort.postMessage({ bytes }), (e) => parentPort.postMessage({ failure: { code: e.code ?? "", message: e.message } }));`;
  const sitemap = createRequire(import.meta.url).resolve("sitemap");
  // A small young generation, as the writing thread has: the thread collects the addresses it has written
  // as it goes instead of growing beside the build's own peak of memory.
  const worker = new Worker(source, { eval: true, workerData: { sitemap, hostname, listed, file }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  signal?.addEventListener("abort", () => void worker.terminate(), { once: true });
  return new Promise<number>((resolve, reject) => {
    worker.once("message", (message: { bytes?: number; failure?: { code: string; message: string } }) => {
      if (message.failure) reject(Object.assign(new Error(message.failure.message), { code: message.failure.code }));
      else resolve(message.bytes!);
    });
    worker.once("error", reject);
    // Settled already when the thread said what it wrote; otherwise it stopped without a word.
    worker.once("exit", (code) => reject(new Error(`The thread writing ${file} stopped (exit code ${code}).`)));
  });
}

/**
 * The sitemap's file as the `sitemap` package streams it, written as it is made: at thousands of pages, the
 * whole document and its pieces held at once were much of a build's peak of memory. It refers to nothing
 * outside itself: its source text is also the thread's.
 */
async function streamSitemap(
  SitemapStream: typeof import("sitemap").SitemapStream,
  createStream: typeof createWriteStream,
  pipe: typeof pipeline,
  onceOf: typeof once,
  hostname: string,
  listed: SitemapRoute[],
  file: string,
): Promise<number> {
  const stream = new SitemapStream({ hostname, xmlns: { news: false, video: false, image: false, xhtml: true } });
  const out = createStream(file);
  const written = pipe(stream, out);
  // Its failure (a full disk) is awaited below, or ends the wait for "drain" first: never left unhandled.
  written.catch(() => undefined);
  for (const route of listed) {
    for (const url of route.urls) if (!stream.write({ url, lastmod: route.lastmod, links: route.links })) await onceOf(stream, "drain");
  }
  stream.end();
  await written;
  return out.bytesWritten;
}

/** Whether any route has a page in some locale: what the sitemap lists. */
export function hasListedPages(routes: Route[]): boolean {
  return routes.some((route) => Object.keys(route.paths).length > 0);
}

/** robots.txt, naming the sitemap when the build writes one. */
export function buildRobots(site: SiteConfig, sitemap: boolean): string {
  return `User-agent: *\nAllow: /\n${sitemap ? `\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n` : ""}`;
}
