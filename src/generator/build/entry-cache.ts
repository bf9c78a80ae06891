import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CachedEntry } from "../collections.ts";
import { cacheFolder } from "../project.ts";
import { lines } from "./incremental.ts";

/**
 * What earlier builds read from the collections' files, kept in the project's cache folder whatever the
 * output folder: each file's checked fields, reading time, images and body, by file, with its size and time of
 * change. A file that is as it was is then neither read nor parsed again, by a build into any folder (a
 * fresh checkout's first build, a CI job that restores the cache, a build into a new folder), as content
 * layers of other generators do. The cache is tied to a key (the collections' definitions, the text their
 * references are checked against, sitegen's own code): a change to one of them makes every file read again.
 */
export function loadEntryCache(root: string, key: string): Record<string, CachedEntry> | undefined {
  const file = cacheFile(root);
  if (!existsSync(file)) return undefined;
  const entries: Record<string, CachedEntry> = {};
  try {
    let first = true;
    for (const line of lines(file)) {
      const item = JSON.parse(line) as { key?: string; entry?: [string, CachedEntry] };
      if (first && item.key !== key) return undefined;
      first = false;
      if (item.entry) entries[item.entry[0]] = item.entry[1];
    }
    return first ? undefined : entries;
  } catch {
    // A cache cut short (a build killed while writing it) only means reading the files again.
    return undefined;
  }
}

/** Written a line at a time beside its final name, then renamed: another build may be reading it. */
export function saveEntryCache(root: string, key: string, entries: Record<string, CachedEntry>): void {
  const file = cacheFile(root);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    let chunk = `${JSON.stringify({ key })}\n`;
    for (const entry of Object.entries(entries)) {
      chunk += `${JSON.stringify({ entry })}\n`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

function cacheFile(root: string): string {
  return join(cacheFolder(root), "entries.ndjson");
}
