import type { SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import type { CollectionDefinition, HeadData, PageData, Route } from "../site-definition.ts";
import type { ProcessedImages } from "./images.ts";
import type { Collections } from "./collections.ts";
import { createTranslator, type Translator } from "../i18n.ts";
import { breadcrumbsFor, crumbLabels } from "../breadcrumbs.ts";
import { localizedPath } from "../locales.ts";
import { absoluteUrl } from "../seo/urls.ts";
import { alternatesFor } from "../seo/hreflang.ts";
import { structuredDataJson } from "../seo/structured-data.ts";
import { sitegenError } from "../errors.ts";
import type { PagesBundle } from "../compile/pages.ts";
import { pageFrames } from "../compile/page-stack.ts";
import type { PagePlan, PlannedPage } from "./plan-pages.ts";

/** What every page links to: the stylesheet and its fonts, the islands runtime and each island's module. */
export interface PageAssets {
  stylesheet: string;
  fonts: { href: string; type: string }[];
  scripts: string[];
  preloads: string[];
  islands: Record<string, string>;
}

export interface RenderedPage {
  page: PlannedPage;
  /** The whole HTML document. */
  html: string;
  /** Text keys the page asked for and its locale lacks (the page shows the key itself). */
  missing: string[];
  /** What the page read beyond its own plan, as indexes into ReadLog's names, for incremental builds. */
  reads: number[];
}

/**
 * Where a page's reads are noted while it renders: the build's collections note the bodies they are asked
 * for here too, so the set holds everything the page read that its plan does not name.
 */
export class ReadLog {
  /** Every name noted in the build, once each: thousands of pages read the same few hundred things. */
  readonly names: string[] = [];
  private readonly indexes = new Map<string, number>();
  current: Set<number> | undefined;

  note(name: string): void {
    this.current?.add(this.index(name));
  }

  /** The name's place in `names`, added at the end the first time. */
  index(name: string): number {
    let index = this.indexes.get(name);
    if (index === undefined) this.indexes.set(name, (index = this.names.push(name) - 1));
    return index;
  }
}

export interface RenderInput {
  plan: PagePlan;
  /** The pages to render (the others are kept from the previous output). */
  pages: Iterable<PlannedPage>;
  bundle: PagesBundle;
  site: SiteConfig;
  dictionaries: Record<string, Dictionary>;
  assets: PageAssets;
  collections: Collections;
  images: PageImages;
  /** Where each page's reads are noted (the collections note the bodies they are asked for there too). */
  log: ReadLog;
}

/**
 * Stage 5. Each planned page → a whole HTML document: the data its components read (PageData), its head
 * (title, canonical, hreflang, Open Graph, JSON-LD), rendered by React through the site's document shell.
 * One page at a time, as the caller asks for the next: the pages are written as they come and never all
 * held at once.
 */
export function* renderPages(input: RenderInput): Generator<RenderedPage> {
  const { bundle, dictionaries, log } = input;
  const context = buildContext(input);
  for (const page of input.pages) {
    const missing = new Set<string>();
    const reads = new Set<number>();
    log.current = reads;
    const translator = createTranslator(page.locale, dictionaries[page.locale] ?? new Map(), (_l, key) =>
      missing.add(key),
    );
    const data = pageData(page, translator, context);
    const head = headData(page, data, context);
    let html: string;
    try {
      html = bundle.render(head, data, page.component, page.props);
    } catch (error) {
      throw renderError(page, error, bundle.file);
    } finally {
      log.current = undefined;
    }
    yield { page, html, missing: [...missing], reads: [...reads] };
  }
}

function renderError(page: PlannedPage, error: unknown, bundleFile: string) {
  const e = error as Error;
  const stack = pageFrames(e?.stack ?? "", bundleFile);
  const where = page.route ? `route "${page.route.id}"` : page.label;
  const params = { page: where, path: page.path, locale: page.locale, text: e?.message ?? String(error), stack };
  return sitegenError("PageRenderError", params, { cause: error });
}

/** The image stage's results a page shows: text keys' images (PageData.image) and the site's Open Graph image. */
export type PageImages = Pick<ProcessedImages, "byKey" | "social">;

/** What is the same for every page of a build. */
interface BuildContext {
  site: SiteConfig;
  assets: PageAssets;
  log: ReadLog;
  routes: Route[];
  byId: Map<string, Route>;
  /** Every route's full path, in every locale, → its id: what labels the breadcrumbs. */
  routeIds: Map<string, string>;
  notFoundPaths: Record<string, string>;
  /**
   * Each locale's long date format, made when a page of it first shows a date (a format takes ICU's data for its
   * language).
   */
  dateFormat: (locale: string) => Intl.DateTimeFormat;
  formattedDates: Map<string, string>;
  collections: Collections;
  definitions: CollectionDefinition[];
  /** Text keys' images and the site's Open Graph image (the image stage). */
  images: PageImages;
}

function buildContext({ plan, site, assets, log, collections, images, bundle }: RenderInput): BuildContext {
  const notFoundPaths = Object.fromEntries(site.locales.map((l) => [l.code, localizedPath("/404", l)]));
  const dateFormats = new Map<string, Intl.DateTimeFormat>();
  const dateFormat = (locale: string) => {
    let format = dateFormats.get(locale);
    if (!format) {
      format = new Intl.DateTimeFormat(site.locales.find((l) => l.code === locale)!.lang, DATE_STYLE);
      dateFormats.set(locale, format);
    }
    return format;
  };
  const byId = new Map(plan.routes.map((r) => [r.id, r]));
  const routeIds = new Map(plan.routes.flatMap((r) => Object.values(r.paths).map((path) => [path, r.id] as const)));
  const shared = { site, assets, log, collections, images, definitions: bundle.site.collections ?? [] };
  return { ...shared, routes: plan.routes, byId, routeIds, notFoundPaths, dateFormat, formattedDates: new Map() };
}

const DATE_STYLE: Intl.DateTimeFormatOptions = { dateStyle: "long", timeZone: "UTC" };

function pageData(page: PlannedPage, translator: Translator, context: BuildContext): PageData {
  const { site, log } = context;
  const { route, locale } = page;
  const localeConfig = site.locales.find((l) => l.code === locale)!;
  const group = page.listing?.group;
  const groupLabel = group && (group.labelKey ? translator.t(group.labelKey) : group.value);
  return {
    t: translator.t,
    has: translator.has,
    count: translator.count,
    locale,
    lang: localeConfig.lang,
    path: page.path,
    route,
    site,
    get routes() {
      log.note("routes");
      return context.routes;
    },
    href(routeId, inLocale = locale) {
      log.note(`route:${routeId}`);
      const target = context.byId.get(routeId);
      if (!target) throw new Error(`No route has the id "${routeId}" (src/pages/routes.ts).`);
      return target.paths[inLocale];
    },
    formatDate(iso) {
      // Thousands of pages show the same few hundred dates: each is formatted once per locale.
      const key = `${locale} ${iso}`;
      let formatted = context.formattedDates.get(key);
      if (formatted === undefined) {
        const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : new Date(Number.NaN);
        formatted = Number.isNaN(date.getTime()) ? iso : context.dateFormat(locale).format(date);
        context.formattedDates.set(key, formatted);
      }
      return formatted;
    },
    languages: site.locales.map((l) => ({
      code: l.code,
      lang: l.lang,
      href: route?.paths[l.code] ?? route?.fallback?.[l.code] ?? localizedPath("/", l),
      current: l.code === locale,
    })),
    crumbs: route ? crumbsOf(page, translator, context, groupLabel) : [],
    islands: context.assets.islands,
    notFoundPaths: context.notFoundPaths,
    collection: (name) => {
      log.note(`collection:${name}:${locale}`);
      return context.collections[name]?.[locale] ?? [];
    },
    image: (key) => context.images?.byKey[locale]?.get(key),
    entry: page.entry,
    listing: page.listing && {
      entries: page.listing.entries,
      page: page.listing.page,
      pages: page.listing.pages,
      pagePath: (n) => (n <= 1 ? page.listing!.basePath : `${page.listing!.basePath}/page/${n}`),
      group: group && { value: group.value, label: groupLabel! },
    },
  };
}

/**
 * The trail of a routed page: one crumb per path segment; an entry's last crumb is its title, a grouped
 * listing's its group's label, and a listing's later pages end with the listing, then "page n" (the text
 * key `pagination.page`).
 */
function crumbsOf(page: PlannedPage, translator: Translator, context: BuildContext, groupLabel: string | undefined) {
  const labels = crumbLabels(translator, context.routeIds, context.site.servedElsewhere);
  const locales = context.site.locales;
  if (page.entry) return breadcrumbsFor(page.path, labels, locales, String(page.entry.data.title ?? page.entry.slug));
  if (page.listing && page.listing.page > 1) {
    const crumbs = breadcrumbsFor(page.listing.basePath, labels, locales, groupLabel);
    const last = crumbs.pop()!;
    return [
      ...crumbs,
      { label: last.label, href: page.listing.basePath },
      { label: translator.t("pagination.page", { page: page.listing.page }) },
    ];
  }
  return breadcrumbsFor(page.path, labels, locales, groupLabel);
}

function headData(page: PlannedPage, data: PageData, context: BuildContext): HeadData {
  const { site, assets } = context;
  const { t } = data;
  const brand = typeof site.brand === "string" ? site.brand : "";
  const localeConfig = site.locales.find((l) => l.code === page.locale)!;
  const entry = page.entry;
  // A grouped listing's title and description name its group.
  const group = data.listing?.group;
  const vars = group && { group: group.label };
  let pageTitle = entry ? String(entry.data.title) : t(page.meta.title, vars);
  if (page.listing && page.listing.page > 1)
    pageTitle = `${pageTitle} (${t("pagination.page", { page: page.listing.page })})`;
  // The home page's title stands alone; every other page's names the site after it.
  const isHome = page.kind === "route" && page.path === localizedPath("/", localeConfig);
  const title = isHome || !brand ? pageTitle : `${pageTitle} | ${brand}`;
  const description = entry ? String(entry.data.description ?? "") : t(page.meta.description, vars);
  const definition = entry ? context.definitions.find((d) => d.name === entry.collection) : undefined;
  const author =
    entry && definition?.author && typeof entry.data.author === "string"
      ? authorOf(definition.author, String(entry.data.author), t, data)
      : undefined;
  // An entry's own image (its first image field's crop), else the site's: a shared link always shows a card.
  const social = context.images?.social;
  const ogImage = entry?.ogImage ?? social;
  let jsonLd: string | undefined;
  return {
    title,
    description,
    canonical: page.route ? absoluteUrl(site, page.path) : undefined,
    alternates: page.route ? alternatesFor(page.route, site) : [],
    ogLocale: localeConfig.ogLocale,
    ogLocaleAlternates: site.locales.filter((l) => l !== localeConfig).map((l) => l.ogLocale),
    siteName: brand,
    // Made when the document reads it: a site whose document writes its own structured data pays nothing for it.
    get jsonLd() {
      jsonLd ??= structuredDataJson({
        site,
        route: page.route,
        lang: localeConfig.lang,
        path: page.path,
        title,
        description,
        crumbs: data.crumbs,
        entry,
        author,
        image: entry?.image ?? social?.src,
      });
      return jsonLd;
    },
    stylesheet: assets.stylesheet,
    fonts: assets.fonts,
    scripts: assets.scripts,
    preloads: assets.preloads,
    ogType: entry ? "article" : "website",
    image: ogImage && { ...ogImage, src: absoluteUrl(site, ogImage.src) },
    article: entry && {
      publishedTime: String(entry.data.date ?? ""),
      modifiedTime: entry.data.updated ? String(entry.data.updated) : undefined,
      tags: Array.isArray(entry.data.tags) ? (entry.data.tags as string[]).map((tag) => t(`tags.${tag}`)) : [],
    },
    feeds: feedLinks(context, localeConfig.code, t),
  };
}

/** The feeds of a locale: RSS and Atom of each collection that has a feed, beside its listing. */
function feedLinks(context: BuildContext, locale: string, t: Translator["t"]): HeadData["feeds"] {
  return context.definitions.flatMap((d) => {
    const base = d.feed && context.byId.get(d.feed.listRoute)?.paths[locale];
    if (!d.feed || !base) return [];
    const title = t(d.feed.title);
    return [
      { type: "application/rss+xml", title, href: `${base}/rss.xml` },
      { type: "application/atom+xml", title, href: `${base}/atom.xml` },
    ];
  });
}

type AuthorKeys = NonNullable<CollectionDefinition["author"]>;

export interface Author {
  name: string;
  jobTitle: string;
  url?: string;
}

/** An entry's author, named from the text keys the collection gives (`{id}` standing for the author's id). */
export function authorOf(keys: AuthorKeys, id: string, t: Translator["t"], data: Pick<PageData, "href">): Author {
  const key = (pattern: string) => pattern.replaceAll("{id}", id);
  return { name: t(key(keys.name)), jobTitle: t(key(keys.jobTitle)), url: keys.url ? data.href(keys.url) : undefined };
}
