import type { CollectionEntry } from "../generator/site-definition.ts";

/**
 * Up to three other articles, those sharing the most tags first, then the newest (`all` being newest first).
 *
 * One pass, newest first, keeping the best three (no sort of the whole list), and over once three share every
 * tag of this article: no older article can come before them. Each article's page runs it, so with thousands
 * of articles a pass to the end for every page would grow with their square.
 */
export function relatedArticles(all: CollectionEntry[], article: CollectionEntry, tags: string[]): CollectionEntry[] {
  const best: { entry: CollectionEntry; shared: number }[] = [];
  for (const entry of all) {
    if (entry.key === article.key) continue;
    const theirs = (entry.data.tags as string[]) ?? [];
    let shared = 0;
    for (const tag of tags) if (theirs.includes(tag)) shared++;
    if (shared === 0 || (best.length === 3 && shared <= best[2].shared)) continue;
    const at = best.findIndex((b) => b.shared < shared);
    best.splice(at < 0 ? best.length : at, 0, { entry, shared });
    if (best.length > 3) best.pop();
    if (best.length === 3 && best[2].shared === tags.length) break;
  }
  return best.map((b) => b.entry);
}
