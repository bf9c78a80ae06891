import { statSync } from "node:fs";
import { join, relative } from "node:path";
import { listFiles } from "./list-files.ts";
import { loadSiteConfig, type SiteConfig } from "./config.ts";
import { compareLocales, loadLocaleContent, type LocaleContent } from "./content.ts";
import { loadSsrModule } from "./ssr-bundle.ts";
import { buildStylesheet } from "./styles.ts";
import { buildIslands } from "./islands-bundle.ts";
import { RenderWorker, renderJobs, type RenderJob, type RenderOutput, type RenderShared } from "./render-worker.ts";
import { PageCache, type CachedPage } from "./page-cache.ts";
import { buildRobots, buildSitemap } from "./sitemap.ts";
import { hostFiles } from "./security-headers.ts";
import { StagedOutput } from "./output.ts";
import { SitegenError } from "./errors.ts";
import { errorFile, FORM_RESULTS, formResultPath, homePath, LOCALES, notFoundFile, outputFileForPath, routes, type FormResult, type LocaleCode } from "./routes.ts";
import { faviconSvg } from "./favicon.ts";
import { cacheDir, deferCacheWrites, generatorStamp, readCachedJson, sha1, writeCached } from "./build-cache.ts";
import { CompressedCache } from "./compressed-cache.ts";
import { saveYamlCache, useYamlCache } from "./yaml-file.ts";


export interface BuildOptions {
  root: string;
  outDir: string;
  siteUrl?: string;
  /** Fail on missing translations instead of warning. */
  strict?: boolean;
  /**
   * Write .br and .gz copies of text files beside them, for `sitegen serve` and servers that send
   * precompressed files (nginx). Off by default: static hosts compress by themselves and ignore them.
   */
  precompress?: boolean;
  log?: (line: string) => void;
}

export interface PageReport {
  path: string;
  locale: LocaleCode;
  file: string;
  bytes: number;
  brotliBytes: number;
}

export interface MissingKey {
  locale: string;
  key: string;
  /** Pages that show the raw key because of it (empty: the key exists in the other locale only). */
  pages: string[];
  definedIn?: string;
}

export interface BuildResult {
  outDir: string;
  site: SiteConfig;
  pages: PageReport[];
  assets: { file: string; bytes: number; brotliBytes: number }[];
  missing: MissingKey[];
  timings: Record<string, number>;
  totalMs: number;
  files: number;
  bytes: number;
  /** The text of each locale, as loaded for this build (the server's endpoints answer with it). */
  dictionaries: Record<LocaleCode, Map<string, string>>;
}

/** The whole pipeline: content → pages bundle → CSS → islands → render → minify → sitemap → atomic swap. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  // Started first, so its thread boots while this one reads content; it gets the pages bundle as soon as
  // that is ready, and loads React with it before rendering is asked of it.
  const worker = RenderWorker.start(routes.length * LOCALES.length);
  try {
    return await buildWith(worker, options);
  } finally {
    worker?.close();
  }
}

async function buildWith(worker: RenderWorker | null, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  // In pipeline order (the summary prints them so), though writing starts before rendering and overlaps it.
  const timings: Record<string, number> = { content: 0, css: 0, bundles: 0, render: 0, minify: 0, sitemap: 0, write: 0, swap: 0 };
  let mark = started;
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (now - mark);
    mark = now;
  };
  const { root } = options;
  const out = new StagedOutput(options.outDir);
  const mayRender = pagesMayRender(root);
  deferCacheWrites((file, data) => out.writeCache(file, data));
  const compressJobs: Promise<unknown>[] = [];
  try {
    // esbuild works in its own process, so both bundles compile while this thread loads content and CSS.
    const ssrPromise = loadSsrModule(root);
    const islandsPromise = buildIslands(root);
    ssrPromise.then((ssr) => worker?.prepare(ssr.file)).catch(() => {});
    islandsPromise.catch(() => {});
    useYamlCache(root);
    const site = loadSiteConfig(root, { siteUrl: options.siteUrl });
    const contents = LOCALES.map((locale) => loadLocaleContent(root, locale, site));
    saveYamlCache();
    lap("content");
    const stylesheet = buildStylesheet(root);
    lap("css");
    // Pages to render (a first build, or content or code changed since the last one): the output thread
    // boots now, while this thread waits for esbuild, so that it is ready for the first page (booting it
    // at the start of the build slowed esbuild and content down; booting it on a rebuild with nothing to
    // render cost 50 ms of 250). Otherwise it starts only if something turns out to need it.
    if (mayRender) out.prepareThread();
    const [ssr, islands] = await Promise.all([ssrPromise, islandsPromise]);
    lap("bundles");

    // Every page to render: each route in each language, then per language the not-found page, the
    // form-result pages and the route error page.
    const jobs: (RenderJob & { file: string })[] = [];
    for (const route of routes) {
      for (const locale of LOCALES) jobs.push({ path: route.paths[locale], locale, routeId: route.id, label: route.paths[locale], file: outputFileForPath(route.paths[locale]) });
    }
    for (const locale of LOCALES) {
      jobs.push({ path: homePath(locale), locale, pageName: "not-found", label: `${notFoundFile(locale)} (not found)`, file: notFoundFile(locale) });
      for (const [result, keys] of Object.entries(FORM_RESULTS) as [FormResult, (typeof FORM_RESULTS)[FormResult]][]) {
        const path = formResultPath(result, locale);
        const metaKeys = { title: keys.title, description: keys.message };
        jobs.push({ path: homePath(locale), locale, pageName: "form-result", props: { result, ...keys }, metaKeys, label: `${path} (form result)`, file: outputFileForPath(path) });
      }
      jobs.push({ path: homePath(locale), locale, pageName: "error", props: { status: 500 }, label: `${errorFile(locale)} (error)`, file: errorFile(locale) });
    }
    const shared: RenderShared = {
      site,
      dictionaries: Object.fromEntries(contents.map((c) => [c.locale, c.dictionary])) as Record<LocaleCode, Map<string, string>>,
      stylesheet: stylesheet.href,
      scripts: islands.entryScripts,
      preloads: islands.preloads,
      islands: islands.islands,
    };
    // Each page is handed to the output thread (output.ts) as soon as it exists: that thread minifies,
    // writes and compresses it on the second core while this one renders the next page.
    const sizes = new Map<string, number>();
    // Every file is brotli-compressed, twins or not: the summary and the page budget give brotli sizes.
    // Quality 5 is more than ten times faster than 10 here (about 33 ms for all 46 pages instead of 500),
    // 20 % faster than 6 for 0.2 % more bytes, and the largest page stays under 10 KB (budget 14 KB,
    // tests/unit/gates.test.ts). Hashed assets (stylesheet, scripts) get 10 when their twins are
    // written: those are what every visitor then downloads, and 10 makes them 4 % smaller, for 50-140 ms
    // of a first build. Compressed copies are kept by content (compressed-cache.ts): a rebuild
    // compresses only what changed.
    const compressedCopies = new CompressedCache(cacheDir(root, "compressed.pack"));
    const twins = options.precompress === true;
    let minifyMs = 0;
    /**
     * Hands a file to the output (output.ts): written, brotli-compressed unless "none", with twins when
     * asked. A "page" is React's output, minified there first, with the shared parts it is the first to use
     * (`parts`) put in place; what resolves is the file as written.
     */
    const emit = (file: string, data: string | Uint8Array, kind: "asset" | "document" | "page" | "none", parts?: [string, string][]): Promise<string | Uint8Array> => {
      if (kind === "none") {
        const written = out.emit(file, data).then(() => data);
        compressJobs.push(written);
        return written;
      }
      // A rendered page is compressed anew (its copy is stored under the minified text's key); any other
      // file may have a copy from an earlier build.
      const quality = kind === "asset" && twins ? 10 : 5;
      const brKind = `br${quality}`;
      const known = kind === "page" ? undefined : compressedCopies.keyOf(data);
      const br = known ? compressedCopies.lookup(known, brKind) : undefined;
      const gz = known && twins ? compressedCopies.lookup(known, "gz") : undefined;
      const written = out.emit(file, data, { minify: kind === "page", parts: parts?.length ? parts : undefined, br: br ?? quality, gz: twins ? (gz ?? true) : undefined, twins }).then((made) => {
        const final = made.html ?? data;
        minifyMs += made.minifyMs ?? 0;
        sizes.set(file, (made.br ?? br)!.byteLength);
        const key = known ?? compressedCopies.keyOf(final);
        if (made.br) compressedCopies.store(key, brKind, made.br);
        if (made.gz) compressedCopies.store(key, "gz", made.gz);
        return final;
      });
      compressJobs.push(written);
      return written;
    };
    emit(stylesheet.file, stylesheet.code, "asset");
    for (const asset of islands.files) emit(asset.file, asset.code, "asset");
    lap("write");

    // Pages whose inputs did not change since an earlier build come from the cache (page-cache.ts).
    const pageCache = new PageCache(root, ssr.file, shared);
    const done = new Map<RenderJob, CachedPage>();
    for (const job of jobs) {
      const cached = pageCache.get(job);
      if (cached) {
        done.set(job, cached);
        void emit(job.file, cached.html, "document");
      }
    }
    const todo = jobs.filter((job) => !done.has(job));
    // Every other page goes to the worker (when there is one) and renders there while the rest render here.
    const split = worker && todo.length > 1 ? 2 : 1;
    const mine = todo.filter((_, i) => i % split === 0);
    const theirs = todo.filter((_, i) => i % split === 1);
    const fromWorker = split === 2 ? worker!.render(shared, theirs, ssr.file) : undefined;
    fromWorker?.catch(() => {});
    // Pages rendered here are minified by the output (on its thread when it has one); the worker's come minified.
    const written = new Map<RenderJob, Promise<string | Uint8Array>>();
    const none: RenderOutput = { html: [], missing: [], minifyMs: 0 };
    const here = mine.length ? renderJobs(await ssr.load(), shared, mine, { minify: false, onPage: (i, html, parts) => written.set(mine[i], emit(mine[i].file, html, "page", parts)) }) : none;
    const there: RenderOutput = fromWorker ? await fromWorker : none;
    theirs.forEach((job, i) => written.set(job, emit(job.file, there.html[i], "document")));
    minifyMs += there.minifyMs;
    const rendered = performance.now();
    // The files that need no page are handed over now, so that they are written while the output
    // thread finishes the last pages. The sitemap needs only the site's address and the routes: it is
    // made here (or comes from the cache), while this thread would otherwise only wait for the output
    // thread. Made earlier, while waiting for esbuild, it took CPU from esbuild.
    emit("robots.txt", buildRobots(site), "none");
    emit("favicon.svg", faviconSvg(site), "document");
    const host = hostFiles(site);
    emit("_headers", host.headers, "none");
    emit("_redirects", host.redirects, "none");
    const sitemapWritten = cachedSitemap(root, site).then((xml) => {
      timings.sitemap = performance.now() - rendered;
      return emit("sitemap.xml", xml, "document");
    });
    sitemapWritten.catch(() => {}); // reported by the Promise.all over compressJobs below
    compressJobs.push(sitemapWritten);
    const handedOver = performance.now();
    // Nothing left to render: this thread takes the output thread's newest pages while it does the oldest.
    await out.catchUpGradually();
    // Each page goes to the page cache as the output thread hands it back.
    await Promise.all(
      ([[mine, here], [theirs, there]] as const).flatMap(([group, output]) =>
        group.map(async (job) => {
          const page: CachedPage = { html: (await written.get(job)) as string, missing: output.missing.filter((m) => m[2] === job.label).map(([l, k]) => [l, k]) };
          done.set(job, page);
          pageCache.set(job, page);
        }),
      ),
    );
    pageCache.save();
    const missingUse = new Map<string, Set<string>>();
    for (const job of jobs) {
      for (const [locale, key] of done.get(job)!.missing) {
        const id = `${locale}\u0000${key}`;
        if (!missingUse.has(id)) missingUse.set(id, new Set());
        missingUse.get(id)!.add(job.label);
      }
    }
    const documents = jobs.map((job) => ({ path: job.routeId ? job.path : job.label, locale: job.locale, file: job.file, html: done.get(job)!.html }));
    // Minifying is reported as its own stage: on the output thread it overlaps rendering; without one it
    // ran inside this thread's rendering time, which is reported without it. Waiting for the output
    // thread to finish the last pages counts as writing (the sitemap is made meanwhile: its stage
    // overlaps that one).
    const waited = performance.now() - handedOver;
    lap("render");
    timings.render -= waited + (handedOver - rendered) + (out.threaded ? 0 : minifyMs);
    timings.write += waited;
    timings.minify = minifyMs;

    const missing = missingReport(contents, missingUse);
    if (missing.length && options.strict) {
      throw new SitegenError("MissingTranslations", `${missing.length} missing translation(s):\n${formatMissing(missing, root)}`, "Add the keys to content/<locale>/, or build without --strict to ship them as raw keys.");
    }

    await Promise.all(compressJobs);
    compressedCopies.save();
    lap("write");
    await out.commit();
    lap("swap");

    const pages: PageReport[] = documents.map((d) => ({
      path: d.path,
      locale: d.locale,
      file: d.file,
      bytes: Buffer.byteLength(d.html),
      brotliBytes: sizes.get(d.file) ?? 0,
    }));
    const assets = [stylesheet.file, ...islands.files.map((f) => f.file)].map((file) => ({
      file,
      bytes: file === stylesheet.file ? stylesheet.code.byteLength : islands.files.find((f) => f.file === file)!.code.byteLength,
      brotliBytes: sizes.get(file) ?? 0,
    }));
    const totalMs = performance.now() - started;
    return { outDir: options.outDir, site, pages, assets, missing, timings, totalMs, files: out.files, bytes: out.bytes, dictionaries: shared.dictionaries };
  } catch (error) {
    // Compression still running writes into the staged folder when it ends: let it end first.
    await Promise.allSettled(compressJobs);
    await out.discard();
    throw error;
  } finally {
    deferCacheWrites(null);
  }
}

/** sitemap.xml as an earlier build wrote it, when the routes (part of the generator), the site and the date are the same. */
async function cachedSitemap(root: string, site: SiteConfig): Promise<string> {
  const lastmod = new Date().toISOString().slice(0, 10);
  const key = sha1(JSON.stringify([generatorStamp(root), site.siteUrl, site.locales, lastmod]));
  const file = cacheDir(root, "sitemap.json");
  const cached = readCachedJson<{ key: string; xml: string }>(file);
  if (cached?.key === key && typeof cached.xml === "string") return cached.xml;
  const xml = await buildSitemap(site, lastmod);
  writeCached(file, JSON.stringify({ key, xml }));
  return xml;
}

/** Whether the page cache is missing or older than a file of content/ or src/ (stamps only: 1-2 ms). */
function pagesMayRender(root: string): boolean {
  let cachedAt: number;
  try {
    cachedAt = statSync(cacheDir(root, "pages.json")).mtimeMs;
  } catch {
    return true;
  }
  const sources = [...listFiles(root, "content", [".yaml", ".yml"], true), ...listFiles(root, "src", [".ts", ".tsx", ".css"], true)];
  try {
    return sources.some((file) => statSync(join(root, file)).mtimeMs > cachedAt);
  } catch {
    return true; // a file went away meanwhile: something changed
  }
}

function missingReport(contents: LocaleContent[], used: Map<string, Set<string>>): MissingKey[] {
  const report = new Map<string, MissingKey>();
  const definedIn = (key: string) => contents.find((c) => c.sources.has(key))?.sources.get(key);
  for (const [locale, keys] of Object.entries(compareLocales(contents))) {
    for (const key of keys) report.set(`${locale}\u0000${key}`, { locale, key, pages: [], definedIn: definedIn(key) });
  }
  for (const [id, pages] of used) {
    const [locale, key] = id.split("\u0000");
    const entry = report.get(id) ?? { locale, key, pages: [], definedIn: definedIn(key) };
    entry.pages = [...pages];
    report.set(id, entry);
  }
  return [...report.values()].sort((a, b) => a.locale.localeCompare(b.locale) || a.key.localeCompare(b.key));
}

/** One line per key: the locale, the key, where the other locale defines it, and which pages show it raw. */
export function formatMissing(missing: MissingKey[], root: string): string {
  return missing
    .map((m) => {
      const where = m.definedIn ? `defined only in ${relative(root, m.definedIn) || m.definedIn}` : "defined in no locale";
      const shown = m.pages.length ? `; shown raw on ${m.pages.slice(0, 3).join(", ")}${m.pages.length > 3 ? ` and ${m.pages.length - 3} more` : ""}` : "";
      return `  ${m.locale.padEnd(3)} ${m.key}  (${where}${shown})`;
    })
    .join("\n");
}
