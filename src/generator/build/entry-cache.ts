import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CachedEntry } from "../collections.ts";
import type { ImageRef } from "../site-definition.ts";
import { cacheFolder } from "../project.ts";
import { endsWithNewline, lines, writeLines } from "./json-lines.ts";

/**
 * What earlier builds read from the collections' files, kept in the project's cache folder whatever the
 * output folder: each file's checked fields, reading time and images (`entries.ndjson`, read whole), and its
 * body (`entries.bodies`, read an entry at a time, when a page asks for it). A file of the same size and time
 * of change is then neither read nor parsed again, by a build into any folder (a CI job that restores the
 * cache, a build into a new folder), as the content layers of other generators do. The cache is tied to a
 * key (the collections' definitions, the text their references are checked against, sitegen's own code): a
 * change to one of them makes every file read again.
 *
 * Both files only grow between builds, so that a build that changed one entry of thousands writes one
 * entry: a changed entry's body is added at the end of the bodies file, and its fields as one more line of
 * the fields file (a later line stands for the same file over an earlier one, `gone` for a file removed).
 * Each is written afresh once most of it is what no entry names any more. Each body is checked against its
 * hash when read: a body another build's rewrite moved is read from its own file instead.
 */
export interface EntryCache {
  /** Every entry's fields, by file: parsed when first asked for (a quick update asks for a few, see `stamp` and `fields`). */
  readonly entries: Record<string, CachedEntry>;
  /** An entry's hash, size and time of change, read without parsing its fields. */
  stamp(file: string): { hash: string; size: number; mtimeMs: number } | undefined;
  /** One entry's fields, parsed once; undefined if the cache has none for the file (or a line it cannot read: the file is read again). */
  fields(file: string): CachedEntry | undefined;
  /** How many entries the cache holds. */
  readonly count: number;
  /**
   * An entry's body from the bodies file, or undefined when it is not there as it was written. The file is
   * opened at the first body asked for and stays open until `close` (a build reads thousands of bodies).
   */
  body(entry: CachedEntry): string | undefined;
  /** Closes the bodies file, if a body was read; a later body opens it again. */
  close(): void;
  /** The fields file as it was read: a save appends to it only if it is still that file, that long. */
  read: { ino: number; size: number; lines: number };
}

/** The start of an entry's line: its file (as JSON writes it), hash, size and time of change. */
const STAMP = /^\["((?:[^"\\]|\\.)*)","([0-9a-f]+)",(\d+),(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?),/;

/**
 * The entry cache of the project, if it was saved under this key. Each line is kept as it was read, with its
 * file's stamp taken from its start: the fields are parsed only when asked for, all at once by a full build
 * (`entries`), one by one by a quick update, which needs every file's stamp but the fields of a few.
 */
export function loadEntryCache(root: string, key: string): EntryCache | undefined {
  const file = fieldsFile(root);
  if (!existsSync(file)) return undefined;
  const { ino, size } = statSync(file);
  // A cache cut short (a build killed while writing it) only means reading the files again.
  if (!endsWithNewline(file, size)) return undefined;
  const index = new Map<string, { line: string; hash: string; size: number; mtimeMs: number }>();
  let count = 0;
  try {
    for (const line of lines(file)) {
      if (count++ === 0) {
        if ((JSON.parse(line) as { key?: string }).key !== key) return undefined;
        continue;
      }
      const stamp = STAMP.exec(line);
      if (stamp) index.set(stamp[1].includes("\\") ? (JSON.parse(`"${stamp[1]}"`) as string) : stamp[1], { line, hash: stamp[2], size: Number(stamp[3]), mtimeMs: Number(stamp[4]) });
      else index.delete((JSON.parse(line) as { gone: string }).gone);
    }
  } catch {
    return undefined;
  }
  if (count === 0) return undefined;
  const parsed = new Map<string, CachedEntry | undefined>();
  const fields = (name: string) => {
    if (!parsed.has(name)) parsed.set(name, fromLine(index.get(name)?.line));
    return parsed.get(name);
  };
  let all: Record<string, CachedEntry> | undefined;
  return {
    get entries() {
      if (!all) {
        all = {};
        for (const name of index.keys()) {
          const entry = fields(name);
          if (entry) all[name] = entry;
        }
      }
      return all;
    },
    stamp: (name) => index.get(name),
    fields,
    count: index.size,
    ...cachedBodies(root),
    read: { ino, size, lines: count },
  };
}

/** An entry's fields from its line; undefined for a line that cannot be read. */
function fromLine(line: string | undefined): CachedEntry | undefined {
  if (line === undefined) return undefined;
  try {
    const [, hash, size, mtimeMs, data, dataHash, readingMinutes, firstLine, bodyImages, bodyAt] = JSON.parse(line) as EntryLine;
    return { hash, size, mtimeMs, data, dataHash, readingMinutes, firstLine, bodyImages: bodyImages ?? undefined, body: undefined, bodyAt: bodyAt ? { offset: bodyAt[0], length: bodyAt[1], hash: bodyAt[2] } : undefined };
  } catch {
    return undefined;
  }
}

/** An entry cache of entries in memory (as a save leaves it, for the next build in this process). */
function inMemory(root: string, entries: Record<string, CachedEntry>, read: EntryCache["read"], count: number): EntryCache {
  return { entries, stamp: (name) => entries[name], fields: (name) => entries[name], count, ...cachedBodies(root), read };
}

/**
 * One entry's line: its file, then its fields in a fixed order, an array rather than an object, as JSON.parse
 * makes thousands of small arrays much faster than objects of named fields (an incremental build reads every entry's).
 */
type EntryLine = [file: string, hash: string, size: number, mtimeMs: number, data: Record<string, unknown>, dataHash: string, readingMinutes: number, firstLine: number, bodyImages: ImageRef[] | null, bodyAt: [offset: number, length: number, hash: string] | null];

/** The entry's line, without the body held in memory. */
const entryLine = (file: string, e: CachedEntry): EntryLine => [file, e.hash, e.size, e.mtimeMs, e.data, e.dataHash, e.readingMinutes, e.firstLine, e.bodyImages ?? null, e.bodyAt ? [e.bodyAt.offset, e.bodyAt.length, e.bodyAt.hash] : null];

function cachedBodies(root: string): Pick<EntryCache, "body" | "close"> {
  const file = bodiesFile(root);
  let fd: number | undefined;
  return {
    body(entry) {
      if (!entry.bodyAt) return undefined;
      if (fd === undefined) fd = openIfThere(file);
      return fd === undefined ? undefined : readBody(fd, entry.bodyAt);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * Saves the entries of this build: the bodies read from their files this time (`body`, in memory) are added
 * to the bodies file; the fields (EntryLine) of the entries that differ from `before` (the cache this build read, whose
 * unchanged entries it kept as they were) are added to the fields file, or all of them are written afresh,
 * beside its final name and then renamed. Returns the cache as it now is, for a next build in this process.
 */
export function saveEntryCache(root: string, key: string, entries: Record<string, CachedEntry>, before?: EntryCache): EntryCache {
  const file = fieldsFile(root);
  mkdirSync(dirname(file), { recursive: true });
  const bodies = bodiesFile(root);
  const all = Object.values(entries);
  writeBodies(bodies, all);
  // Compacting the bodies moves every body: each entry's fields change, and are written afresh.
  if (!compactIfMostlyGarbage(bodies, all) && before) {
    const appended = appendLines(file, changedLines(entries, before), all.length, before);
    if (appended) return inMemory(root, entries, appended, all.length);
  }
  writeLines(file, wholeCache(key, entries));
  const { ino, size } = statSync(file);
  return inMemory(root, entries, { ino, size, lines: all.length + 1 }, all.length);
}

/**
 * Saves the entries a quick update read again (build/quick-update.ts), the others being `before`'s as they
 * are: their bodies added to the bodies file, their fields appended to the fields file, which is written
 * whole only when appending is not possible (see saveEntryCache).
 */
export function saveEditedEntries(root: string, key: string, edited: Record<string, CachedEntry>, before: EntryCache): void {
  const file = fieldsFile(root);
  writeBodies(bodiesFile(root), Object.values(edited));
  const count = before.count + Object.keys(edited).filter((name) => !before.stamp(name)).length;
  if (appendLines(file, Object.entries(edited).map(([name, entry]) => entryLine(name, entry)), count, before)) return;
  writeLines(file, wholeCache(key, { ...before.entries, ...edited }));
}

/** Adds the bodies held in memory to the bodies file, and notes where each is. */
function writeBodies(bodies: string, entries: CachedEntry[]): void {
  mkdirSync(dirname(bodies), { recursive: true });
  const fd = openSync(bodies, "a");
  try {
    let end = fstatSync(fd).size;
    for (const entry of entries) {
      // A body already in the file (an entry kept in memory by sitegen serve since it was saved) is not added again.
      if (typeof entry.body !== "string" || entry.bodyAt) continue;
      const data = Buffer.from(entry.body);
      writeSync(fd, data);
      entry.bodyAt = { offset: end, length: data.byteLength, hash: bodyHash(data) };
      end += data.byteLength;
    }
  } finally {
    closeSync(fd);
  }
}

/** The fields file's lines, written whole: the key, then each entry's fields without the body held in memory. */
function* wholeCache(key: string, entries: Record<string, CachedEntry>): Generator<unknown> {
  yield { key };
  for (const name in entries) yield entryLine(name, entries[name]);
}

/** The lines that turn what `before` read into `entries`: the fields of each entry that changed, `gone` for each no longer there. */
function changedLines(entries: Record<string, CachedEntry>, before: EntryCache): unknown[] {
  const lines: unknown[] = [];
  for (const name in entries) if (before.entries[name] !== entries[name]) lines.push(entryLine(name, entries[name]));
  for (const name in before.entries) if (!entries[name]) lines.push({ gone: name });
  return lines;
}

/**
 * Adds the lines to the fields file and returns what the file then is; undefined, having written nothing, if
 * the file is no longer the one `before` read (another build rewrote it) or would then be mostly lines that
 * later ones replace (`count`: how many entries it stands for).
 */
function appendLines(file: string, lines: unknown[], count: number, before: EntryCache): EntryCache["read"] | undefined {
  if (before.read.lines + lines.length > 2 * count + 64) return undefined;
  const chunk = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  const fd = openSync(file, "a");
  try {
    const now = fstatSync(fd);
    if (now.ino !== before.read.ino || now.size !== before.read.size) return undefined;
    writeSync(fd, chunk);
    return { ino: now.ino, size: now.size + Buffer.byteLength(chunk), lines: before.read.lines + lines.length };
  } finally {
    closeSync(fd);
  }
}

/** Writes the bodies file afresh, with only the bodies the entries name, once they are under a third of it; whether it did. */
function compactIfMostlyGarbage(bodies: string, entries: CachedEntry[]): boolean {
  const named = entries.filter((e) => e.bodyAt);
  const live = named.reduce((sum, e) => sum + e.bodyAt!.length, 0);
  const fd = openSync(bodies, "r");
  const size = fstatSync(fd).size;
  closeSync(fd);
  if (size <= 3 * live + (1 << 20)) return false;
  const temporary = `${bodies}.${process.pid}.tmp`;
  const out = openSync(temporary, "w");
  const from = openSync(bodies, "r");
  try {
    let end = 0;
    for (const entry of named) {
      const text = readBody(from, entry.bodyAt!);
      if (text === undefined) {
        delete entry.bodyAt;
        continue;
      }
      const data = Buffer.from(text);
      writeSync(out, data);
      entry.bodyAt = { offset: end, length: data.byteLength, hash: entry.bodyAt!.hash };
      end += data.byteLength;
    }
  } catch (error) {
    closeSync(out);
    closeSync(from);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(out);
  closeSync(from);
  renameSync(temporary, bodies);
  return true;
}

function openIfThere(file: string): number | undefined {
  try {
    return openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function readBody(fd: number, at: NonNullable<CachedEntry["bodyAt"]>): string | undefined {
  const data = Buffer.allocUnsafe(at.length);
  if (readSync(fd, data, 0, at.length, at.offset) !== at.length || bodyHash(data) !== at.hash) return undefined;
  return data.toString("utf8");
}

const bodyHash = (data: Uint8Array) => createHash("sha1").update(data).digest("hex").slice(0, 16);

function fieldsFile(root: string): string {
  return join(cacheFolder(root), "entries.ndjson");
}

function bodiesFile(root: string): string {
  return join(cacheFolder(root), "entries.bodies");
}
