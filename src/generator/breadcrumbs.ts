import { localeOfPath, localizedPath, normalisePath, unprefixedPath, type LocalePrefix } from "./locales.ts";

export interface Crumb {
  label: string;
  /** Absent on the last crumb: the current page is not a link. */
  href?: string;
}

/** The labels of a trail: its first crumb's, and the content label of the page at a full path ("/de/about"). */
export interface CrumbLabels {
  home: string;
  of(path: string): string | undefined;
  /** Whether a page is at that full path; when given, a segment with none gets no crumb (it would lead nowhere). */
  exists?(path: string): boolean;
}

/**
 * The labels of one locale's trails: `breadcrumbs.home`, and `breadcrumbs.<route id>` for the route at a path.
 * Keyed by route, not by path segment, so that translated paths (`/sobre`, `/about`) share one key.
 * `routeIds` maps every route's full path, in every locale, to its id; a path at or under one of
 * `servedElsewhere` (site.yaml's) has a page too, another server's.
 */
export function crumbLabels(
  translator: { t(key: string): string; has(key: string): boolean },
  routeIds: ReadonlyMap<string, string>,
  servedElsewhere: readonly string[] = [],
): CrumbLabels {
  return {
    // Read only by a trail: a page without one does not ask for the key.
    get home() {
      return translator.t("breadcrumbs.home");
    },
    of(path) {
      const key = `breadcrumbs.${routeIds.get(path)}`;
      return routeIds.has(path) && translator.has(key) ? translator.t(key) : undefined;
    },
    exists: (path) =>
      routeIds.has(path) || servedElsewhere.some((p) => path === p || path.startsWith(p === "/" ? p : `${p}/`)),
  };
}

/**
 * The trail of a page: the locale's home first, then one crumb per path segment, labelled with the label of
 * the route at that path (crumbLabels), or the segment capitalised when there is none; the last crumb is the
 * page itself and no link. A segment at which the site has no page (`/notes` of `/notes/:slug` without a
 * listing) is left out when the labels say which pages exist. The home page has none. Browser code uses it
 * too (the not-found page builds the trail of the address asked for).
 */
export function breadcrumbsFor(
  path: string,
  labels: CrumbLabels,
  locales: readonly LocalePrefix[],
  lastLabel?: string,
): Crumb[] {
  const p = normalisePath(path);
  const locale = localeOfPath(p, locales);
  const rest = unprefixedPath(p, locales);
  if (rest === "/") return [];
  const segments = rest.split("/").filter(Boolean);
  const home = localizedPath("/", locale);
  const crumbs: Crumb[] = labels.exists && !labels.exists(home) ? [] : [{ label: labels.home, href: home }];
  segments.forEach((segment, i) => {
    const href = localizedPath(`/${segments.slice(0, i + 1).join("/")}`, locale);
    const last = i === segments.length - 1;
    if (!last && labels.exists && !labels.exists(href)) return;
    const label = (last && lastLabel) || labels.of(href) || capitalise(safeDecode(segment));
    crumbs.push(last ? { label } : { label, href });
  });
  return crumbs;
}

export function capitalise(segment: string): string {
  return segment.charAt(0).toUpperCase() + segment.slice(1);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
