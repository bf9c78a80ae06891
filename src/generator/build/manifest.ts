import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { createHash } from "node:crypto";
import { cacheFolder } from "../project.ts";
import { endsWithNewline, lines, writeLines } from "./json-lines.ts";
import type { PageRecord } from "./incremental.ts";
import { pageLine, PageLines, type PageLine } from "./page-lines.ts";

/** The manifest of one output folder: kept between builds in the project's cache folder (never in git). */
export interface BuildManifest {
  /** Everything that every page depends on (buildKey): when it changes, the build starts cold. */
  key: string;
  /** The digest of the routes (PageInputs' `routes`): the same routes under the same key make the same sitemap. */
  routes?: string;
  pages: Record<string, PageRecord>;
  /** Every file the build left in the output folder. */
  files: string[];
  /** Each entry the pages showed, by file: its text's hash and its group (build-memory.ts' entryStamps). */
  entries: Record<string, [string, string]>;
  /** How many files the output folder holds, and their bytes (what the build's summary reports). */
  totals?: [files: number, bytes: number];
  /** The files of public/ by name, size and time of change, hashed (quick-update.ts' publicStamp). */
  publicFiles?: string;
  /** The pages' lines as read from the file (for a manifest loaded from it): `pages` parses them all when first asked for. */
  pageLines?: PageLines;
  /** The manifest's file as this process last read or wrote it (a next build's manifest takes it over). */
  disk?: ManifestOnDisk;
}

/**
 * What the manifest's file holds, as read or written: a save appends what differs, if it is still that file.
 * Its pages, files and entries are those of the manifest read or saved, which no build changes afterwards
 * (each build makes its own).
 */
interface ManifestOnDisk extends Omit<BuildManifest, "disk"> {
  ino: number;
  size: number;
  lines: number;
}

/**
 * One line of the manifest's file. The file is the key's line, then lines that each add to or replace what
 * the lines before them said: a page's record (PageLine; a later one replaces an earlier one of the same file), a
 * page gone, output files added or gone, entries' stamps set or gone, the routes' digest, the output's totals, public/'s stamp. A build that
 * changed a few pages of thousands appends a few lines instead of writing the file again (its saving, and
 * the JSON of every record, were a good part of an incremental build). `swap` is appended before a build
 * swaps its output in and `swapped` after its lines: a file that ends between the two describes an output
 * that is no longer there, and counts as no manifest (a cold build).
 */
type Line =
  | { key: string; routes?: string }
  | { routes: string }
  | { totals: [number, number] }
  | { publicFiles: string }
  | PageLine
  | { gone: string }
  | { files: string[] }
  | { filesGone: string[] }
  | { entries: [string, string, string][] }
  | { entriesGone: string[] }
  | { swap: true }
  | { swapped: true };

/** How many files or entries one line of the manifest names. */
const PER_LINE = 1000;

function manifestFile(root: string, outDir: string): string {
  return join(cacheFolder(root), "builds", `${createHash("sha1").update(resolve(outDir)).digest("hex").slice(0, 16)}.ndjson`);
}

/**
 * The manifest of the previous build into outDir, if it was made with the same key and its output is there.
 * It is read a block at a time: at tens of thousands of pages it is never in memory as one string. (What was
 * read from the collections' files is kept apart, whatever the output folder: entry-cache.ts.)
 */
export function loadManifest(root: string, outDir: string, key: string): BuildManifest | undefined {
  const file = manifestFile(root, outDir);
  if (!existsSync(file) || !existsSync(outDir)) return undefined;
  const { ino, size } = statSync(file);
  if (!endsWithNewline(file, size)) return undefined;
  const pages = new PageLines();
  const files = new Set<string>();
  const entries: Record<string, [string, string]> = {};
  let routes: string | undefined;
  let totals: [number, number] | undefined;
  let publicFiles: string | undefined;
  let count = 0;
  let swapping = false;
  try {
    for (const text of lines(file)) {
      // A page's line is kept as it is, parsed when asked for (page-lines.ts); the others are parsed now.
      if (count++ > 0 && text.startsWith("[")) {
        pages.add(text);
        continue;
      }
      const line = JSON.parse(text) as Partial<Record<string, unknown>>;
      if (count === 1) {
        if (line.key !== key) return undefined;
        routes = line.routes as string | undefined;
      } else if ("gone" in line) pages.delete(line.gone as string);
      else if ("files" in line) for (const name of line.files as string[]) files.add(name);
      else if ("filesGone" in line) for (const name of line.filesGone as string[]) files.delete(name);
      else if ("entries" in line) for (const [name, hash, group] of line.entries as [string, string, string][]) entries[name] = [hash, group];
      else if ("entriesGone" in line) for (const name of line.entriesGone as string[]) delete entries[name];
      else if ("routes" in line) routes = line.routes as string;
      else if ("totals" in line) totals = line.totals as [number, number];
      else if ("publicFiles" in line) publicFiles = line.publicFiles as string;
      else if ("swap" in line) swapping = true;
      else if ("swapped" in line) swapping = false;
    }
  } catch {
    // A manifest cut short (a build killed while writing it) only means a cold build.
    return undefined;
  }
  if (count === 0 || swapping) return undefined;
  const manifest: BuildManifest = {
    key,
    routes,
    get pages() {
      return pages.records();
    },
    files: [...files],
    entries,
    totals,
    publicFiles,
    pageLines: pages,
  };
  manifest.disk = onDisk(manifest, ino, size, count);
  return manifest;
}

/**
 * Called before a build swaps its output in: marks the manifest's file as describing an output that is
 * about to change, so that a build stopped between the swap and saveManifest leaves a next build cold.
 * Appended to the file `previous` read, or the file is removed when it is another.
 */
export function markSwap(root: string, outDir: string, previous: BuildManifest | undefined): void {
  const file = manifestFile(root, outDir);
  const disk = previous?.disk;
  if (disk && sameFile(file, disk)) {
    disk.size += append(file, `${JSON.stringify({ swap: true })}\n`);
    disk.lines++;
  } else rmSync(file, { force: true });
}

/**
 * Saves the manifest: the lines that differ from what its file holds are appended to it, when it is still
 * the file the previous build read or wrote and would not then be mostly lines that later ones replace;
 * else the whole manifest is written beside it and renamed over it.
 */
export function saveManifest(root: string, outDir: string, manifest: BuildManifest): void {
  const file = manifestFile(root, outDir);
  const disk = manifest.disk;
  if (disk && disk.key === manifest.key && sameFile(file, disk)) {
    const changes = differences(disk, manifest);
    if (disk.lines + changes.length + 1 <= 2 * wholeLines(manifest)) {
      const text = [...changes, { swapped: true }].map((line) => `${JSON.stringify(line)}\n`).join("");
      manifest.disk = onDisk(manifest, disk.ino, disk.size + append(file, text), disk.lines + changes.length + 1);
      return;
    }
  }
  writeWhole(file, manifest);
  const { ino, size } = statSync(file);
  manifest.disk = onDisk(manifest, ino, size, wholeLines(manifest));
}

/**
 * Saves a quick update's changes (quick-update.ts): its pages' records, its entries' stamps and the totals are
 * appended to the file `previous` was read from, when it still is that file and would not then be mostly
 * lines that later ones replace; else the whole manifest, `previous` with the changes, is written afresh.
 * Nothing else differs from `previous`, so the other pages and entries are not looked at.
 */
export function saveManifestChanges(root: string, outDir: string, previous: BuildManifest, pages: PageRecord[], entries: Record<string, [string, string]>, totals: [number, number]): void {
  const file = manifestFile(root, outDir);
  const disk = previous.disk;
  const changes: Line[] = pages.map(pageLine);
  const stamps = Object.entries(entries).map(([name, [hash, group]]) => [name, hash, group] as [string, string, string]);
  if (stamps.length) changes.push({ entries: stamps });
  if (String(totals) !== String(previous.totals)) changes.push({ totals });
  if (disk && disk.key === previous.key && sameFile(file, disk) && disk.lines + changes.length + 1 <= 2 * wholeLines(previous)) {
    append(file, [...changes, { swapped: true }].map((line) => `${JSON.stringify(line)}\n`).join(""));
    return;
  }
  const whole: BuildManifest = { ...previous, pages: { ...previous.pages }, entries: { ...previous.entries, ...entries }, totals, pageLines: undefined };
  for (const page of pages) whole.pages[page.file] = page;
  writeWhole(file, whole);
}

/** How many lines the manifest takes when written whole. */
function wholeLines(manifest: BuildManifest): number {
  return 1 + (manifest.totals ? 1 : 0) + (manifest.publicFiles !== undefined ? 1 : 0) + (manifest.pageLines?.size ?? Object.keys(manifest.pages).length) + Math.ceil(manifest.files.length / PER_LINE) + Math.ceil(Object.keys(manifest.entries).length / PER_LINE);
}

/** The lines that turn what the file holds into the manifest. */
function differences(disk: ManifestOnDisk, manifest: BuildManifest): Line[] {
  const changes: Line[] = [];
  if (manifest.routes !== undefined && manifest.routes !== disk.routes) changes.push({ routes: manifest.routes });
  if (manifest.totals && String(manifest.totals) !== String(disk.totals)) changes.push({ totals: manifest.totals });
  if (manifest.publicFiles !== undefined && manifest.publicFiles !== disk.publicFiles) changes.push({ publicFiles: manifest.publicFiles });
  for (const file in manifest.pages) if (disk.pages[file] !== manifest.pages[file]) changes.push(pageLine(manifest.pages[file]));
  for (const file in disk.pages) if (!(file in manifest.pages)) changes.push({ gone: file });
  const before = new Set(disk.files);
  const added = manifest.files.filter((file) => !before.has(file));
  // Every file that was there and still is leaves none gone (the usual case, with no second set to make).
  const files = manifest.files.length - added.length === disk.files.length ? undefined : new Set(manifest.files);
  const gone = files ? disk.files.filter((file) => !files.has(file)) : [];
  for (let i = 0; i < added.length; i += PER_LINE) changes.push({ files: added.slice(i, i + PER_LINE) });
  for (let i = 0; i < gone.length; i += PER_LINE) changes.push({ filesGone: gone.slice(i, i + PER_LINE) });
  const stamps: [string, string, string][] = [];
  for (const file in manifest.entries) {
    const [hash, group] = manifest.entries[file];
    const old = disk.entries[file];
    if (old?.[0] !== hash || old[1] !== group) stamps.push([file, hash, group]);
  }
  for (let i = 0; i < stamps.length; i += PER_LINE) changes.push({ entries: stamps.slice(i, i + PER_LINE) });
  const entriesGone: string[] = [];
  for (const file in disk.entries) if (!(file in manifest.entries)) entriesGone.push(file);
  for (let i = 0; i < entriesGone.length; i += PER_LINE) changes.push({ entriesGone: entriesGone.slice(i, i + PER_LINE) });
  return changes;
}

function onDisk(manifest: BuildManifest, ino: number, size: number, lines: number): ManifestOnDisk {
  return {
    key: manifest.key,
    routes: manifest.routes,
    // The manifest's own pages, parsed only if a save compares them (a manifest loaded from the file parses its pages when first asked).
    get pages() {
      return manifest.pages;
    },
    files: manifest.files,
    entries: manifest.entries,
    totals: manifest.totals,
    publicFiles: manifest.publicFiles,
    ino,
    size,
    lines,
  };
}

function writeWhole(file: string, manifest: BuildManifest): void {
  writeLines(file, wholeManifest(manifest));
}

function* wholeManifest(manifest: BuildManifest): Generator<Line> {
  yield { key: manifest.key, routes: manifest.routes };
  if (manifest.totals) yield { totals: manifest.totals };
  if (manifest.publicFiles !== undefined) yield { publicFiles: manifest.publicFiles };
  for (const page of Object.values(manifest.pages)) yield pageLine(page);
  for (let i = 0; i < manifest.files.length; i += PER_LINE) yield { files: manifest.files.slice(i, i + PER_LINE) };
  const entries = Object.entries(manifest.entries).map(([file, [hash, group]]) => [file, hash, group] as [string, string, string]);
  for (let i = 0; i < entries.length; i += PER_LINE) yield { entries: entries.slice(i, i + PER_LINE) };
}

/** Whether the file is still the one described (no other build rewrote it or added to it since). */
function sameFile(file: string, disk: ManifestOnDisk): boolean {
  const now = statSync(file, { throwIfNoEntry: false });
  return now !== undefined && now.ino === disk.ino && now.size === disk.size;
}

/** Appends text to the file; returns how many bytes were added. */
function append(file: string, text: string): number {
  const fd = openSync(file, "a");
  try {
    const data = Buffer.from(text);
    writeSync(fd, data);
    return data.byteLength;
  } finally {
    closeSync(fd);
  }
}
