import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSite, type BuildResult } from "./pipeline/build.ts";
import { NO_PROGRESS, terminalProgress } from "./pipeline/progress.ts";
import { buildSummary } from "./pipeline/report.ts";
import { formatError } from "./errors.ts";
import { findProjectRoot, serveFolder, sitegenFolder } from "./project.ts";
import { addSiteCommands, wantsSiteCommands } from "./site-commands.ts";
import { TARGET_NAMES, type TargetName } from "./targets/targets.ts";
import { addInitCommand } from "../../starter/init.ts";

/** sitegen's own version, from its package.json. */
function version(): string {
  const file = join(sitegenFolder(), "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
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

interface BuildFlags {
  out: string;
  siteUrl?: string;
  strict: boolean;
  precompress: boolean;
  target: TargetName;
  cache: boolean;
  json?: boolean;
}

export function createProgram(root: string): Command {
  const program = new Command("sitegen")
    .description(
      "Builds and serves a static site from content/ and src/ (the folder holding content/site.yaml); start " +
        "serves a built one.",
    )
    .version(version(), "-v, --version")
    // An unknown flag or command is answered with what is valid: the help of the command it was given to.
    .showHelpAfterError(true)
    .showSuggestionAfterError(true)
    .exitOverride();

  program
    .command("build")
    .description("Render every page in every locale into a static folder.")
    .option("-o, --out <dir>", "output folder", "dist")
    .option(
      "--site-url <url>",
      "base address for canonical URLs, hreflang and the sitemap (default: SITE_URL or content/site.yaml)",
    )
    .option(
      "--strict",
      "fail on what is otherwise a warning (a missing translation, a broken link, a site with no page to publish)",
      false,
    )
    .option(
      "--precompress",
      "also write .br and .gz copies of every text file, for servers that send precompressed files (nginx " +
        "brotli_static/gzip_static)",
      false,
    )
    .addOption(
      new Option(
        "--target <host>",
        "where the output is deployed: node (sitegen start, static hosts), cloudflare (Pages, with the endpoints " +
          "as its worker) or netlify (with the endpoints as a Netlify Function and netlify.toml)",
      )
        .choices(TARGET_NAMES)
        .default("node"),
    )
    .option("--no-cache", "render every page, keeping nothing of the previous build (a cold build)")
    .addOption(new Option("--json", "print the figures as one JSON line (for the benchmarks of bench/)").hideHelp())
    .action(async (opts: BuildFlags) => {
      // On a terminal, a long build says how far it has got (on stderr: stdout keeps the summary alone).
      const progress = opts.json ? NO_PROGRESS : terminalProgress(process.stderr);
      let result: BuildResult;
      try {
        result = await buildSite({
          ...{ root, outDir: resolve(opts.out), siteUrl: opts.siteUrl, strict: opts.strict },
          ...{ precompress: opts.precompress, target: opts.target, incremental: opts.cache, progress },
        });
      } finally {
        progress.clear();
      }
      if (opts.json) {
        // The process's CPU time (every thread's), beside the wall time: it swings less on a shared machine.
        const usage = process.resourceUsage();
        const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
        const { totalMs: buildMs, pages, rendered, timings } = result;
        return console.log(
          JSON.stringify({ buildMs, cpuMs, pages: pages.length, rendered, timings, maxRssMb: usage.maxRSS / 1024 }),
        );
      }
      console.log(buildSummary(result));
      if (result.targetSummary) console.log(result.targetSummary);
    });

  program
    .command("serve")
    .description("Build, then serve the site with its endpoints; rebuild and reload open pages on changes.")
    .option("-p, --port <n>", "port to listen on (0 picks a free one)", port, 4321)
    .option("--host <addr>", "address to listen on", "localhost")
    .option(
      "-o, --out <dir>",
      "output folder to build into and serve (default: node_modules/.cache/sitegen/serve; dist/ is sitegen build's)",
    )
    .option("--site-url <url>", "base address for canonical URLs (default: SITE_URL or content/site.yaml)")
    .option("--no-watch", "serve without watching src/ and content/")
    .action(async (opts: { port: number; host: string; out?: string; siteUrl?: string; watch: boolean }) => {
      const { startServe } = await import("../server/serve.ts");
      await startServe({ ...opts, root, outDir: opts.out ? resolve(opts.out) : serveFolder(root) });
    });

  program
    .command("start")
    .description(
      "Serve a site sitegen build already made, with its endpoints, for a server or a container: no build, no " +
        "watch, no reload.",
    )
    .option(
      "-p, --port <n>",
      `port to listen on (default: PORT from the environment, else 4321; 0 picks a free one)`,
      port,
    )
    .option(
      "--host <addr>",
      "address to listen on (0.0.0.0: every IPv4 interface, as a container needs; 127.0.0.1 behind a proxy on the " +
        "same machine)",
      "0.0.0.0",
    )
    .option("-o, --out <dir>", "the built site to serve", "dist")
    .option("--hsts", "send Strict-Transport-Security, for a server reached only through HTTPS (or set HSTS=1)", false)
    .option("--shutdown-timeout <seconds>", "on SIGTERM, how long requests in flight may take to finish", count, 8)
    .action(async (opts: { port?: number; host: string; out: string; hsts: boolean; shutdownTimeout: number }) => {
      const { startServer, startPort, hstsWanted } = await import("../server/start.ts");
      const { host, hsts, shutdownTimeout } = opts;
      const settings = {
        host,
        port: startPort(opts.port),
        hsts: hstsWanted(hsts),
        shutdownTimeoutMs: shutdownTimeout * 1000,
      };
      await startServer({ ...settings, root, outDir: resolve(opts.out) });
    });

  addInitCommand(program);
  return program;
}

/** Runs the CLI in the project folder `root`; returns the exit code instead of exiting, so tests can call it. */
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
