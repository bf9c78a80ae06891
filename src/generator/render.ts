import type { SharedMarkupStore } from "../components/SharedMarkup.tsx";
import type { SiteConfig } from "./config.ts";
import type { Translator } from "./i18n.ts";
import type { SsrModule } from "./ssr-bundle.ts";
import type { PageContextValue } from "../components/page-context.tsx";
import { breadcrumbsFor } from "./breadcrumbs.ts";
import { homePath, routeById, type LocaleCode, type Route } from "./routes.ts";
import { absoluteUrl, alternatesFor, serializeJsonLd, structuredData } from "./seo.ts";
import { SitegenError } from "./errors.ts";

export interface RenderInput {
  site: SiteConfig;
  translators: Record<LocaleCode, Translator>;
  ssr: SsrModule;
  stylesheet: string;
  scripts: string[];
  preloads: string[];
  islands: Record<string, string>;
  /** Parts rendered once per language and build (src/components/SharedMarkup.tsx); without it, on every page. */
  sharedMarkup?: SharedMarkupStore;
}

export interface RenderTarget {
  /** The URL path the page answers at ("/en/about"), or the not-found/error page's locale home. */
  path: string;
  locale: LocaleCode;
  route?: Route;
  /** Which component renders it; defaults to the route's page. */
  pageName?: string;
  props?: Record<string, unknown>;
  /** Content keys of the title and description when the page has no route (form results). */
  metaKeys?: { title: string; description: string };
}

/**
 * A content date (YYYY-MM-DD) in words, from the locale's month names and pattern in content
 * ("23 de novembro de 2026", "23 November 2026"). Not Intl.DateTimeFormat: loading its locale data took
 * about 30 ms of every cold build, for a handful of dates.
 */
export function formatDate(t: Translator["t"], iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const months = t("dates.months").split(/\s*,\s*/);
  const month = match ? months[Number(match[2]) - 1] : undefined;
  if (!match || months.length !== 12 || !month || Number(match[3]) < 1 || Number(match[3]) > 31) return iso;
  return t("dates.pattern", { day: Number(match[3]), month, year: match[1] });
}

/** Everything a page's components read, decided here once, then the whole document as an HTML string. */
export function renderPage(input: RenderInput, target: RenderTarget): string {
  const { site, translators, ssr } = input;
  const { route, locale } = target;
  const translator = translators[locale];
  const { t } = translator;
  const localeConfig = site.locales.find((l) => l.code === locale)!;
  const pageName = target.pageName ?? route?.page;
  if (!pageName || !ssr.pageNames.includes(pageName)) {
    throw new SitegenError("PageMissing", `Route "${route?.id}" needs src/pages/${pageName}.tsx, which does not exist.`, `Create it, or fix "page" in src/generator/routes.ts.`);
  }
  const crumbs = route ? breadcrumbsFor(target.path, translator) : [];
  const metaKey = route?.metaKey ?? `meta.${pageName}`;
  const titleKey = target.metaKeys?.title ?? `${metaKey}.title`;
  const title = route?.id === "home" ? t(titleKey) : `${t(titleKey)} | ${site.brand}`;
  const description = t(target.metaKeys?.description ?? `${metaKey}.description`);
  const counterpartLocale: LocaleCode = locale === "en" ? "pt" : "en";
  const page: PageContextValue = {
    t: translator.t,
    has: translator.has,
    count: translator.count,
    locale,
    lang: localeConfig.lang,
    path: target.path,
    route,
    site,
    href: (id) => routeById(id).paths[locale],
    formatDate: (iso) => formatDate(t, iso),
    counterpartPath: route ? route.paths[counterpartLocale] : homePath(counterpartLocale),
    counterpartLocale,
    crumbs,
    islands: input.islands,
    sharedMarkup: input.sharedMarkup,
  };
  const canonical = absoluteUrl(site, route ? target.path : homePath(locale));
  const jsonLd = serializeJsonLd(
    structuredData({ site, route, locale, lang: localeConfig.lang, path: target.path, title, description, crumbs, countryName: t("footer.country") }),
  );
  try {
    return ssr.renderDocument(
      {
        title,
        description,
        canonical,
        alternates: route ? alternatesFor(route, site) : [],
        ogLocale: localeConfig.ogLocale,
        ogLocaleAlternates: site.locales.filter((l) => l.code !== locale).map((l) => l.ogLocale),
        siteName: site.brand,
        jsonLd,
        stylesheet: input.stylesheet,
        scripts: input.scripts,
        preloads: input.preloads,
        indexable: Boolean(route),
      },
      page,
      pageName,
      target.props,
    );
  } catch (error) {
    throw new SitegenError(
      "PageRenderError",
      `Rendering ${pageName} for ${target.path} (route "${route?.id ?? pageName}", ${locale}) failed: ${(error as Error).message}`,
      "The stack trace below points at the component.",
      { cause: error },
    );
  }
}

