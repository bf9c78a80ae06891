import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSite, type BuildResult } from "./build/build.ts";
import { NO_PROGRESS, terminalProgress } from "./build/progress.ts";
import { buildSummary } from "./build/report.ts";
import { formatError } from "./errors.ts";
import { findProjectRoot } from "./project.ts";
import { addSiteCommands, wantsSiteCommands } from "./site-commands.ts";
import { TARGET_NAMES, type TargetName } from "./targets/targets.ts";

/** sitegen's own version: the nearest package.json named "sitegen" above this module (its sources, or its compiled copy). */
function version(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version: string };
      if (pkg.name === "sitegen") return pkg.version;
    } catch {
      // no package.json here: look further up
    }
  }
  return "unknown";
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("Use a whole number from 0 to 65535.");
  return n;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new InvalidArgumentError("Use a whole number from 1 to 100.");
  return n;
}

function entriesCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError("Use a whole number of entries per locale, from 1 to 100000.");
  return n;
}

export function createProgram(root: string): Command {
  const program = new Command("sitegen")
    .description("Builds and serves a static site from content/ and src/ (the folder holding content/site.yaml); start serves a built one.")
    .version(version(), "-v, --version")
    // An unknown flag or command is answered with what is valid: the help of the command it was given to.
    .showHelpAfterError(true)
    .showSuggestionAfterError(true)
    .exitOverride();

  program
    .command("build")
    .description("Render every page in every locale into a static folder.")
    .option("-o, --out <dir>", "output folder", "dist")
    .option("--site-url <url>", "base address for canonical URLs, hreflang and the sitemap (default: SITE_URL or content/site.yaml)")
    .option("--strict", "fail on what is otherwise a warning (a missing translation, a site with no page to publish)", false)
    .option("--precompress", "also write .br and .gz copies of every text file, for servers that send precompressed files (nginx brotli_static/gzip_static)", false)
    .addOption(new Option("--target <host>", "where the output is deployed: node (sitegen start, static hosts), cloudflare (Pages, with the endpoints as its worker) or netlify (with the endpoints as a Netlify Function and netlify.toml)").choices(TARGET_NAMES).default("node"))
    .option("--no-cache", "render every page, keeping nothing of the previous build (a cold build)")
    .addOption(new Option("--write-thread <when>", "write the files on a thread of their own beside the rendering: auto (when many pages are rendered), on or off").choices(["auto", "on", "off"]).default("auto"))
    .addOption(new Option("--json", "print the figures as one JSON line (for sitegen bench)").hideHelp())
    .action(async (opts: { out: string; siteUrl?: string; strict: boolean; precompress: boolean; target: TargetName; cache: boolean; writeThread: "auto" | "on" | "off"; json?: boolean }) => {
      const writeThread = opts.writeThread === "auto" ? undefined : opts.writeThread === "on";
      collectGarbageSooner();
      const tierUp = tierUpFlag(process.versions.v8, process.execArgv);
      if (tierUp) setFlagsFromString(tierUp);
      // On a terminal, a long build says how far it has got (on stderr: stdout keeps the summary alone).
      const progress = opts.json ? NO_PROGRESS : terminalProgress(process.stderr);
      let result: BuildResult;
      try {
        result = await buildSite({ root, outDir: resolve(opts.out), siteUrl: opts.siteUrl, strict: opts.strict, precompress: opts.precompress, target: opts.target, incremental: opts.cache, writeThread, progress });
      } finally {
        progress.clear();
      }
      if (opts.json) {
        const maxRssMb = process.resourceUsage().maxRSS / 1024;
        return console.log(JSON.stringify({ buildMs: result.totalMs, pages: result.pages.length, rendered: result.rendered, quick: result.quick === true, timings: result.timings, maxRssMb }));
      }
      console.log(buildSummary(result));
      if (result.targetSummary) console.log(result.targetSummary);
    });

  program
    .command("serve")
    .description("Build, then serve the site with its endpoints; rebuild and reload open pages on changes.")
    .option("-p, --port <n>", "port to listen on (0 picks a free one)", port, 4321)
    .option("--host <addr>", "address to listen on", "localhost")
    .option("-o, --out <dir>", "output folder to build into and serve", "dist")
    .option("--site-url <url>", "base address for canonical URLs (default: SITE_URL or content/site.yaml)")
    .option("--no-watch", "serve without watching src/ and content/")
    .action(async (opts: { port: number; host: string; out: string; siteUrl?: string; watch: boolean }) => {
      collectGarbageSooner();
      const { startServe } = await import("./serve.ts");
      await startServe({ root, outDir: resolve(opts.out), port: opts.port, host: opts.host, siteUrl: opts.siteUrl, watch: opts.watch });
    });

  program
    .command("start")
    .description("Serve a site sitegen build already made, with its endpoints, for a server or a container: no build, no watch, no reload.")
    .option("-p, --port <n>", `port to listen on (default: PORT from the environment, else 4321; 0 picks a free one)`, port)
    .option("--host <addr>", "address to listen on (0.0.0.0: every IPv4 interface, as a container needs; 127.0.0.1 behind a proxy on the same machine)", "0.0.0.0")
    .option("-o, --out <dir>", "the built site to serve", "dist")
    .option("--hsts", "send Strict-Transport-Security, for a server reached only through HTTPS (or set HSTS=1)", false)
    .option("--shutdown-timeout <seconds>", "on SIGTERM, how long requests in flight may take to finish", count, 8)
    .action(async (opts: { port?: number; host: string; out: string; hsts: boolean; shutdownTimeout: number }) => {
      const { startServer, startPort, hstsWanted } = await import("./start.ts");
      await startServer({
        root,
        outDir: resolve(opts.out),
        port: startPort(opts.port),
        host: opts.host,
        hsts: hstsWanted(opts.hsts),
        shutdownTimeoutMs: opts.shutdownTimeout * 1000,
      });
    });

  program
    .command("bench")
    .description("Build the site several times in fresh processes and print median timings and peak memory.")
    .option("-r, --runs <n>", "number of builds per series", count, 7)
    .option("--scale <entries>", "instead, run the peer benchmark of ../shared/bench (bare React, Eleventy, Astro, Hugo and sitegen) at <entries> generated articles per locale", entriesCount)
    .option("--peers <list>", "with --scale: the peers to run", "bare-react eleventy astro hugo sitegen")
    .option("--articles <entries>", "instead, build the site with <entries> generated articles per locale added, against bench/site with the same entries", entriesCount)
    .option("--incremental <entries>", "instead, time cold builds, builds after one edited entry, and sitegen serve showing an edit, on bench/site with <entries> generated entries per locale", entriesCount)
    .addOption(new Option("--on <site>", "with --incremental: bench/site, one entry's title edited, or this site with the generated articles added, one older article's text edited").choices(["bench", "this"]).default("bench"))
    .action(async (opts: { runs: number; scale?: number; peers: string; articles?: number; incremental?: number; on: "bench" | "this" }) => {
      const { runBench, runScaleBench } = await import("./bench.ts");
      if (opts.scale) {
        process.exitCode = runScaleBench(root, opts.scale, opts.peers);
        return;
      }
      if (opts.incremental) {
        const { runIncrementalBench } = await import("./bench-incremental.ts");
        process.exitCode = await runIncrementalBench(root, opts.incremental, opts.runs, opts.on);
        return;
      }
      if (opts.articles) {
        const { runArticlesBench } = await import("./bench-articles.ts");
        process.exitCode = runArticlesBench(root, opts.articles, opts.runs);
        return;
      }
      await runBench(root, opts.runs);
    });

  return program;
}

/** Runs the CLI in the project folder `root`; returns the exit code instead of exiting, so tests can call it. */
/**
 * A build allocates fast (every page's HTML, rendered and let go), and V8 then lets the heap grow several
 * times over before it collects: at tens of thousands of pages that, not what the build keeps, made most of
 * its memory. A smaller growing factor keeps the heap near what is alive, for a few more collections (the
 * README's Performance section has both, side by side).
 */
function collectGarbageSooner(): void {
  setFlagsFromString("--heap-growing-percent=20");
}

/**
 * The V8 flag that makes a build's functions wait longer before TurboFan compiles them, where that pays:
 * V8 before 12 (Node 20) has no middle tier between its baseline code and TurboFan (later ones have
 * Maglev), so it compiles with TurboFan soon, on the second core that the writing thread shares, and a build
 * of a few seconds spends much of its CPU there for functions that run only a little longer. Four times V8's
 * budget lets the hottest ones (React's rendering, the minifier) still be compiled. On later V8 it made no
 * difference beyond the noise (the README's Performance section has the figures). A budget given on node's
 * command line wins, so the two can be compared side by side: node --interrupt-budget=67584 bin/sitegen.js build.
 */
export function tierUpFlag(v8Version: string, execArgv: readonly string[]): string | undefined {
  if (Number(v8Version.split(".")[0]) >= 12 || execArgv.some((arg) => arg.startsWith("--interrupt-budget"))) return undefined;
  return "--interrupt-budget=270336";
}

export async function main(argv: string[], root = findProjectRoot()): Promise<number> {
  const program = createProgram(root);
  try {
    // The site's own commands (its endpoints module's `commands`), loaded only when they may be the ones asked for.
    if (wantsSiteCommands(program, argv)) await addSiteCommands(program, root);
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    // Help and version exit 0; unknown commands and flags were already explained by commander.
    if (error instanceof CommanderError) return error.exitCode;
    console.error(`\n${formatError(error)}\n`);
    return 1;
  }
}
