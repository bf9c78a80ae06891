import type * as Sitemap from "sitemap";
import { requireLazily } from "./lazy-require.ts";
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
  // Loaded here: a rebuild takes the sitemap from the cache and never needs the package (or sax).
  const { SitemapStream, streamToPromise } = requireLazily("sitemap") as typeof Sitemap;
  const stream = new SitemapStream({ hostname: site.siteUrl, xmlns: { news: false, video: false, image: false, xhtml: true } });
  const xml = await streamToPromise(Readable.from(entries).pipe(stream));
  return xml.toString();
}

export function buildRobots(site: SiteConfig): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n`;
}
