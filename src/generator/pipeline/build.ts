import { existsSync } from "node:fs";
import type { ConfigOverrides, SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import type { SitegenError } from "../errors.ts";
import { filesUnder } from "../files.ts";
import { LinkCheck } from "../links.ts";
import type { TargetName } from "../targets/targets.ts";
import { writeTargetFiles } from "../targets/targets.ts";
import { bundleCode } from "./bundle.ts";
import { entriesByFile, allEntries, loadCollections } from "./collections.ts";
import { entryRecord } from "../entry.ts";
import { EntryBodies } from "../entry-bodies.ts";
import { cacheFolder } from "../project.ts";
import { entryTranslationWarnings } from "../entry-translations.ts";
import { processImages } from "./images.ts";
import { loadContent } from "./load-content.ts";
import { outputFiles } from "./output-files.ts";
import { planPages } from "./plan-pages.ts";
import { counted, NO_PROGRESS, type Progress } from "./progress.ts";
import { ReadLog, renderPages } from "./render-pages.ts";
import { StageClock } from "../stage-clock.ts";
import { planWarnings, reportBuild, type MissingKey } from "./report.ts";
import { PageInputs, selectPages } from "./select-pages.ts";
import { forgetState, loadState, saveState, stateKey, VERSION, type BuildState, type PageRecord } from "./state.ts";
import { publishOutput, TWINS, writeOutput, type Precompress } from "./write-output.ts";

export interface BuildOptions extends ConfigOverrides {
  root: string;
  outDir: string;
  /** Fail on what is otherwise a warning: missing translations, broken links, a site with no page to publish. */
  strict?: boolean;
  /** Also write .br and .gz copies of text files: compressed as hard as the formats allow, or fast (sitegen serve). */
  precompress?: boolean | "fast";
  /** Build entries marked `draft: true` too (sitegen serve does, sitegen build never). */
  drafts?: boolean;
  /** Where the output is deployed (targets/targets.ts): `node` by default. */
  target?: TargetName;
  /** Keep the pages whose inputs did not change since the previous build (the default); false builds cold. */
  incremental?: boolean;
  /** The previous build's state, as sitegen serve keeps it in memory (else it is read from the cache folder). */
  state?: BuildState;
  /** The files sitegen serve's watcher saw change since that build: the other entry files are not looked at. */
  changed?: ReadonlySet<string>;
  /**
   * Save the state for the next build's process (the default). sitegen serve keeps it in memory between its
   * rebuilds instead, and saves the last one when it stops.
   */
  saveState?: boolean;
  /** Where the build says how far it has got (progress.ts): `sitegen build` shows it on a terminal. */
  progress?: Progress;
}

export interface BuildResult {
  outDir: string;
  site: SiteConfig;
  /** Each page's file, locale, address (or label, for special pages) and size in bytes. */
  pages: { file: string; locale: string; path: string; bytes: number }[];
  /** How many of the pages were rendered (the others were kept from the previous output). */
  rendered: number;
  assets: { file: string; code: Uint8Array }[];
  missing: MissingKey[];
  /** Catalogued mistakes that do not stop the build (--strict makes them fail it). */
  warnings: SitegenError[];
  /** Milliseconds per stage, in pipeline order. */
  timings: Record<string, number>;
  totalMs: number;
  /** The output folder's files, and their bytes. */
  files: number;
  bytes: number;
  /** Source images processed, and how many were encoded (the others came from the cache). */
  images: { count: number; encoded: number };
  /** The text of each locale, as loaded for this build (the server's endpoints answer with it). */
  dictionaries: Record<string, Dictionary>;
  /** What the deploy target made besides the output, for the summary (targets/). */
  targetSummary?: string;
  /** What the next build into the same folder starts from (sitegen serve keeps it). */
  state: BuildState;
}

/**
 * A build, whoever starts it: the stages below, each called once, in this order, data flowing one way.
 * The build state (state.ts) is loaded before the first and saved after the last: with it, a page whose
 * plan and every read are as they were is kept from the previous output instead of rendered.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  // The entries' bodies, kept in a scratch file from the collections stage until the last page is rendered.
  const bodies = new EntryBodies(cacheFolder(options.root));
  try {
    return await runStages(options, bodies);
  } finally {
    bodies.close();
  }
}

async function runStages(options: BuildOptions, bodies: EntryBodies): Promise<BuildResult> {
  const { root, outDir } = options;
  const target = options.target ?? "node";
  const strict = options.strict === true;
  const clock = new StageClock();
  const progress = options.progress ?? NO_PROGRESS;
  const incremental = options.incremental !== false;
  const previous = incremental ? (options.state ?? loadState(root, outDir)) : undefined;

  // 1. content/site.yaml and each locale's text.
  const content = loadContent({ root, siteUrl: options.siteUrl });
  clock.lap("content");

  // 2. The site's code for Node and for browsers, its endpoints and stylesheet.
  const { bundles, code } = await bundleCode({ root, previous: previous?.code });
  const definition = bundles.pages.site;
  const definitions = definition.collections ?? [];
  clock.lap("bundle");

  // 3. The collections' entries, then every image they and the text refer to.
  const text = content.contents.map((c) => [c.locale, [...c.dictionary]]);
  const entriesKey = stateKey(root, { definitions, text, siteUrl: content.site.siteUrl });
  const log = new ReadLog();
  const collections = loadCollections({
    ...{ root, siteUrl: content.site.siteUrl, locales: content.site.locales.map((l) => l.code) },
    ...{ dictionaries: content.dictionaries, definitions, drafts: options.drafts === true },
    previous: previous?.entriesKey === entriesKey ? previous.entries : undefined,
    changed: options.changed,
    bodies,
    onBodyRead: (file) => log.note(`body:${file}`),
    progress: (done, total) => progress.step("Reading entries", done, total),
  });
  clock.lap("collections");
  const images = await processImages({
    ...{ root, definitions, collections, contents: content.contents },
    ...{ imageKeys: definition.imageKeys ?? [], socialImage: content.site.socialImage },
    progress: (done, total) => progress.step("Making images", done, total),
  });
  clock.lap("images");

  // 4. Every page of every locale; the pages the previous output can keep as they are.
  const plan = planPages({ definition, site: content.site, collections });
  const locales = content.site.locales.map((l) => l.code);
  const warnings = [...planWarnings(plan.routes, strict), ...entryTranslationWarnings(collections, locales, strict)];
  const precompress: Precompress = options.precompress === true ? "best" : (options.precompress ?? false);
  const key = stateKey(root, {
    ...{ pages: bundles.pages.hash, islands: bundles.islands.files.map((f) => f.file) },
    ...{ stylesheet: bundles.stylesheet.file, images: images.files.map((f) => f.file), site: content.site, text },
    ...{ definitions, target, drafts: options.drafts === true, precompress },
    // A page may show today's date (a footer's year), as the sitemap does: each day's first build is cold.
    today: [new Date().toISOString().slice(0, 10), new Date().toDateString()],
  });
  const kept = previous?.key === key && existsSync(outDir) ? previous : undefined;
  const inputs = new PageInputs(plan.routes, collections, entriesByFile(collections));
  // sitegen serve's state in memory describes the folder it alone writes; a state read from disk is checked
  // against the folder, which someone may have changed since.
  const listed = kept && !options.state ? new Set(filesUnder(outDir)) : undefined;
  const present = (file: string) => (listed ? listed.has(file) : kept !== undefined && file in kept.output);
  const twins = precompress ? TWINS : [];
  const isPresent = (file: string) => present(file) && twins.every((twin) => present(file + twin));
  const entries = allEntries(collections);
  const selected = selectPages({ pages: plan.pages, previous: kept, entries, inputs, present: isPresent });
  clock.lap("plan");

  // 5 and 6. Each page rendered, then written into a staging folder with every other file of the output.
  const assets = {
    ...{ stylesheet: bundles.stylesheet.href, fonts: bundles.stylesheet.fonts },
    ...{ scripts: bundles.islands.scripts, preloads: bundles.islands.preloads, islands: bundles.islands.islands },
  };
  const rendered = renderPages({
    ...{ plan, pages: selected.render, bundle: bundles.pages, site: content.site, dictionaries: content.dictionaries },
    ...{ assets, collections, images, log },
  });
  const files = await outputFiles({
    ...{ root, outDir, target, content, bundles, images, plan, collections },
    previous: kept && { sitemap: kept.sitemap, output: kept.output },
  });
  // Each page's links checked as it goes by, against every file of the output (links.ts).
  const links = new LinkCheck({
    files: [plan.pages, files.output, files.server].flatMap((list) => list.map((f) => f.file)),
    siteUrl: content.site.siteUrl,
    endpoints: [...(bundles.apiCode ? Object.values(content.site.endpoints) : []), ...content.site.servedElsewhere],
  });
  const staged = await writeOutput({
    ...{ outDir, previous: kept?.output, kept: selected.keep, precompress },
    pages: links.scan(counted(clock.timed("render", rendered), progress, "Rendering pages", selected.render.length)),
    files: files.output,
    serverFiles: files.server,
  });

  // 7. What the build found wrong; with --strict, it fails here, the previous output left as it was.
  const records: Record<string, PageRecord> = {};
  for (const page of selected.keep) {
    const record = kept!.pages[page.file];
    records[page.file] = { ...record, reads: record.reads.map((i) => log.index(kept!.reads[i][0])) };
  }
  for (const { page, missing, reads, bytes } of staged.pages) {
    const input = incremental ? inputs.pageInput(page) : "";
    records[page.file] = { locale: page.locale, label: page.label, input, reads, missing, bytes };
  }
  let missing: MissingKey[];
  try {
    const keptPages = selected.keep.map((page) => ({ page, broken: records[page.file].links }));
    const sources = code.inputs.map(([path]) => path);
    const broken = links.report({ kept: keptPages, contents: content.contents, root, sources, strict });
    clock.add("links", links.ms);
    if (broken) warnings.push(broken);
    for (const { page } of staged.pages)
      if (links.brokenOn(page.file)?.length) records[page.file].links = links.brokenOn(page.file);
    missing = reportBuild({ contents: content.contents, pages: Object.values(records), strict });
  } catch (error) {
    await staged.staging.discard();
    throw error;
  }

  // The output moves into place; the state that describes it is saved for the next build.
  forgetState(root, outDir);
  publishOutput(staged, kept?.output);
  writeTargetFiles(root, outDir, files.target);
  const entryRecords = Object.fromEntries(entries.map((e) => [e.file, entryRecord(e)!]));
  const reads = incremental ? log.names.map((name): [string, string] => [name, inputs.digest(name)]) : [];
  const output = staged.output;
  const sitemap = files.sitemapKey;
  const state: BuildState = {
    version: VERSION,
    key,
    entriesKey,
    entries: entryRecords,
    reads,
    pages: records,
    output,
    code,
    sitemap,
  };
  if (incremental && options.saveState !== false) saveState(root, outDir, state);
  clock.lap("write");

  const sizes = Object.values(staged.output);
  return {
    outDir,
    site: content.site,
    pages: plan.pages.map(({ file, locale, label }) => ({ file, locale, path: label, bytes: records[file].bytes })),
    rendered: selected.render.length,
    assets: files.assets,
    missing,
    warnings,
    timings: clock.timings,
    totalMs: clock.total(),
    files: sizes.length,
    bytes: sizes.reduce((sum, size) => sum + size, 0),
    images: { count: images.count, encoded: images.encoded },
    dictionaries: content.dictionaries,
    targetSummary: files.target.summary,
    state,
  };
}
