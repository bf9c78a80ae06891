import type { SiteConfig } from "../config.ts";
import type { Route, SiteDefinition, SpecialPageDefinition } from "../site-definition.ts";
import { localizedPath, normalisePath } from "../locales.ts";
import { sitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";

/** One page to render: where it answers, which locale, which component, and the file it becomes. */
export interface PlannedPage {
  kind: "route" | "not-found" | "error" | "unlisted";
  /** The address it answers at; for not-found and error pages, the locale's home (they have none of their own). */
  path: string;
  locale: string;
  /** The file under the output folder: flat ("about.html", "en/about.html", "404.html"). */
  file: string;
  route?: Route;
  component: SpecialPageDefinition["page"];
  props?: Record<string, unknown>;
  meta: { title: string; description: string };
  /** How reports name the page: its path, or its file for special pages. */
  label: string;
}

export interface PagePlan {
  routes: Route[];
  pages: PlannedPage[];
}

/**
 * Stage 3. Every page of the build: each route in each locale, then per locale the not-found page, the
 * error page and the unlisted pages (form results). Paths get the locale's prefix here, once; two pages
 * at one address fail the build.
 */
export function planPages(definition: SiteDefinition, site: SiteConfig): PagePlan {
  const routes: Route[] = definition.routes.map((r) => {
    const paths: Record<string, string> = {};
    for (const locale of site.locales) {
      const path = typeof r.path === "string" ? r.path : r.path[locale.code];
      if (typeof path !== "string" || !path.startsWith("/")) {
        throw sitegenError("SiteDefinitionInvalid", { file: PROJECT_FILES.routes, problem: `route "${r.id}" has no path starting with "/" for the locale "${locale.code}".` });
      }
      paths[locale.code] = localizedPath(path, locale);
    }
    return { id: r.id, paths, params: r.params, schemaType: r.schemaType ?? "WebPage" };
  });
  const pages: PlannedPage[] = [];
  definition.routes.forEach((r, i) => {
    for (const locale of site.locales) {
      const path = routes[i].paths[locale.code];
      const metaKey = r.metaKey ?? `meta.${r.id}`;
      pages.push({ kind: "route", path, locale: locale.code, file: outputFileForPath(path), route: routes[i], component: r.page, props: r.props, meta: { title: `${metaKey}.title`, description: `${metaKey}.description` }, label: path });
    }
  });
  for (const locale of site.locales) {
    const home = localizedPath("/", locale);
    const special = (kind: "not-found" | "error", page: SpecialPageDefinition, name: "404" | "500"): PlannedPage => {
      const file = specialPageFile(locale.prefix, name);
      return { kind, path: home, locale: locale.code, file, component: page.page, props: page.props, meta: page.meta, label: file };
    };
    pages.push(special("not-found", definition.notFound, "404"), special("error", definition.error, "500"));
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
  return { routes, pages };
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
