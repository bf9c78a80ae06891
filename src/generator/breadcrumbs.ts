import { localeOfPath, localizedPath, normalisePath, unprefixedPath, type LocalePrefix } from "./locales.ts";

export interface Crumb {
  label: string;
  /** Absent on the last crumb: the current page is not a link. */
  href?: string;
}

/**
 * The trail of a page: the locale's home first, then one crumb per path segment, labelled from the text
 * key `breadcrumbs.<segment>` (`breadcrumbs.home` for the first), or the segment capitalised when there is
 * none; the last crumb is the page itself and no link. The home page has none. Browser code uses it too
 * (the not-found page builds the trail of the address asked for).
 */
export function breadcrumbsFor(
  path: string,
  translator: { t(key: string): string; has(key: string): boolean },
  locales: readonly LocalePrefix[],
  lastLabel?: string,
): Crumb[] {
  const p = normalisePath(path);
  const locale = localeOfPath(p, locales);
  const rest = unprefixedPath(p, locales);
  if (rest === "/") return [];
  const segments = rest.split("/").filter(Boolean);
  const crumbs: Crumb[] = [{ label: translator.t("breadcrumbs.home"), href: localizedPath("/", locale) }];
  segments.forEach((segment, i) => {
    const key = `breadcrumbs.${segment}`;
    const last = i === segments.length - 1;
    const label =
      last && lastLabel ? lastLabel : translator.has(key) ? translator.t(key) : capitalise(safeDecode(segment));
    crumbs.push(last ? { label } : { label, href: localizedPath(`/${segments.slice(0, i + 1).join("/")}`, locale) });
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
