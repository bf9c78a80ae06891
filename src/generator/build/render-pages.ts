import type { SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import type { HeadData, PageData, Route } from "../site-definition.ts";
import { createTranslator, type Translator } from "../i18n.ts";
import { breadcrumbsFor } from "../breadcrumbs.ts";
import { localizedPath } from "../locales.ts";
import { absoluteUrl } from "../seo/urls.ts";
import { alternatesFor } from "../seo/hreflang.ts";
import { serializeJsonLd, structuredData } from "../seo/structured-data.ts";
import { sitegenError } from "../errors.ts";
import type { PagesBundle } from "./bundle-pages.ts";
import type { PagePlan, PlannedPage } from "./plan-pages.ts";

/** What every page links to: the stylesheet, the islands runtime and each island's module. */
export interface PageAssets {
  stylesheet: string;
  scripts: string[];
  preloads: string[];
  islands: Record<string, string>;
}

export interface RenderedPage {
  page: PlannedPage;
  html: string;
  /** Text keys the page asked for and its locale lacks (the page shows the key itself). */
  missing: string[];
}

/**
 * Stage 4. Each planned page → a whole HTML document: the data its components read (PageData), its head
 * (title, canonical, hreflang, Open Graph, JSON-LD), rendered by React through the site's document shell.
 */
export function renderPages(plan: PagePlan, pages: PlannedPage[], bundle: PagesBundle, site: SiteConfig, dictionaries: Record<string, Dictionary>, assets: PageAssets): RenderedPage[] {
  const context = pageContext(plan, site);
  return pages.map((page) => {
    const missing = new Set<string>();
    const translator = createTranslator(page.locale, dictionaries[page.locale] ?? new Map(), (_locale, key) => missing.add(key));
    const data = pageData(page, translator, site, context, assets.islands);
    const head = headData(page, data, site, assets);
    try {
      return { page, html: bundle.render(head, data, page.component, page.props), missing: [...missing] };
    } catch (error) {
      const e = error as Error;
      throw sitegenError(
        "PageRenderError",
        { page: page.route ? `route "${page.route.id}"` : page.label, path: page.path, locale: page.locale, text: e?.message ?? String(error), stack: (e?.stack ?? "").split("\n").slice(1, 6).join("\n") },
        { cause: error },
      );
    }
  });
}

/** What is the same for every page of a build. */
interface BuildContext {
  routes: Route[];
  byId: Map<string, Route>;
  notFoundPaths: Record<string, string>;
  dateFormats: Map<string, Intl.DateTimeFormat>;
}

function pageContext(plan: PagePlan, site: SiteConfig): BuildContext {
  const notFoundPaths = Object.fromEntries(site.locales.map((l) => [l.code, localizedPath("/404", l)]));
  const dateFormats = new Map(site.locales.map((l) => [l.code, new Intl.DateTimeFormat(l.lang, { dateStyle: "long", timeZone: "UTC" })]));
  return { routes: plan.routes, byId: new Map(plan.routes.map((r) => [r.id, r])), notFoundPaths, dateFormats };
}

function pageData(page: PlannedPage, translator: Translator, site: SiteConfig, context: BuildContext, islands: Record<string, string>): PageData {
  const { route, locale } = page;
  const localeConfig = site.locales.find((l) => l.code === locale)!;
  return {
    t: translator.t,
    has: translator.has,
    count: translator.count,
    locale,
    lang: localeConfig.lang,
    path: page.path,
    route,
    site,
    routes: context.routes,
    href(routeId, inLocale = locale) {
      const target = context.byId.get(routeId);
      if (!target) throw new Error(`No route has the id "${routeId}" (src/pages/routes.ts).`);
      return target.paths[inLocale];
    },
    formatDate(iso) {
      const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : new Date(Number.NaN);
      return Number.isNaN(date.getTime()) ? iso : context.dateFormats.get(locale)!.format(date);
    },
    languages: site.locales.map((l) => ({ code: l.code, lang: l.lang, href: route?.paths[l.code] ?? localizedPath("/", l), current: l.code === locale })),
    crumbs: route ? breadcrumbsFor(page.path, translator, site.locales) : [],
    islands,
    notFoundPaths: context.notFoundPaths,
  };
}

function headData(page: PlannedPage, data: PageData, site: SiteConfig, assets: PageAssets): HeadData {
  const { t } = data;
  const brand = typeof site.brand === "string" ? site.brand : "";
  const localeConfig = site.locales.find((l) => l.code === page.locale)!;
  const pageTitle = t(page.meta.title);
  // The home page's title stands alone; every other page's names the site after it.
  const isHome = page.kind === "route" && page.path === localizedPath("/", localeConfig);
  const title = isHome || !brand ? pageTitle : `${pageTitle} | ${brand}`;
  const description = t(page.meta.description);
  return {
    title,
    description,
    canonical: page.route ? absoluteUrl(site, page.path) : undefined,
    alternates: page.route ? alternatesFor(page.route, site) : [],
    ogLocale: localeConfig.ogLocale,
    ogLocaleAlternates: site.locales.filter((l) => l !== localeConfig).map((l) => l.ogLocale),
    siteName: brand,
    jsonLd: serializeJsonLd(structuredData({ site, route: page.route, lang: localeConfig.lang, path: page.path, title, description, crumbs: data.crumbs })),
    stylesheet: assets.stylesheet,
    scripts: assets.scripts,
    preloads: assets.preloads,
  };
}
