import { SitemapStream, streamToPromise } from "sitemap";
import type { SiteConfig } from "../config.ts";
import type { Route } from "../site-definition.ts";
import { absoluteUrl } from "./urls.ts";
import { alternatesFor } from "./hreflang.ts";

/**
 * sitemap.xml (the `sitemap` package writes and escapes it): one <url> per route and locale, each with
 * the route's whole hreflang set, the same set the page's <head> carries, and the day of the build as
 * lastmod unless the route says otherwise.
 */
export async function buildSitemap(site: SiteConfig, routes: Route[], lastmod: string): Promise<string> {
  const stream = new SitemapStream({ hostname: site.siteUrl, xmlns: { news: false, video: false, image: false, xhtml: true } });
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

export function buildRobots(site: SiteConfig): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n`;
}
