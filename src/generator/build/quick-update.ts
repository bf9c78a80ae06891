import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { SiteConfig } from "../config.ts";
import type { Dictionary, LocaleContent } from "../content.ts";
import { cachedEntry, entriesByFile, loadCollections, newestFirst, entrySlug, type CachedEntry, type EntryHooks } from "../collections.ts";
import type { CollectionDefinition, SiteDefinition } from "../site-definition.ts";
import { sitegenError } from "../errors.ts";
import { filesBelow, filesIn, filesUnder } from "../files.ts";
import { minifyHtml } from "../html/minify-html.ts";
import { PROJECT_FILES } from "../project.ts";
import type { PagesBundle } from "./bundle-pages.ts";
import { saveEditedEntries, type EntryCache } from "./entry-cache.ts";
import type { TwinLevels } from "./file-writer.ts";
import { processImages } from "./images.ts";
import { PageInputs, type PageRecord } from "./incremental.ts";
import { markSwap, saveManifestChanges, type BuildManifest } from "./manifest.ts";
import { PageRecords, type PageIndex, type PageSummary } from "./page-lines.ts";
import { rememberBuild, type BuildMemory, type ChangedPaths } from "./build-memory.ts";
import { planPages, type PlannedPage } from "./plan-pages.ts";
import { ReadLog, renderPages, type PageAssets, type RenderedPage } from "./render-pages.ts";
import { formatMissing, missingTranslations, type MissingKey } from "./report.ts";
import { StagingFolder } from "./staging.ts";
import { sameBytes, twinsOf } from "./write-output.ts";

/** What a quick update works from: what build.ts loaded before choosing the quick way or the full one. */
export interface QuickInput {
  root: string;
  outDir: string;
  site: SiteConfig;
  contents: LocaleContent[];
  dictionaries: Record<string, Dictionary>;
  definition: SiteDefinition;
  bundle: PagesBundle;
  assets: PageAssets;
  previous: BuildManifest;
  /** The entry cache as last saved: where the previous build's entries are found, unless in `memory`. */
  entryCache: EntryCache | undefined;
  entriesKey: string;
  /** Whether entries marked `draft: true` are built (sitegen serve). */
  drafts: boolean;
  /**
   * In sitegen serve: what the previous build left in memory (its manifest is `previous`), the files the
   * watcher reported since, and whether to save later. The edited files are those reported, and nothing is
   * read from the manifest's file or the entry cache's.
   */
  memory?: { held: BuildMemory; changed: ChangedPaths; saveLater: boolean };
  /** The compressed twins written beside each page (--precompress), and how hard they are compressed. */
  twins: string[];
  levels: TwinLevels;
  strict: boolean;
}

export interface QuickUpdate {
  /** Every page, as the manifest now holds it. */
  records: PageSummary[];
  rendered: number;
  missing: MissingKey[];
  warnings: ReturnType<typeof sitegenError>[];
  files: number;
  bytes: number;
  images: { count: number; encoded: number };
  timings: { collections: number; images: number; plan: number; render: number; write: number };
  /** For the next build in the process, when the update was made from memory. */
  memory?: BuildMemory;
}

/** Past this many edited files a build is more a full one than a quick one: the full way, which writes many pages on a thread of its own, takes it. */
const MOST_EDITS = 64;

/**
 * A quick update: what a build into a folder it built before does when only a few entries' files were
 * edited, and nothing in them changes any page but their own. It reads those entries and their translations
 * (and, from the entry cache, the collections that pages read whole, such as an article's related articles),
 * renders the pages of theirs whose plan or reads changed, and leaves every other page, feed, image and the
 * sitemap as the previous build wrote them: on a site of thousands of entries, it does not render, compare
 * or write a record per page (build.ts' full way), which together were most of an incremental build.
 * In sitegen serve it starts from what the previous build left in memory (build-memory.ts) and the files
 * the watcher reported, and leaves its own memory to the next rebuild.
 *
 * It stands for the full way only where both must write the same bytes, so it gives up (undefined) as soon
 * as an edit may reach beyond the entries' own pages: a file added, removed or a draft; an entry whose
 * order, translations, dates, groups or images changed; an entry in its collection's feed; an entry whose
 * fields changed and that a listing shows, or whose collection a page reads; another page that reads its
 * text; a page that reads what only the full plan holds; a change to public/; a file missing from the
 * output. build.ts then builds the full way.
 */
export async function quickUpdate(input: QuickInput): Promise<QuickUpdate | undefined> {
  const { root, previous, entryCache } = input;
  const definitions = input.definition.collections ?? [];
  let mark = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - mark;
    mark = now;
    return ms;
  };
  const held = input.memory?.held;
  const lines: PageIndex | undefined = held ? new PageRecords(previous.pages) : previous.pageLines;
  if (!lines || previous.totals === undefined || previous.publicFiles !== publicStamp(root)) return undefined;
  // What the previous build read of each entry's file: kept in its memory, or in the entry cache.
  const fieldsOf = held ? (file: string): CachedEntry | undefined => held.fields[file] : (file: string) => entryCache?.fields(file);
  const edited = input.memory ? reportedEdits(input, input.memory.changed, fieldsOf) : listedEdits(input);
  if (!edited || edited.length > MOST_EDITS) return undefined;
  // Every file the previous build left is still there (a page removed by hand is written again by the full way).
  const present = held ? held.output : new Set(filesUnder(input.outDir));
  if (!previous.files.every((file) => present.has(file))) return undefined;
  const records = lines.summaries();
  // A site of no page with an address (no sitemap, then) builds with a warning, which --strict makes fail (build.ts).
  const warnings = previous.files.includes("sitemap.xml") ? [] : [sitegenError("NoPages", { file: PROJECT_FILES.routes })];
  if (warnings.length && input.strict) throw warnings[0];
  if (edited.length === 0) {
    const timings = { collections: lap(), images: 0, plan: 0, render: 0, write: 0 };
    return { records, rendered: 0, missing: missingOf(input, records), warnings, files: previous.totals[0], bytes: previous.totals[1], images: { count: 0, encoded: 0 }, timings, memory: held };
  }

  // The edited entries and every entry of their groups (their translations), read as the full way reads them.
  const groups = new Set(edited.map(({ file }) => previous.entries[file][1]));
  const group = new Set<string>();
  for (const file in previous.entries) if (groups.has(previous.entries[file][1])) group.add(file);
  // The collections some page reads (an article's related articles, its previous and next) are read whole
  // too, their other entries from the entry cache, so that the pages are rendered from them as the full way
  // renders them. Their digests must stay as they were: an edited entry's fields must (checked below).
  const readCollections = lines.readsStartingWith("collection:");
  const whole = new Set([...readCollections].map((read) => read.slice("collection:".length)));
  const only = new Set(group);
  for (const name of whole) for (const file of filesOf(previous.entries, name)) only.add(file);
  const log = new ReadLog();
  // The entries the previous build in this process made are taken as they are where their files did not
  // change; they call the hooks that build's collections were read with (collections.ts' `previous`).
  const hooks: EntryHooks = held?.hooks ?? {};
  Object.assign(hooks, { onBodyRead: (entry: { file: string }) => log.note(`body:${entry.file}`), cachedBody: entryCache?.body, willRead: undefined, readAhead: undefined, offerBody: undefined, renderedBody: undefined } satisfies EntryHooks);
  const cached: Record<string, CachedEntry> = {};
  for (const file of only) {
    const fields = fieldsOf(file);
    if (fields) cached[file] = fields;
  }
  // The files not edited were just found of the size and time of change the cache has: not looked at again.
  const editedFiles = new Set(edited.map(({ file }) => file));
  const collections = loadCollections({ root, siteUrl: input.site.siteUrl, locales: input.site.locales.map((l) => l.code), dictionaries: input.dictionaries, definitions, drafts: input.drafts, cached, hooks, only, unchanged: (file) => !editedFiles.has(file), previous: held?.entries });
  const byFile = entriesByFile(collections);
  for (const { file, definition, locale } of edited) {
    const before = cached[file];
    const entry = byFile.get(file);
    const after = entry && cachedEntry(entry);
    if (!before || !entry || !after || entry.key !== previous.entries[file][1].slice(definition.name.length + 1) || !sameShape(before, after, definition, input.definition)) return undefined;
    const sameFields = before.dataHash === after.dataHash && before.readingMinutes === after.readingMinutes;
    if (!sameFields && (isListed(definition, input.definition) || readCollections.has(`collection:${definition.name}:${locale}`))) return undefined;
    if (definition.feed && inFeed(file, definition, locale, fieldsOf, previous.entries)) return undefined;
  }
  const timings = { collections: lap(), images: 0, plan: 0, render: 0, write: 0 };
  const processed = await processImages({ root, definitions, collections, contents: input.contents, imageKeys: input.definition.imageKeys ?? [], socialImage: input.site.socialImage });
  timings.images = lap();

  // An entry's page is planned from its group alone (build-memory.ts' knownPlans), so the groups' pages are
  // planned here as the full plan plans them; with the collections read whole, so are their listings' routes.
  const plan = planPages(input.definition, input.site, collections);
  const pages = plan.pages.filter((page) => page.entry && group.has(page.entry.file));
  const pageFiles = new Set(pages.map((page) => page.file));
  // Pages that read an edited entry's text are its own pages, or the update stops here.
  for (const { file } of edited) for (const reader of lines.readersOf(`body:${file}`)) if (!pageFiles.has(reader)) return undefined;
  const inputs = new PageInputs(plan.routes, collections, byFile);
  const render: PlannedPage[] = [];
  // The records the previous build left of these pages (the others are not parsed).
  const earlier = new Map<string, PageRecord>();
  for (const page of pages) {
    const record = lines.page(page.file);
    if (!record) return undefined;
    earlier.set(page.file, record);
    if (!record.reads.every(([read]) => readable(read, group, whole))) return undefined;
    if (record.input !== inputs.pageInput(page) || record.reads.some(([read, digest]) => inputs.digest(read) !== digest)) render.push(page);
  }
  timings.plan = lap();

  let rendered: RenderedPage[];
  try {
    rendered = [...renderPages(plan, render, input.bundle, input.site, input.dictionaries, input.assets, collections, processed, log)];
  } catch {
    // A page that cannot render from its group alone (a link to a page the full plan alone has): the full way decides.
    return undefined;
  }
  timings.render = lap();
  const made = new Map<string, PageRecord>();
  for (const { page, reads, missing } of rendered) {
    // What the page read now, the full plan would give it too: its group's texts, routes as they were.
    const was = new Map(earlier.get(page.file)!.reads);
    if (!reads.every((read) => readable(read, group, whole) && (read.startsWith("body:") || was.get(read) === inputs.digest(read)))) return undefined;
    made.set(page.file, { file: page.file, locale: page.locale, label: page.label, input: inputs.pageInput(page), reads: reads.map((read) => [read, inputs.digest(read)]), missing, bytes: 0, files: 0, written: 0 });
  }
  const all = records.map((record) => made.get(record.file) ?? record);
  const missing = missingOf(input, all);

  // Each page written as the full way writes it: minified, left as it is when its bytes did not change.
  const staging = new StagingFolder(input.outDir, false, input.levels);
  let totals = previous.totals;
  try {
    for (const { page, html, shared } of rendered) {
      const record = made.get(page.file)!;
      const minified = minifyHtml(html, shared);
      record.bytes = Buffer.byteLength(minified);
      const names = [page.file, ...input.twins.map((twin) => page.file + twin)];
      if (sameBytes(join(input.outDir, page.file), minified) && names.every((name) => present.has(name))) {
        record.files = names.length;
        record.written = names.reduce((sum, name) => sum + statSync(join(input.outDir, name)).size, 0);
      } else {
        const data = [minified, ...(input.twins.length ? twinsOf(minified, input.levels) : [])];
        names.forEach((name, i) => staging.write(name, data[i]));
        record.files = names.length;
        record.written = data.reduce((sum, d) => sum + (typeof d === "string" ? Buffer.byteLength(d) : d.byteLength), 0);
      }
      const old = earlier.get(page.file)!;
      totals = [totals[0] + record.files - old.files, totals[1] + record.written - old.written];
    }
    await staging.finish();
    markSwap(root, input.outDir, previous);
    staging.apply([]);
  } catch (error) {
    await staging.discard();
    throw error;
  }
  // Only what changed is saved: the manifest and the entry cache are appended to, not compared whole.
  const stamps: Record<string, [string, string]> = {};
  const read: Record<string, CachedEntry> = {};
  for (const { file } of edited) {
    const entry = byFile.get(file)!;
    stamps[file] = [entry.hash, previous.entries[file][1]];
    read[file] = cachedEntry(entry)!;
  }
  let memory: BuildMemory | undefined;
  if (held) {
    // The next build in this process starts from these, saved now or once the developer pauses.
    const manifest: BuildManifest = { ...previous, pages: { ...previous.pages }, entries: { ...previous.entries, ...stamps }, totals };
    for (const record of made.values()) manifest.pages[record.file] = record;
    const entries = new Map(held.entries);
    for (const { file } of edited) entries.set(file, byFile.get(file)!);
    const { outDir, key, entriesKey, entryCache: savedCache, output, images } = held;
    memory = rememberBuild(root, { outDir, key, manifest, entriesKey, entryCache: savedCache, fields: { ...held.fields, ...read }, output, images, entries, hooks }, held, input.memory!.saveLater);
  } else {
    saveManifestChanges(root, input.outDir, previous, [...made.values()], stamps, totals);
    saveEditedEntries(root, input.entriesKey, read, entryCache!);
  }
  timings.write = lap();
  return { records: all, rendered: rendered.length, missing, warnings, files: totals[0], bytes: totals[1], images: { count: processed.count, encoded: processed.encoded }, timings, memory };
}

/** The missing translations of the pages; with --strict, any fails the build before the output changes, as the full way's does. */
function missingOf(input: QuickInput, pages: PageSummary[]): MissingKey[] {
  const missing = missingTranslations(input.contents, pages);
  if (missing.length && input.strict) throw sitegenError("MissingTranslations", { count: missing.length, list: formatMissing(missing) });
  return missing;
}

/**
 * The files of public/, by name, size and time of change, hashed: the full way copies them into the output,
 * and a quick update only where none was added, removed or changed since.
 */
export function publicStamp(root: string): string {
  const files = filesBelow(root, "public").map((file) => {
    const { size, mtimeMs } = statSync(join(root, file));
    return `${file}\u0000${size}\u0000${mtimeMs}`;
  });
  return createHash("sha1").update(files.join("\n")).digest("hex");
}

/**
 * Whether a page's read is one a quick update can answer as the full build would: an entry's text of the
 * groups it read, a route, or a collection it read whole (both compared by digest). Every page, the
 * collection of all routes, other texts need the full plan.
 */
function readable(read: string, group: ReadonlySet<string>, whole: ReadonlySet<string>): boolean {
  if (read.startsWith("body:")) return group.has(read.slice("body:".length));
  if (read.startsWith("collection:")) return whole.has(read.slice("collection:".length));
  return read.startsWith("route:");
}

/**
 * Whether an edit leaves where an entry stands among the others as it was: its translation key and draft
 * flag, its sort field, the dates of its route (the sitemap's lastmod), the fields listings are grouped by,
 * and its images (files the output holds under names made from them).
 */
function sameShape(before: CachedEntry, after: CachedEntry, collection: CollectionDefinition, site: SiteDefinition): boolean {
  const fields = new Set(["translationKey", "draft", "date", "updated", collection.sortBy ?? "date"]);
  for (const route of site.routes) if (route.list?.groupBy && route.list.collection === collection.name) fields.add(route.list.groupBy);
  for (const [field, rule] of Object.entries(collection.schema)) if (rule.type === "image") fields.add(field);
  for (const field of fields) if (JSON.stringify(before.data[field]) !== JSON.stringify(after.data[field])) return false;
  return JSON.stringify(before.bodyImages ?? []) === JSON.stringify(after.bodyImages ?? []);
}

/** Whether a route lists the collection's entries (a listing, or listings grouped by a field). */
function isListed(collection: CollectionDefinition, site: SiteDefinition): boolean {
  return site.routes.some((route) => route.list?.collection === collection.name);
}

/** Whether the entry is among the newest its collection's feed shows in its locale (from the entries as the previous build read them). */
function inFeed(file: string, collection: CollectionDefinition, locale: string, fieldsOf: (file: string) => CachedEntry | undefined, shown: BuildManifest["entries"]): boolean {
  const dir = `${PROJECT_FILES.content}/${locale}/${collection.name}/`;
  const entries = Object.keys(shown)
    .filter((name) => name.startsWith(dir))
    .map((name) => ({ file: name, data: fieldsOf(name)?.data ?? {}, slug: entrySlug(name) }));
  return newestFirst(entries, collection).slice(0, collection.feed!.limit).some((entry) => entry.file === file);
}

/** An entry file edited since the previous build: its collection and locale. */
interface Edited {
  file: string;
  definition: CollectionDefinition;
  locale: string;
}

/**
 * The entry files edited since the previous build, found by listing the collections' folders: the same
 * files as the previous build showed (none added, removed, or a draft, which is not among them), some of a
 * new size or time of change. Undefined when that is not so (the full way then).
 */
function listedEdits(input: QuickInput): Edited[] | undefined {
  const { root, previous, entryCache } = input;
  if (!entryCache) return undefined;
  const edited: Edited[] = [];
  let listed = 0;
  for (const definition of input.definition.collections ?? []) {
    for (const { code: locale } of input.site.locales) {
      for (const file of filesIn(root, `${PROJECT_FILES.content}/${locale}/${definition.name}`, ["md", "yaml", "yml"])) {
        listed++;
        const cached = entryCache.stamp(file);
        // The entry cache is the project's, the manifest this folder's: a file read since by a build into
        // another folder is not as this folder's pages show it, and the full way compares the two.
        if (!cached || previous.entries[file]?.[0] !== cached.hash) return undefined;
        const { size, mtimeMs } = statSync(`${root}/${file}`);
        if (size !== cached.size || mtimeMs !== cached.mtimeMs) edited.push({ file, definition, locale });
      }
    }
  }
  return listed === Object.keys(previous.entries).length ? edited : undefined;
}

/**
 * The entry files edited since the previous build in this process, from the paths the watcher reported:
 * each must be a file the previous build showed, still there; those of a new size or time of change are
 * edited. A path of anything else (a file added or removed, a folder, the site's text, its code) leaves
 * the update to the full way (undefined).
 */
function reportedEdits(input: QuickInput, changed: ChangedPaths, fieldsOf: (file: string) => CachedEntry | undefined): Edited[] | undefined {
  const edited: Edited[] = [];
  for (const file of changed.all()) {
    const before = input.previous.entries[file] && fieldsOf(file);
    const place = before && entryPlace(input, file);
    if (!place) return undefined;
    const now = statSync(join(input.root, file), { throwIfNoEntry: false });
    if (!now?.isFile()) return undefined;
    if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) edited.push({ file, ...place });
  }
  return edited;
}

/** The collection and locale of an entry's file (content/<locale>/<collection>/<slug>.md), if it is one. */
function entryPlace(input: QuickInput, file: string): Omit<Edited, "file"> | undefined {
  const [top, locale, name, slug, ...deeper] = file.split("/");
  const definition = input.definition.collections?.find((d) => d.name === name);
  if (top !== PROJECT_FILES.content || !slug || deeper.length || !definition || !input.site.locales.some((l) => l.code === locale)) return undefined;
  return { definition, locale };
}

/** The files of a collection in a locale ("<collection>:<locale>", as pages' reads name it) that the previous build showed. */
function filesOf(shown: BuildManifest["entries"], name: string): string[] {
  const at = name.lastIndexOf(":");
  const dir = `${PROJECT_FILES.content}/${name.slice(at + 1)}/${name.slice(0, at)}/`;
  return Object.keys(shown).filter((file) => file.startsWith(dir) && !file.includes("/", dir.length));
}
