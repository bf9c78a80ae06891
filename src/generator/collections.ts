import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { PROJECT_FILES } from "./project.ts";
import { filesIn } from "./files.ts";
import { countWords, createMarkdown, IMAGE_PLACEHOLDER, readingMinutes, type MarkdownEnv } from "./markdown.ts";
import type { Dictionary } from "./content.ts";
import type { CollectionDefinition, CollectionEntry, ImageRef } from "./site-definition.ts";
import { entryInvalid, entryProblems, fieldPlace, parseEntry, validate, type EntryRead } from "./entry-file.ts";
import type { SitegenError } from "./errors.ts";
import type { FileToRead } from "./build/read-ahead.ts";

export interface CollectionsInput {
  root: string;
  siteUrl: string;
  locales: string[];
  dictionaries: Record<string, Dictionary>;
  definitions: CollectionDefinition[];
  /** Include entries marked `draft: true` (sitegen serve does; sitegen build never). */
  drafts: boolean;
  /** What an earlier build read from each file, by file: reused when the file's size and time of change are the same. */
  cached?: Record<string, CachedEntry>;
  /** Whether a file is known not to have changed since `cached` was made (sitegen serve's watcher knows): it is not looked at. */
  unchanged?: (file: string) => boolean;
  /**
   * The entries of the previous build in this process, by file (sitegen serve): an entry whose file is known
   * unchanged and whose fields are those of `cached` is taken as it is. Its hooks must be this build's `hooks`.
   */
  previous?: ReadonlyMap<string, CollectionEntry>;
  /** What entries call back when their body is asked for; set anew for each build, as reused entries call it too. */
  hooks?: EntryHooks;
  /** Read only these files (paths relative to the project), without listing the folders: the entries a quick update needs (build/quick-update.ts). */
  only?: ReadonlySet<string>;
  /** Told after each entry how many of the entries are read (build/progress.ts). */
  progress?: (done: number, total: number) => void;
}

export interface EntryHooks {
  /** The body an earlier build kept of an entry (build/entry-cache.ts), if it is still there. */
  cachedBody?: (entry: CachedEntry) => string | undefined;
  /** Called each time an entry's body is read (incremental builds note which pages read which bodies). */
  onBodyRead?: (entry: CollectionEntry) => void;
  /** Told every file the build is about to read, in the order it reads them: it may read them ahead (build/read-ahead.ts). */
  willRead?: (files: FileToRead[]) => void;
  /** A file as it was read ahead, if it was; undefined to read it here. */
  readAhead?: (file: string) => EntryRead | undefined;
  /** Given each Markdown body read here that shows no image: it may render it ahead. */
  offerBody?: (file: string, markdown: string) => void;
  /** The HTML of an offered body, if it was rendered ahead, the first time its page asks for it. */
  renderedBody?: (file: string) => string | undefined;
}

/** An entry's checked fields and reading time, and the hash, size and time of change of the file they came from. */
export interface CachedEntry {
  hash: string;
  size: number;
  mtimeMs: number;
  data: Record<string, unknown>;
  /** The hash of `data`, made once when the file is read: what incremental builds compare pages' plans by. */
  dataHash: string;
  readingMinutes: number;
  /** The Markdown body's first line in the file, and the images it refers to (for the image stage). */
  firstLine: number;
  bodyImages?: ImageRef[];
  /** The body as the file gave it, when this build read it and kept it in memory (within KEPT_BODIES). */
  body?: string;
  /** Where an earlier build kept the body (build/entry-cache.ts), to be read back when a page asks for it. */
  bodyAt?: { offset: number; length: number; hash: string };
}

/** What the entries of one collection and locale share in a build: what their bodies are read and rendered with. */
interface EntryContext {
  input: CollectionsInput;
  definition: CollectionDefinition;
  render: (md: string, env?: MarkdownEnv) => string;
}

/** What the next build may reuse of an entry's file: its hash, checked fields, reading time and body's images. */
export function cachedEntry(entry: CollectionEntry): CachedEntry | undefined {
  return entry instanceof Entry ? Entry.fieldsOf(entry) : undefined;
}

/**
 * An entry, as pages see it. A class, so that every entry has the same fields in the same order, made the
 * same way: V8 then gives them all one hidden class, which keeps a large build's memory down and every read
 * of an entry fast. Its `html` is a getter of the class, not an own field, and what it is made from is in
 * private fields: what hashes, copies or serialises an entry's fields leaves them out.
 */
class Entry implements CollectionEntry {
  image?: string = undefined;
  ogImage?: CollectionEntry["ogImage"] = undefined;
  images?: CollectionEntry["images"] = undefined;
  bodyPictures?: string[] = undefined;
  path?: string = undefined;
  readonly collection: string;
  readonly readingMinutes: number;
  readonly hash: string;
  readonly bodyImages: ImageRef[] | undefined;
  /** The file's cached fields (what the next build may reuse, see cachedEntry). */
  readonly #fields: CachedEntry;
  /** The body text, when this build kept it in memory. */
  readonly #body: string | undefined;
  readonly #context: EntryContext;

  constructor(
    context: EntryContext,
    fields: CachedEntry,
    body: string | undefined,
    readonly locale: string,
    readonly slug: string,
    readonly key: string,
    readonly file: string,
    readonly data: Record<string, unknown>,
    readonly size: number,
    readonly mtimeMs: number,
  ) {
    this.#context = context;
    this.#fields = fields;
    this.#body = body;
    this.collection = context.definition.name;
    this.readingMinutes = fields.readingMinutes;
    this.hash = fields.hash;
    this.bodyImages = fields.bodyImages;
  }

  get html(): string {
    const { definition, render } = this.#context;
    if ("body" in definition.schema) return "";
    const pictures = this.bodyPictures;
    const ahead = pictures ? undefined : this.#context.input.hooks?.renderedBody?.(this.file);
    if (ahead !== undefined) {
      this.#context.input.hooks?.onBodyRead?.(this);
      return ahead;
    }
    const markdown = this.bodyText();
    if (!markdown) return "";
    if (!pictures) return render(markdown);
    return render(markdown, { images: [], firstLine: this.#fields.firstLine }).replace(IMAGE_PLACEHOLDER, (_, i: string) => pictures[Number(i)] ?? "");
  }

  /** The body text: kept in memory, or where an earlier build kept it, or from its file again. */
  bodyText(): string {
    const { input, definition } = this.#context;
    input.hooks?.onBodyRead?.(this);
    if (this.#body !== undefined) return this.#body;
    const kept = input.hooks?.cachedBody?.(this.#fields);
    if (kept !== undefined) return kept;
    const bodyField = "body" in definition.schema;
    const parsed = parseEntry(this.file, readFileSync(join(input.root, this.file), "utf8"), definition, !bodyField);
    return String((bodyField ? parsed.front.body : parsed.body) ?? "");
  }

  static fieldsOf(entry: Entry): CachedEntry {
    return entry.#fields;
  }
}

/** The entry whose fields each schema `body` getter's object holds (FIELDS_WITH_BODY). */
const BODY_OWNERS = new WeakMap<object, Entry>();

/**
 * The getter of the fields when the schema has a `body` field: one getter on a prototype, not one per entry
 * (an object given a getter of its own gets a hidden class of its own in V8). `body` is not an own field:
 * what hashes or copies an entry's fields leaves it out, as it does the html.
 */
const FIELDS_WITH_BODY = {
  get body(): string {
    return BODY_OWNERS.get(this)!.bodyText();
  },
};

/** An entry's slug: its file's name without the extension. */
export const entrySlug = (file: string) => basename(file).replace(/\.(md|ya?ml)$/, "");

/** Collection name → locale → its entries, newest first. */
export type Collections = Record<string, Record<string, CollectionEntry[]>>;

/** Every entry of every collection and locale. */
export function allEntries(collections: Collections): CollectionEntry[] {
  const all: CollectionEntry[] = [];
  for (const byLocale of Object.values(collections)) for (const entries of Object.values(byLocale)) for (const entry of entries) all.push(entry);
  return all;
}

/** Every entry by the file it was read from. */
export function entriesByFile(collections: Collections): Map<string, CollectionEntry> {
  const byFile = new Map<string, CollectionEntry>();
  for (const entry of allEntries(collections)) byFile.set(entry.file, entry);
  return byFile;
}

/**
 * The entries of each collection in each locale: content/<locale>/<collection>/<slug>.md (Markdown with
 * YAML front matter) or <slug>.yaml (the fields alone, the body in `body` if any). The front matter is
 * checked against the collection's schema: a missing or malformed field, an unknown author or tag fails
 * the build, naming the file and the field. Translations are paired by `translationKey`, else by slug.
 *
 * An entry's rendered body (`html`) is not kept: it is rendered each time it is asked for (by its own
 * page, by the feeds), from the body text kept in memory up to KEPT_BODIES, or read back from where an
 * earlier build kept it (`cachedBody`), or from the file again, so a build of many thousand entries never
 * holds every body at once. A file whose text hashes as in
 * `cached` is not parsed again.
 */
export function loadCollections(input: CollectionsInput): Collections {
  const render = createMarkdown(input.siteUrl);
  const budget = { left: KEPT_BODIES };
  // Every folder is listed first: the files can then be read ahead, in the order they are read here.
  const lists = input.definitions.flatMap((definition) =>
    input.locales.map((locale) => {
      const dir = `${PROJECT_FILES.content}/${locale}/${definition.name}`;
      const files = input.only ? [...input.only].filter((file) => file.startsWith(`${dir}/`) && !file.includes("/", dir.length + 1)).sort() : filesIn(input.root, dir, ["md", "yaml", "yml"]);
      return { context: { input, definition, render } satisfies EntryContext, locale, files };
    }),
  );
  input.hooks?.willRead?.(lists.flatMap(({ context, files }) => files.map((file) => ({ file, bodyField: "body" in context.definition.schema }))));
  const out: Collections = Object.fromEntries(input.definitions.map((definition) => [definition.name, {}]));
  // An invalid entry does not stop the reading: the build then fails naming every invalid entry at once.
  // A single failing file keeps its own error (a YAML syntax error shows the lines in question).
  const failed: SitegenError[] = [];
  const total = lists.reduce((sum, list) => sum + list.files.length, 0);
  let done = 0;
  for (const { context, locale, files } of lists) {
    const entries = files.flatMap((file) => {
      try {
        return [readEntry(context, file, locale, budget)];
      } catch (error) {
        if (!entryProblems(error)) throw error;
        failed.push(error as SitegenError);
        return [];
      } finally {
        input.progress?.(++done, total);
      }
    });
    const shown = entries.filter((e) => input.drafts || e.data.draft !== true);
    out[context.definition.name][locale] = newestFirst(shown, context.definition);
  }
  if (failed.length === 1) throw failed[0];
  if (failed.length) throw entryInvalid(failed.flatMap((error) => entryProblems(error)!));
  return out;
}

/**
 * The entries by their sort field, the greatest first (the newest, for a date), then by slug. Each entry's
 * value is taken once, not at every comparison; a date (YYYY-MM-DD) compares as it is written, the way text
 * is compared taking the locale's collation, which a date does not need.
 */
export function newestFirst<E extends Pick<CollectionEntry, "data" | "slug">>(entries: E[], definition: CollectionDefinition): E[] {
  const field = definition.sortBy ?? "date";
  const dated = definition.schema[field]?.type === "date";
  const keyed = entries.map((entry) => ({ entry, value: String(entry.data[field]) }));
  keyed.sort((a, b) => (dated ? (a.value < b.value ? 1 : a.value > b.value ? -1 : 0) : b.value.localeCompare(a.value)) || a.entry.slug.localeCompare(b.entry.slug));
  return keyed.map((k) => k.entry);
}

/**
 * How much body text a build keeps in memory, in UTF-16 code units as JavaScript holds them: the bodies of a
 * site of a few thousand entries fit, and are not read twice; beyond it, bodies are read again when asked for.
 */
const KEPT_BODIES = 16 * 1024 * 1024;

function readEntry(context: EntryContext, file: string, locale: string, budget: { left: number }): CollectionEntry {
  const { input, definition, render } = context;
  // The file's path is relative to the project (filesIn): a template, as path.join takes long enough to show over thousands of files.
  const path = `${input.root}/${file}`;
  const cached = input.cached?.[file];
  const known = cached && input.unchanged?.(file);
  const before = known ? input.previous?.get(file) : undefined;
  if (before && cached && cachedEntry(before) === cached) {
    // Its body, if kept in memory, counts against this build's budget as a body read now would.
    if (typeof cached.body === "string") budget.left -= cached.body.length;
    return before;
  }
  // Read ahead on the writing thread (build/read-ahead.ts) when the build has no cache to look in first.
  const ahead = cached ? undefined : input.hooks?.readAhead?.(file);
  const { size, mtimeMs } = known ? cached : (ahead ?? statSync(path));
  const bodyField = "body" in definition.schema;
  let fields: CachedEntry;
  let body: string | undefined;
  // An unchanged file (same size and time of change, as make and most generators judge it) is not read.
  if (cached && cached.size === size && cached.mtimeMs === mtimeMs) {
    fields = cached;
  } else {
    const text = ahead ? undefined : readFileSync(path, "utf8");
    const hash = ahead ? ahead.hash : createHash("sha1").update(text!).digest("hex");
    const parsed = ahead ?? parseEntry(file, text!, definition);
    // A `body` field of the schema is handled like the Markdown body: outside the fields that are cached.
    const place = (field: string) => fieldPlace(file, text ?? readFileSync(path, "utf8"), field);
    const { body: bodyValue, ...checked } = validate(parsed.front, definition.schema, place, input.dictionaries[locale] ?? new Map());
    // The parser's strings are slices of the file's whole text, which they would keep in memory for as long
    // as the entry lives: a copy through JSON keeps only the fields themselves.
    const json = JSON.stringify(checked);
    const data = JSON.parse(json) as Record<string, unknown>;
    // The images of the body, found by rendering it once (markdown-it's own reading of `![alt](src)`): the
    // image stage makes them before any page is rendered. A body read ahead is rendered there.
    const env: MarkdownEnv = { images: [], firstLine: parsed.firstLine };
    if (!bodyField && parsed.body.includes("![")) render(parsed.body, env);
    else if (!ahead && !bodyField && parsed.body && (input.drafts || data.draft !== true)) input.hooks?.offerBody?.(file, parsed.body);
    const words = ahead ? ahead.words : countWords(parsed.body);
    fields = { hash, size, mtimeMs, data, dataHash: createHash("sha1").update(json).digest("hex"), readingMinutes: readingMinutes(words), firstLine: parsed.firstLine, bodyImages: env.images.length ? env.images : undefined, body: undefined, bodyAt: undefined };
    const kept = bodyField ? bodyValue : parsed.body;
    if (typeof kept === "string" && kept.length <= budget.left) {
      // A copy, for the same reason; a body read ahead came as a string of its own.
      body = ahead ? kept : Buffer.from(kept).toString();
      budget.left -= body.length;
      fields.body = body;
    }
  }
  // The cached fields are the entry's own: nothing changes an entry's fields once read. A schema's `body`
  // field is the one getter of a copy, made with Object.create so that such copies share a hidden class.
  const data: Record<string, unknown> = bodyField ? Object.assign(Object.create(FIELDS_WITH_BODY), fields.data) : fields.data;
  const slug = entrySlug(file);
  const entry = new Entry(context, fields, body, locale, slug, typeof data.translationKey === "string" ? data.translationKey : slug, file, data, size, mtimeMs);
  if (bodyField) BODY_OWNERS.set(data, entry);
  return entry;
}
