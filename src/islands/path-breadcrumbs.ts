/**
 * Breadcrumbs on the not-found page (spec §2: every page but home has them; unknown segments are shown
 * capitalised). That page is one file served for every unknown address, so its trail can only be known in
 * the browser: this island builds it from the address with the build's own function (breadcrumbsFor), its
 * labels from the page's content. Without JavaScript the page simply has no trail.
 */
import type { Mount } from "./runtime/island.ts";
import { breadcrumbsFor } from "../generator/breadcrumbs.ts";

interface Props {
  home: { label: string };
  /** Content labels of the known segments (breadcrumbs.<segment>). */
  labels: Record<string, string>;
}

const PREFIX = "breadcrumbs.";

export const mount: Mount = (element, props) => {
  const { home, labels } = props as unknown as Props;
  // The content the page was built with, as breadcrumbsFor asks for it. Own keys only: an address
  // segment such as "constructor" must not find Object's.
  const has = (key: string) => key.startsWith(PREFIX) && Object.hasOwn(labels, key.slice(PREFIX.length));
  const t = (key: string) => (key === `${PREFIX}home` ? home.label : has(key) ? labels[key.slice(PREFIX.length)] : key);
  const crumbs = breadcrumbsFor(location.pathname, { t, has });
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
