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

/**
 * The article topics (tags.yaml ids) that speak to each sector: its page lists the articles sharing the most of
 * them, newest first among equals.
 */
export const SECTOR_TOPICS: Record<(typeof ALL_SECTORS)[number], readonly string[]> = {
  financialServices: ["financial-services", "governance", "regulation"],
  energy: ["operations", "mlops", "data-platforms"],
  retail: ["data-platforms", "generative-ai", "strategy"],
  agriculture: ["data-platforms", "operations", "strategy"],
  education: ["generative-ai", "governance", "strategy"],
  professional: ["agents", "generative-ai", "governance"],
  manufacturing: ["operations", "mlops", "data-platforms"],
  healthcare: ["governance", "regulation", "data-platforms"],
};

/** The typical results (sector, number of its stat) a service line's page shows: the projects it delivers. */
export const SERVICE_OUTCOMES: Partial<Record<ServiceLine, readonly (readonly [string, number])[]>> = {
  implementation: [
    ["manufacturing", 1],
    ["manufacturing", 3],
    ["healthcare", 3],
  ],
};

/** The article topics each service line's page reads from, the first weighing most (as SECTOR_TOPICS). */
export const SERVICE_TOPICS: Record<ServiceLine, readonly string[]> = {
  advisory: ["strategy", "governance", "regulation"],
  implementation: ["data-platforms", "generative-ai", "agents"],
  managed: ["mlops", "operations"],
};

/** The line of service an article's subject belongs to: its first tag that names one (its closing band's link). */
export const TOPIC_SERVICE: Record<string, ServiceLine> = {
  governance: "advisory",
  regulation: "advisory",
  strategy: "advisory",
  "data-platforms": "implementation",
  "generative-ai": "implementation",
  agents: "implementation",
  mlops: "managed",
  operations: "managed",
};
