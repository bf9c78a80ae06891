import { createContext, useContext } from "react";
import type { PageData } from "sitegen";

/** The page being rendered (its text, locale, links...), put in context by the document shell. */
export const PageContext = createContext<PageData | null>(null);

export function usePage(): PageData {
  const page = useContext(PageContext);
  if (!page) throw new Error("usePage() is called outside the document shell (src/pages/document.tsx).");
  return page;
}
