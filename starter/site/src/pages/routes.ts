/**
 * The site's route table, read by sitegen: the document shell every page is rendered into, the pages and
 * their addresses (without the locale's prefix), the not-found page and the collections.
 */
import { defineSite } from "sitegen";
import { Document } from "./document.tsx";
import { Home, NotFound, Service, Services } from "./pages.tsx";

export default defineSite({
  document: Document,
  routes: [
    { id: "home", path: "/", page: Home },
    // The collection's listing, and one page per entry of it (content/<locale>/services/*.md).
    { id: "services", path: "/services", page: Services, list: { collection: "services", pageSize: 20 } },
    {
      id: "service",
      path: "/services/:slug",
      page: Service,
      entries: { collection: "services", listRoute: "services" },
    },
  ],
  notFound: { page: NotFound, meta: { title: "meta.not-found.title", description: "meta.not-found.description" } },
  collections: [
    {
      name: "services",
      // What each entry's front matter holds. translationKey pairs an entry with its translations when
      // their file names differ (revisao-completa.md and full-service.md).
      schema: {
        title: { type: "text", required: true },
        description: { type: "text", required: true },
        translationKey: { type: "text" },
      },
    },
  ],
});
