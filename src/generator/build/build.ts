import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ConfigOverrides, SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import { sitegenError, type SitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";
import { hasListedPages } from "../seo/sitemap.ts";
import { compileEndpoints } from "../endpoints.ts";
import { serverBundleFiles } from "../server-bundle.ts";
import { loadContent } from "./load-content.ts";
import { bundlePages, loadPagesBundle } from "./bundle-pages.ts";
import { loadCompiledCode, saveCompiledCode } from "./bundle-cache.ts";
import { bundleIslands } from "./bundle-islands.ts";
import { bundleStyles } from "./bundle-styles.ts";
import { planPages } from "./plan-pages.ts";
import { allEntries, cachedEntry, entriesByFile, loadCollections, type CachedEntry, type Collections, type EntryHooks } from "../collections.ts";
import { feedFiles } from "../seo/feeds.ts";
import { processImages, sourceImages } from "./images.ts";
import { ReadLog, renderPages } from "./render-pages.ts";
import { ReadAhead } from "./read-ahead.ts";
import { TWINS, writeOutput, type WrittenPage } from "./write-output.ts";
import { FileWriter, TWIN_LEVELS } from "./file-writer.ts";
import { loadEntryCache } from "./entry-cache.ts";
import { filesUnder } from "../files.ts";
import { buildKey, PageInputs, previousPlans, selectPages, type PageRecord } from "./incremental.ts";
import { loadManifest, markSwap, type BuildManifest } from "./manifest.ts";
import { ChangedPaths, entryStamps, knownPlans, rememberBuild, type BuildMemory } from "./build-memory.ts";
import { publicStamp, quickUpdate } from "./quick-update.ts";
import { formatMissing, missingTranslations, type MissingKey } from "./report.ts";
import { counted, NO_PROGRESS, type Progress } from "./progress.ts";
import { TARGETS, writeTargetFiles, type TargetName } from "../targets/targets.ts";

export interface BuildOptions extends ConfigOverrides {
  root: string;
  outDir: string;
  /** Fail on what is otherwise a warning: missing translations, a site with no page to publish. */
  strict?: boolean;
  /**
   * Also write .br and .gz copies of text files (for servers that send precompressed files): compressed as
   * hard as the formats allow, or `"fast"` for builds made again on every save and never deployed (sitegen serve).
   */
  precompress?: boolean | "fast";
  /** Build entries marked `draft: true` too (sitegen serve does, sitegen build never). */
  drafts?: boolean;
  /** Where the output is deployed (targets/targets.ts): `node` by default. */
  target?: TargetName;
  /** Keep the pages whose inputs did not change since the previous build into outDir (the default); false builds cold. */
  incremental?: boolean;
  /** Write the files on a thread of their own (file-writer.ts); by default, when WRITE_THREAD_PAGES or more pages are rendered. */
  writeThread?: boolean;
  /** The compiled code of an earlier build, when nothing under src/ changed since (sitegen serve after a content edit). */
  bundles?: Bundles;
  /** What the previous build in this process left (sitegen serve): read instead of the files it stands for. */
  memory?: BuildMemory;
  /** The files the watcher saw change since that build: only these are looked at again (with `memory`). */
  changed?: ChangedPaths;
  /**
   * Leave saving the manifest and the entry cache to `memory.save`: sitegen serve shows the page first, and
   * saves only once the developer pauses, what only a later process reads (a next build's save covers it).
   */
  saveLater?: boolean;
  /** Where the build says how far it has got (build/progress.ts): `sitegen build` shows it on a terminal. */
  progress?: Progress;
}

/**
 * From how many rendered pages the files are written on a thread of their own: below it, starting the
 * thread costs about what it saves (`npm run bench` compares both on this site and at scale).
 */
export const WRITE_THREAD_PAGES = 100;

export interface BuildResult {
  outDir: string;
  site: SiteConfig;
  /** Each page's file, locale, address (or label, for special pages) and size in bytes (minified HTML). */
  pages: { file: string; locale: string; path: string; bytes: number }[];
  /** How many of the pages were rendered (the others were kept from the previous build's output). */
  rendered: number;
  /** Whether the build was a quick update (quick-update.ts): only the edited entries and their pages looked at. */
  quick?: boolean;
  assets: { file: string; code: Uint8Array }[];
  missing: MissingKey[];
  /** Catalogued mistakes that do not stop the build (--strict makes them fail it). */
  warnings: SitegenError[];
  /** Milliseconds per stage, in pipeline order. */
  timings: Record<string, number>;
  totalMs: number;
  files: number;
  bytes: number;
  /** Source images processed, and how many were encoded (the others came from the cache). */
  images: { count: number; encoded: number };
  /** The text of each locale, as loaded for this build (the server's endpoints answer with it). */
  dictionaries: Record<string, Dictionary>;
  /** What the deploy target made besides the output, for the summary (targets/). */
  targetSummary?: string;
  /** The compiled code, for a next build that changes only content. */
  bundles: Bundles;
  /** What the next build in this process may take instead of reading it again (unless the build was cold). */
  memory?: BuildMemory;
}

/**
 * `sitegen build`: six stages, each a module with data in and data out, run in order.
 * 1. load-content: site.yaml and each locale's text;
 * 2. bundle-pages, bundle-islands, bundle-styles: the site's code for Node and for browsers, its CSS;
 *    then the site's collections (collections.ts: Markdown and YAML entries, checked and paired) and the
 *    images they and the text refer to (images.ts: AVIF, WebP and JPEG files, cached between builds);
 *    and its endpoints module (endpoints.ts), for `sitegen start`;
 * 3. plan-pages: every page of every locale, with its address and file;
 *    then incremental.ts: which pages the previous build's output can keep, as they are (its manifest
 *    says what each page read; a change to anything all pages depend on makes a cold build);
 * 4. render-pages: each page to render to an HTML document, one at a time;
 * 5. write-output: each page minified and written as it comes (kept pages left as they are in the
 *    previous output), then assets, feeds, sitemap, robots.txt, host files and what `sitegen start` needs
 *    (server-bundle.ts), or what the deploy target needs instead (targets/), swapped in at the end; the
 *    manifest (manifest.ts) is saved for the next build, what changed appended to it;
 * 6. report (report.ts): the missing translations here, the summary in the CLI.
 * Only small records of each page outlive its writing, so memory stays flat however many pages there are.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  // A cold build of many pages writes them on a thread of its own (file-writer.ts). Started first, the thread
  // is up by the time the first page is rendered, instead of the first pages waiting for it to start.
  const cold = !options.memory && (options.incremental === false || !existsSync(options.outDir));
  const writer = options.writeThread !== false && cold ? new FileWriter(true, twinLevelsOf(options)) : undefined;
  try {
    return await build(options, writer);
  } finally {
    // Stopped, if the build failed before writing or wrote few pages (once the thread wrote the pages, it has stopped already).
    await writer?.abandon();
  }
}

async function build(options: BuildOptions, early: FileWriter | undefined): Promise<BuildResult> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  let mark = started;
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = now - mark;
    mark = now;
  };
  const { root } = options;
  const progress = options.progress ?? NO_PROGRESS;
  // The previous build's memory stands for what it read only into the same folder, and only knowing what changed since.
  const memory = options.memory?.outDir === options.outDir && options.changed && options.incremental !== false ? options.memory : undefined;
  const changed = memory ? options.changed : undefined;

  const content = loadContent(root, { siteUrl: options.siteUrl });
  lap("content");
  const bundles = options.bundles ?? (await bundleAll(root, options.incremental !== false));
  const { islands, pagesBundle, apiCode, stylesheet } = bundles;
  const definitions = pagesBundle.site.collections ?? [];
  const precompress = options.precompress !== undefined && options.precompress !== false;
  const imageStamps = memory && changed!.onlyFiles(ENTRY_OR_TEXT) ? memory.images : sourceImages(root);
  const key = buildKey(root, {
    pages: pagesBundle.hash,
    islands: islands.files.map((f) => [f.file, f.code.byteLength]),
    stylesheet: stylesheet.file,
    // Source images by size and time of change: a page shows the files made from them under hashed names.
    images: imageStamps,
    target: options.target ?? "node",
    site: content.site,
    text: content.contents.map((c) => [c.locale, [...c.dictionary]]),
    definitions,
    drafts: options.drafts === true,
    precompress: options.precompress ?? false,
    // A page may show today's date (a footer's year), as the sitemap does: each day's first build is cold.
    today: [new Date().toISOString().slice(0, 10), new Date().toDateString()],
  });
  const previous = options.incremental === false ? undefined : memory?.key === key ? memory.manifest : loadManifest(root, options.outDir, key);
  // What reading an entry's file gives depends on these too: the schema, the text its references are
  // checked against, the site's address (its links), and sitegen's code (in buildKey).
  const entriesKey = buildKey(root, { entries: true, root, definitions, text: content.contents.map((c) => [c.locale, [...c.dictionary]]), siteUrl: content.site.siteUrl });
  // The entry cache as last saved (what a save appends to), and what was last read of each file: in sitegen
  // serve both are in memory, and the second may be newer than the first, whose save a later one covers.
  const sameEntries = memory?.entriesKey === entriesKey;
  const entryCache = options.incremental === false ? undefined : sameEntries ? memory!.entryCache : loadEntryCache(root, entriesKey);
  const assets = { stylesheet: stylesheet.href, fonts: stylesheet.fonts, scripts: islands.scripts, preloads: islands.preloads, islands: islands.islands };
  const assetFiles = [{ file: stylesheet.file, code: stylesheet.code }, ...stylesheet.assets.map(({ file, code }) => ({ file, code })), ...islands.files];
  const twinLevels = twinLevelsOf(options);
  // The bodies file is read through one descriptor while the build renders, and closed however it ends;
  // the bodies rendered ahead (if any) are let go with it.
  let ahead: ReadAhead | undefined;
  try {
    lap("bundle");
    // A few entries edited, whose pages alone they change: only those are looked at (quick-update.ts), from
    // the previous build's memory in sitegen serve. The quick way from the files leaves no memory for a next
    // build: sitegen serve's first build (drafts included) takes the full way, which does.
    const fromMemory = memory !== undefined && previous === memory.manifest && sameEntries;
    const quick =
      previous && (options.target ?? "node") === "node" && (fromMemory || (!memory && entryCache && options.drafts !== true))
        ? await quickUpdate({
            ...{ root, outDir: options.outDir, site: content.site, contents: content.contents, dictionaries: content.dictionaries, definition: pagesBundle.site, bundle: pagesBundle, assets },
            ...{ previous, entryCache, entriesKey, drafts: options.drafts === true, twins: precompress ? TWINS : [], levels: twinLevels, strict: options.strict === true },
            memory: fromMemory ? { held: memory, changed: changed!, saveLater: options.saveLater === true } : undefined,
          })
        : undefined;
    if (quick) {
      return {
        outDir: options.outDir,
        site: content.site,
        pages: quick.records.map((record) => ({ file: record.file, locale: record.locale, path: record.label, bytes: record.bytes })),
        rendered: quick.rendered,
        quick: true,
        assets: assetFiles,
        missing: quick.missing,
        warnings: quick.warnings,
        timings: { content: timings.content, bundle: timings.bundle, ...quick.timings },
        totalMs: performance.now() - started,
        files: quick.files,
        bytes: quick.bytes,
        images: quick.images,
        dictionaries: content.dictionaries,
        bundles,
        memory: quick.memory,
      };
    }
    const log = new ReadLog();
    // The entries a previous build in this process made call these hooks too (see `previous` below).
    const hooks: EntryHooks = memory?.hooks ?? {};
    hooks.onBodyRead = (entry) => log.note(`body:${entry.file}`);
    hooks.cachedBody = entryCache?.body;
    const cachedFields = options.incremental === false ? undefined : sameEntries ? memory!.fields : entryCache?.entries;
    // A cold build's writing thread reads entries and renders their Markdown bodies while this one reads the
    // collections: the entries' files when there is no entry cache to look in first, the bodies in any case.
    ahead = early && definitions.length > 0 ? new ReadAhead(early, root, content.site.siteUrl, options.drafts === true) : undefined;
    hooks.willRead = ahead && !cachedFields ? (files) => ahead!.willRead(files) : undefined;
    hooks.readAhead = ahead && !cachedFields ? (file) => ahead!.entry(file) : undefined;
    hooks.offerBody = ahead && ((file, markdown) => ahead!.offer(file, markdown));
    hooks.renderedBody = ahead && ((file) => ahead!.take(file));
    const collections = loadCollections({ root, siteUrl: content.site.siteUrl, locales: content.site.locales.map((l) => l.code), dictionaries: content.dictionaries, definitions, drafts: options.drafts === true, cached: cachedFields, unchanged: changed && ((file) => !changed.touches(file)), previous: memory?.entries, hooks, progress: (done, total) => progress.step("Reading entries", done, total) });
    lap("collections");
    const processed = await processImages({ root, definitions, collections, contents: content.contents, imageKeys: pagesBundle.site.imageKeys ?? [], socialImage: content.site.socialImage, progress: (done, total) => progress.step("Making images", done, total) });
    lap("images");
    const plan = planPages(pagesBundle.site, content.site, collections);
    // A site of no page still builds (its 404 page, no sitemap), but that is hardly what its author meant.
    const warnings = hasListedPages(plan.routes) ? [] : [sitegenError("NoPages", { file: PROJECT_FILES.routes })];
    if (warnings.length && options.strict) throw warnings[0];
    // The pages of entries whose group did not change keep their plan's hash from the previous build.
    const stamps = entryStamps(collections);
    const byFile = entriesByFile(collections);
    const inputs = new PageInputs(plan.routes, collections, byFile, previous && knownPlans(previous, stamps), previous && previousPlans(previous));
    const present = previous === undefined ? new Set<string>() : previous === memory?.manifest ? memory.output : new Set(filesUnder(options.outDir));
    const changes = selectPages(plan.pages, previous, inputs, present, precompress ? TWINS : []);
    lap("plan");
    let renderMs = 0;
    const rendered = counted(timed(renderPages(plan, changes.render, pagesBundle, content.site, content.dictionaries, assets, collections, processed, log), (ms) => (renderMs += ms)), progress, "Rendering pages", changes.render.length);
    const feeds = feedFiles({ site: content.site, definitions, collections, routes: plan.routes, dictionaries: content.dictionaries });
    const serverFiles = serverBundleFiles({ site: content.site, dictionaries: content.dictionaries, apiCode });
    const target = await TARGETS[options.target ?? "node"]({ root, outDir: options.outDir, site: content.site, dictionaries: content.dictionaries, apiCode });
    let missing: MissingKey[] = [];
    const manyPages = options.writeThread ?? changes.render.length >= WRITE_THREAD_PAGES;
    const writer = manyPages && previous === undefined ? early : undefined;
    if (early && !writer) {
      ahead?.stop();
      void early.abandon();
    }
    const written = await writeOutput({
      ...{ outDir: options.outDir, root, site: content.site, routes: plan.routes, pages: rendered, kept: changes.keep, previousFiles: previous?.files },
      manyPages,
      writer,
      sameRoutes: previous?.routes === inputs.digest("routes"),
      ...{ assets: [...assetFiles, ...processed.files], files: [...feeds, ...target.outputFiles], serverFiles: target.serverBundle ? serverFiles : [], redirects: target.redirects, precompress, twinLevels },
      beforeSwap(pages) {
        // Every page is written: missing translations can still fail the build before the output changes.
        missing = missingTranslations(content.contents, pages);
        if (missing.length && options.strict) throw sitegenError("MissingTranslations", { count: missing.length, list: formatMissing(missing) });
        markSwap(root, options.outDir, previous);
      },
    });
    writeTargetFiles(root, options.outDir, target);
    // A kept page's record stands as it was (its plan and reads were found the same); a rendered page's is made.
    const records: Record<string, PageRecord> = {};
    for (const record of changes.keep) records[record.file] = record;
    // What a page's plan and reads hash to is for the manifest alone: a build that saves none (--no-cache) does not hash them.
    const saved = options.incremental !== false;
    for (const page of written.pages) records[page.file] = pageRecord(page, saved ? inputs.pageInput(plan.byFile.get(page.file)!) : "", saved ? page.reads.map((read) => [read, inputs.digest(read)]) : []);
    let nextMemory: BuildMemory | undefined;
    if (saved) {
      // Saved by appending to the file the previous manifest was read from or saved to (manifest.ts), if still there.
      const manifest: BuildManifest = { key, routes: inputs.digest("routes"), pages: records, files: written.all, entries: stamps, totals: [written.files, written.bytes], publicFiles: publicStamp(root), disk: previous?.disk };
      const parts = { outDir: options.outDir, key, manifest, entriesKey, entryCache, fields: entriesOf(collections), output: new Set(written.all), images: imageStamps, entries: byFile, hooks };
      nextMemory = rememberBuild(root, parts, options.memory, options.saveLater === true);
    }
    lap("write");
    timings.write -= renderMs;
    timings.render = renderMs;

    return {
      outDir: options.outDir,
      targetSummary: target.summary,
      site: content.site,
      pages: plan.pages.map((page) => ({ file: page.file, locale: page.locale, path: page.label, bytes: records[page.file].bytes })),
      rendered: changes.render.length,
      assets: assetFiles,
      missing,
      warnings,
      timings: { content: timings.content, bundle: timings.bundle, collections: timings.collections, images: timings.images, plan: timings.plan, render: timings.render, write: timings.write },
      totalMs: performance.now() - started,
      files: written.files,
      bytes: written.bytes,
      images: { count: processed.count, encoded: processed.encoded },
      dictionaries: content.dictionaries,
      bundles,
      memory: nextMemory,
    };
  } finally {
    entryCache?.close();
    ahead?.stop();
  }
}

/**
 * A rendered page's record, its fields named one by one in one order: a copy of the page as the writing thread
 * sent it back would give every record a hidden class of its own in V8, which at thousands of pages adds up.
 */
function pageRecord(page: WrittenPage, input: string, reads: [string, string][]): PageRecord {
  return { file: page.file, locale: page.locale, label: page.label, input, reads, missing: page.missing, bytes: page.bytes, files: page.files, written: page.written };
}

/** How hard the compressed twins of the output's files are compressed (--precompress, or "fast" for sitegen serve). */
const twinLevelsOf = (options: BuildOptions) => TWIN_LEVELS[options.precompress === "fast" ? "fast" : "best"];

/** What the watcher may report without a source image having changed: entries and the sites' text. */
const ENTRY_OR_TEXT = /\.(md|ya?ml)$/;

/** The site's code and styles, compiled (stage 2). */
export interface Bundles {
  islands: Awaited<ReturnType<typeof bundleIslands>>;
  pagesBundle: Awaited<ReturnType<typeof bundlePages>>;
  apiCode: Awaited<ReturnType<typeof compileEndpoints>>;
  stylesheet: Awaited<ReturnType<typeof bundleStyles>>;
}

/** The site's code compiled, or as an earlier build compiled it when none of its files changed since (bundle-cache.ts). */
async function bundleAll(root: string, useCache: boolean): Promise<Bundles> {
  // The inputs are named by absolute path: a cache folder shared by two projects never mixes them up.
  const key = buildKey(root, { compiled: true, root });
  const cached = useCache ? loadCompiledCode(root, key) : undefined;
  if (cached) return { islands: cached.islands, pagesBundle: loadPagesBundle(root, cached.pages.file, cached.pages.hash), apiCode: cached.apiCode, stylesheet: cached.stylesheet };
  // Besides the files the compilers read: the folders whose files are found by listing them (a new island,
  // an endpoints module or a shim that appears changes the folder), and the settings esbuild reads (tsconfig.json).
  const inputs = new Set(["src/islands", "src/islands/runtime", "src/api", "src/pages", "src/styles", "tsconfig.json", "package.json"].map((p) => join(root, p)).filter((p) => existsSync(p)));
  // The three compile at once; when several fail (pages import islands to render them, so an island's
  // syntax error breaks both), the island's error is the one reported, whatever finished first.
  const [islands, pagesBundle, apiCode] = await Promise.allSettled([bundleIslands(root, inputs), bundlePages(root, inputs), compileEndpoints(root, inputs)]);
  for (const result of [islands, pagesBundle, apiCode]) if (result.status === "rejected") throw result.reason;
  const value = <T,>(result: PromiseSettledResult<T>) => (result as PromiseFulfilledResult<T>).value;
  const bundles = { islands: value(islands), pagesBundle: value(pagesBundle), apiCode: value(apiCode), stylesheet: await bundleStyles(root, inputs) };
  if (useCache) saveCompiledCode(root, key, inputs, { islands: bundles.islands, pages: { file: bundles.pagesBundle.file, hash: bundles.pagesBundle.hash }, apiCode: bundles.apiCode, stylesheet: bundles.stylesheet });
  return bundles;
}

/** Each item of a sequence as it is asked for, with the time spent making it added up (the render stage's, inside the writing). */
function* timed<T>(items: Iterable<T>, add: (ms: number) => void): Generator<T> {
  const iterator = items[Symbol.iterator]();
  const step = () => {
    const started = performance.now();
    const next = iterator.next();
    add(performance.now() - started);
    return next;
  };
  for (let next = step(); !next.done; next = step()) yield next.value;
}

/** What the next build may reuse of each entry file: its hash, checked fields, reading time and images. */
function entriesOf(collections: Collections): Record<string, CachedEntry> {
  const out: Record<string, CachedEntry> = {};
  for (const e of allEntries(collections)) {
    const cached = cachedEntry(e);
    if (cached) out[e.file] = cached;
  }
  return out;
}
