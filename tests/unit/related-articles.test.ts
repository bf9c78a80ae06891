import { describe, expect, it } from "vitest";
import { relatedArticles } from "../../src/pages/related-articles.ts";
import type { CollectionEntry } from "../../src/generator/site-definition.ts";

const entry = (key: string, tags: string[]) => ({ key, data: { tags } }) as unknown as CollectionEntry;

/** The rule, as plainly as it can be written: every other article sharing a tag, by tags shared, then newest. */
function reference(all: CollectionEntry[], article: CollectionEntry, tags: string[]): string[] {
  return all
    .map((e, i) => ({ e, i, shared: tags.filter((t) => ((e.data.tags as string[]) ?? []).includes(t)).length }))
    .filter((c) => c.shared > 0 && c.e.key !== article.key)
    .sort((a, b) => b.shared - a.shared || a.i - b.i)
    .slice(0, 3)
    .map((c) => c.e.key);
}

describe("an article's related articles", () => {
  it("puts those sharing the most tags first, then the newest, and never the article itself", () => {
    const all = [
      entry("newest", ["a"]),
      entry("self", ["a", "b"]),
      entry("both", ["b", "a"]),
      entry("b-only", ["b"]),
      entry("none", ["c"]),
      entry("old-both", ["a", "b", "c"]),
    ];
    expect(relatedArticles(all, all[1], ["a", "b"]).map((e) => e.key)).toEqual(["both", "old-both", "newest"]);
    expect(relatedArticles(all, all[4], ["c"]).map((e) => e.key)).toEqual(["old-both"]);
    expect(relatedArticles([entry("x", [])], entry("y", ["a"]), ["a"])).toEqual([]);
  });

  it("chooses as the plain rule does, on lists of many articles with few tags and with many", () => {
    let seed = 17;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (const tagCount of [3, 8, 31, 32, 60]) {
      const names = Array.from({ length: tagCount }, (_, i) => `tag-${i}`);
      const all = Array.from({ length: 300 }, (_, i) =>
        entry(
          `e${i}`,
          Array.from({ length: random(4) }, () => names[random(tagCount)]),
        ),
      );
      for (let i = 0; i < all.length; i += 7) {
        const tags = all[i].data.tags as string[];
        expect(
          relatedArticles(all, all[i], tags).map((e) => e.key),
          `${tagCount} tags, article ${i}`,
        ).toEqual(reference(all, all[i], tags));
      }
      // An article outside the list, naming a tag the list has not.
      expect(relatedArticles(all, entry("outside", []), ["tag-0", "unknown"]).map((e) => e.key)).toEqual(
        reference(all, entry("outside", []), ["tag-0", "unknown"]),
      );
    }
  });
});
