import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

interface RunFigures {
  wallMs: number;
  buildMs: number;
  /** The build process's CPU time, user and system, every thread's. */
  cpuMs: number;
  pages: number;
  timings: Record<string, number>;
  maxRssMb: number;
}

/** The middle of a series of timings (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * `npm run bench`: builds the site `runs` times, each in a fresh Node process, as a developer's
 * `sitegen build` runs, and prints the median wall time (process start to exit) with its spread, the
 * time inside the process per stage, and peak memory. Node starting and doing nothing is timed between
 * the runs: these machines change speed from hour to hour, and that figure says how fast this one was.
 */
export async function runBench(root: string, runs: number): Promise<void> {
  const cli = join(root, "bin", "sitegen.js");
  const work = mkdtempSync(join(tmpdir(), "sitegen-bench-"));
  const results: RunFigures[] = [];
  const nodeAlone: number[] = [];
  try {
    // One run first, as a developer's first `npx --no sitegen` compiles the CLI.
    spawnSync(process.execPath, [cli, "build", "--out", join(work, "warmup"), "--json"], {
      cwd: root,
      encoding: "utf8",
    });
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const child = spawnSync(process.execPath, [cli, "build", "--out", join(work, `run-${i}`), "--json"], {
        cwd: root,
        encoding: "utf8",
      });
      const wallMs = performance.now() - started;
      if (child.status !== 0) throw new Error(`Bench run ${i + 1} failed:\n${child.stderr || child.stdout}`);
      const figures = JSON.parse(child.stdout.trim().split("\n").pop()!) as Omit<RunFigures, "wallMs">;
      results.push({ ...figures, wallMs });
      process.stdout.write(
        `  run ${i + 1}/${runs}: ${wallMs.toFixed(0)} ms wall, ${figures.cpuMs.toFixed(0)} ms CPU, ` +
          `${figures.buildMs.toFixed(0)} ms build\n`,
      );
      const nodeStarted = performance.now();
      spawnSync(process.execPath, ["-e", "0"]);
      nodeAlone.push(performance.now() - nodeStarted);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const pages = results[0].pages;
  const walls = results.map((r) => r.wallMs);
  const wall = median(walls);
  const build = median(results.map((r) => r.buildMs));
  console.log(
    `\nnpm run bench: ${runs} builds of ${pages} pages, each in a fresh Node process (Node ` +
      `${process.versions.node}), on ${availableParallelism()} cores`,
  );
  console.log(
    `  median wall time (process start to exit): ${wall.toFixed(0)} ms (spread ` +
      `${Math.min(...walls).toFixed(0)}-${Math.max(...walls).toFixed(0)} ms)`,
  );
  console.log(
    `  median build time (inside the process):   ${build.toFixed(0)} ms; ${(build / pages).toFixed(2)} ms a page`,
  );
  console.log(`  median CPU time (user + system):          ${median(results.map((r) => r.cpuMs)).toFixed(0)} ms`);
  console.log(
    `  per stage (median): ${Object.keys(results[0].timings)
      .map((s) => `${s} ${median(results.map((r) => r.timings[s] ?? 0)).toFixed(1)} ms`)
      .join(", ")}`,
  );
  console.log(`  peak memory (max RSS): ${Math.max(...results.map((r) => r.maxRssMb)).toFixed(0)} MB`);
  console.log(
    `  Node alone (node -e 0), between the runs: median ${median(nodeAlone).toFixed(0)} ms; every wall time above ` +
      `includes it.`,
  );
}

/**
 * `npm run bench -- --scale N`: the peer benchmark of ../shared/bench (bare React, Eleventy, Astro, Hugo)
 * with sitegen as one more peer, building bench/site from N generated entries per locale (2N pages),
 * all in one run so that only ratios within it count. run-peers.sh prints the table.
 */
export function runScaleBench(root: string, entries: number, peers: string): number {
  const bench = join(root, "..", "shared", "bench");
  if (!existsSync(join(bench, "run-peers.sh"))) {
    console.error(
      `npm run bench -- --scale: ${bench} is missing (the peer benchmark lives in ../shared/bench beside the project).`,
    );
    return 1;
  }
  for (const tool of ["hyperfine", "/usr/bin/time", ...(peers.includes("hugo") ? ["hugo"] : [])]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
      console.error(`npm run bench -- --scale: ${tool} is missing; run: apt-get install -y hyperfine time hugo`);
      return 1;
    }
  }
  if (!existsSync(join(bench, "node_modules"))) {
    const setup = spawnSync("bash", ["setup.sh"], { cwd: bench, stdio: "inherit" });
    if (setup.status !== 0) return setup.status ?? 1;
  }
  const env = {
    ...process.env,
    PEERS: peers,
    SITEGEN_BUILD: `${process.execPath} ${join(root, "bench", "build-peer-site.cjs")}`,
    SITEGEN_CLEAN_CACHE: `rm -rf ${join(root, "bench", "site", "node_modules", ".cache")}`,
  };
  return spawnSync("bash", ["run-peers.sh", String(entries)], { cwd: bench, env, stdio: "inherit" }).status ?? 1;
}
