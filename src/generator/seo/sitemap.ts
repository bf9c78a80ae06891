import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import type { SiteConfig } from "../config.ts";
import type { Route } from "../site-definition.ts";
import { absoluteUrl } from "./urls.ts";
import { alternatesFor } from "./hreflang.ts";

/**
 * Writes sitemap.xml to `file` and returns its size (the `sitemap` package writes and escapes it): one <url> per route and locale, each with
 * the route's whole hreflang set, the same set the page's <head> carries, and the day of the build as
 * lastmod unless the route says otherwise. Undefined for a site with no page at an address of its own
 * (no route, or only draft entries): the sitemap schema requires at least one <url>, so there is none.
 */
export async function writeSitemap(site: SiteConfig, routes: Route[], lastmod: string, file: string): Promise<number | undefined> {
  if (!hasListedPages(routes)) return undefined;
  // Loaded when a sitemap is made: an incremental build whose routes did not change keeps the one there.
  const { SitemapStream } = await import("sitemap");
  const stream = new SitemapStream({ hostname: site.siteUrl, xmlns: { news: false, video: false, image: false, xhtml: true } });
  // Streamed to its file as it is made: at thousands of pages, the whole document and its pieces held at once
  // were much of a build's peak of memory.
  const out = createWriteStream(file);
  const written = pipeline(stream, out);
  // Its failure (a full disk) is awaited below, or ends the wait for "drain" first: never left unhandled.
  written.catch(() => undefined);
  for (const route of routes) {
    const links = alternatesFor(route, site).map((a) => ({ lang: a.hreflang, hreflang: a.hreflang, url: a.href }));
    for (const locale of site.locales) {
      const path = route.paths[locale.code];
      if (path !== undefined && !stream.write({ url: absoluteUrl(site, path), lastmod: route.lastmod || lastmod, links })) await once(stream, "drain");
    }
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
