import { posix } from "node:path";
import type { EntryProblem } from "./error-catalogue.ts";
import type { CollectionDefinition, CollectionEntry } from "./site-definition.ts";

/**
 * Fields shared by every translation of an entry (FieldRule.shared): written once, in the entry's file of the
 * default locale, and inherited by its files in the other locales unless they write the field themselves.
 * Translations pair as the entry's pages and their hreflang links do: by CollectionEntry.key (`translationKey`,
 * else the file name).
 */

export interface SharedFields {
  /** The fields each entry of a non-default locale inherits (entries that inherit none are left out). */
  inherits: Map<CollectionEntry, Record<string, unknown>>;
  /** A problem for each required shared field that neither the entry nor its default locale's file gives. */
  problems: EntryProblem[];
}

/**
 * The shared fields each entry of a non-default locale does not write, from the default locale's entry of the
 * same key (collections.ts gives them to the entry).
 */
export function sharedFields(
  byLocale: Record<string, CollectionEntry[]>,
  definition: CollectionDefinition,
  defaultLocale: string,
): SharedFields {
  const inherits = new Map<CollectionEntry, Record<string, unknown>>();
  const shared = Object.entries(definition.schema).filter(([, rule]) => rule.shared);
  if (!shared.length) return { inherits, problems: [] };
  const sources = new Map((byLocale[defaultLocale] ?? []).map((entry) => [entry.key, entry]));
  const problems: EntryProblem[] = [];
  for (const [locale, entries] of Object.entries(byLocale)) {
    if (locale === defaultLocale) continue;
    for (const entry of entries) {
      const source = sources.get(entry.key);
      const values: Record<string, unknown> = {};
      for (const [field, rule] of shared) {
        if (entry.data[field] !== undefined) continue;
        const value = source?.data[field];
        if (source && value !== undefined)
          values[field] = rule.type === "image" ? relocated(String(value), source.file, entry.file) : value;
        else if (rule.required)
          problems.push({
            ...{ file: entry.file, field },
            problem:
              `is required and missing, and this entry has no file in the default locale ("${defaultLocale}") ` +
              `to inherit it from: write it here, or add that file (same file name, or same translationKey).`,
          });
      }
      if (Object.keys(values).length) inherits.set(entry, values);
    }
  }
  return { inherits, problems };
}

/** An image's path, written relative to the file `from`, made relative to the file `to`. */
function relocated(path: string, from: string, to: string): string {
  return posix.relative(posix.dirname(to), posix.join(posix.dirname(from), path));
}
