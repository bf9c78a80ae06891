/**
 * A collection's entries as the site publishes them, for the site's own commands (CommandContext.entries):
 * the build's first stages (content, code, entries, images, the plan of pages) run without writing anything,
 * so that each entry comes with its page's full address and its images' full addresses and sizes, the same
 * files a build writes (images are named by their content and cached between runs). Drafts are left out.
 */
import type { SiteConfig } from "./config.ts";
import { absoluteUrl } from "./seo/urls.ts";
import { bundleCode } from "./pipeline/bundle.ts";
import { loadCollections } from "./pipeline/collections.ts";
import { processImages } from "./pipeline/images.ts";
import { loadContent } from "./pipeline/load-content.ts";
import { planPages } from "./pipeline/plan-pages.ts";
import type { CollectionEntry } from "./site-definition.ts";

/** One published image: its full address and its size in pixels. */
export interface PublishedImage {
  url: string;
  width: number;
  height: number;
}

/** An entry of a collection in one locale, as its page shows it. */
export interface PublishedEntry {
  locale: string;
  slug: string;
  /** What pairs translations (the entry's translationKey, else its slug). */
  key: string;
  /** The front matter, checked against the collection's schema. */
  data: Record<string, unknown>;
  /** The full address of the entry's page, or undefined when no route shows the entry. */
  url?: string;
  /** Each image field with a value, by field name: the JPEG every mail client and browser shows. */
  images: Record<string, PublishedImage>;
}

/** The entries of the collection `name` in every locale, newest first as the collection orders them. */
export async function publishedEntries(root: string, name: string): Promise<PublishedEntry[]> {
  const { site, contents, dictionaries } = loadContent({ root });
  const definition = (await bundleCode({ root })).bundles.pages.site;
  const definitions = definition.collections ?? [];
  const locales = site.locales.map((l) => l.code);
  const read = { root, siteUrl: site.siteUrl, locales, dictionaries, definitions, drafts: false };
  const collections = loadCollections(read);
  const imageKeys = definition.imageKeys ?? [];
  await processImages({ root, definitions, collections, contents, imageKeys, socialImage: site.socialImage });
  // The plan gives each entry its page's address.
  planPages({ definition, site, collections });
  return site.locales.flatMap((l) => (collections[name]?.[l.code] ?? []).map((e) => published(site, e)));
}

function published(site: SiteConfig, entry: CollectionEntry): PublishedEntry {
  const images: Record<string, PublishedImage> = {};
  for (const [field, { fallback }] of Object.entries(entry.images ?? {}))
    images[field] = { url: absoluteUrl(site, fallback.src), width: fallback.width, height: fallback.height };
  const { locale, slug, key, data, path } = entry;
  return { locale, slug, key, data: { ...data }, ...(path ? { url: absoluteUrl(site, path) } : {}), images };
}
