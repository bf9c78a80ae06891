/**
 * The site's groups of pages, named once: the route table makes a page of each, and the navigation, the
 * footer and the listing pages link to them in this order.
 */
export const SERVICE_LINES = ["advisory", "implementation", "managed"] as const;
export type ServiceLine = (typeof SERVICE_LINES)[number];

/** Routed sectors: URL slug → content key. Manufacturing and healthcare have text but no route (spec §2). */
export const ROUTED_SECTORS = {
  "financial-services": "financialServices",
  energy: "energy",
  retail: "retail",
  agriculture: "agriculture",
  education: "education",
  professional: "professional",
} as const;
/** Sectors with text but no route (spec §2): a section of the industries overview each, under this id. */
export const UNROUTED_SECTORS = ["manufacturing", "healthcare"] as const;
export const ALL_SECTORS = [...Object.values(ROUTED_SECTORS), ...UNROUTED_SECTORS] as const;
