import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSite, formatMissing, type BuildResult } from "./build.ts";
import { formatError } from "./errors.ts";
import { startServe } from "./serve.ts";
import { runBench } from "./bench.ts";
import { runIfRenderWorker } from "./render-worker.ts";
import { declareOneShotBuild } from "./esbuild-service.ts";

// The compiled CLI is also the render worker's entry (render-worker.ts): in that thread, work is all it does.
runIfRenderWorker();

/**
 * The project root: the folder holding content/site.yaml. The working folder when it has one (a developer
 * in the repository), otherwise the nearest folder above this module that does (`npx sitegen` elsewhere).
 */
export function findProjectRoot(): string {
  if (existsSync(join(process.cwd(), "content", "site.yaml"))) return process.cwd();
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "content", "site.yaml"))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

const projectRoot = findProjectRoot();

function version(): string {
  return (JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { version: string }).version;
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

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The summary printed after every build: pages per locale, bytes, time per stage, and missing keys. */
export function buildSummary(result: BuildResult): string {
  const perLocale = new Map<string, number>();
  for (const p of result.pages) perLocale.set(p.locale, (perLocale.get(p.locale) ?? 0) + 1);
  const html = result.pages.reduce((s, p) => s + p.bytes, 0);
  const htmlBr = result.pages.reduce((s, p) => s + p.brotliBytes, 0);
  const largest = [...result.pages].sort((a, b) => b.brotliBytes - a.brotliBytes)[0];
  const lines = [
    `Built ${result.pages.length} pages (${[...perLocale].map(([l, n]) => `${l} ${n}`).join(", ")}) into ${result.outDir} in ${Math.round(result.totalMs)} ms`,
    `  HTML ${kb(html)} (${kb(htmlBr)} brotli; largest ${largest?.file} ${kb(largest?.brotliBytes ?? 0)})`,
    ...result.assets.map((a) => `  ${a.file} ${kb(a.bytes)} (${kb(a.brotliBytes)} brotli)`),
    `  ${result.files} files, ${kb(result.bytes)} written`,
    `  stages: ${Object.entries(result.timings).map(([s, ms]) => `${s} ${ms.toFixed(0)} ms`).join(", ")}`,
  ];
  if (result.missing.length) {
    lines.push(`warning: ${result.missing.length} missing translation(s); pages show the key itself (run with --strict to fail):`, formatMissing(result.missing, projectRoot));
  }
  return lines.join("\n");
}

export function createProgram(): Command {
  const program = new Command("sitegen")
    .description("Builds and serves the bilingual static site from content/ and src/.")
    .version(version(), "-v, --version")
    // An unknown flag or command is answered with what is valid: the help of the command it was given to.
    .showHelpAfterError(true)
    .showSuggestionAfterError(true)
    .exitOverride();

  program
    .command("build")
    .description("Render every page in both languages into a static folder.")
    .option("-o, --out <dir>", "output folder", "dist")
    .option("--site-url <url>", "base address for canonical URLs, hreflang and the sitemap (default: SITE_URL or content/site.yaml)")
    .option("--strict", "fail when a translation is missing instead of warning", false)
    .option("--precompress", "also write .br and .gz copies of every text file, for servers that send precompressed files (nginx brotli_static/gzip_static)", false)
    .addOption(new Option("--json", "print the figures as one JSON line (for sitegen bench)").hideHelp())
    .action(async (opts: { out: string; siteUrl?: string; strict: boolean; precompress: boolean; json?: boolean }) => {
      declareOneShotBuild();
      const result = await buildSite({ root: projectRoot, outDir: resolve(opts.out), siteUrl: opts.siteUrl, strict: opts.strict, precompress: opts.precompress });
      if (!opts.json) return console.log(buildSummary(result));
      const maxRssMb = process.resourceUsage().maxRSS / 1024;
      console.log(JSON.stringify({ buildMs: result.totalMs, pages: result.pages.length, timings: result.timings, maxRssMb }));
    });

  program
    .command("serve")
    .description("Build, then serve the site with the form endpoints; rebuild and reload on changes.")
    .option("-p, --port <n>", "port to listen on (0 picks a free one)", port, 4321)
    .option("--host <addr>", "address to listen on", "localhost")
    .option("-o, --out <dir>", "output folder to build into and serve", "dist")
    .option("--site-url <url>", "base address for canonical URLs (default: SITE_URL or content/site.yaml)")
    .option("--no-watch", "serve without watching src/ and content/")
    .action(async (opts: { port: number; host: string; out: string; siteUrl?: string; watch: boolean }) => {
      await startServe({ root: projectRoot, outDir: resolve(opts.out), port: opts.port, host: opts.host, siteUrl: opts.siteUrl, watch: opts.watch });
    });

  program
    .command("submissions")
    .description("Print the newsletter and contact submissions stored by the built-in endpoints.")
    .option("-t, --type <type>", "newsletter or contact (default: both)")
    .option("-f, --format <format>", "csv or json", "csv")
    .action(async (opts: { type?: string; format: string }) => {
      // Imported here rather than at the top: only this command reads the stored submissions.
      const { printSubmissions } = await import("./submissions-command.ts");
      printSubmissions(projectRoot, opts);
    });

  program
    .command("bench")
    .description("Build the site several times in fresh processes and print median timings and peak memory.")
    .option("-r, --runs <n>", "number of cold builds", count, 7)
    .action(async (opts: { runs: number }) => {
      await runBench(projectRoot, opts.runs);
    });

  return program;
}

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it. */
export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; unknown commands and flags were already explained by commander.
      return error.exitCode;
    }
    console.error(`\n${formatError(error)}\n`);
    return 1;
  }
}
