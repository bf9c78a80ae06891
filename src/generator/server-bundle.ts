/**
 * What `sitegen start` needs besides the pages, written by every build of a site with endpoints into the
 * output's `_sitegen/` folder, so that a production install can serve a `dist/` on its own, without content/
 * or src/:
 * - `_sitegen/site.json`: the site's configuration as the build used it (address, locales, endpoints, and
 *   every other section as site.yaml has it: the endpoints apply the environment of `start`'s run
 *   themselves) and each locale's text, which the endpoints answer with;
 * - `_sitegen/api.cjs`: the site's endpoints module, compiled (endpoints.ts).
 * A site without an endpoints module gets no such folder: its output is static files only, which `sitegen
 * start` serves with the project's content/site.yaml (readServerBundle's `withoutEndpoints`).
 * The folder is never served: src/server/request-path.ts hides every path with a segment starting with "_".
 * This module owns the format: it makes the files and reads them back.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SiteConfig } from "./config.ts";
import { plainDictionaries, type Dictionary } from "./content.ts";
import { sitegenError } from "./errors.ts";

export const SERVER_DIR = "_sitegen";
export const SITE_FILE = `${SERVER_DIR}/site.json`;
const API_FILE = `${SERVER_DIR}/api.cjs`;
/** Raised when the file's shape changes, so an older `dist/` is rebuilt rather than misread. */
const FORMAT = 1;

interface SiteFile {
  format: number;
  site: SiteConfig;
  messages: Record<string, Record<string, string>>;
  endpoints: boolean;
}

export interface ServerBundleInput {
  /** The configuration the pages were built with (SITE_URL or --site-url applied). */
  site: SiteConfig;
  dictionaries: Record<string, Dictionary>;
  /** The compiled endpoints module, if the site has one. */
  apiCode: string | undefined;
}

/** The files to write into the output, path relative to it → content: none for a site without endpoints. */
export function serverBundleFiles(input: ServerBundleInput): { file: string; data: string }[] {
  if (input.apiCode === undefined) return [];
  const content: SiteFile = {
    format: FORMAT,
    site: input.site,
    messages: plainDictionaries(input.dictionaries),
    endpoints: input.apiCode !== undefined,
  };
  const files = [{ file: SITE_FILE, data: JSON.stringify(content) }];
  if (input.apiCode !== undefined) files.push({ file: API_FILE, data: input.apiCode });
  return files;
}

export interface ServerBundle {
  /** The build's configuration. */
  site: SiteConfig;
  messages: Record<string, Dictionary>;
  /** The compiled endpoints module, or undefined when the site has none. */
  apiFile: string | undefined;
}

/**
 * Reads what the build recorded in `outDir`; a missing or foreign folder is a catalogued error naming it. An
 * output without `_sitegen/` (a site without endpoints) is served with the configuration `withoutEndpoints`
 * gives (the project's content/site.yaml), when it gives one.
 */
export function readServerBundle(outDir: string, withoutEndpoints?: () => SiteConfig | undefined): ServerBundle {
  if (!statSync(outDir, { throwIfNoEntry: false })?.isDirectory()) throw sitegenError("DistMissing", { dir: outDir });
  const notBuilt = (problem: string) => sitegenError("DistNotSitegenBuild", { dir: outDir, problem });
  const staticSite = existsSync(join(outDir, SERVER_DIR)) ? undefined : withoutEndpoints?.();
  if (staticSite) return { site: staticSite, messages: {}, apiFile: undefined };
  const siteFile = join(outDir, SITE_FILE);
  if (!existsSync(siteFile)) throw notBuilt(`it has no ${SITE_FILE}.`);
  let content: Partial<SiteFile>;
  try {
    content = JSON.parse(readFileSync(siteFile, "utf8")) as Partial<SiteFile>;
  } catch (error) {
    throw notBuilt(`${SITE_FILE} cannot be read: ${(error as Error).message}`);
  }
  if (content?.format !== FORMAT)
    throw notBuilt(`${SITE_FILE} is in format ${String(content?.format)}, and this sitegen reads format ${FORMAT}.`);
  if (!Array.isArray(content.site?.locales) || !content.messages)
    throw notBuilt(`${SITE_FILE} lacks the locales or their text.`);
  const apiFile = content.endpoints ? join(outDir, API_FILE) : undefined;
  if (apiFile && !existsSync(apiFile)) throw notBuilt(`it has no ${API_FILE}, which its ${SITE_FILE} lists.`);
  return {
    site: content.site,
    messages: Object.fromEntries(
      Object.entries(content.messages).map(([locale, text]) => [locale, new Map(Object.entries(text))]),
    ),
    apiFile,
  };
}
