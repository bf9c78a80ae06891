import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir } from "./build-cache.ts";

interface RunFigures {
  wallMs: number;
  buildMs: number;
  pages: number;
  timings: Record<string, number>;
  maxRssMb: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The build caches (build-cache.ts); the CLI's own compiled copy stays, as it does for any developer. */
const BUILD_CACHES = ["yaml.json", "islands.json", "ssr.json", "ssr", "css.json", "pages.json", "compressed.pack", "sitemap.json"];
/** The CLI's compiled copy (bin/sitegen.js), made by the first run after `npm ci`. */
const CLI_CACHE = ["cli.cjs", "cli.cjs.map", "output-thread.cjs", "output-thread.cjs.map", "cli.inputs.json"];

/**
 * `sitegen bench`: cold builds, each in a fresh Node process (start-up, content, both esbuild bundles, CSS,
 * render, minify, sitemap, compression and the swap), timed from outside and reported by the build
 * itself, so the figures compare with the peers' in research/peer-benchmark.md. The series:
 * - empty cache: the first build after changing the generator (caches cleared each run; the CLI's own
 *   compiled copy, made once on first use, is kept);
 * - first run: the first `sitegen build` after `npm ci`, which also compiles the CLI;
 * - warm cache: a new process after an earlier build (what `sitegen build` costs a developer day to day;
 *   unchanged content, bundles and compressed files come from node_modules/.cache/sitegen);
 * - where NODE_EXTRA_CA_CERTS is set, the empty-cache builds once more in processes started without it.
 */
export async function runBench(root: string, runs: number): Promise<void> {
  const cli = join(root, "bin", "sitegen.js");
  const args = (out: string) => [cli, "build", "--out", out, "--json"];
  // Set on machines behind a TLS-inspecting proxy (this one among them). Node 20 then builds its whole
  // certificate store at start-up, before any script runs: about 90 ms here, paid by every Node process
  // whatever it does. sitegen makes no TLS connection; the empty-cache builds are also timed without it,
  // so that the figure says what the build costs and what the machine's setting costs.
  const caCerts = process.env.NODE_EXTRA_CA_CERTS;
  const withoutCaCerts = { ...process.env };
  delete withoutCaCerts.NODE_EXTRA_CA_CERTS;
  const work = mkdtempSync(join(tmpdir(), "sitegen-bench-"));
  // Caches are moved aside and deleted after the last run: creating files right after deleting many is
  // several times slower on these machines (research/peer-benchmark.md), which a first build after a
  // clone never suffers.
  const trash = cacheDir(root, "..", `sitegen-bench-trash-${process.pid}`);
  let cleared = 0;
  const clearCaches = (names: string[]) => {
    mkdirSync(trash, { recursive: true });
    for (const name of names) {
      if (existsSync(cacheDir(root, name))) renameSync(cacheDir(root, name), join(trash, `${cleared++}-${name}`));
    }
  };
  const series: Record<"empty" | "warm" | "first" | "emptyNoCa", RunFigures[]> = { empty: [], warm: [], first: [], emptyNoCa: [] };
  const kinds: (keyof typeof series)[] = caCerts ? ["empty", "warm", "first", "emptyNoCa"] : ["empty", "warm", "first"];
  const nodeAlone: number[] = [];
  const nodeAloneNoCa: number[] = [];
  const timeNode = (env: NodeJS.ProcessEnv) => {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", "0"], { env });
    return performance.now() - started;
  };
  try {
    // One warm-up run compiles the CLI cache, as a developer's first `npx sitegen` does.
    spawnSync(process.execPath, args(join(work, "warmup")), { cwd: root, encoding: "utf8" });
    // Alternating the series spreads the machine's noise over all of them.
    for (let i = 0; i < runs * kinds.length; i++) {
      const kind = kinds[i % kinds.length];
      if (kind !== "warm") clearCaches(kind === "first" ? [...BUILD_CACHES, ...CLI_CACHE] : BUILD_CACHES);
      const started = performance.now();
      const child = spawnSync(process.execPath, args(join(work, `run-${i}`)), { cwd: root, encoding: "utf8", env: kind === "emptyNoCa" ? withoutCaCerts : process.env });
      const wallMs = performance.now() - started;
      if (child.status !== 0) throw new Error(`Bench run ${i + 1} failed:\n${child.stderr || child.stdout}`);
      const figures = JSON.parse(child.stdout.trim().split("\n").pop()!) as Omit<RunFigures, "wallMs">;
      series[kind].push({ ...figures, wallMs });
      const label = { empty: "empty cache", warm: "warm cache", first: "first run, CLI compiled too", emptyNoCa: "empty cache, without NODE_EXTRA_CA_CERTS" }[kind];
      process.stdout.write(`  run ${series[kind].length}/${runs} (${label}): ${wallMs.toFixed(0)} ms wall, ${figures.buildMs.toFixed(0)} ms build\n`);
      // A yardstick measured between the same runs: Node starting and doing nothing.
      if (kind === "warm") {
        nodeAlone.push(timeNode(process.env));
        if (caCerts) nodeAloneNoCa.push(timeNode(withoutCaCerts));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(trash, { recursive: true, force: true });
  }
  const pages = series.empty[0].pages;
  console.log(`\nsitegen bench: ${kinds.length} series of ${runs} builds of ${pages} pages (2 locales), each in a fresh Node process, on ${availableParallelism()} cores`);
  const headings = {
    empty: "empty cache (every build cache cleared; the CLI's compiled copy, made on first use, kept)",
    warm: "warm cache (a new process after an earlier build)",
    first: "first run after npm ci (the CLI compiled from its TypeScript sources too, every cache empty)",
    emptyNoCa: "empty cache again, in processes started without NODE_EXTRA_CA_CERTS",
  };
  for (const kind of kinds) {
    const results = series[kind];
    const wall = median(results.map((r) => r.wallMs));
    const build = median(results.map((r) => r.buildMs));
    const walls = results.map((r) => r.wallMs);
    const stages = Object.keys(results[0].timings);
    console.log(`\n  ${headings[kind]}:`);
    console.log(`    median wall time (process start to exit): ${wall.toFixed(0)} ms (spread ${Math.min(...walls).toFixed(0)}-${Math.max(...walls).toFixed(0)} ms)`);
    console.log(`    median build time (inside the process):   ${build.toFixed(0)} ms`);
    console.log(`    per page: ${(wall / pages).toFixed(2)} ms wall, ${(build / pages).toFixed(2)} ms build`);
    console.log(`    per stage (median): ${stages.map((s) => `${s} ${median(results.map((r) => r.timings[s] ?? 0)).toFixed(1)} ms`).join(", ")}`);
    console.log(`    peak memory (max RSS): ${Math.max(...results.map((r) => r.maxRssMb)).toFixed(0)} MB`);
    console.log(`    target, cold build under 500 ms wall on this machine: ${wall < 500 ? "met" : "NOT met"}`);
  }
  // These machines run faster or slower by a third from one hour to the next: this figure says which it was.
  console.log(`\n  Node alone (node -e 0), measured between the runs: median ${median(nodeAlone).toFixed(0)} ms; every wall time above includes it.`);
  if (caCerts) {
    console.log(
      `  NODE_EXTRA_CA_CERTS is set here (${caCerts}): Node reads its certificate store at every start-up, before any script runs; node -e 0 without it: median ${median(nodeAloneNoCa).toFixed(0)} ms.`,
    );
  }
}
