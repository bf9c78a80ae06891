import { createContext, useContext } from "react";
import type { Translator } from "../generator/i18n.ts";
import type { Route, LocaleCode } from "../generator/routes.ts";
import type { SiteConfig } from "../generator/config.ts";
import type { Crumb } from "../generator/breadcrumbs.ts";
import type { SharedMarkupStore } from "./SharedMarkup.tsx";

/** What every server-rendered component may know about the page being built. Decided once per page. */
export interface PageContextValue {
  t: Translator["t"];
  has: Translator["has"];
  count: Translator["count"];
  locale: LocaleCode;
  lang: string;
  path: string;
  /** Absent on the not-found and error pages. */
  route?: Route;
  site: SiteConfig;
  /** The path of a route id in this page's language. */
  href(routeId: string): string;
  /** "2026-11-22" → "22 de novembro de 2026" / "November 22, 2026". */
  formatDate(iso: string): string;
  /** The same page in the other language (the language switcher's target). */
  counterpartPath: string;
  counterpartLocale: LocaleCode;
  crumbs: Crumb[];
  /** Island name → URL of its browser module (empty when the build has no islands). */
  islands: Record<string, string>;
  /** Parts rendered once per language and build (SharedMarkup.tsx); absent, they render on every page. */
  sharedMarkup?: SharedMarkupStore;
}

export const PageContext = createContext<PageContextValue | null>(null);

export function usePage(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error("usePage() was called outside <PageContext.Provider>: render pages through renderPage().");
  return value;
}
