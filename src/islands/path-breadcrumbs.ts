/**
 * Breadcrumbs on the not-found page (spec §2: every page but home has them; unknown segments are shown
 * capitalised). That page is one file served for every unknown address, so its trail can only be known in
 * the browser: this island builds it from the address, by the build's own rule (src/generator/breadcrumbs.ts):
 * Home, then one crumb per segment, labelled from content or capitalised, the last one not a link.
 * Without JavaScript the page simply has no trail.
 */
import type { Mount } from "./runtime/island.ts";

interface Props {
  home: { label: string; href: string };
  /** Content labels of the known segments (breadcrumbs.<segment>). */
  labels: Record<string, string>;
}

export const mount: Mount = (element, props) => {
  const { home, labels } = props as unknown as Props;
  const prefix = home.href === "/" ? "" : home.href;
  const path = location.pathname;
  const rest = prefix && (path === prefix || path.startsWith(`${prefix}/`)) ? path.slice(prefix.length) : path;
  const segments = rest.split("/").filter(Boolean);
  const list = element.querySelector("ol");
  if (!list || !segments.length) return;
  const crumb = (label: string, href?: string) => {
    const item = document.createElement("li");
    const link = document.createElement(href ? "a" : "span");
    link.textContent = label;
    if (href) link.setAttribute("href", href);
    else link.setAttribute("aria-current", "page");
    item.append(link);
    return item;
  };
  list.replaceChildren(
    crumb(home.label, home.href),
    ...segments.map((segment, i) => {
      let text = segment;
      try {
        text = decodeURIComponent(segment);
      } catch {
        // A malformed escape is shown as it is.
      }
      // Own keys only: an address segment such as "constructor" must not find Object's.
      const label = Object.hasOwn(labels, segment) ? labels[segment] : text.charAt(0).toUpperCase() + text.slice(1);
      return crumb(label, i < segments.length - 1 ? `${prefix}/${segments.slice(0, i + 1).join("/")}` : undefined);
    }),
  );
  element.hidden = false;
};
