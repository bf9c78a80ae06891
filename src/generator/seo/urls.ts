import type { SiteConfig } from "../config.ts";

/** The absolute URL of a site path: the site's address plus the path ("/" stays "/"). */
export function absoluteUrl(site: Pick<SiteConfig, "siteUrl">, path: string): string {
  return path === "/" ? `${site.siteUrl}/` : `${site.siteUrl}${path}`;
}
