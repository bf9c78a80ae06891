/**
 * What the `sitegen submissions` commands need of the site: its configuration, its text and its endpoints
 * module (the store is the site's own). In a project folder they come from content/site.yaml and src/api,
 * compiled, as for \`sitegen serve\`. On a server that holds only a built output, as the container image of
 * \`sitegen start\` does, they come from what the build recorded in \`dist/_sitegen/\` (server-bundle.ts), with
 * SUBMISSIONS_DB and SUBMISSIONS_RATE_LIMIT of this run applied, as \`sitegen start\` reads them: the commands
 * then reach the database the server writes.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadSiteConfig, type SiteConfig } from "./config.ts";
import { loadLocaleContent, type Dictionary } from "./content.ts";
import { loadApiModule, loadBuiltEndpoints, loadEndpoints, requireBuiltModule, type ApiModule, type Endpoints } from "./endpoints.ts";
import { PROJECT_FILES } from "./project.ts";
import { readServerBundle, SITE_FILE } from "./server-bundle.ts";

export interface CommandSite {
  site: SiteConfig;
  /** The endpoints module (undefined when the site has none). */
  module(): Promise<ApiModule | undefined>;
  /** The endpoints, instantiated (for the outbox's deliverers). */
  endpoints(): Promise<Endpoints>;
}

/** The output folder the commands read when the project folder has no content/site.yaml. */
export const BUILT_OUTPUT = "dist";

export function commandSite(root: string, env: NodeJS.ProcessEnv = process.env): CommandSite {
  const outDir = join(root, BUILT_OUTPUT);
  // The sources win when both are there: a developer's dist/ may be older than their site.yaml.
  if (existsSync(join(root, PROJECT_FILES.config)) || !existsSync(join(outDir, SITE_FILE))) {
    const site = loadSiteConfig(root, {}, env);
    const dictionaries = (): Record<string, Dictionary> => Object.fromEntries(site.locales.map((l) => [l.code, loadLocaleContent(root, l.code, site).dictionary]));
    return { site, module: () => loadApiModule(root), endpoints: () => loadEndpoints(root, site, dictionaries()) };
  }
  const bundle = readServerBundle(outDir, env);
  const apiFile = bundle.apiFile;
  return {
    site: bundle.site,
    module: async () => (apiFile ? requireBuiltModule(apiFile, root) : undefined),
    endpoints: async () => (apiFile ? loadBuiltEndpoints(apiFile, root, bundle.site, bundle.messages) : { handlers: {}, close() {} }),
  };
}
