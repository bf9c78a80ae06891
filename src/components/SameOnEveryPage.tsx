import type { ReactNode } from "react";
import { Shared } from "../generator/html/Shared.tsx";
import { PageContext, type PageContextValue } from "./page-context.tsx";

/**
 * Markup that depends only on the page's language and on what `id` names (the footer; the header's menu
 * for one route): rendered once per language and build and reused by every page that shows it (the
 * generator's Shared). It renders in a tree of its own, so the page's context is given to it again.
 */
export function SameOnEveryPage({ page, id, children }: { page: PageContextValue; id: string; children: ReactNode }) {
  return (
    <Shared page={page} id={id}>
      <PageContext.Provider value={page}>{children}</PageContext.Provider>
    </Shared>
  );
}
