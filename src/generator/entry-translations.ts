import { sitegenError, type SitegenError } from "./errors.ts";
import { PROJECT_FILES } from "./project.ts";
import type { Collections } from "./pipeline/collections.ts";

/** An entry one locale lacks: the collection, the entry's key, the locale, and a file of another locale with it. */
export interface MissingEntry {
  collection: string;
  key: string;
  locale: string;
  file: string;
}

/** A collection with no entry in a locale, and another locale that has some. */
export interface EmptyCollection {
  collection: string;
  locale: string;
  dir: string;
  other: string;
  count: number;
}

/**
 * The translations of entries the locales lack, paired as the entries' pages are (CollectionEntry.key): an entry
 * present in one locale and not in another (EntryTranslationMissing), and a collection empty in a locale where
 * another has entries (CollectionEmptyInLocale, its entries then not listed one by one). Warnings, as a text key
 * a locale lacks is; --strict makes the first fail the build. `locales`: the default one first.
 */
export function entryTranslationWarnings(collections: Collections, locales: string[], strict: boolean): SitegenError[] {
  const missing: MissingEntry[] = [];
  const empty: EmptyCollection[] = [];
  for (const [collection, byLocale] of Object.entries(collections)) {
    const filled = locales.filter((locale) => byLocale[locale]?.length);
    if (!filled.length) continue;
    const other = filled[0];
    for (const locale of locales.filter((l) => !filled.includes(l))) {
      const dir = `${PROJECT_FILES.content}/${locale}/${collection}`;
      empty.push({ collection, locale, dir, other, count: byLocale[other].length });
    }
    // Each key, with the file of the first locale (the default one, if it has it) that has the entry.
    const files = new Map<string, string>();
    for (const locale of filled) for (const e of byLocale[locale]) if (!files.has(e.key)) files.set(e.key, e.file);
    for (const locale of filled) {
      const keys = new Set(byLocale[locale].map((e) => e.key));
      for (const [key, file] of files) if (!keys.has(key)) missing.push({ collection, key, locale, file });
    }
  }
  const warnings: SitegenError[] = [];
  if (missing.length) {
    const [first, ...others] = missing;
    warnings.push(sitegenError("EntryTranslationMissing", { ...first, others }, { data: { missing } }));
  }
  if (empty.length) {
    const [first, ...others] = empty;
    warnings.push(sitegenError("CollectionEmptyInLocale", { ...first, others }, { data: { empty } }));
  }
  if (warnings.length && strict) throw warnings[0];
  return warnings;
}
