import type { ReactNode } from "react";
import { PageContext, usePage, type PageContextValue } from "./page-context.tsx";

/**
 * Markup that is the same on every page of a language (the footer, the consent banner, the navigation
 * templates and toasts: some 9 KB of a 22 KB page) is rendered once per language and build, then pasted
 * into every other page. Rendering it anew on each page was about 40 % of the render stage.
 *
 * The contract: what is inside must depend on nothing but the language and the build (text, site facts,
 * asset URLs), never on the page (its path, route or breadcrumbs). tests/unit/cli-and-failures.test.ts
 * builds the site with and without this and requires the same bytes.
 *
 * How: during a page's render, a part not yet rendered leaves a placeholder and is rendered right after
 * the page, by a renderToString of its own (never inside another render, which React does not support),
 * with the page's context. Every page keeps its placeholders until the output minifies it and puts each
 * part in place, minified once per build (src/generator/shared-markup.ts). The text keys a part asked for
 * are asked for again on every page that reuses it, so the missing-translation report names every page
 * that shows a raw key, as it would without sharing.
 */
export interface SharedMarkupStore {
  done: Map<string, { html: string; keys: string[] }>;
  /** Parts the page being rendered needs and nobody rendered yet. */
  pending: Map<string, ReactNode>;
}

export function SharedMarkup({ id, children }: { id: string; children: ReactNode }) {
  const page = usePage();
  const store = page.sharedMarkup;
  if (!store) return <>{children}</>;
  const key = `${page.locale}.${id}`;
  const done = store.done.get(key);
  if (done) for (const textKey of done.keys) page.t(textKey);
  else store.pending.set(key, children);
  // Written by React as src/generator/shared-markup.ts describes.
  return <template data-shared-markup={key} />;
}

/**
 * Renders the parts the page left pending. The page keeps its placeholders: the output fills them when it
 * minifies the page (src/generator/shared-markup.ts), with each part minified once per build.
 */
export function renderPendingParts(page: PageContextValue, renderToString: (node: ReactNode) => string): void {
  const store = page.sharedMarkup;
  if (!store) return;
  for (const [key, children] of store.pending) {
    const keys: string[] = [];
    const t: PageContextValue["t"] = (textKey, vars) => {
      keys.push(textKey);
      return page.t(textKey, vars);
    };
    const markup = renderToString(<PageContext.Provider value={{ ...page, t }}>{children}</PageContext.Provider>);
    store.done.set(key, { html: markup, keys: [...new Set(keys)] });
  }
  store.pending.clear();
}
