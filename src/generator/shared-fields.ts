import { posix } from "node:path";
import type { EntryProblem } from "./error-catalogue.ts";
import type { CollectionDefinition, CollectionEntry } from "./site-definition.ts";

/**
 * Fields shared by every translation of an entry (FieldRule.shared): written once, in the entry's file of the
 * default locale, and inherited by its files in the other locales unless they write the field themselves.
 * Translations pair as the entry's pages and their hreflang links do: by CollectionEntry.key (`translationKey`,
 * else the file name).
 */

const inherited = new WeakMap<CollectionEntry, Record<string, unknown>>();

/** What an entry inherited from its default locale's file: part of its fields' digest in incremental builds. */
export function inheritedFields(entry: CollectionEntry): Record<string, unknown> | undefined {
  return inherited.get(entry);
}

/**
 * Gives each entry of a non-default locale the shared fields it does not write, from the default locale's
 * entry of the same key. Returns a problem for each required shared field that neither gives.
 */
export function inheritSharedFields(
  byLocale: Record<string, CollectionEntry[]>,
  definition: CollectionDefinition,
  defaultLocale: string,
): EntryProblem[] {
  const shared = Object.entries(definition.schema).filter(([, rule]) => rule.shared);
  if (!shared.length) return [];
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
      if (!Object.keys(values).length) continue;
      inherited.set(entry, values);
      // The entry's own fields over the inherited ones, a getter (a schema's `body`) kept as it is.
      entry.data = Object.defineProperties({ ...values }, Object.getOwnPropertyDescriptors(entry.data));
    }
  }
  return problems;
}

/** An image's path, written relative to the file `from`, made relative to the file `to`. */
function relocated(path: string, from: string, to: string): string {
  return posix.relative(posix.dirname(to), posix.join(posix.dirname(from), path));
}
