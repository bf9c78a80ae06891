/**
 * What a site tells sitegen about itself, in src/pages/routes.ts (its default export): the document
 * shell every page is rendered into, the route table, and the special pages. The generator imports no
 * page or component: it finds this module by convention (project.ts) and reads it through the pages
 * bundle. Also the data every page is rendered with (PageData), which the document shell puts in
 * context for its components.
 */
import type { ComponentType, ReactNode } from "react";
import type { SiteConfig } from "./config.ts";
import type { Translator } from "./i18n.ts";
import type { Crumb } from "./breadcrumbs.ts";

export interface RouteDefinition {
  /** Stable id pages link to: `about`, `services.advisory`. */
  id: string;
  /**
   * The path without a locale prefix ("/about"), the same in every locale; or one path per locale code
   * for translated slugs ({ pt: "/sobre", en: "/about" }), each still without its prefix.
   */
  path: string | Record<string, string>;
  /** The component that renders the page's main content. */
  page: ComponentType<Record<string, unknown>>;
  /** Props for that component. */
  props?: Record<string, unknown>;
  /** Anything else the page's components need to know about the route (which service line, ...). */
  params?: Record<string, string>;
  /** schema.org type of the page's node in JSON-LD (default WebPage). */
  schemaType?: string;
  /** Text keys of the title and description: `${metaKey}.title` and `${metaKey}.description` (default `meta.<id>`). */
  metaKey?: string;
}

/** A page that is not a route of the site map: not indexed, not in the sitemap, no breadcrumbs. */
export interface SpecialPageDefinition {
  page: ComponentType<Record<string, unknown>>;
  props?: Record<string, unknown>;
  /** Text keys of the title and description. */
  meta: { title: string; description: string };
}

/** An unlisted page at an address of its own in every locale (the forms' result pages). */
export interface UnlistedPageDefinition extends SpecialPageDefinition {
  id: string;
  /** Without the locale prefix: "/forms/contact-success". */
  path: string;
}

export interface DocumentProps {
  head: HeadData;
  page: PageData;
  children: ReactNode;
}

export interface SiteDefinition {
  /** The shell (`<html>` to `</html>`) every page is rendered into. */
  document: ComponentType<DocumentProps>;
  routes: RouteDefinition[];
  /** Answers every unknown address: written per locale as <prefix>/404.html. */
  notFound: SpecialPageDefinition;
  /** The server error page, per locale as <prefix>/500.html. */
  error: SpecialPageDefinition;
  unlisted?: UnlistedPageDefinition[];
}

/** For src/pages/routes.ts: `export default defineSite({...})`, type-checked. */
export function defineSite(site: SiteDefinition): SiteDefinition {
  return site;
}

/** A route as the build knows it: its path in every locale decided. */
export interface Route {
  id: string;
  /** Locale code → the full path, prefix included ("/de/about"). */
  paths: Record<string, string>;
  params?: Record<string, string>;
  schemaType: string;
}

export interface Alternate {
  hreflang: string;
  href: string;
}

/** What the `<head>` of a page says, decided by the build (titles, canonical, hreflang, JSON-LD...). */
export interface HeadData {
  title: string;
  description: string;
  /** Absent on pages that must not be indexed (not found, error, form results). */
  canonical?: string;
  alternates: Alternate[];
  ogLocale: string;
  ogLocaleAlternates: string[];
  siteName: string;
  /** Already escaped for a <script> element (serializeJsonLd). */
  jsonLd: string;
  stylesheet: string;
  /** Module scripts every page loads, and chunks worth a modulepreload. */
  scripts: string[];
  preloads: string[];
}

/** One language the page is available in, for the language switcher. */
export interface PageLanguage {
  code: string;
  lang: string;
  /** This page in that language; the locale's home page for pages without a route. */
  href: string;
  current: boolean;
}

/** Everything a page's components may know about the page being built. */
export interface PageData {
  t: Translator["t"];
  has: Translator["has"];
  count: Translator["count"];
  locale: string;
  lang: string;
  /** The address the page answers at ("/de/about"); the locale's home for special pages. */
  path: string;
  /** Absent on special and unlisted pages. */
  route?: Route;
  site: SiteConfig;
  /** Every route of the site (the not-found page labels the segments of their paths). */
  routes: Route[];
  /** The path of a route in this page's locale (or another). */
  href(routeId: string, locale?: string): string;
  /** An ISO date (2026-11-22) in words, in the page's language. */
  formatDate(iso: string): string;
  /** Every locale of the site, this page's counterpart in each. */
  languages: PageLanguage[];
  crumbs: Crumb[];
  /** Island name → URL of its browser module. */
  islands: Record<string, string>;
  /** Each locale's not-found page, by address (/404, /de/404): what a host without per-locale 404s needs. */
  notFoundPaths: Record<string, string>;
}
