import { SitemapStream, streamToPromise } from "sitemap";
import { Readable } from "node:stream";
import type { SiteConfig } from "./config.ts";
import { routes, type LocaleCode } from "./routes.ts";
import { absoluteUrl, alternatesFor } from "./seo.ts";

/**
 * sitemap.xml: one <url> per page and language, each listing the whole hreflang set (itself, the other
 * language and x-default), the same set the page's <head> carries.
 */
export async function buildSitemap(site: SiteConfig, lastmod: string): Promise<string> {
  const entries = routes.flatMap((route) => {
    const links = alternatesFor(route, site).map((a) => ({ lang: a.hreflang, hreflang: a.hreflang, url: a.href }));
    return site.locales.map((l) => ({
      url: absoluteUrl(site, route.paths[l.code as LocaleCode]),
      lastmod,
      links,
    }));
  });
  const stream = new SitemapStream({ hostname: site.siteUrl, xmlns: { news: false, video: false, image: false, xhtml: true } });
  const xml = await streamToPromise(Readable.from(entries).pipe(stream));
  return xml.toString();
}

export function buildRobots(site: SiteConfig): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n`;
}
