/**
 * Breadcrumbs on the not-found page (spec §2: every page but home has them; unknown segments are shown
 * capitalised). That page is one file served for every unknown address, so its trail can only be known in
 * the browser: this island builds it from the address with the build's own function (breadcrumbsFor), its
 * labels from the page's content. Without JavaScript the page simply has no trail.
 */
import type { Mount } from "./runtime/island.ts";
import { breadcrumbsFor } from "../generator/breadcrumbs.ts";
import { localeOfPath, type LocalePrefix } from "../generator/locales.ts";

interface Props {
  home: { label: string };
  /** Content labels of the site's addresses in this locale (breadcrumbs.<route id>), by address. */
  labels: Record<string, string>;
  /** The language of this not-found page, the site's locales, and the address of each one's not-found page. */
  locale: string;
  locales: LocalePrefix[];
  notFoundPages: Record<string, string>;
}

/** Handled by the runtime (main.ts); not imported from it, which would cost every page one more chunk. */
export const REPLACE_PAGE_EVENT = "sitegen:replace-page";

export const mount: Mount = (element, props) => {
  const { home, labels, locale, locales, notFoundPages } = props as unknown as Props;
  // Hosts that know only the root 404.html (GitHub Pages, S3's error document, `npx serve`) answer an
  // unknown /en/... address with the Portuguese page. Spec §2 makes that address English: the English
  // not-found page is asked for in place of this one, address kept (main.ts), and builds its own trail.
  const wanted = localeOfPath(location.pathname, locales).code;
  if (wanted !== locale)
    return void dispatchEvent(new CustomEvent(REPLACE_PAGE_EVENT, { detail: notFoundPages[wanted] }));
  // The labels the page was built with. Own keys only: an address such as "/constructor" must not find Object's.
  const of = (path: string) => (Object.hasOwn(labels, path) ? labels[path] : undefined);
  const crumbs = breadcrumbsFor(location.pathname, { home: home.label, of }, locales);
  const list = element.querySelector("ol");
  if (!list || !crumbs.length) return;
  list.replaceChildren(
    ...crumbs.map(({ label, href }) => {
      const item = document.createElement("li");
      const link = document.createElement(href ? "a" : "span");
      link.textContent = label;
      if (href) link.setAttribute("href", href);
      else link.setAttribute("aria-current", "page");
      item.append(link);
      return item;
    }),
  );
  element.hidden = false;
};
