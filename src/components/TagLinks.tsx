import type { CollectionEntry } from "../generator/site-definition.ts";
import { usePage } from "./page-context.tsx";

/**
 * Each tag of these articles with how many of them carry it, by label in the page's language. Every listing
 * page of a locale shows the tags of the same articles: they are counted once per list of articles, and
 * sorted with one collator per language (`localeCompare` with a language makes a collator on every call).
 */
export function tagCounts(
  entries: CollectionEntry[],
  label: (id: string) => string,
  lang: string,
): { id: string; label: string; count: number }[] {
  let counts = COUNTS.get(entries);
  if (!counts) {
    counts = new Map<string, number>();
    for (const entry of entries)
      for (const tag of (entry.data.tags as string[]) ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    COUNTS.set(entries, counts);
  }
  let collator = COLLATORS.get(lang);
  if (!collator) COLLATORS.set(lang, (collator = new Intl.Collator(lang)));
  return [...counts]
    .map(([id, count]) => ({ id, count, label: label(id) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** Tag counts by list of articles (a build's collection in one locale; a later build's lists are new ones). */
const COUNTS = new WeakMap<CollectionEntry[], Map<string, number>>();
const COLLATORS = new Map<string, Intl.Collator>();

/** Tags as a row of pills, each a link to its page (route `insights.tag:<id>`) in the page's language. */
export function TagLinks({ tags }: { tags: string[] }) {
  const { t, href } = usePage();
  return (
    <ul className="tag-list">
      {tags.map((tag) => (
        <li key={tag}>
          <a href={href(`insights.tag:${tag}`)}>{t(`tags.${tag}`)}</a>
        </li>
      ))}
    </ul>
  );
}
