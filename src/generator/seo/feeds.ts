import { createRequire } from "node:module";
import type { Feed as FeedClass } from "feed";
import type { SiteConfig } from "../config.ts";
import type { CollectionDefinition, CollectionEntry, Route } from "../site-definition.ts";
import type { Collections } from "../pipeline/collections.ts";
import { absoluteUrl } from "./urls.ts";

export interface FeedInput {
  site: SiteConfig;
  lang: string;
  title: string;
  description: string;
  /** The listing's address in this locale ("/de/blog"): the feeds live beside it. */
  listPath: string;
  /** Newest first; the feed takes the first `limit`. */
  entries: CollectionEntry[];
  limit: number;
  authorName(entry: CollectionEntry): string | undefined;
}

/** RSS 2.0 and Atom 1.0 of a collection in one locale (the `feed` package writes and escapes them), with full URLs. */
export function buildFeeds(input: FeedInput): { rss: string; atom: string } {
  const { site } = input;
  const entries = input.entries.slice(0, input.limit);
  const listUrl = absoluteUrl(site, input.listPath);
  const newest = entries[0]
    ? new Date(`${String(entries[0].data.updated ?? entries[0].data.date)}T00:00:00Z`)
    : new Date(0);
  // Loaded at the first feed made: a site without feeds never loads the package.
  const { Feed } = createRequire(import.meta.url)("feed") as { Feed: typeof FeedClass };
  const feed = new Feed({
    id: listUrl,
    link: listUrl,
    title: input.title,
    description: input.description,
    language: input.lang,
    updated: newest,
    copyright: typeof site.legalName === "string" ? site.legalName : typeof site.brand === "string" ? site.brand : "",
    feedLinks: { rss: `${listUrl}/rss.xml`, atom: `${listUrl}/atom.xml` },
  });
  for (const entry of entries) {
    const url = absoluteUrl(site, entry.path!);
    const author = input.authorName(entry);
    feed.addItem({
      id: url,
      link: url,
      title: String(entry.data.title),
      description: String(entry.data.description ?? ""),
      content: absoluteImages(entry.html, site.siteUrl),
      date: new Date(`${String(entry.data.updated ?? entry.data.date)}T00:00:00Z`),
      published: new Date(`${String(entry.data.date)}T00:00:00Z`),
      ...(author ? { author: [{ name: author }] } : {}),
      ...(entry.image ? { image: absoluteUrl(site, entry.image) } : {}),
    });
  }
  return { rss: feed.rss2(), atom: feed.atom1() };
}

/**
 * The body with its images' addresses made full (feed readers show the text away from the site, where
 * "/assets/img/..." leads nowhere). Only the build writes src and srcset: content's raw HTML is text.
 */
function absoluteImages(html: string, siteUrl: string): string {
  return html.replace(
    / (src|srcset)="(\/[^"]*)"/g,
    (_, name: string, value: string) => ` ${name}="${value.replace(/(^|, )\//g, `$1${siteUrl}/`)}"`,
  );
}

/**
 * Every feed file of the build: for each collection with a feed, in each locale where its listing exists,
 * rss.xml and atom.xml beside the listing ("blog/rss.xml", "de/blog/atom.xml").
 */
export function feedFiles(input: {
  site: SiteConfig;
  definitions: CollectionDefinition[];
  collections: Collections;
  routes: Route[];
  dictionaries: Record<string, Map<string, string>>;
}): { file: string; data: string }[] {
  const files: { file: string; data: string }[] = [];
  for (const definition of input.definitions) {
    const feed = definition.feed;
    const list = feed && input.routes.find((r) => r.id === feed.listRoute);
    if (!feed || !list) continue;
    for (const locale of input.site.locales) {
      const listPath = list.paths[locale.code];
      if (!listPath) continue;
      const text = (key: string) => input.dictionaries[locale.code]?.get(key) ?? key;
      const authorKeys = definition.author;
      const { rss, atom } = buildFeeds({
        site: input.site,
        lang: locale.lang,
        title: text(feed.title),
        description: text(feed.description),
        listPath,
        entries: (input.collections[definition.name]?.[locale.code] ?? []).filter((e) => e.path),
        limit: feed.limit,
        authorName: (entry) =>
          authorKeys && typeof entry.data.author === "string"
            ? text(authorKeys.name.replaceAll("{id}", entry.data.author))
            : undefined,
      });
      const dir = listPath.slice(1);
      files.push({ file: `${dir}/rss.xml`, data: rss }, { file: `${dir}/atom.xml`, data: atom });
    }
  }
  return files;
}
