import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { PROJECT_FILES } from "../project.ts";
import { filesIn } from "../files.ts";
import { countWords, createMarkdown, readingMinutes, type MarkdownEnv } from "../markdown.ts";
import type { Dictionary } from "../content.ts";
import type { CollectionDefinition, CollectionEntry } from "../site-definition.ts";
import type { SitegenError } from "../errors.ts";
import type { EntryProblem } from "../error-catalogue.ts";
import { sharedFields } from "../shared-fields.ts";
import { Entry, type EntryContext, type EntryRecord } from "../entry.ts";
import type { EntryBodies } from "../entry-bodies.ts";
import { sortEntries } from "../entry-order.ts";
import { entryInvalid, entryProblems, fieldPlace, parseEntry, validate } from "./entry-file.ts";

export interface CollectionsInput {
  root: string;
  siteUrl: string;
  /** The default locale first (shared fields are written in its files). */
  locales: string[];
  dictionaries: Record<string, Dictionary>;
  definitions: CollectionDefinition[];
  /** Include entries marked `draft: true` (sitegen serve does; sitegen build never). */
  drafts: boolean;
  /** What the previous build read of each entry file (BuildState.entries). */
  previous?: Record<string, EntryRecord>;
  /** The files sitegen serve's watcher saw change since the previous build: the others are not looked at. */
  changed?: ReadonlySet<string>;
  /**
   * Where the bodies of the files read are kept for the pages (entry-bodies.ts); without it, and for a file not
   * read again, a page's body is read from its file when it asks for it.
   */
  bodies?: EntryBodies;
  /** Told each time a page reads an entry's body (incremental builds note which pages read which bodies). */
  onBodyRead?: (file: string) => void;
  /** Told after each entry how many of the entries are read (progress.ts). */
  progress?: (done: number, total: number) => void;
}

/** Collection name → locale → its entries, in the collection's order. */
export type Collections = Record<string, Record<string, CollectionEntry[]>>;

/** Every entry of every collection and locale. */
export function allEntries(collections: Collections): CollectionEntry[] {
  const all: CollectionEntry[] = [];
  for (const byLocale of Object.values(collections))
    for (const entries of Object.values(byLocale)) all.push(...entries);
  return all;
}

/** Every entry by the file it was read from. */
export function entriesByFile(collections: Collections): Map<string, CollectionEntry> {
  return new Map(allEntries(collections).map((entry) => [entry.file, entry]));
}

/**
 * Stage 3a. The entries of each collection in each locale: content/<locale>/<collection>/<slug>.md (Markdown
 * with YAML front matter) or <slug>.yaml (the fields alone, the body in `body` if any). The fields are checked
 * against the collection's schema: every invalid entry is named at once, with its file, field and line.
 * Translations are paired by `translationKey`, else by slug. A file of the size and time of change the previous
 * build read (as make and most generators judge it) is not read again: its record stands.
 */
export function loadCollections(input: CollectionsInput): Collections {
  const render = createMarkdown(input.siteUrl);
  const lists = input.definitions.flatMap((definition) =>
    input.locales.map((locale) => {
      const files = filesIn(input.root, `${PROJECT_FILES.content}/${locale}/${definition.name}`, ["md", "yaml", "yml"]);
      return { context: { input, definition, render }, locale, files };
    }),
  );
  const out: Collections = Object.fromEntries(input.definitions.map((definition) => [definition.name, {}]));
  const failed: SitegenError[] = [];
  const total = lists.reduce((sum, list) => sum + list.files.length, 0);
  let done = 0;
  for (const { context, locale, files } of lists) {
    const entries: CollectionEntry[] = (out[context.definition.name][locale] = []);
    for (const file of files) {
      try {
        entries.push(readEntry(context, file, locale));
      } catch (error) {
        if (!entryProblems(error)) throw error;
        failed.push(error as SitegenError);
      }
      input.progress?.(++done, total);
    }
  }
  const unshared: EntryProblem[] = [];
  for (const definition of input.definitions) {
    const { inherits, problems } = sharedFields(out[definition.name], definition, input.locales[0]);
    for (const [entry, values] of inherits) (entry as Entry).inherit(values);
    unshared.push(...problems);
  }
  // A single failing file keeps its own error (a YAML syntax error shows the lines in question).
  if (failed.length === 1 && !unshared.length) throw failed[0];
  if (failed.length || unshared.length)
    throw entryInvalid([...failed.flatMap((error) => entryProblems(error)!), ...unshared]);
  for (const definition of input.definitions) {
    for (const [locale, entries] of Object.entries(out[definition.name])) {
      const shown = entries.filter((e) => input.drafts || e.data.draft !== true);
      out[definition.name][locale] = sortEntries(shown, definition, locale);
    }
  }
  return out;
}

function readEntry(context: EntryContext, file: string, locale: string): CollectionEntry {
  const { input } = context;
  const before = input.previous?.[file];
  // sitegen serve's watcher knows which files changed; otherwise a file of the same size and time of change is
  // taken as unchanged, as make and most generators judge it.
  if (before && input.changed && !touches(input.changed, file))
    return new Entry(context, before, undefined, locale, file);
  const path = `${input.root}/${file}`;
  const { size, mtimeMs } = statSync(path);
  if (before && !input.changed && before.size === size && before.mtimeMs === mtimeMs) {
    return new Entry(context, before, undefined, locale, file);
  }
  const text = readFileSync(path, "utf8");
  const { record, body } = readRecord(context, file, locale, text, size, mtimeMs);
  return new Entry(context, record, input.bodies?.add(body), locale, file);
}

/** Whether the file, or a folder that holds it, is among the paths reported changed. */
function touches(changed: ReadonlySet<string>, file: string): boolean {
  for (let path = file; path.includes("/"); path = path.slice(0, path.lastIndexOf("/")))
    if (changed.has(path)) return true;
  return false;
}

/** An entry file's text parsed, checked and measured; its body apart, as it is not part of the record. */
function readRecord(context: EntryContext, file: string, locale: string, text: string, size: number, mtimeMs: number) {
  const { input, definition, render } = context;
  const parsed = parseEntry(file, text, definition);
  const dictionary = input.dictionaries[locale] ?? new Map();
  const place = (field: string) => fieldPlace(file, text, field);
  const inherits = locale !== input.locales[0];
  const { body: bodyField, ...checked } = validate(parsed.front, definition.schema, place, dictionary, inherits);
  // Through JSON: the parser's strings are slices of the file's text, which they would keep in memory.
  const json = JSON.stringify(checked);
  const data = JSON.parse(json) as Record<string, unknown>;
  const markdownBody = !("body" in definition.schema);
  // The body's images, found by rendering it once: the image stage makes them before any page is rendered.
  const env: MarkdownEnv = { images: [], firstLine: parsed.firstLine };
  if (markdownBody && parsed.body.includes("![")) render(parsed.body, env);
  const record: EntryRecord = {
    hash: createHash("sha1").update(text).digest("hex"),
    size,
    mtimeMs,
    data,
    dataHash: createHash("sha1").update(json).digest("hex"),
    readingMinutes: readingMinutes(countWords(parsed.body)),
    firstLine: parsed.firstLine,
    ...(env.images.length ? { bodyImages: env.images } : {}),
  };
  return { record, body: markdownBody ? parsed.body : String(bodyField ?? "") };
}
