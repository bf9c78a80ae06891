import { join } from "node:path";
import { buildSite, type BuildResult } from "./build/build.ts";
import { terminalProgress } from "./build/progress.ts";
import { formatError } from "./errors.ts";
import { createSiteServer, listen } from "./server.ts";
import { loadEndpoints } from "./endpoints.ts";
import { watchTree, type TreeWatcher } from "./watch-tree.ts";
import { ChangedPaths } from "./build/build-memory.ts";

export interface ServeOptions {
  root: string;
  outDir: string;
  port: number;
  host: string;
  siteUrl?: string;
  watch: boolean;
}

/**
 * How long after a rebuild, with no save in between, its caches are saved for the next sitegen serve: saving
 * them takes a moment at thousands of pages, which an edit arriving meanwhile would wait for.
 */
const SAVE_AFTER_MS = 3_000;

/** `sitegen serve`: build once, serve dist, and (unless --no-watch) rebuild and reload on every change. */
export async function startServe(options: ServeOptions): Promise<void> {
  // Compressed copies as a host would send them, but made fast: this build is made again on every save.
  // The first build is a whole one: on a terminal it says how far it has got, as sitegen build does.
  const progress = terminalProgress(process.stderr);
  let first: BuildResult;
  try {
    first = await buildSite({ root: options.root, outDir: options.outDir, siteUrl: options.siteUrl, precompress: "fast", drafts: true, progress });
  } finally {
    progress.clear();
  }
  console.log(`Built ${first.pages.length} pages in ${Math.round(first.totalMs)} ms${first.missing.length ? ` (${first.missing.length} missing translations; run sitegen build for the list)` : ""}`);
  for (const warning of first.warnings) console.warn(`warning: ${formatError(warning)}`);
  // The site's endpoints answer in the visitor's language with the text of content/<locale>/.
  const api = await loadEndpoints(options.root, first.site, first.dictionaries);
  const site = createSiteServer({ outDir: options.outDir, site: first.site, api: api.handlers, liveReload: options.watch });

  const port = await listen(site.server, options.port, options.host, "serve");
  // Notifications (when SMTP_URL or NOTIFY_WEBHOOK_URL is set) and the retention purge run as under start.
  api.startBackground?.();
  const shownHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  const others = first.site.locales.filter((l) => l.prefix).map((l) => `${l.lang} at ${l.prefix}`);
  console.log(`Serving ${options.outDir} at http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}/${others.length ? ` (${others.join(", ")})` : ""}`);

  const watchers: TreeWatcher[] = [];
  let last = first;
  // The manifest and entry cache a rebuild left to save: a failure to save them only means a slower next start.
  const saveCaches = () => {
    try {
      last.memory?.save?.();
    } catch (error) {
      console.warn(`warning: the build's cache was not saved; the next sitegen serve starts with a full build.\n${formatError(error)}`);
    }
  };
  if (options.watch) {
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    let again = false;
    // An edit under content/ alone reuses the compiled code of the last build; one under src/ compiles again.
    let codeChanged = false;
    // What the watchers reported since the last good build: the next build looks again at these files only,
    // and takes the rest from what the last build left in memory (build-memory.ts).
    let pending = new Set<string>();
    let saveTimer: NodeJS.Timeout | undefined;
    const rebuild = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      clearTimeout(saveTimer);
      const bundles = codeChanged ? undefined : last.bundles;
      codeChanged = false;
      const paths = pending;
      pending = new Set();
      const changed = watchers.some((w) => w.partial) ? undefined : new ChangedPaths(options.root, paths);
      try {
        const result = await buildSite({ root: options.root, outDir: options.outDir, siteUrl: options.siteUrl, precompress: "fast", drafts: true, bundles, memory: last.memory, changed, saveLater: true });
        last = result;
        site.refresh();
        console.log(`Rebuilt in ${Math.round(result.totalMs)} ms (${result.rendered} of ${result.pages.length} pages rendered, the others unchanged); open pages reload.`);
      } catch (error) {
        if (!bundles) codeChanged = true;
        // Those files still differ from what the last good build read.
        for (const path of paths) pending.add(path);
        // Keep serving the last good build; the developer fixes the file and saves again.
        console.error(`Rebuild failed; still serving the last good build.\n${formatError(error)}`);
      } finally {
        running = false;
        // Saved once the developer pauses; a rebuild before then saves what this one would have.
        saveTimer = setTimeout(saveCaches, SAVE_AFTER_MS);
        if (again) {
          again = false;
          void rebuild();
        }
      }
    };
    for (const folder of ["src", "content"]) {
      watchers.push(
        // Every save counts, a rename over the old file (sed -i, editors' atomic saves) included: see watch-tree.ts.
        watchTree(join(options.root, folder), (path) => {
          if (folder === "src") codeChanged = true;
          pending.add(path);
          clearTimeout(timer);
          // A save's events arrive within a few milliseconds; a later one only queues one more rebuild.
          timer = setTimeout(rebuild, 25);
        }),
      );
    }
    console.log("Watching src/ and content/ for changes (Ctrl+C to stop).");
  }

  const stop = async () => {
    for (const w of watchers) w.close();
    saveCaches();
    await site.close();
    await api.stopBackground?.(2_000);
    await api.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // A closed terminal: the caches are saved as on Ctrl+C.
  process.once("SIGHUP", stop);
  // Keep the CLI's promise pending: the server runs until the process is stopped.
  await new Promise(() => {});
}
