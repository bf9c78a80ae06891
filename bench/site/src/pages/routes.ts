import { defineSite } from "../../../../src/generator/site-definition.ts";
import { BenchDocument, InsightPage } from "./page.tsx";

/** One page per generated entry and locale, as every peer of ../shared/bench builds it. */
export default defineSite({
  document: BenchDocument,
  routes: [{ id: "insight", path: "/insights/:slug", page: InsightPage, entries: { collection: "insights" } }],
  collections: [
    {
      name: "insights",
      schema: {
        title: { type: "text", required: true },
        excerpt: { type: "text", required: true },
        date: { type: "date", required: true },
        author: { type: "text", required: true },
        body: { type: "text", required: true },
      },
    },
  ],
});
