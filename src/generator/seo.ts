import type { LocaleCode, Route } from "./routes.ts";
import type { SiteConfig } from "./config.ts";
import type { Crumb } from "./breadcrumbs.ts";

export interface Alternate {
  hreflang: string;
  href: string;
}

/** Absolute URL of a site path: the spec's {host} plus the path ("/" stays "/"). */
export function absoluteUrl(site: Pick<SiteConfig, "siteUrl">, path: string): string {
  return path === "/" ? `${site.siteUrl}/` : `${site.siteUrl}${path}`;
}

/**
 * The hreflang set of a page: one entry per locale plus x-default, which points at the Portuguese page.
 * Both pages of a pair get the same set, so the links are reciprocal and each page lists itself.
 */
export function alternatesFor(route: Route, site: SiteConfig): Alternate[] {
  const list: Alternate[] = site.locales.map((l) => ({
    hreflang: l.lang,
    href: absoluteUrl(site, route.paths[l.code as LocaleCode]),
  }));
  list.push({ hreflang: "x-default", href: absoluteUrl(site, route.paths[site.locales[0].code as LocaleCode]) });
  return list;
}

/**
 * JSON for a <script type="application/ld+json">: `<`, `>` and `&` become \u escapes so no content can close
 * the script element or open a comment, and U+2028/2029 are escaped for old parsers. The JSON stays valid.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export interface StructuredDataInput {
  site: SiteConfig;
  route: Route | undefined;
  locale: LocaleCode;
  lang: string;
  path: string;
  title: string;
  description: string;
  crumbs: Crumb[];
  /** Country name in the page's language, for the postal address. */
  countryName: string;
}

/** The JSON-LD @graph of a page: Organization, WebSite, the page's own node, and its BreadcrumbList. */
export function structuredData(input: StructuredDataInput): Record<string, unknown> {
  const { site, route, lang, path, title, description, crumbs } = input;
  const home = absoluteUrl(site, "/");
  const url = absoluteUrl(site, path);
  const orgId = `${home}#organization`;
  const graph: Record<string, unknown>[] = [
    {
      "@type": "Organization",
      "@id": orgId,
      name: site.brand,
      legalName: site.legalName,
      url: home,
      email: site.email,
      telephone: site.phone,
      foundingDate: site.foundingYear,
      address: {
        "@type": "PostalAddress",
        addressLocality: site.city,
        addressRegion: site.region,
        addressCountry: site.countryCode,
      },
      areaServed: { "@type": "Country", name: input.countryName },
    },
    {
      "@type": "WebSite",
      "@id": `${home}#website`,
      url: home,
      name: site.brand,
      inLanguage: site.locales.map((l) => l.lang),
      publisher: { "@id": orgId },
    },
  ];
  // A page without a route (not found, form results, errors) is served at many addresses, none its own:
  // it gets no @id or url, so it never claims to be the home page it was rendered for.
  const page: Record<string, unknown> = {
    "@type": route?.schemaType === "Service" ? "WebPage" : (route?.schemaType ?? "WebPage"),
    ...(route ? { "@id": `${url}#webpage`, url } : {}),
    name: title,
    description,
    inLanguage: lang,
    isPartOf: { "@id": `${home}#website` },
    about: { "@id": orgId },
  };
  if (crumbs.length) page.breadcrumb = { "@id": `${url}#breadcrumb` };
  graph.push(page);
  if (route?.schemaType === "Service") {
    graph.push({
      "@type": "Service",
      "@id": `${url}#service`,
      name: title,
      description,
      url,
      provider: { "@id": orgId },
      areaServed: { "@type": "Country", name: input.countryName },
      inLanguage: lang,
      mainEntityOfPage: { "@id": `${url}#webpage` },
    });
  }
  if (crumbs.length) {
    graph.push({
      "@type": "BreadcrumbList",
      "@id": `${url}#breadcrumb`,
      itemListElement: crumbs.map((crumb, i) => ({
        "@type": "ListItem",
        position: i + 1,
        name: crumb.label,
        item: absoluteUrl(site, crumb.href ?? path),
      })),
    });
  }
  return { "@context": "https://schema.org", "@graph": graph };
}

