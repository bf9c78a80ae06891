import type { SiteConfig } from "../config.ts";
import type { Alternate, Route } from "../site-definition.ts";
import { absoluteUrl } from "./urls.ts";

/**
 * The hreflang set of a route: one link per locale the page exists in (never one to a page that does not
 * exist), plus x-default, which points at the default locale's page or, if the page has none, at the
 * first locale that has it. Every page of the
 * set carries the same list, itself included, so the links are reciprocal.
 */
export function alternatesFor(route: Route, site: SiteConfig): Alternate[] {
  const present = site.locales.filter((l) => route.paths[l.code] !== undefined);
  // A site in one language has no alternates to announce.
  if (site.locales.length < 2 || present.length === 0) return [];
  const list = present.map((l) => ({ hreflang: l.lang, href: absoluteUrl(site, route.paths[l.code]) }));
  list.push({ hreflang: "x-default", href: absoluteUrl(site, route.paths[present[0].code]) });
  return list;
}
