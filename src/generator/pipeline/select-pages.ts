import type { CollectionEntry, Route } from "../site-definition.ts";
import type { Collections } from "./collections.ts";
import { entryRecord, inheritedFields, type EntryRecord } from "../entry.ts";
import type { PlannedPage } from "./plan-pages.ts";
import { hash, type BuildState } from "./state.ts";

/**
 * The digests of what pages read, for one build: a page's plan (its address, route, entry, listing), and
 * each thing it read while rendering: `collection:<name>:<locale>` (every entry's fields, in order),
 * `body:<file>` (an entry's text), `route:<id>` (a route's addresses), `routes` (all of them).
 */
export class PageInputs {
  private readonly digests = new Map<string, string>();
  private readonly byId: Map<string, Route>;

  constructor(
    private readonly routes: Route[],
    private readonly collections: Collections,
    private readonly byFile: ReadonlyMap<string, CollectionEntry>,
  ) {
    this.byId = new Map(routes.map((r) => [r.id, r]));
  }

  /** The hash of everything the plan says about a page. */
  pageInput(page: PlannedPage): string {
    const { kind, path, locale, file, label, meta, props, route, entry, listing } = page;
    const plan = {
      ...{ kind, path, locale, file, label, meta, props, route, component: page.component.name },
      entry: entry && entryFields(entry),
      listing: listing && { ...listing, group: listing.group, entries: listing.entries.map(entryFields) },
    };
    return hash(JSON.stringify(plan));
  }

  /** The digest of one thing a page read (ReadLog's names). */
  digest(read: string): string {
    // An entry's text: its file's hash, at hand.
    if (read.startsWith("body:")) return entryRecord(this.byFile.get(read.slice(5)))?.hash ?? "gone";
    let digest = this.digests.get(read);
    if (digest === undefined) this.digests.set(read, (digest = this.compute(read)));
    return digest;
  }

  private compute(read: string): string {
    const [kind, ...rest] = read.split(":");
    if (kind === "routes") return hash(JSON.stringify(this.routes));
    if (kind === "route") return hash(JSON.stringify(this.byId.get(rest.join(":")) ?? "gone"));
    if (kind === "collection") {
      const locale = rest.pop()!;
      return hash(JSON.stringify((this.collections[rest.join(":")]?.[locale] ?? []).map(entryFields)));
    }
    return "unknown";
  }
}

/** An entry as pages see it, without its body (whose reads are noted on their own): its fields by their hash. */
function entryFields(e: CollectionEntry) {
  const data = entryRecord(e)?.dataHash ?? e.data;
  return [e.file, e.slug, e.key, data, inheritedFields(e), e.readingMinutes, e.image, e.path];
}

export interface SelectInput {
  pages: PlannedPage[];
  /** The previous build's record of each page and what they read (BuildState's pages and reads). */
  previous: Pick<BuildState, "pages" | "reads" | "entries"> | undefined;
  /** Every entry of this build (to find those whose file changed since the previous build). */
  entries: CollectionEntry[];
  inputs: PageInputs;
  /** Whether a page's file is still in the output (with its compressed twins). */
  present: (file: string) => boolean;
}

/**
 * Which pages the previous output can keep: those whose plan and every read are as they were, and whose file
 * is still there (`present`, with the compressed twins the build writes). All others are rendered.
 */
export function selectPages({ pages, previous, entries, inputs, present }: SelectInput) {
  if (!previous) return { render: pages, keep: [] };
  const render: PlannedPage[] = [];
  const keep: PlannedPage[] = [];
  // Each thing read is compared once, however many pages read it.
  const unchanged: boolean[] = [];
  const same = (i: number) => (unchanged[i] ??= inputs.digest(previous.reads[i][0]) === previous.reads[i][1]);
  // A page planned from no entry whose file changed has the plan it had: its hash is not made again.
  const edited = editedEntries(entries, previous.entries);
  const replanned = ({ listing, entry }: PlannedPage) =>
    !edited || listing !== undefined || (entry !== undefined && edited.has(`${entry.collection}:${entry.key}`));
  for (const page of pages) {
    const record = previous.pages[page.file];
    const input = record && !replanned(page) ? record.input : inputs.pageInput(page);
    const kept = record?.input === input && record.reads.every(same);
    (kept && present(page.file) ? keep : render).push(page);
  }
  return { render, keep };
}

/**
 * The entries whose file changed since the previous build, as `collection:key` (their translations'): an
 * entry's page is planned from its entry and that entry's translations (paths, shared fields) only. Undefined
 * when an entry file came or went, which moves listings and translations: then every page's plan is hashed.
 */
function editedEntries(entries: CollectionEntry[], before: Record<string, EntryRecord>): Set<string> | undefined {
  if (entries.length !== Object.keys(before).length) return undefined;
  const edited = new Set<string>();
  for (const entry of entries) {
    const old = before[entry.file];
    if (!old) return undefined;
    if (old.hash === entryRecord(entry)?.hash) continue;
    const oldKey = typeof old.data.translationKey === "string" ? old.data.translationKey : entry.slug;
    edited.add(`${entry.collection}:${entry.key}`).add(`${entry.collection}:${oldKey}`);
  }
  return edited;
}
