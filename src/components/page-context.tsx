import { createContext, useContext } from "react";
import type { PageData } from "../generator/site-definition.ts";
import type { SiteConfig } from "../generator/config.ts";

/** The facts of content/site.yaml this site's components read, beyond what the generator needs. */
export interface SiteFacts {
  brand: string;
  legalName: string;
  email: string;
  privacyEmail: string;
  phone: string;
  city: string;
  region: string;
  countryCode: string;
  foundingYear: string;
  endpoints: { newsletter: string; contact: string; detectLanguage: string };
  consent: { revision: number; lifetimeDays: number };
}

/** What every server-rendered component may know about the page being built (the build decides it once per page). */
export interface PageContextValue extends Omit<PageData, "site"> {
  site: SiteConfig & SiteFacts;
}

export const PageContext = createContext<PageContextValue | null>(null);

export function usePage(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error("usePage() was called outside the document shell (src/components/Document.tsx), which provides the page's data.");
  return value;
}
