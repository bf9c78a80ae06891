import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { PageData } from "../site-definition.ts";
import { SHARED_TAG } from "./shared-markup.ts";

/**
 * Markup that depends only on the page's locale and the build (a footer, templates, a consent banner's
 * text): rendered once per locale and build, on the first page that shows it, and reused by every other
 * page (PageData.shared). Its children render in a tree of their own, so they see no context of the page
 * around them: give them what they read (a context provider) inside.
 */
export function Shared({ page, id, children }: { page: PageData; id: string; children: ReactNode }) {
  return createElement(SHARED_TAG, { "data-id": page.shared(id, () => renderToString(children)) });
}
