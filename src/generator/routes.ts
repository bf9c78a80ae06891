/**
 * The route table: the one source of truth for which pages exist and where. The build, the breadcrumbs,
 * the language switcher, the sitemap, the server and the tests all read it.
 */

import { EN_PREFIX, homePath, LOCALES, localeOfPath, normalisePath, unprefixedPath, type LocaleCode } from "./locale-paths.ts";

// The language rules of paths live apart (locale-paths.ts), so that browser code can use them without the table.
export { homePath, LOCALES, localeOfPath, normalisePath, unprefixedPath, type LocaleCode } from "./locale-paths.ts";

export type SchemaType = "WebPage" | "AboutPage" | "ContactPage" | "Service" | "CollectionPage";

export interface Route {
  /** Stable id a page component declares it renders: `about`, `services.advisory`. */
  id: string;
  /** The path in each language. Slugs are the same today; the table allows translated ones. */
  paths: Record<LocaleCode, string>;
  /** Which page component renders it (file name under src/pages without extension). */
  page: string;
  /** What a page component needs to know beyond its id (e.g. which service line). */
  params?: Record<string, string>;
  /** The schema.org node that describes the page in JSON-LD. */
  schemaType: SchemaType;
  /** Key prefix of the page's <title> and meta description: `${metaKey}.title`, `${metaKey}.description`. */
  metaKey: string;
}

function route(id: string, ptPath: string, page: string, schemaType: SchemaType, params?: Record<string, string>): Route {
  const enPath = ptPath === "/" ? EN_PREFIX : EN_PREFIX + ptPath;
  return { id, paths: { pt: ptPath, en: enPath }, page, params, schemaType, metaKey: `meta.${id}` };
}

export const SERVICE_LINES = ["advisory", "implementation", "managed"] as const;
export type ServiceLine = (typeof SERVICE_LINES)[number];

/** Routed sectors: URL slug → content key. Manufacturing and healthcare have text but no route (spec §2). */
export const ROUTED_SECTORS = {
  "financial-services": "financialServices",
  energy: "energy",
  retail: "retail",
  agriculture: "agriculture",
  education: "education",
  professional: "professional",
} as const;
export const ALL_SECTORS = [...Object.values(ROUTED_SECTORS), "manufacturing", "healthcare"] as const;

export const routes: readonly Route[] = [
  route("home", "/", "home", "WebPage"),
  route("about", "/about", "about", "AboutPage"),
  route("services", "/services", "services", "CollectionPage"),
  ...SERVICE_LINES.map((line) => route(`services.${line}`, `/services/${line}`, "service-line", "Service", { line })),
  route("technologies", "/technologies", "technologies", "WebPage"),
  route("industries", "/industries", "industries", "CollectionPage"),
  ...Object.entries(ROUTED_SECTORS).map(([slug, sector]) =>
    route(`industries.${slug}`, `/industries/${slug}`, "industry", "WebPage", { sector }),
  ),
  route("contact", "/contact", "contact", "ContactPage"),
  route("privacy-policy", "/privacy-policy", "legal", "WebPage", { doc: "privacy" }),
  route("terms-of-service", "/terms-of-service", "legal", "WebPage", { doc: "terms" }),
  route("cookie-policy", "/cookie-policy", "legal", "WebPage", { doc: "cookiePolicy" }),
];

const byPath = new Map<string, { route: Route; locale: LocaleCode }>();
for (const r of routes) for (const locale of LOCALES) byPath.set(r.paths[locale], { route: r, locale });

export function routeById(id: string): Route {
  const found = routes.find((r) => r.id === id);
  if (!found) throw new Error(`Unknown route id "${id}". Known: ${routes.map((r) => r.id).join(", ")}`);
  return found;
}

export function matchRoute(path: string): { route: Route; locale: LocaleCode } | undefined {
  return byPath.get(normalisePath(path));
}

/**
 * The same page in the other language. A known page maps through the route table; an unknown path gets
 * the /en prefix added or removed (spec §2).
 */
export function counterpartPath(path: string, target?: LocaleCode): string {
  const p = normalisePath(path);
  const from = localeOfPath(p);
  const to = target ?? (from === "en" ? "pt" : "en");
  const known = matchRoute(p);
  if (known) return known.route.paths[to];
  if (from === to) return p;
  if (to === "en") return p === "/" ? EN_PREFIX : EN_PREFIX + p;
  const stripped = p.slice(EN_PREFIX.length);
  return stripped === "" ? "/" : stripped;
}

/**
 * Where a page's HTML lives in dist: flat files, so that static hosts answer the extensionless canonical
 * URL with 200 and no redirect ("/about" → about.html, "/en" → en.html, "/" → index.html).
 */
export function outputFileForPath(path: string): string {
  const p = normalisePath(path);
  return p === "/" ? "index.html" : `${p.slice(1)}.html`;
}

export function notFoundFile(locale: LocaleCode): string {
  return locale === "en" ? "en/404.html" : "404.html";
}

export function errorFile(locale: LocaleCode): string {
  return locale === "en" ? "en/500.html" : "500.html";
}

/**
 * Where the form endpoints send a visitor whose browser posted a form without JavaScript (303 See Other).
 * Not routes of the spec's site map: they are not indexed, not in the sitemap, and have no breadcrumbs.
 */
export const FORM_RESULTS = {
  "newsletter-success": { title: "newsletter.successTitle", message: "newsletter.successMessage" },
  "contact-success": { title: "contactForm.successTitle", message: "contactForm.successMessage" },
  error: { title: "result.errorHeading", message: "api.invalid" },
} as const;
export type FormResult = keyof typeof FORM_RESULTS;

export function formResultPath(result: FormResult, locale: LocaleCode): string {
  return `${locale === "en" ? EN_PREFIX : ""}/forms/${result}`;
}
