import type { CollectionEntry } from "../generator/site-definition.ts";

/**
 * Up to three other articles, those sharing the most tags first, then the newest (`all` being newest first).
 *
 * One pass, newest first, keeping the best three (no sort of the whole list), and over once three share every
 * tag of this article: no older article can come before them. Each article's page runs it, so with thousands
 * of articles a pass to the end for every page would grow with their square. Where the list uses at most 31
 * tags, each article's tags are one number, a bit per tag (made once per list): comparing two articles' tags
 * is then one operation, not a search of one list in the other.
 */
export function relatedArticles(all: CollectionEntry[], article: CollectionEntry, tags: string[]): CollectionEntry[] {
  const bits = tagBitsOf(all);
  const mine = bits && tags.reduce((mask, tag) => mask | (bits.byTag.get(tag) ?? 0), 0);
  // The bits count each tag once: an article naming a tag twice, or one the list has not, is compared tag by tag.
  const shared = bits && countBits(mine!) === tags.length ? (i: number) => countBits(bits.ofEntry[i] & mine!) : (i: number) => sharedTags(all[i], tags);
  const best: { entry: CollectionEntry; shared: number }[] = [];
  for (let i = 0; i < all.length; i++) {
    const count = shared(i);
    if (count === 0 || (best.length === 3 && count <= best[2].shared) || all[i].key === article.key) continue;
    const at = best.findIndex((b) => b.shared < count);
    best.splice(at < 0 ? best.length : at, 0, { entry: all[i], shared: count });
    if (best.length > 3) best.pop();
    if (best.length === 3 && best[2].shared === tags.length) break;
  }
  return best.map((b) => b.entry);
}

/** How many of `tags` the entry has. */
function sharedTags(entry: CollectionEntry, tags: string[]): number {
  const theirs = (entry.data.tags as string[]) ?? [];
  let shared = 0;
  for (const tag of tags) if (theirs.includes(tag)) shared++;
  return shared;
}

interface TagBits {
  /** Each tag's bit. */
  byTag: Map<string, number>;
  /** Each entry's tags, as bits, in the list's order. */
  ofEntry: Int32Array;
}

/** Each list's tag bits, or null for a list of more than 31 tags (a bit each would not fit in one number). */
const tagBits = new WeakMap<CollectionEntry[], TagBits | null>();

function tagBitsOf(all: CollectionEntry[]): TagBits | null {
  let known = tagBits.get(all);
  if (known !== undefined) return known;
  const byTag = new Map<string, number>();
  const ofEntry = new Int32Array(all.length);
  known = { byTag, ofEntry };
  for (let i = 0; i < all.length && known; i++) {
    for (const tag of (all[i].data.tags as string[]) ?? []) {
      if (!byTag.has(tag)) {
        if (byTag.size === 31) known = null;
        byTag.set(tag, 1 << byTag.size);
      }
      ofEntry[i] |= byTag.get(tag)!;
    }
  }
  tagBits.set(all, known);
  return known;
}

function countBits(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
  return count;
}
