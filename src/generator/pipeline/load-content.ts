import { loadSiteConfig, type ConfigOverrides, type SiteConfig } from "../config.ts";
import { loadLocaleContent, type Dictionary, type LocaleContent } from "../content.ts";

export interface LoadedContent {
  site: SiteConfig;
  contents: LocaleContent[];
  dictionaries: Record<string, Dictionary>;
}

/**
 * Stage 1. content/site.yaml, then the text of every locale it lists (content/<code>/*.yaml). Of the
 * environment, only SITE_URL concerns a build: the others are for the server that runs the output.
 */
export function loadContent({ root, siteUrl }: { root: string } & ConfigOverrides): LoadedContent {
  const site = loadSiteConfig(root, { siteUrl }, { SITE_URL: process.env.SITE_URL });
  const contents = site.locales.map((l) => loadLocaleContent(root, l.code, site));
  return { site, contents, dictionaries: Object.fromEntries(contents.map((c) => [c.locale, c.dictionary])) };
}
