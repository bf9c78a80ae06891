import * as fs from "node:fs";
import { once } from "node:events";
import { createRequire } from "node:module";
import type { TaskRunner } from "../build/file-writer.ts";
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
 * With `thread`, the file is made on the thread that writes the pages, between them (file-writer.ts), so
 * that a build of thousands of pages makes it beside the rendering: the package's streams cost about as much
 * per address as a small page, and a thread of its own cost its start and took turns on the rendering's core.
 * Without it (a site of a few pages, where the pages are written here too), it is made here.
 */
export async function writeSitemap(site: SiteConfig, routes: Route[], lastmod: string, file: string, thread?: TaskRunner): Promise<number | undefined> {
  if (!hasListedPages(routes)) return undefined;
  const listed: SitemapRoute[] = [];
  for (const route of routes) {
    const urls = site.locales.flatMap((locale) => (route.paths[locale.code] === undefined ? [] : [absoluteUrl(site, route.paths[locale.code])]));
    if (urls.length) listed.push({ urls, lastmod: route.lastmod || lastmod, links: alternatesFor(route, site).map((a) => ({ lang: a.hreflang, hreflang: a.hreflang, url: a.href })) });
  }
  if (thread) {
    // The task's data crosses to the thread as a copy; it finds the package by its resolved path.
    const source = `(data, require, pause) => (${streamSitemap.toString()})(require(data.sitemap).SitemapStream, require("node:fs"), require("node:events").once, data.hostname, data.listed, data.file, pause)`;
    return thread.run<number>({ source, data: { sitemap: createRequire(import.meta.url).resolve("sitemap"), hostname: site.siteUrl, listed, file } });
  }
  // Loaded when a sitemap is made: an incremental build whose routes did not change keeps the one there.
  const { SitemapStream } = await import("sitemap");
  return streamSitemap(SitemapStream, fs, once, site.siteUrl, listed, file);
}

/**
 * The sitemap's file as the `sitemap` package streams it, written as it is made, a few tens of kilobytes at
 * a time: at thousands of pages, the whole document and its pieces held at once were much of a build's peak
 * of memory, and a write per address was most of the thread's time. `pause`, awaited every few routes, lets
 * the writing thread take the pages sent meanwhile. It refers to nothing outside itself: its source text is
 * also the writing thread's task.
 */
async function streamSitemap(
  SitemapStream: typeof import("sitemap").SitemapStream,
  files: Pick<typeof fs, "openSync" | "writeSync" | "closeSync">,
  onceOf: typeof once,
  hostname: string,
  listed: SitemapRoute[],
  file: string,
  pause?: () => Promise<void>,
): Promise<number> {
  const stream = new SitemapStream({ hostname, xmlns: { news: false, video: false, image: false, xhtml: true } });
  const fd = files.openSync(file, "w");
  let chunks: string[] = [];
  let length = 0;
  let bytes = 0;
  const flush = () => {
    const data = Buffer.from(chunks.join(""));
    for (let at = 0; at < data.byteLength; ) at += files.writeSync(fd, data, at);
    bytes += data.byteLength;
    chunks = [];
    length = 0;
  };
  try {
    stream.on("data", (chunk: string) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= 1 << 16) flush();
    });
    // The stream's failure ends the wait for "end" (or for "drain" first): never left unhandled.
    const ended = onceOf(stream, "end");
    ended.catch(() => undefined);
    let count = 0;
    for (const route of listed) {
      for (const url of route.urls) if (!stream.write({ url, lastmod: route.lastmod, links: route.links })) await onceOf(stream, "drain");
      if (pause && ++count % 64 === 0) await pause();
    }
    stream.end();
    await ended;
    flush();
    return bytes;
  } finally {
    files.closeSync(fd);
  }
}

/** Whether any route has a page in some locale: what the sitemap lists. */
export function hasListedPages(routes: Route[]): boolean {
  return routes.some((route) => Object.keys(route.paths).length > 0);
}

/** robots.txt, naming the sitemap when the build writes one. */
export function buildRobots(site: SiteConfig, sitemap: boolean): string {
  return `User-agent: *\nAllow: /\n${sitemap ? `\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n` : ""}`;
}
