import type * as Sitemap from "sitemap";
import { dirname, join } from "node:path";
import { requireLazily } from "./lazy-require.ts";
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
  const { SitemapStream, streamToPromise } = sitemapStreamModule();
  const stream = new SitemapStream({ hostname: site.siteUrl, xmlns: { news: false, video: false, image: false, xhtml: true } });
  const xml = streamToPromise(stream);
  // Written straight in: piping from Readable.from() costs an async iteration step per entry.
  for (const entry of entries) stream.write(entry);
  stream.end();
  return (await xml).toString();
}

/**
 * The package's SitemapStream module on its own. The package's index also loads its parsers, index
 * streams and sax: 15 ms more of a first build for nothing it uses. Loaded when first needed: a rebuild
 * takes the sitemap from the cache and never needs the package.
 */
function sitemapStreamModule(): Pick<typeof Sitemap, "SitemapStream" | "streamToPromise"> {
  // By path, past the package's "exports" (which name only the index).
  return requireLazily(join(dirname(requireLazily.resolve("sitemap")), "lib", "sitemap-stream.js")) as typeof Sitemap;
}

export function buildRobots(site: SiteConfig): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site, "/sitemap.xml")}\n`;
}
