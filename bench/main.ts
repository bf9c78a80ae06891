import { Command, InvalidArgumentError, Option } from "commander";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runBench, runScaleBench } from "./bench.ts";
import { runArticlesBench } from "./articles.ts";
import { runIncrementalBench } from "./incremental.ts";

/** `npm run bench`: sitegen's benchmarks (docs/performance.md says what each prints and how to read it). */
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const whole = (low: number, high: number, what: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < low || n > high)
    throw new InvalidArgumentError(`Use a whole number of ${what}, from ${low} to ${high}.`);
  return n;
};

const program = new Command("bench")
  .description("Build the site several times in fresh processes and print median timings, CPU time and peak memory.")
  .option("-r, --runs <n>", "number of builds per series", whole(1, 100, "builds"), 7)
  .option(
    "--scale <entries>",
    "instead, run the peer benchmark of ../shared/bench at <entries> generated articles per locale",
    whole(1, 100_000, "entries"),
  )
  .option("--peers <list>", "with --scale: the peers to run", "bare-react eleventy astro hugo sitegen")
  .option(
    "--articles <entries>",
    "instead, build this site with <entries> generated articles per locale added, against bench/site",
    whole(1, 100_000, "entries"),
  )
  .option(
    "--incremental <entries>",
    "instead, time cold builds, builds after one edit, and sitegen serve showing an edit",
    whole(1, 100_000, "entries"),
  )
  .addOption(
    new Option("--on <site>", "with --incremental: bench/site, or this site with the generated articles added")
      .choices(["bench", "this"])
      .default("bench"),
  )
  .action(
    async (opts: {
      runs: number;
      scale?: number;
      peers: string;
      articles?: number;
      incremental?: number;
      on: "bench" | "this";
    }) => {
      if (opts.scale) process.exitCode = runScaleBench(root, opts.scale, opts.peers);
      else if (opts.incremental)
        process.exitCode = await runIncrementalBench(root, opts.incremental, opts.runs, opts.on);
      else if (opts.articles) process.exitCode = runArticlesBench(root, opts.articles, opts.runs);
      else await runBench(root, opts.runs);
    },
  );

await program.parseAsync(process.argv);
