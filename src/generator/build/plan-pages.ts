import type { SiteConfig } from "../config.ts";
import type { CollectionEntry, Route, RouteDefinition, SiteDefinition, SpecialPageDefinition } from "../site-definition.ts";
import type { Collections } from "../collections.ts";
import { localizedPath, normalisePath } from "../locales.ts";
import { sitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";

/** One page to render: where it answers, which locale, which component, and the file it becomes. */
export interface PlannedPage {
  kind: "route" | "not-found" | "error" | "unlisted";
  /** The address it answers at; for not-found and error pages, the locale's home (they have none of their own). */
  path: string;
  locale: string;
  /** The file under the output folder: flat ("about.html", "de/about.html", "404.html"). */
  file: string;
  route?: Route;
  component: SpecialPageDefinition["page"];
  props?: Record<string, unknown>;
  meta: { title: string; description: string };
  /** How reports name the page: its path, or its file for special pages. */
  label: string;
  /** An entry's page: the entry (its title and description are the page's). */
  entry?: CollectionEntry;
  /** A listing's page: which page, of how many, with which entries. */
  listing?: { page: number; pages: number; entries: CollectionEntry[]; basePath: string };
}

export interface PagePlan {
  routes: Route[];
  pages: PlannedPage[];
  /** Each page by its file. */
  byFile: Map<string, PlannedPage>;
}

/**
 * Stage 3. Every page of the build: each route in each locale, then per locale the not-found page, the
 * error page and the unlisted pages (form results). Paths get the locale's prefix here, once; two pages
 * at one address fail the build.
 */
export function planPages(definition: SiteDefinition, site: SiteConfig, collections: Collections = {}): PagePlan {
  const routes: Route[] = [];
  const pages: PlannedPage[] = [];
  const pathsOf = (r: RouteDefinition) => {
    const paths: Record<string, string> = {};
    for (const locale of site.locales) {
      const path = typeof r.path === "string" ? r.path : r.path[locale.code];
      if (typeof path !== "string" || !path.startsWith("/")) {
        throw sitegenError("SiteDefinitionInvalid", { file: PROJECT_FILES.routes, problem: `route "${r.id}" has no path starting with "/" for the locale "${locale.code}".` });
      }
      paths[locale.code] = localizedPath(path, locale);
    }
    return paths;
  };
  const metaOf = (r: RouteDefinition) => {
    const metaKey = r.metaKey ?? `meta.${r.id}`;
    return { title: `${metaKey}.title`, description: `${metaKey}.description` };
  };
  const byId = new Map(definition.routes.map((r) => [r.id, r]));
  for (const r of definition.routes) {
    const paths = pathsOf(r);
    if (r.entries) {
      const list = r.entries.listRoute ? byId.get(r.entries.listRoute) : undefined;
      const fallback = list ? pathsOf(list) : undefined;
      planEntries(r, paths, entriesOf(collections, r.entries.collection, r.id), fallback, routes, pages);
      continue;
    }
    const route: Route = { id: r.id, paths, params: r.params, schemaType: r.schemaType ?? "WebPage" };
    routes.push(route);
    if (r.list) {
      planListing(r, route, entriesOf(collections, r.list.collection, r.id), metaOf(r), routes, pages);
      continue;
    }
    for (const locale of site.locales) {
      pages.push({ kind: "route", path: paths[locale.code], locale: locale.code, file: outputFileForPath(paths[locale.code]), route, component: r.page, props: r.props, meta: metaOf(r), label: paths[locale.code] });
    }
  }
  for (const locale of site.locales) {
    const home = localizedPath("/", locale);
    const special = (kind: "not-found" | "error", page: SpecialPageDefinition, name: "404" | "500"): PlannedPage => {
      const file = specialPageFile(locale.prefix, name);
      return { kind, path: home, locale: locale.code, file, component: page.page, props: page.props, meta: page.meta, label: file };
    };
    if (definition.notFound) pages.push(special("not-found", definition.notFound, "404"));
    if (definition.error) pages.push(special("error", definition.error, "500"));
    for (const page of definition.unlisted ?? []) {
      const path = localizedPath(page.path, locale);
      pages.push({ kind: "unlisted", path: home, locale: locale.code, file: outputFileForPath(path), component: page.page, props: page.props, meta: page.meta, label: path });
    }
  }
  const byFile = new Map<string, PlannedPage>();
  for (const page of pages) {
    const first = byFile.get(page.file);
    if (first) throw sitegenError("DuplicatePagePath", { path: page.kind === "route" ? page.path : page.file, first: first.route ? `route "${first.route.id}"` : first.label, second: page.route ? `route "${page.route.id}"` : page.label });
    byFile.set(page.file, page);
  }
  return { routes, pages, byFile };
}

function entriesOf(collections: Collections, name: string, routeId: string): Record<string, CollectionEntry[]> {
  const entries = collections[name];
  if (!entries) throw sitegenError("SiteDefinitionInvalid", { file: PROJECT_FILES.routes, problem: `route "${routeId}" shows the collection "${name}", which \`collections\` does not define.` });
  return entries;
}

/**
 * A listing: its first page at the route's path, the others at `${path}/page/<n>`; page n of each locale
 * is one route, so it is in the sitemap and its hreflang pairs it with the same page in other locales.
 */
function planListing(r: RouteDefinition, first: Route, byLocale: Record<string, CollectionEntry[]>, meta: PlannedPage["meta"], routes: Route[], pages: PlannedPage[]): void {
  const size = r.list!.pageSize;
  const counts = Object.fromEntries(Object.keys(first.paths).map((l) => [l, Math.max(1, Math.ceil((byLocale[l]?.length ?? 0) / size))]));
  const most = Math.max(...Object.values(counts));
  for (let n = 1; n <= most; n++) {
    const route: Route = n === 1 ? first : { id: `${r.id}.page${n}`, paths: {}, params: r.params, schemaType: first.schemaType };
    if (n > 1) routes.push(route);
    for (const [locale, base] of Object.entries(first.paths)) {
      if (n > counts[locale]) continue;
      const path = n === 1 ? base : `${base}/page/${n}`;
      route.paths[locale] = path;
      const entries = (byLocale[locale] ?? []).slice((n - 1) * size, n * size);
      pages.push({ kind: "route", path, locale, file: outputFileForPath(path), route, component: r.page, props: r.props, meta, label: path, listing: { page: n, pages: counts[locale], entries, basePath: base } });
    }
  }
}

/** One page per entry and locale; the translations of an entry (same key) are one route. */
function planEntries(r: RouteDefinition, patterns: Record<string, string>, byLocale: Record<string, CollectionEntry[]>, fallback: Record<string, string> | undefined, routes: Route[], pages: PlannedPage[]): void {
  const groups = new Map<string, Route>();
  for (const [locale, pattern] of Object.entries(patterns)) {
    for (const entry of byLocale[locale] ?? []) {
      const path = pattern.replace(":slug", entry.slug);
      entry.path = path;
      let route = groups.get(entry.key);
      if (!route) {
        route = { id: `${r.id}:${entry.key}`, paths: {}, params: { ...r.params, key: entry.key }, schemaType: r.schemaType ?? "BlogPosting", lastmod: String(entry.data.updated ?? entry.data.date ?? ""), fallback };
        groups.set(entry.key, route);
        routes.push(route);
      }
      route.paths[locale] = path;
      const modified = String(entry.data.updated ?? entry.data.date ?? "");
      if (modified > (route.lastmod ?? "")) route.lastmod = modified;
      pages.push({ kind: "route", path, locale, file: outputFileForPath(path), route, component: r.page, props: r.props, meta: { title: "", description: "" }, label: path, entry });
    }
  }
}

/**
 * Where a page's HTML goes: flat files, so that static hosts answer the extensionless canonical address
 * with 200 and no redirect ("/about" → about.html, "/de" → de.html, "/" → index.html).
 */
export function outputFileForPath(path: string): string {
  const p = normalisePath(path);
  return p === "/" ? "index.html" : `${p.slice(1)}.html`;
}

/** A locale's not-found or error page: 404.html, en/404.html. */
export function specialPageFile(prefix: string, name: "404" | "500"): string {
  return prefix ? `${prefix.slice(1)}/${name}.html` : `${name}.html`;
}
