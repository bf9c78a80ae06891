import type { CollectionEntry } from "../generator/site-definition.ts";
import { usePage } from "./page-context.tsx";

/** Each tag of these articles with how many of them carry it, by label in the page's language. */
export function tagCounts(entries: CollectionEntry[], label: (id: string) => string, lang: string): { id: string; label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const entry of entries) for (const tag of (entry.data.tags as string[]) ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].map(([id, count]) => ({ id, count, label: label(id) })).sort((a, b) => a.label.localeCompare(b.label, lang));
}

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
