import { createContext, useContext } from "react";
import type { PageData } from "../generator/site-definition.ts";
import type { SiteConfig } from "../generator/config.ts";

/** The facts of content/site.yaml this site's components read, beyond what the generator needs. */
export interface SiteFacts {
  brand: string;
  legalName: string;
  email: string;
  privacyEmail: string;
  city: string;
  region: string;
  countryCode: string;
  foundingYear: string;
  /** The facts only the firm can give (docs/firm-facts.md): each shown only when set, "" (or []) until then. */
  phone: string;
  streetAddress: string;
  postalCode: string;
  taxId: string;
  bookingUrl: string;
  sameAs: string[];
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
  if (!value)
    throw new Error(
      "usePage() was called outside the document shell (src/components/Document.tsx), which provides the page's data.",
    );
  return value;
}
