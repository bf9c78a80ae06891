import { homePath, localeOfPath, normalisePath, unprefixedPath, type LocaleCode } from "./locale-paths.ts";
import type { Translator } from "./i18n.ts";

export interface Crumb {
  label: string;
  /** Absent on the last crumb: the current page is not a link (spec §2). */
  href?: string;
}

/**
 * Spec §2: every page but home gets breadcrumbs; Home first, then one crumb per path segment, labelled from
 * content (`breadcrumbs.<segment>`) or, for an unknown segment, the segment capitalised.
 */
export function breadcrumbsFor(path: string, translator: Pick<Translator, "t" | "has">): Crumb[] {
  const p = normalisePath(path);
  const locale: LocaleCode = localeOfPath(p);
  const rest = unprefixedPath(p);
  if (rest === "/") return [];
  const home = homePath(locale);
  const segments = rest.split("/").filter(Boolean);
  const crumbs: Crumb[] = [{ label: translator.t("breadcrumbs.home"), href: home }];
  segments.forEach((segment, i) => {
    const key = `breadcrumbs.${segment}`;
    const label = translator.has(key) ? translator.t(key) : capitalise(safeDecode(segment));
    const href = (home === "/" ? "" : home) + "/" + segments.slice(0, i + 1).join("/");
    crumbs.push(i === segments.length - 1 ? { label } : { label, href });
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
