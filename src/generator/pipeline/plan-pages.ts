import type { SiteConfig } from "../config.ts";
import type {
  CollectionDefinition,
  CollectionEntry,
  Route,
  RouteDefinition,
  SiteDefinition,
  SpecialPageDefinition,
} from "../site-definition.ts";
import type { Collections } from "./collections.ts";
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
  /**
   * A listing's page: which page, of how many, with which entries; a grouped listing's also its group's
   * value, and the text key of its label when the field refers to text keys.
   */
  listing?: { page: number; pages: number; entries: CollectionEntry[]; basePath: string; group?: ListingGroup };
}

export interface ListingGroup {
  value: string;
  labelKey?: string;
}

export interface PagePlan {
  routes: Route[];
  pages: PlannedPage[];
  /** Each page by its file. */
  byFile: Map<string, PlannedPage>;
}

export interface PlanInput {
  /** The site's route table (src/pages/routes.ts, through the pages bundle). */
  definition: SiteDefinition;
  site: SiteConfig;
  collections?: Collections;
}

/** What the plan is made of as it is made: the routes and the pages, in order. */
interface Planned {
  routes: Route[];
  pages: PlannedPage[];
}

/** A locale's paths, or a locale's entries, by locale code. */
type Paths = Record<string, string>;
type ByLocale = Record<string, CollectionEntry[]>;
/** How a grouped listing is made: the collection's fields, and where a locale without the group leads. */
type Grouping = { schema: CollectionDefinition["schema"]; fallback?: Paths };

const invalid = (problem: string) => sitegenError("SiteDefinitionInvalid", { file: PROJECT_FILES.routes, problem });

/**
 * Stage 4. Every page of the build: each route in each locale, then per locale the not-found page, the
 * error page and the unlisted pages (form results). Paths get the locale's prefix here, once; two pages
 * at one address fail the build.
 */
export function planPages({ definition, site, collections = {} }: PlanInput): PagePlan {
  const planned: Planned = { routes: [], pages: [] };
  const pathsOf = (r: RouteDefinition) => {
    const paths: Record<string, string> = {};
    for (const locale of site.locales) {
      const path = typeof r.path === "string" ? r.path : r.path[locale.code];
      if (typeof path !== "string" || !path.startsWith("/")) {
        throw invalid(`route "${r.id}" has no path starting with "/" for the locale "${locale.code}".`);
      }
      paths[locale.code] = localizedPath(path, locale);
    }
    return paths;
  };
  const byId = new Map(definition.routes.map((r) => [r.id, r]));
  for (const r of definition.routes) {
    const paths = pathsOf(r);
    const name = r.entries?.collection ?? r.list?.collection;
    const entries = name === undefined ? {} : entriesOf(collections, name, r.id);
    if (r.entries) {
      const list = r.entries.listRoute ? byId.get(r.entries.listRoute) : undefined;
      planEntries(planned, r, paths, entries, list && pathsOf(list));
    } else if (r.list?.groupBy) {
      const index = r.list.indexRoute === undefined ? undefined : byId.get(r.list.indexRoute);
      if (r.list.indexRoute !== undefined && !index) {
        throw invalid(`route "${r.id}" names "${r.list.indexRoute}" as its indexRoute, and no route has that id.`);
      }
      const schema = definition.collections?.find((c) => c.name === name)?.schema ?? {};
      planGroups(planned, r, paths, entries, { schema, fallback: index && pathsOf(index) });
    } else {
      const route: Route = { id: r.id, paths, params: r.params, schemaType: r.schemaType ?? "WebPage" };
      planned.routes.push(route);
      if (r.list) planListing(planned, r, route, entries);
      else for (const [locale, path] of Object.entries(paths)) planned.pages.push(routePage(r, route, locale, path));
    }
  }
  for (const locale of site.locales) {
    const home = localizedPath("/", locale);
    const add = (
      kind: PlannedPage["kind"],
      file: string,
      label: string,
      { page, props, meta }: SpecialPageDefinition,
    ) => planned.pages.push({ kind, path: home, locale: locale.code, file, label, component: page, props, meta });
    const [notFound, error] = [specialPageFile(locale.prefix, "404"), specialPageFile(locale.prefix, "500")];
    if (definition.notFound) add("not-found", notFound, notFound, definition.notFound);
    if (definition.error) add("error", error, error, definition.error);
    for (const unlisted of definition.unlisted ?? []) {
      const label = localizedPath(unlisted.path, locale);
      add("unlisted", outputFileForPath(label), label, unlisted);
    }
  }
  return { ...planned, byFile: pagesByFile(planned.pages) };
}

/** Each page by its file; two pages of one file fail the build, naming both. */
function pagesByFile(pages: PlannedPage[]): Map<string, PlannedPage> {
  const byFile = new Map<string, PlannedPage>();
  const name = (page: PlannedPage) => (page.route ? `route "${page.route.id}"` : page.label);
  for (const page of pages) {
    const first = byFile.get(page.file);
    const path = page.kind === "route" ? page.path : page.file;
    if (first) throw sitegenError("DuplicatePagePath", { path, first: name(first), second: name(page) });
    byFile.set(page.file, page);
  }
  return byFile;
}

/**
 * A route's page in one locale (its meta keys `meta.<id>.title` and `.description`, or the route's metaKey's); an
 * entry's or a listing's page with its entry or listing. Every page has the same fields, in the same order: one
 * shape for thousands of pages, which the JavaScript engine then keeps once instead of once each.
 */
function routePage(r: RouteDefinition, route: Route, locale: string, path: string, of: PageOf = {}): PlannedPage {
  const file = outputFileForPath(path);
  const meta = of.entry ? { title: "", description: "" } : metaOf(r);
  return {
    kind: "route",
    path,
    locale,
    file,
    route,
    component: r.page,
    props: r.props,
    meta,
    label: path,
    entry: of.entry,
    listing: of.listing,
  };
}

type PageOf = Pick<PlannedPage, "entry" | "listing">;

function metaOf(r: RouteDefinition): PlannedPage["meta"] {
  const metaKey = r.metaKey ?? `meta.${r.id}`;
  return { title: `${metaKey}.title`, description: `${metaKey}.description` };
}

function entriesOf(collections: Collections, name: string, routeId: string): Record<string, CollectionEntry[]> {
  const entries = collections[name];
  if (!entries)
    throw invalid(`route "${routeId}" shows the collection "${name}", which \`collections\` does not define.`);
  return entries;
}

/**
 * A listing: its first page at the route's path, the others at `${path}/page/<n>`; page n of each locale
 * is one route, so it is in the sitemap and its hreflang pairs it with the same page in other locales.
 * Planned in the locales of the first page's paths.
 */
function planListing(planned: Planned, r: RouteDefinition, first: Route, byLocale: ByLocale, group?: ListingGroup) {
  const size = r.list!.pageSize;
  const counts = Object.fromEntries(
    Object.keys(first.paths).map((l) => [l, Math.max(1, Math.ceil((byLocale[l]?.length ?? 0) / size))]),
  );
  const most = Math.max(...Object.values(counts));
  for (let n = 1; n <= most; n++) {
    // A locale with fewer pages: its switcher leads to the first page, or where the first page's leads.
    const fallback = { ...first.fallback, ...first.paths };
    const route: Route =
      n === 1
        ? first
        : { id: `${first.id}.page${n}`, paths: {}, params: first.params, schemaType: first.schemaType, fallback };
    if (n > 1) planned.routes.push(route);
    for (const [locale, base] of Object.entries(first.paths)) {
      if (n > counts[locale]) continue;
      const path = n === 1 ? base : `${base}/page/${n}`;
      route.paths[locale] = path;
      const entries = (byLocale[locale] ?? []).slice((n - 1) * size, n * size);
      const listing = { page: n, pages: counts[locale], entries, basePath: base, group };
      planned.pages.push(routePage(r, route, locale, path, { listing }));
    }
  }
}

/**
 * A listing per value of the field `list.groupBy` (RouteDefinition.list): one route per value, in the
 * locales that have entries with it, each paginated as a listing, the values in alphabetical order.
 */
function planGroups(planned: Planned, r: RouteDefinition, patterns: Paths, byLocale: ByLocale, grouping: Grouping) {
  const { schema, fallback } = grouping;
  const field = r.list!.groupBy!;
  for (const pattern of Object.values(patterns)) {
    if (!pattern.includes(GROUP)) {
      throw invalid(
        `route "${r.id}" groups its listing by "${field}", so its path must hold "${GROUP}" where each value ` +
          `goes, and "${pattern}" does not.`,
      );
    }
  }
  const rule = schema[field];
  if (!rule) {
    throw invalid(
      `route "${r.id}" groups the collection "${r.list!.collection}" by "${field}", which is not one of its ` +
        `fields (${Object.keys(schema).join(", ")}).`,
    );
  }
  const labelOf = (value: string) =>
    rule.type === "reference" || rule.type === "references" ? `${rule.to}.${value}` : undefined;
  const groups = new Map<string, Record<string, CollectionEntry[]>>();
  for (const locale of Object.keys(patterns)) {
    for (const entry of byLocale[locale] ?? []) {
      for (const value of groupValues(entry, field, r.id)) {
        let group = groups.get(value);
        if (!group) groups.set(value, (group = {}));
        (group[locale] ??= []).push(entry);
      }
    }
  }
  for (const value of [...groups.keys()].sort()) {
    const group = groups.get(value)!;
    const paths = Object.fromEntries(
      Object.keys(group).map((locale) => [locale, patterns[locale].replace(GROUP, value)]),
    );
    const params = { ...r.params, group: value };
    const first: Route = { id: `${r.id}:${value}`, paths, params, schemaType: r.schemaType ?? "WebPage", fallback };
    planned.routes.push(first);
    planListing(planned, r, first, group, { value, labelKey: labelOf(value) });
  }
}

/** Where a grouped listing's path takes the group's value. */
const GROUP = ":group";

/**
 * The values of an entry's field it is grouped by, each checked to be an address segment: the value comes
 * from content, and goes into a path and a file name as it is.
 */
function groupValues(entry: CollectionEntry, field: string, routeId: string): string[] {
  const value = entry.data[field];
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    const refuse = (problem: string) => sitegenError("EntryInvalid", { file: entry.file, field, problem });
    if (typeof v !== "string")
      throw refuse(`must be text or a list of texts: route "${routeId}" makes a page for each value.`);
    if (!/^[a-z0-9-]+$/.test(v))
      throw refuse(
        `"${v}" cannot be the address of its page (route "${routeId}" makes one for each value): use lower-case ` +
          `letters, digits and hyphens only.`,
      );
  }
  return [...new Set(values as string[])];
}

/** One page per entry and locale; the translations of an entry (same key) are one route. */
function planEntries(planned: Planned, r: RouteDefinition, patterns: Paths, byLocale: ByLocale, fallback?: Paths) {
  const groups = new Map<string, Route>();
  for (const [locale, pattern] of Object.entries(patterns)) {
    for (const entry of byLocale[locale] ?? []) {
      const path = pattern.replace(":slug", entry.slug);
      entry.path = path;
      let route = groups.get(entry.key);
      if (!route) {
        const params = { ...r.params, key: entry.key };
        route = { id: `${r.id}:${entry.key}`, paths: {}, params, schemaType: r.schemaType ?? "BlogPosting", fallback };
        groups.set(entry.key, route);
        planned.routes.push(route);
      }
      route.paths[locale] = path;
      const modified = String(entry.data.updated ?? entry.data.date ?? "");
      if (modified > (route.lastmod ?? "")) route.lastmod = modified;
      planned.pages.push(routePage(r, route, locale, path, { entry }));
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
