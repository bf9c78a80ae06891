import { sitegenError } from "./errors.ts";
import { PROJECT_FILES } from "./project.ts";
import type { CollectionDefinition, CollectionEntry } from "./site-definition.ts";

type Sortable = Pick<CollectionEntry, "data" | "slug">;

/**
 * A collection's entries in its order (CollectionDefinition.sortBy): by a field, ascending or descending, a
 * number compared as a number, a date as a date, text as the locale's language sorts it (Intl.Collator), false
 * before true. A field's name alone, and the default (`date`), put the greatest (the newest) first. Entries
 * without the field come last; ties go by slug. A `sortBy` naming no field of the schema, or an order other than
 * `asc` or `desc`, is a SiteDefinitionInvalid.
 */
export function sortEntries<E extends Sortable>(entries: E[], definition: CollectionDefinition, locale?: string): E[] {
  const { field, order } =
    typeof definition.sortBy === "object" ? definition.sortBy : { field: definition.sortBy ?? "date", order: "desc" };
  const invalid = (problem: string) =>
    sitegenError("SiteDefinitionInvalid", {
      file: PROJECT_FILES.routes,
      problem: `the collection "${definition.name}"'s ${problem}`,
    });
  if (definition.sortBy !== undefined && !(field in definition.schema))
    throw invalid(`sortBy names "${field}", which its schema does not define.`);
  if (order !== "asc" && order !== "desc") throw invalid(`sortBy order is "${String(order)}": write "asc" or "desc".`);
  const collator = collatorOf(locale);
  const compare = (a: unknown, b: unknown): number => {
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
    // A date (YYYY-MM-DD) compares as it is written.
    if (definition.schema[field]?.type === "date") return a === b ? 0 : String(a) < String(b) ? -1 : 1;
    return collator.compare(String(a), String(b));
  };
  const sign = order === "asc" ? 1 : -1;
  const keyed = entries.map((entry) => ({ entry, value: entry.data[field] }));
  keyed.sort((a, b) => {
    if (a.value === undefined || b.value === undefined)
      return Number(a.value === undefined) - Number(b.value === undefined) || a.entry.slug.localeCompare(b.entry.slug);
    return sign * compare(a.value, b.value) || a.entry.slug.localeCompare(b.entry.slug);
  });
  return keyed.map((k) => k.entry);
}

/** The collation of a locale's language; the runtime's own for a code that is not a language tag. */
function collatorOf(locale: string | undefined): Intl.Collator {
  try {
    return new Intl.Collator(locale);
  } catch {
    return new Intl.Collator();
  }
}
