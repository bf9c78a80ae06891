import { createHash } from "node:crypto";
import type { SiteConfig } from "../config.ts";
import type { Route } from "../site-definition.ts";
import { absoluteUrl } from "./urls.ts";
import { alternatesFor } from "./hreflang.ts";

/**
 * sitemap.xml, as the `sitemap` package writes and escapes it: one <url> per route and locale, each with the
 * route's whole hreflang set (the set the page's <head> carries), and the day of the build as lastmod unless
 * the route says otherwise. Undefined for a site with no page at an address of its own (no route, or only
 * draft entries): the sitemap schema requires at least one <url>.
 */
export async function sitemapXml(site: SiteConfig, routes: Route[], lastmod: string): Promise<string | undefined> {
  if (!hasListedPages(routes)) return undefined;
  const { SitemapStream, streamToPromise } = await import("sitemap");
  const stream = new SitemapStream({
    hostname: site.siteUrl,
    xmlns: { news: false, video: false, image: false, xhtml: true },
  });
  const xml = streamToPromise(stream);
  for (const route of routes) {
    const links = alternatesFor(route, site).map((a) => ({ lang: a.hreflang, hreflang: a.hreflang, url: a.href }));
    for (const locale of site.locales) {
      const path = route.paths[locale.code];
      if (path !== undefined) stream.write({ url: absoluteUrl(site, path), lastmod: route.lastmod || lastmod, links });
    }
  }
  stream.end();
  return (await xml).toString();
}

/** A digest of everything sitemapXml makes the sitemap from: the same digest, the same file. */
export function sitemapKey(site: SiteConfig, routes: Route[], lastmod: string): string {
  const hash = createHash("sha256").update(JSON.stringify([site.siteUrl, site.locales, lastmod]));
  for (const route of routes) hash.update(JSON.stringify([route.paths, route.lastmod ?? ""]));
  return hash.digest("hex");
}

/** Whether any route has a page in some locale: what the sitemap lists. */
export function hasListedPages(routes: Route[]): boolean {
  return routes.some((route) => Object.keys(route.paths).length > 0);
}

/** robots.txt, naming the sitemap when the build writes one. */
export function buildRobots(site: SiteConfig, sitemap: boolean): string {
  return `User-agent: *\nAllow: /\n${sitemap ? `\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n` : ""}`;
}
