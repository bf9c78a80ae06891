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
  /**
   * A listing of a collection: the route's path is its first page, and `${path}/page/<n>` the others,
   * `pageSize` entries each, in the collection's order (PageData.listing). A later page missing in a locale (fewer
   * entries there) has its language switcher lead to the listing's first page in that locale.
   *
   * With `groupBy`, one such listing per value of that front-matter field (text, or a list of texts, as
   * a `references` field holds): the route's path holds `:group` ("/blog/topics/:group"), replaced by the
   * value, which must be lower-case letters, digits and hyphens (an address segment; an entry with another
   * value fails the build, naming its file and the field). Each group is a route of its own,
   * `${id}:${value}` (`${id}:${value}.page<n>` for its later pages), in the locales that have entries in
   * it: no empty page. Its PageData.listing.group names the value and its label (`${to}.${value}` when the
   * field is a reference, else the value); the title and description keys read it as `{group}`. A locale
   * without the group has its language switcher lead to the route `indexRoute` (a page listing the groups).
   */
  list?: { collection: string; pageSize: number; groupBy?: string; indexRoute?: string };
  /**
   * One page per entry of a collection, at the route's path with `:slug` replaced by the entry's slug in
   * each locale (PageData.entry; title and description from the entry). A locale without a translation of
   * the entry has no page; its language switcher leads to the listing route `listRoute` in that locale.
   */
  entries?: { collection: string; listRoute?: string };
}

/** What one field of a collection's front matter must hold. */
export type FieldRule = (
  | { type: "text" | "date" | "boolean"; required?: boolean }
  /** A YAML number (`price: 12.5`, not `"12.5"`), within `min` and `max` when they are given. */
  | { type: "number"; min?: number; max?: number; required?: boolean }
  /** The id of something the text describes: `${to}.${value}` (or `${to}.${value}.${key}`) is a text key. */
  | { type: "reference"; to: string; key?: string; required?: boolean }
  /** A list of such ids (tags: each `${to}.${id}` is a text key, its label). */
  | { type: "references"; to: string; required?: boolean }
  /**
   * An image file, its path relative to the entry's file (`../../images/cover.webp`): processed by
   * the build's image stage (CollectionEntry.images). The first image field of a schema also gives the
   * entry its Open Graph image.
   */
  | { type: "image"; required?: boolean }
) & {
  /**
   * The same in every translation of an entry (a price, a photo): written once, in the entry's file of the
   * default locale, and inherited by its other files (paired as the entry's pages are: same `translationKey`,
   * else same file name) unless they write it themselves. Those may leave out a required shared field.
   */
  shared?: boolean;
};

/**
 * A collection: content/<locale>/<name>/*.md (Markdown with YAML front matter) or *.yaml. Fields named
 * `title`, `description`, `date`, `updated`, `author`, `tags`, `draft` and `translationKey` have a meaning
 * for the build (the page's head, its JSON-LD, the feeds, drafts, pairing translations).
 */
export interface CollectionDefinition {
  name: string;
  schema: Record<string, FieldRule>;
  /**
   * The entries' order: `{ field: "price", order: "asc" }` (smallest, oldest, A first) or `"desc"`, a number
   * compared as a number, a date as a date, text as the locale's language sorts it; a field's name alone is that
   * field, greatest (newest) first. Entries without the field come last; ties go by file name. Default: `date`,
   * newest first.
   */
  sortBy?: string | { field: string; order: "asc" | "desc" };
  /**
   * RSS 2.0 and Atom feeds per locale at `${listing path}/rss.xml` and `/atom.xml`: their title and description keys,
   * and how many entries.
   */
  feed?: { title: string; description: string; limit: number; listRoute: string };
  /** The `sizes` of the images in an entry's body: how wide the text column is drawn (default 100vw). */
  bodyImageSizes?: string;
  /** Text keys of an author's name and job title, `{id}` standing for the entry's `author` field. */
  author?: { name: string; jobTitle: string; url?: string };
}

/** One entry of a collection in one locale. */
export interface CollectionEntry {
  collection: string;
  locale: string;
  /** The file name without its extension. */
  slug: string;
  /** What pairs translations: `translationKey`, else the slug. */
  key: string;
  file: string;
  /**
   * The front matter, checked against the schema. A schema's `body` field is a getter of the fields, as
   * `html` is of the entry: read when asked for, and left out of what copies or hashes them.
   */
  data: Record<string, unknown>;
  /** The body, rendered (read from the file and rendered each time it is asked for): a getter, not an own field. */
  readonly html: string;
  readingMinutes: number;
  /** The entry's image for Open Graph and JSON-LD (an address on the site), when it has one. */
  image?: string;
  /** That image's address and size (for og:image:width and og:image:height). */
  ogImage?: ImageFile;
  /** The processed image of each image field that has a value, by field name (the build's image stage). */
  images?: Record<string, ProcessedImage>;
  /** The images the Markdown body refers to, in order: the image stage puts a `<picture>` in place of each. */
  bodyImages?: ImageRef[];
  /** The `<picture>` of each of them, in order, once the image stage made them (the html shows them). */
  bodyPictures?: string[];
  /** The entry's page, prefix included ("/de/blog/ki-governance"), when a route shows entries. */
  path?: string;
}

/** One file the image stage wrote: its address on the site and its size in pixels. */
export interface ImageFile {
  src: string;
  width: number;
  height: number;
}

/**
 * A source image as the build ships it: AVIF and WebP at several widths (never wider than the source),
 * each file named by its content's hash; a JPEG for browsers that take neither; and, for an entry's
 * Open Graph image, a 1200×630 JPEG cropped from it. src/generator/images/ writes them.
 */
export interface ProcessedImage {
  /** The source file, relative to the project folder. */
  source: string;
  avif: ImageFile[];
  webp: ImageFile[];
  /** What the `<img>` shows and its width and height (the aspect ratio that reserves the image's space). */
  fallback: ImageFile;
  og?: ImageFile;
}

/** An image that a Markdown body refers to (`![alt](./chart.png "title")`), and the line it is on. */
export interface ImageRef {
  src: string;
  alt: string;
  title?: string;
  /** Line in the entry's file, front matter counted (absent for the `body` of a YAML entry). */
  line?: number;
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
  /** Without the locale prefix: "/forms/sent". */
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
  /** Answers every unknown address: written per locale as <prefix>/404.html (none without it). */
  notFound?: SpecialPageDefinition;
  /** The server error page, per locale as <prefix>/500.html (none without it). */
  error?: SpecialPageDefinition;
  unlisted?: UnlistedPageDefinition[];
  collections?: CollectionDefinition[];
  /**
   * Text keys whose value is an image file, its path relative to the YAML file that holds the key; `*`
   * stands for one segment of the key ("team.*.photo"). Pages get the processed image with
   * PageData.image(key).
   */
  imageKeys?: string[];
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
  /** For the sitemap: the day the page last changed (an entry's `updated` or `date`); else the build's day. */
  lastmod?: string;
  /** Where the language switcher leads in a locale the page does not exist in. */
  fallback?: Record<string, string>;
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
  /** Already escaped for a <script> element (serializeJsonLd); made when the document first reads it. */
  readonly jsonLd: string;
  stylesheet: string;
  /** The fonts the stylesheet's @font-face rules name (hashed addresses and MIME types), worth a preload. */
  fonts: { href: string; type: string }[];
  /** Module scripts every page loads, and chunks worth a modulepreload. */
  scripts: string[];
  preloads: string[];
  /** "article" for collection entries, else "website". */
  ogType: string;
  /** The page's Open Graph image (an entry's), its full address and size. */
  image?: ImageFile;
  /** An entry's dates and tags for Open Graph (article:published_time...). */
  article?: { publishedTime: string; modifiedTime?: string; tags: string[] };
  /** The feeds of this locale, announced in every page's head. */
  feeds: { type: string; title: string; href: string }[];
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
  /** Every route of the site (the not-found page labels the addresses of its trail with them). */
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
  /** A collection's entries in this page's locale, in the collection's order (its `sortBy`). */
  collection(name: string): CollectionEntry[];
  /** The processed image a text key names (one of the site's `imageKeys`), when this locale's text has the key. */
  image(key: string): ProcessedImage | undefined;
  /** On an entry's page: the entry. */
  entry?: CollectionEntry;
  /**
   * On a listing's page: its entries, which page of how many, and the address of each page; for a
   * listing grouped by a field (RouteDefinition.list.groupBy), the group's value and its label.
   */
  listing?: {
    entries: CollectionEntry[];
    page: number;
    pages: number;
    pagePath(page: number): string;
    group?: { value: string; label: string };
  };
}
