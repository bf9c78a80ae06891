import type { SiteConfig } from "../config.ts";
import type { Crumb } from "../breadcrumbs.ts";
import type { CollectionEntry, Route } from "../site-definition.ts";
import { absoluteUrl } from "./urls.ts";

/**
 * JSON for a <script type="application/ld+json">: `<`, `>` and `&` become \u escapes, so no text can
 * close the script element or open a comment, and U+2028/2029 are escaped for old parsers. Still valid JSON.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** What could end the script element or be read as markup, and the line separators older parsers choke on. */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

export interface StructuredDataInput {
  site: SiteConfig;
  route: Route | undefined;
  lang: string;
  path: string;
  title: string;
  description: string;
  crumbs: Crumb[];
  /** On an entry's page: the entry and its author, for a BlogPosting node. */
  entry?: CollectionEntry;
  author?: { name: string; jobTitle: string; url?: string };
  /** The entry's image, its own or else the site's (content/site.yaml's socialImage), by its address on the site. */
  image?: string;
}

const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/** The addresses of a list of texts (site.yaml's sameAs: the firm's profiles elsewhere), when it has any. */
const texts = (value: unknown) => {
  const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
  return list.length ? list : undefined;
};

/**
 * The JSON-LD @graph of a page: the organization and the WebSite (from site.yaml's organizationType, brand,
 * legalName, taxId, email, phone, streetAddress, postalCode, city, region, countryCode, foundingYear and
 * sameAs, each optional, an empty one left out; the type Organization by default), the page's own node, a
 * Service node for routes of that type, and the BreadcrumbList.
 */
export function structuredData(input: StructuredDataInput): Record<string, unknown> {
  return { "@context": CONTEXT, "@graph": [...siteNodes(input.site).nodes, ...pageNodes(input)] };
}

/**
 * serializeJsonLd(structuredData(input)), the site's two nodes serialized once per site rather than on every
 * page: they are the same on all of them.
 */
export function structuredDataJson(input: StructuredDataInput): string {
  const page = serializeJsonLd(pageNodes(input)).slice(1, -1);
  return `{"@context":${JSON.stringify(CONTEXT)},"@graph":[${siteNodes(input.site).json},${page}]}`;
}

const CONTEXT = "https://schema.org";

/** The Organization and the WebSite of each site (its configuration), and their JSON. */
const siteNodesOf = new WeakMap<SiteConfig, { nodes: Record<string, unknown>[]; json: string }>();

function siteNodes(site: SiteConfig): { nodes: Record<string, unknown>[]; json: string } {
  let known = siteNodesOf.get(site);
  if (known) return known;
  const home = absoluteUrl(site, "/");
  const orgId = `${home}#organization`;
  const country = text(site.countryCode);
  const nodes: Record<string, unknown>[] = [
    {
      "@type": text(site.organizationType) ?? "Organization",
      "@id": orgId,
      name: text(site.brand),
      legalName: text(site.legalName),
      url: home,
      email: text(site.email),
      taxID: text(site.taxId),
      telephone: text(site.phone),
      foundingDate: text(site.foundingYear),
      ...(text(site.city) || country
        ? {
            address: {
              "@type": "PostalAddress",
              streetAddress: text(site.streetAddress),
              postalCode: text(site.postalCode),
              addressLocality: text(site.city),
              addressRegion: text(site.region),
              addressCountry: country,
            },
          }
        : {}),
      sameAs: texts(site.sameAs),
      ...(country ? { areaServed: { "@type": "Country", name: country } } : {}),
    },
    {
      "@type": "WebSite",
      "@id": `${home}#website`,
      url: home,
      name: text(site.brand),
      inLanguage: site.locales.map((l) => l.lang),
      publisher: { "@id": orgId },
    },
  ];
  known = { nodes, json: serializeJsonLd(nodes).slice(1, -1) };
  siteNodesOf.set(site, known);
  return known;
}

/** The nodes of the page itself: its WebPage, a Service or a BlogPosting, and its BreadcrumbList. */
function pageNodes(input: StructuredDataInput): Record<string, unknown>[] {
  const { site, route, lang, path, title, description, crumbs, entry, author, image } = input;
  const home = absoluteUrl(site, "/");
  const url = absoluteUrl(site, path);
  const orgId = `${home}#organization`;
  const country = text(site.countryCode);
  const graph: Record<string, unknown>[] = [];
  // A page without a route (not found, form results, errors) answers at many addresses, none its own:
  // it gets no @id or url, so it never claims to be the home page it was rendered for.
  // The page's node is a WebPage; a Service or a BlogPosting gets its own node beside it.
  const isService = route?.schemaType === "Service";
  const page: Record<string, unknown> = {
    "@type": isService || entry ? "WebPage" : (route?.schemaType ?? "WebPage"),
    ...(route ? { "@id": `${url}#webpage`, url } : {}),
    name: title,
    description,
    inLanguage: lang,
    isPartOf: { "@id": `${home}#website` },
    about: { "@id": orgId },
    ...(crumbs.length ? { breadcrumb: { "@id": `${url}#breadcrumb` } } : {}),
  };
  graph.push(page);
  if (isService) {
    graph.push({
      "@type": "Service",
      "@id": `${url}#service`,
      name: title,
      description,
      url,
      provider: { "@id": orgId },
      ...(country ? { areaServed: { "@type": "Country", name: country } } : {}),
      inLanguage: lang,
      mainEntityOfPage: { "@id": `${url}#webpage` },
    });
  }
  if (entry) {
    graph.push({
      "@type": "BlogPosting",
      "@id": `${url}#article`,
      headline: String(entry.data.title ?? ""),
      description: String(entry.data.description ?? ""),
      datePublished: entry.data.date,
      dateModified: entry.data.updated ?? entry.data.date,
      ...(author
        ? {
            author: {
              "@type": "Person",
              name: author.name,
              jobTitle: author.jobTitle,
              ...(author.url ? { url: absoluteUrl(site, author.url) } : {}),
            },
          }
        : {}),
      publisher: { "@id": orgId },
      inLanguage: lang,
      ...(image ? { image: absoluteUrl(site, image) } : {}),
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
  return graph;
}
