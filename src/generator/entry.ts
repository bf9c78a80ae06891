import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { IMAGE_PLACEHOLDER, type MarkdownEnv } from "./markdown.ts";
import type { CollectionDefinition, CollectionEntry, ImageRef } from "./site-definition.ts";
import type { CollectionsInput } from "./pipeline/collections.ts";
import { parseEntry } from "./pipeline/entry-file.ts";
import type { BodyPlace } from "./entry-bodies.ts";

/**
 * A collection's entry as pages see it (CollectionEntry), and what a build keeps of its file for the next one
 * (EntryRecord). The collections stage (pipeline/collections.ts) reads the files and makes the entries.
 */

/** What a build keeps of an entry file for the next build: its checked fields, reading time and images. */
export interface EntryRecord {
  /** The hash of the file's text, its size and time of change. */
  hash: string;
  size: number;
  mtimeMs: number;
  data: Record<string, unknown>;
  /** The hash of `data`, which pages' plans are compared by. */
  dataHash: string;
  readingMinutes: number;
  /** The Markdown body's first line in the file, and the images it refers to (for the image stage). */
  firstLine: number;
  bodyImages?: ImageRef[];
}

/** What the entries of one collection and locale share in a build. */
export interface EntryContext {
  input: CollectionsInput;
  definition: CollectionDefinition;
  render: (md: string, env?: MarkdownEnv) => string;
}

/**
 * An entry, as pages see it. Its `html` is a getter, rendered each time it is asked for, so that a build of
 * many thousand entries never holds every rendered body at once; what hashes or copies an entry's fields
 * leaves it out, with the record and the body, which are private.
 */
export class Entry implements CollectionEntry {
  image?: string = undefined;
  ogImage?: CollectionEntry["ogImage"] = undefined;
  images?: CollectionEntry["images"] = undefined;
  bodyPictures?: string[] = undefined;
  path?: string = undefined;
  readonly collection: string;
  readonly slug: string;
  readonly key: string;
  data: Record<string, unknown>;
  readonly readingMinutes: number;
  readonly bodyImages: ImageRef[] | undefined;
  readonly #record: EntryRecord;
  /** Where the build's bodies file holds the body, if this build read the entry's file. */
  readonly #body: BodyPlace | undefined;
  readonly #context: EntryContext;
  /** The shared fields this translation inherits from its default locale's file (shared-fields.ts). */
  #inherited: Record<string, unknown> | undefined;

  constructor(
    context: EntryContext,
    record: EntryRecord,
    body: BodyPlace | undefined,
    readonly locale: string,
    readonly file: string,
  ) {
    this.#context = context;
    this.#record = record;
    this.#body = body;
    this.collection = context.definition.name;
    this.slug = entrySlug(file);
    this.key = typeof record.data.translationKey === "string" ? record.data.translationKey : this.slug;
    this.readingMinutes = record.readingMinutes;
    this.bodyImages = record.bodyImages;
    this.data = this.fields(record.data);
  }

  /** The fields as pages see them: a schema's `body` field is read when asked for, as the Markdown body is. */
  private fields(data: Record<string, unknown>): Record<string, unknown> {
    return "body" in this.#context.definition.schema
      ? (new FieldsWithBody(this, data) as FieldsWithBody & typeof data)
      : data;
  }

  /** Gives the entry the shared fields it inherits: its own fields over them. */
  inherit(values: Record<string, unknown>): void {
    this.#inherited = values;
    this.data = this.fields({ ...values, ...this.#record.data });
  }

  get html(): string {
    if ("body" in this.#context.definition.schema) return "";
    const markdown = this.bodyText();
    if (!markdown) return "";
    const pictures = this.bodyPictures;
    if (!pictures) return this.#context.render(markdown);
    const html = this.#context.render(markdown, { images: [], firstLine: this.#record.firstLine });
    return html.replace(IMAGE_PLACEHOLDER, (_, i: string) => pictures[Number(i)] ?? "");
  }

  /** The body text: from the build's bodies file, or from the entry's file again. */
  bodyText(): string {
    const { input, definition } = this.#context;
    input.onBodyRead?.(this.file);
    if (this.#body && input.bodies) return input.bodies.read(this.#body);
    const parsed = parseEntry(this.file, readFileSync(`${input.root}/${this.file}`, "utf8"), definition, true);
    return "body" in definition.schema ? String(parsed.front.body ?? "") : parsed.body;
  }

  static recordOf(entry: Entry): EntryRecord {
    return entry.#record;
  }

  static inheritedOf(entry: Entry): Record<string, unknown> | undefined {
    return entry.#inherited;
  }
}

/**
 * An entry's fields when its schema names `body`: the body is a getter they all share, so that every entry's
 * fields have one shape, and what copies or hashes the fields leaves the body out.
 */
class FieldsWithBody {
  readonly #entry: Entry;

  constructor(entry: Entry, fields: Record<string, unknown>) {
    this.#entry = entry;
    Object.assign(this, fields);
  }

  get body(): string {
    return this.#entry.bodyText();
  }
}

/** What the next build may reuse of an entry's file. */
export function entryRecord(entry: CollectionEntry | undefined): EntryRecord | undefined {
  return entry instanceof Entry ? Entry.recordOf(entry) : undefined;
}

/** The shared fields an entry inherited from its default locale's file: part of its plan in incremental builds. */
export function inheritedFields(entry: CollectionEntry): Record<string, unknown> | undefined {
  return entry instanceof Entry ? Entry.inheritedOf(entry) : undefined;
}

/** An entry's slug: its file's name without the extension. */
const entrySlug = (file: string) => basename(file).replace(/\.(md|ya?ml)$/, "");
