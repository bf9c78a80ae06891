import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CollectionEntry, Route } from "../site-definition.ts";
import { cachedEntry, type Collections } from "../collections.ts";
import type { PlannedPage } from "./plan-pages.ts";
import type { BuildManifest } from "./manifest.ts";

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

// A file's bytes are hashed as they are: as JSON, a Buffer would be a list of its numbers, hundreds of thousands long for sitegen's code.
const hash = (value: unknown) => createHash("sha1").update(typeof value === "string" || value instanceof Uint8Array ? value : JSON.stringify(value)).digest("hex");

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

/**
 * An entry as pages see it, without its body (whose reads are noted on their own, as `body:<file>`): its
 * fields by the hash made when its file was read, as thousands of pages' plans are compared on every build.
 */
function entryFields(e: CollectionEntry) {
  return { collection: e.collection, locale: e.locale, slug: e.slug, key: e.key, file: e.file, data: cachedEntry(e)?.dataHash ?? e.data, readingMinutes: e.readingMinutes, image: e.image, path: e.path };
}

/**
 * A collection's digest: what entryFields holds of each entry, in order. Written out rather than as JSON:
 * every page of an entry reads its collection, thousands of entries long, and a rebuild in sitegen serve or
 * a quick update digests it again each time. Each field goes with its length, so that no text a front
 * matter or a file name holds can pass for another field.
 */
function collectionDigest(entries: CollectionEntry[]): string {
  let text = "";
  for (const e of entries) {
    const data = cachedEntry(e)?.dataHash ?? JSON.stringify(e.data);
    text += `${sized(e.file)}${sized(e.slug)}${sized(e.key)}${sized(data)}${e.readingMinutes};${sized(e.image ?? "")}${sized(e.path ?? "")}`;
  }
  return hash(text);
}

const sized = (text: string) => `${text.length}:${text}`;

/**
 * The digests of what pages read, for one build: a page's plan (its address, route, entry, listing), and
 * each thing it read while rendering: `collection:<name>:<locale>` (every entry's fields, in order),
 * `body:<file>` (an entry's text), `route:<id>` (a route's addresses), `routes` (all of them).
 */
export class PageInputs {
  private readonly digests = new Map<string, string>();
  private readonly inputs = new Map<PlannedPage, string>();
  private readonly byId: Map<string, Route>;

  /**
   * `byFile`: the collections' entries by file (entriesByFile). `known`: a page's plan hash from the previous
   * build, when its plan cannot have changed (build-memory.ts' knownPlans). `before`: what the previous
   * build's manifest says of the plans (previousPlans), for the listings' pages.
   */
  constructor(
    private readonly routes: Route[],
    private readonly collections: Collections,
    private readonly byFile: ReadonlyMap<string, CollectionEntry>,
    private readonly known?: (page: PlannedPage) => string | undefined,
    private readonly before?: PreviousPlans,
  ) {
    this.byId = new Map(routes.map((r) => [r.id, r]));
  }

  /** The hash of everything the plan says about a page. */
  pageInput(page: PlannedPage): string {
    const known = this.known?.(page) ?? this.knownListing(page);
    if (known !== undefined) return known;
    let input = this.inputs.get(page);
    if (input === undefined) {
      input = this.planHash(page);
      this.inputs.set(page, input);
    }
    return input;
  }

  /**
   * A listing's page is made of the routes and of its collection's entries (their fields, in order), which is
   * what the digests of `routes` and of the collection are made of: when both are as the previous build saw
   * them, so is the page's plan, which is not hashed again (a site of thousands of articles has hundreds of
   * listing and tag pages, each of a dozen entries).
   */
  private knownListing(page: PlannedPage): string | undefined {
    const first = page.listing?.entries[0];
    if (!first || !this.before) return undefined;
    const read = `collection:${first.collection}:${first.locale}`;
    const digest = this.before.collections.get(read);
    if (digest === undefined || digest !== this.digest(read) || this.before.routes !== this.digest("routes")) return undefined;
    return this.before.pages[page.file]?.input;
  }

  private planHash(page: PlannedPage): string {
    const { kind, path, locale, file, label, meta, props, route, entry, listing } = page;
    return hash({
      kind, path, locale, file, label, meta, props,
      component: page.component.name,
      route,
      entry: entry && entryFields(entry),
      listing: listing && { page: listing.page, pages: listing.pages, basePath: listing.basePath, group: listing.group, entries: listing.entries.map(entryFields) },
    });
  }

  digest(read: string): string {
    // An entry's text: its hash, at hand (every page of an entry reads one, so they are not kept twice).
    if (read.startsWith("body:")) return this.byFile.get(read.slice(5))?.hash ?? "gone";
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
    if (kind === "collection") {
      const locale = rest.pop()!;
      return collectionDigest(this.collections[rest.join(":")]?.[locale] ?? []);
    }
    return "unknown";
  }
}

/** What the previous build's manifest says of the plans: its routes' digest, each collection's digest as pages read it, each page's plan hash. */
export interface PreviousPlans {
  routes?: string;
  collections: ReadonlyMap<string, string>;
  pages: Record<string, PageRecord>;
}

export function previousPlans(manifest: BuildManifest): PreviousPlans {
  const collections = new Map<string, string>();
  for (const file in manifest.pages) for (const [read, digest] of manifest.pages[file].reads) if (read.startsWith("collection:") && !collections.has(read)) collections.set(read, digest);
  return { routes: manifest.routes, collections, pages: manifest.pages };
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
    if (record !== undefined && record.input === inputs.pageInput(page) && sameReads(record.reads, inputs) && present.has(page.file) && twins.every((t) => present.has(page.file + t))) keep.push(record);
    else render.push(page);
  }
  return { render, keep };
}

function sameReads(reads: [string, string][], inputs: PageInputs): boolean {
  for (const [read, digest] of reads) if (inputs.digest(read) !== digest) return false;
  return true;
}
