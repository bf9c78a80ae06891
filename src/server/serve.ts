import { join, relative, sep } from "node:path";
import { buildSite, type BuildResult } from "../generator/pipeline/build.ts";
import { terminalProgress } from "../generator/pipeline/progress.ts";
import { saveState } from "../generator/pipeline/state.ts";
import { formatError } from "../generator/errors.ts";
import { createSiteServer, listen } from "./server.ts";
import { loadEndpoints } from "../generator/endpoints.ts";
import { watchTree, type TreeWatcher } from "./watch-tree.ts";

export interface ServeOptions {
  root: string;
  outDir: string;
  port: number;
  host: string;
  siteUrl?: string;
  watch: boolean;
}

/** `sitegen serve`: build once, serve dist, and (unless --no-watch) rebuild and reload on every change. */
export async function startServe(options: ServeOptions): Promise<void> {
  // Compressed copies as a host would send them, but made fast: this build is made again on every save.
  // The first build is a whole one: on a terminal it says how far it has got, as sitegen build does.
  const progress = terminalProgress(process.stderr);
  const buildOptions = {
    root: options.root,
    outDir: options.outDir,
    siteUrl: options.siteUrl,
    precompress: "fast",
    drafts: true,
  } as const;
  let first: BuildResult;
  try {
    first = await buildSite({ ...buildOptions, progress });
  } finally {
    progress.clear();
  }
  console.log(
    `Built ${first.pages.length} pages in ${Math.round(first.totalMs)} ms` +
      (first.missing.length ? ` (${first.missing.length} missing translations; run sitegen build for the list)` : ""),
  );
  for (const warning of first.warnings) console.warn(`warning: ${formatError(warning)}`);
  // The site's endpoints answer in the visitor's language with the text of content/<locale>/; they read
  // their own settings, and this run's environment, themselves (plugin.ts).
  const api = await loadEndpoints(options.root, first.site, first.dictionaries);
  const site = createSiteServer({
    outDir: options.outDir,
    site: first.site,
    api: api.handlers,
    liveReload: options.watch,
  });

  const port = await listen(site.server, options.port, options.host, "serve");
  // Notifications (when SMTP_URL or NOTIFY_WEBHOOK_URL is set) and the retention purge run as under start.
  api.startBackground?.();
  const shownHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  const others = first.site.locales.filter((l) => l.prefix).map((l) => `${l.lang} at ${l.prefix}`);
  console.log(
    `Serving ${options.outDir} at http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}/` +
      (others.length ? ` (${others.join(", ")})` : ""),
  );

  const watchers: TreeWatcher[] = [];
  // The last good build: its state stays in memory between rebuilds, and is saved when serve stops.
  let last = first;
  let running = false;
  if (options.watch) {
    let timer: NodeJS.Timeout | undefined;
    let again = false;
    // What the watchers reported since the last good build, relative to the project: the next build looks
    // again at these entry files only, and keeps the state of the last build in memory for the rest.
    let pending = new Set<string>();
    const rebuild = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      const paths = pending;
      pending = new Set();
      // A watcher that could not watch a whole folder reports nothing for it: every entry file is looked at.
      const changed = watchers.some((w) => w.partial) ? undefined : paths;
      try {
        const result = await buildSite({ ...buildOptions, state: last.state, changed, saveState: false });
        last = result;
        site.refresh();
        console.log(
          `Rebuilt in ${Math.round(result.totalMs)} ms (${result.rendered} of ${result.pages.length} pages ` +
            `rendered, the others unchanged); open pages reload.`,
        );
      } catch (error) {
        // Those files still differ from what the last good build read.
        for (const path of paths) pending.add(path);
        // Keep serving the last good build; the developer fixes the file and saves again.
        console.error(`Rebuild failed; still serving the last good build.\n${formatError(error)}`);
      } finally {
        running = false;
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
          pending.add(relative(options.root, path).split(sep).join("/"));
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
    // A rebuild under way has forgotten the saved state and not finished: the next serve then starts cold.
    if (!running && last !== first) saveState(options.root, options.outDir, last.state);
    await site.close();
    await api.stopBackground?.(2_000);
    await api.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // A closed terminal, as Ctrl+C.
  process.once("SIGHUP", stop);
  // Keep the CLI's promise pending: the server runs until the process is stopped.
  await new Promise(() => {});
}
