import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CollectionEntry, Route } from "../site-definition.ts";
import { cachedEntry, entriesByFile, type Collections } from "../collections.ts";
import { cacheFolder } from "../project.ts";
import type { PlannedPage } from "./plan-pages.ts";

/** What a build remembers of each page it wrote, to keep the page in the next build if nothing it read changed. */
export interface PageRecord {
  file: string;
  locale: string;
  label: string;
  /** The hash of the page's plan (pageInput). */
  input: string;
  /**
   * Each thing the page read beyond its plan (ReadLog's names), with its digest at the time. Pairs, not an
   * object keyed by name: every page reads names of its own, and V8 gives each object of new names a hidden
   * class of its own, which at thousands of pages cost more memory than the reads themselves.
   */
  reads: [string, string][];
  missing: string[];
  /** The page's HTML, in bytes. */
  bytes: number;
  /** Every file written for it (the page, its compressed twins) and their bytes. */
  files: number;
  written: number;
}

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
  entries?: Record<string, [string, string]>;
}

const hash = (value: unknown) => createHash("sha1").update(typeof value === "string" ? value : JSON.stringify(value)).digest("hex");

/**
 * The hash of what every page depends on: sitegen's own code, the site's compiled pages, islands and
 * stylesheet, site.yaml, every text key, the collections' definitions, the dependencies' versions (the
 * lock file) and the build's options. Any change to one of them makes a cold build.
 */
export function buildKey(root: string, parts: Record<string, unknown>): string {
  return hash({ ...codeAndLock(root), ...parts });
}

/** sitegen's code and the project's lock file, hashed once per process and lock file (a build asks for several keys). */
const codeAndLocks = new Map<string, { stamp: string; value: { code: string; lock: string } }>();
function codeAndLock(root: string): { code: string; lock: string } {
  const lock = join(root, "package-lock.json");
  const stamp = existsSync(lock) ? `${statSync(lock).mtimeMs} ${statSync(lock).size}` : "";
  const known = codeAndLocks.get(root);
  if (known?.stamp === stamp) return known.value;
  const value = { code: hash(readFileSync(fileURLToPath(import.meta.url))), lock: stamp ? hash(readFileSync(lock)) : "" };
  codeAndLocks.set(root, { stamp, value });
  return value;
}

function manifestFile(root: string, outDir: string): string {
  return join(cacheFolder(root), "builds", `${hash(resolve(outDir)).slice(0, 16)}.ndjson`);
}

/**
 * The manifest of the previous build into outDir, if it was made with the same key and its output is there.
 * It is a file of JSON lines (the key, then one page a line), read and written a piece at a time: at tens of
 * thousands of pages it is never in memory as one string. (What was read from the collections' files is
 * kept apart, whatever the output folder: entry-cache.ts.)
 */
export function loadManifest(root: string, outDir: string, key: string): BuildManifest | undefined {
  const file = manifestFile(root, outDir);
  if (!existsSync(file) || !existsSync(outDir)) return undefined;
  const manifest: BuildManifest = { key, pages: {}, files: [] };
  try {
    let first = true;
    for (const line of lines(file)) {
      const item = JSON.parse(line) as { key?: string; routes?: string; page?: PageRecord; files?: string[]; entries?: [string, string, string][] };
      if (first && item.key !== key) return undefined;
      if (first) manifest.routes = item.routes;
      first = false;
      if (item.page) manifest.pages[item.page.file] = item.page;
      if (item.files) manifest.files.push(...item.files);
      if (item.entries) for (const [file, hash, group] of item.entries) (manifest.entries ??= {})[file] = [hash, group];
    }
    return first ? undefined : manifest;
  } catch {
    // A manifest cut short (a build killed while writing it) only means a cold build.
    return undefined;
  }
}

/** Forgotten before the new output is swapped in: a build stopped between the swap and saveManifest then starts cold. */
export function forgetManifest(root: string, outDir: string): void {
  rmSync(manifestFile(root, outDir), { force: true });
}

export function saveManifest(root: string, outDir: string, manifest: BuildManifest): void {
  const file = manifestFile(root, outDir);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    let chunk = "";
    const put = (item: unknown) => {
      chunk += `${JSON.stringify(item)}\n`;
      if (chunk.length > 1 << 20) flush();
    };
    const flush = () => {
      writeSync(fd, chunk);
      chunk = "";
    };
    put({ key: manifest.key, routes: manifest.routes });
    for (const page of Object.values(manifest.pages)) put({ page });
    for (let i = 0; i < manifest.files.length; i += 1000) put({ files: manifest.files.slice(i, i + 1000) });
    const entries = Object.entries(manifest.entries ?? {}).map(([file, [hash, group]]) => [file, hash, group]);
    for (let i = 0; i < entries.length; i += 1000) put({ entries: entries.slice(i, i + 1000) });
    flush();
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/** The lines of a file, read a block at a time. */
export function* lines(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    const block = Buffer.alloc(1 << 20);
    let rest = Buffer.alloc(0);
    let read: number;
    while ((read = readSync(fd, block, 0, block.length, null)) > 0) {
      let data = Buffer.concat([rest, block.subarray(0, read)]);
      let end: number;
      while ((end = data.indexOf(10)) >= 0) {
        yield data.toString("utf8", 0, end);
        data = data.subarray(end + 1);
      }
      rest = Buffer.from(data);
    }
    if (rest.length) yield rest.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * An entry as pages see it, without its body (whose reads are noted on their own, as `body:<file>`): its
 * fields by the hash made when its file was read, as thousands of pages' plans are compared on every build.
 */
function entryFields(e: CollectionEntry) {
  return { collection: e.collection, locale: e.locale, slug: e.slug, key: e.key, file: e.file, data: cachedEntry(e)?.dataHash ?? e.data, readingMinutes: e.readingMinutes, image: e.image, path: e.path };
}

/**
 * The digests of what pages read, for one build: a page's plan (its address, route, entry, listing), and
 * each thing it read while rendering: `collection:<name>:<locale>` (every entry's fields, in order),
 * `body:<file>` (an entry's text), `route:<id>` (a route's addresses), `routes` (all of them).
 */
export class PageInputs {
  private readonly digests = new Map<string, string>();
  private readonly inputs = new Map<PlannedPage, string>();
  private readonly byId: Map<string, Route>;
  private readonly byFile: Map<string, CollectionEntry>;

  /** `known`: a page's plan hash from the previous build, when its plan cannot have changed (build-memory.ts' knownPlans). */
  constructor(
    private readonly routes: Route[],
    private readonly collections: Collections,
    private readonly known?: (page: PlannedPage) => string | undefined,
  ) {
    this.byId = new Map(routes.map((r) => [r.id, r]));
    this.byFile = entriesByFile(collections);
  }

  /** The hash of everything the plan says about a page. */
  pageInput(page: PlannedPage): string {
    let input = this.inputs.get(page);
    if (input === undefined) {
      input = this.known?.(page) ?? this.planHash(page);
      this.inputs.set(page, input);
    }
    return input;
  }

  private planHash(page: PlannedPage): string {
    const { kind, path, locale, file, label, meta, props, route, entry, listing } = page;
    return hash({
      kind, path, locale, file, label, meta, props,
      component: page.component.name,
      route,
      entry: entry && entryFields(entry),
      listing: listing && { page: listing.page, pages: listing.pages, basePath: listing.basePath, entries: listing.entries.map(entryFields) },
    });
  }

  digest(read: string): string {
    let digest = this.digests.get(read);
    if (digest === undefined) {
      digest = this.compute(read);
      this.digests.set(read, digest);
    }
    return digest;
  }

  private compute(read: string): string {
    const [kind, ...rest] = read.split(":");
    const name = rest.join(":");
    if (kind === "routes") return hash(this.routes);
    if (kind === "route") return hash(this.byId.get(name) ?? "gone");
    if (kind === "body") return this.byFile.get(name)?.hash ?? "gone";
    if (kind === "collection") {
      const locale = rest.pop()!;
      return hash((this.collections[rest.join(":")]?.[locale] ?? []).map(entryFields));
    }
    return "unknown";
  }
}

/**
 * Which pages the previous output can keep: those whose plan and every read are as they were, and whose
 * files are still there (`present`: the output folder's files). All others are rendered.
 */
export function selectPages(pages: PlannedPage[], previous: BuildManifest | undefined, inputs: PageInputs, present: ReadonlySet<string>, twins: string[]): { render: PlannedPage[]; keep: PageRecord[] } {
  if (!previous) return { render: pages, keep: [] };
  const render: PlannedPage[] = [];
  const keep: PageRecord[] = [];
  for (const page of pages) {
    const record = previous.pages[page.file];
    const same =
      record !== undefined &&
      record.input === inputs.pageInput(page) &&
      record.reads.every(([read, digest]) => inputs.digest(read) === digest) &&
      [page.file, ...twins.map((t) => page.file + t)].every((file) => present.has(file));
    if (same) keep.push(record);
    else render.push(page);
  }
  return { render, keep };
}
