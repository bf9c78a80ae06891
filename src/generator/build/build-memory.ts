import { relative, resolve, sep } from "node:path";
import { allEntries, type CachedEntry, type Collections, type EntryHooks } from "../collections.ts";
import type { CollectionEntry } from "../site-definition.ts";
import { saveManifest, type BuildManifest } from "./manifest.ts";
import { saveEntryCache, type EntryCache } from "./entry-cache.ts";
import type { PlannedPage } from "./plan-pages.ts";

/**
 * What a build leaves to the next one in the same process (`sitegen serve`), so that the next need not read
 * again what it already holds: the manifest of the output, the entries read from the collections' files,
 * the output folder's files and the source images. Each part stands only under the key it was made with;
 * a build that finds another key reads that part from disk, as a build in a new process does.
 *
 * It trusts two things a server that writes its own output can vouch for: nothing else writes or removes
 * files in the output folder, and the watcher reports every file saved under the project (`changed`).
 */
export interface BuildMemory {
  outDir: string;
  /** The manifest's key (buildKey) and the manifest as saved. */
  key: string;
  manifest: BuildManifest;
  /**
   * The entry cache's key; the cache as last saved, which the next save appends to; and what this build read
   * of each file (bodies kept in memory included), which the next build takes instead of reading it again.
   */
  entriesKey: string;
  entryCache: EntryCache | undefined;
  fields: Record<string, CachedEntry>;
  /** Every file of the output folder, by its path relative to it. */
  output: Set<string>;
  /** The source images by size and time of change (images.ts' sourceImages). */
  images: [string, number, number][];
  /** The entries of the collections by file, and the hooks they call (collections.ts' `previous` and `hooks`). */
  entries: Map<string, CollectionEntry>;
  hooks: EntryHooks;
  /** Saves the manifest and the entry cache, when the build left that for later (BuildOptions.saveLater). */
  save?: () => void;
}

/**
 * The memory a build leaves to the next one in the process, with what saves it: now, or later (`saveLater`,
 * sitegen serve's rebuilds, which save once the developer pauses). Whatever the build before it left unsaved,
 * its save covers: every page and entry that differs from the manifest's file and the entry cache as last
 * saved (which the memory still names). `before` is that build's memory, whose save is then dropped.
 */
export function rememberBuild(root: string, parts: Omit<BuildMemory, "save">, before: BuildMemory | undefined, saveLater: boolean): BuildMemory {
  const memory: BuildMemory = { ...parts };
  // The manifest and the entry cache, for the next build in another process.
  const save = () => {
    memory.save = undefined;
    saveManifest(root, memory.outDir, memory.manifest);
    if (changedEntries(memory.entryCache?.entries, memory.fields)) memory.entryCache = saveEntryCache(root, memory.entriesKey, memory.fields, memory.entryCache);
  };
  if (before) before.save = undefined;
  if (saveLater) memory.save = save;
  else save();
  return memory;
}

/** Whether the entries read differ from those the cache held (a file read again, added or gone). */
function changedEntries(before: Record<string, CachedEntry> | undefined, after: Record<string, CachedEntry>): boolean {
  if (!before) return true;
  const files = Object.keys(after);
  return files.length !== Object.keys(before).length || files.some((file) => before[file] !== after[file]);
}

/** Each entry by file: the hash of its file's text, and its group (its collection and translation key). */
export function entryStamps(collections: Collections): Record<string, [string, string]> {
  const stamps: Record<string, [string, string]> = {};
  for (const e of allEntries(collections)) stamps[e.file] = [e.hash, entryGroup(e)];
  return stamps;
}

/** An entry's collection and translation key: its page shares a route with the other entries of that group. */
const entryGroup = (e: { collection: string; key: string }) => `${e.collection}\u0000${e.key}`;

/**
 * The plan hash an entry's page had in the previous build, when its plan cannot have changed. Under the same
 * build key (the site's definition, text and options), the plan of an entry's page is made from the entries
 * of its group alone (its translations: their addresses and dates make its route), and an entry from its
 * file's text. So a page is known when no entry of its group changed its text, came or went; every other
 * page is hashed as in any build.
 */
export function knownPlans(previous: BuildManifest, now: Record<string, [string, string]>): (page: PlannedPage) => string | undefined {
  const before = previous.entries;
  const changedGroups = new Set<string>();
  // Loops over the keys, not Object.entries: thousands of entries would each make a pair to throw away.
  for (const file in now) {
    const [hash, group] = now[file];
    const old = before[file];
    if (old?.[0] === hash && old[1] === group) continue;
    changedGroups.add(group);
    if (old) changedGroups.add(old[1]);
  }
  for (const file in before) if (!(file in now)) changedGroups.add(before[file][1]);
  return (page) => (page.entry && !changedGroups.has(now[page.entry.file][1]) ? previous.pages[page.file]?.input : undefined);
}

/** Files the watcher saw created, written, renamed or removed since the last build. */
export class ChangedPaths {
  /** Each path reported, relative to the project, with "/" between its parts. */
  private readonly paths: Set<string>;

  constructor(root: string, paths: Iterable<string>) {
    const base = resolve(root);
    this.paths = new Set([...paths].map((path) => relative(base, resolve(path)).split(sep).join("/")));
  }

  /** Whether the file (relative to the project, as "content/en/insights/a.md") may have changed: it, or a folder that holds it, was reported. */
  touches(file: string): boolean {
    if (this.paths.size === 0) return false;
    for (let path = file; ; path = path.slice(0, path.lastIndexOf("/"))) {
      if (this.paths.has(path)) return true;
      if (!path.includes("/")) return false;
    }
  }

  /** Every path reported, relative to the project. */
  all(): string[] {
    return [...this.paths];
  }

  /** Whether every path reported is a file whose name ends as `pattern` says (a removed folder's does not). */
  onlyFiles(pattern: RegExp): boolean {
    return [...this.paths].every((path) => pattern.test(path));
  }
}
