import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { PROJECT_FILES } from "../src/generator/project.ts";
import { median } from "./bench.ts";
import { filesUnder } from "../src/generator/files.ts";
import { addArticles, copyProject } from "./articles.ts";

/** How long `sitegen serve` may take to show one edit before the bench gives up on it. */
const SERVE_WAIT_MS = 20_000;

/**
 * `npm run bench -- --incremental N`: bench/site with N generated entries per locale (2N pages, written as
 * files of its own, so that sitegen serve watches them), and what one edited entry costs: `runs` cold builds
 * (`--no-cache`, fresh processes), then `runs` builds into the same folder after editing one entry's title,
 * then `sitegen serve` on that folder and the time from each save until the page it serves shows the edit.
 *
 * `--on this`: this site with the N generated articles per locale added (as `--articles` adds them), one word
 * of its oldest generated article's text edited (one word for another: its reading time, which other pages
 * show, stays), as a writer edits an article's text rather than its title, which its listings show too.
 */
export async function runIncrementalBench(
  root: string,
  entries: number,
  runs: number,
  on: "bench" | "this" = "bench",
): Promise<number> {
  const bench = join(root, "..", "shared", "bench");
  if (!existsSync(join(bench, "gen-content.mjs"))) {
    console.error(
      `npm run bench -- --incremental: ${bench} is missing (the peer benchmark lives in ../shared/bench beside ` +
        `the project).`,
    );
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), "sitegen-incremental-"));
  // bench/site's copy goes beside it, as its code finds sitegen's by relative paths, and the packages in the project's
  // node_modules.
  const site = on === "this" ? join(work, "site") : join(root, "bench", `.incremental-${process.pid}`);
  try {
    const generated = join(work, "generated");
    const made = spawnSync(process.execPath, [join(bench, "gen-content.mjs"), String(entries), generated], {
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`gen-content.mjs failed:\n${made.stderr}`);
    // gen-content.mjs writes one folder per locale of the benchmark's page.
    const locale = readdirSync(generated).sort()[0];
    let edited: string;
    if (on === "this") {
      copyProject(root, site);
      addArticles(site, generated);
      const oldest = readdirSync(join(generated, locale)).sort(
        (a, b) =>
          dateOf(join(generated, locale, a)).localeCompare(dateOf(join(generated, locale, b))) || a.localeCompare(b),
      )[0];
      edited = join(site, PROJECT_FILES.content, locale, "insights", oldest.replace(/\.yaml$/, ".md"));
    } else {
      benchSite(root, site);
      for (const folder of readdirSync(generated))
        cpSync(join(generated, folder), join(site, PROJECT_FILES.content, folder, "insights"), { recursive: true });
      edited = join(site, PROJECT_FILES.content, locale, "insights", readdirSync(join(generated, locale)).sort()[0]);
    }
    const original = readFileSync(edited, "utf8");
    // This site: the first word after the front matter, one word for one; bench/site: the title.
    const edit = (marker: string) =>
      writeFileSync(
        edited,
        on === "this"
          ? original.replace(/^(---\n[\s\S]*?\n---\n\s*)\S+/, `$1${marker}`)
          : original.replace(/^title: "/m, `title: "${marker} `),
      );

    const cli = join(root, "bin", "sitegen.js");
    const build = (args: string[]) => {
      const started = performance.now();
      const child = spawnSync(process.execPath, [cli, "build", "--json", ...args], { cwd: site, encoding: "utf8" });
      const wallMs = performance.now() - started;
      if (child.status !== 0) throw new Error(`sitegen build failed:\n${child.stderr || child.stdout}`);
      const figures = JSON.parse(child.stdout.trim().split("\n").pop()!) as {
        pages: number;
        rendered: number;
        cpuMs: number;
        timings: Record<string, number>;
      };
      return { wallMs, ...figures };
    };
    const out = join(work, "out");
    const cold = [];
    for (let i = 0; i < runs; i++) {
      cold.push(build(["--no-cache", "--out", join(work, "cold")]));
      process.stdout.write(`  cold build ${i + 1}/${runs}: ${cold[i].wallMs.toFixed(0)} ms (${cold[i].pages} pages)\n`);
    }
    build(["--out", out]);
    const incremental = [];
    for (let i = 0; i < runs; i++) {
      edit(`Edit${i}`);
      incremental.push(build(["--out", out]));
      process.stdout.write(
        `  incremental build ${i + 1}/${runs}: ${incremental[i].wallMs.toFixed(0)} ms (${incremental[i].rendered} ` +
          `of ${incremental[i].pages} pages rendered)\n`,
      );
    }
    // The edited entry's page: the file of its name that shows its title (every locale has one of that name).
    const slug = basename(edited).replace(/\.(ya?ml|md)$/, "");
    const title = /^title: "(.*)"$/m.exec(original)?.[1] ?? slug;
    const pageFile = filesUnder(out).find(
      (file) => basename(file) === `${slug}.html` && readFileSync(join(out, file), "utf8").includes(title),
    );
    if (!pageFile) throw new Error(`No page of ${out} shows the title of ${edited}.`);
    const served = await serveEdits(cli, site, out, `/${pageFile.replace(/\.html$/, "")}`, edit, runs);

    const coldMs = median(cold.map((f) => f.wallMs));
    const incrementalMs = median(incremental.map((f) => f.wallMs));
    const stages = (figures: { timings: Record<string, number> }[]) =>
      Object.keys(figures[0].timings)
        .map((s) => `${s} ${median(figures.map((f) => f.timings[s])).toFixed(0)} ms`)
        .join(", ");
    const what = on === "this" ? "this site with the generated articles added" : "bench/site";
    console.log(
      `\nnpm run bench -- --incremental ${entries}${on === "this" ? " --on this" : ""}: ${what}, ${cold[0].pages} ` +
        `pages, ${on === "this" ? "a word of an older article's text" : "one entry's title"} edited (${runs} runs ` +
        `each, medians)`,
    );
    const cpu = (figures: { cpuMs: number }[]) => `${median(figures.map((f) => f.cpuMs)).toFixed(0)} ms CPU`;
    console.log(`  cold build (--no-cache):  ${coldMs.toFixed(0)} ms wall, ${cpu(cold)}; ${stages(cold)}`);
    console.log(
      `  incremental build:        ${incrementalMs.toFixed(0)} ms wall, ${cpu(incremental)}; ${stages(incremental)}`,
    );
    console.log(`  incremental / cold:       ${((100 * incrementalMs) / coldMs).toFixed(1)} %`);
    console.log(
      `  sitegen serve, save to the edit in the page: ${median(served).toFixed(0)} ms ` +
        `(${served.map((ms) => ms.toFixed(0)).join(", ")})`,
    );
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  }
}

/** A generated entry's date, as gen-content.mjs writes it (YYYY-MM-DD). */
function dateOf(file: string): string {
  return /^date: "?(\d{4}-\d{2}-\d{2})/m.exec(readFileSync(file, "utf8"))?.[1] ?? "";
}

/** bench/site's code and text, without its entries. */
function benchSite(root: string, to: string): void {
  const from = join(root, "bench", "site");
  cpSync(join(from, "src"), join(to, "src"), { recursive: true });
  for (const entry of readdirSync(join(from, PROJECT_FILES.content), { withFileTypes: true })) {
    const path = join(from, PROJECT_FILES.content, entry.name);
    if (!entry.isDirectory()) cpSync(path, join(to, PROJECT_FILES.content, entry.name));
    else
      for (const file of readdirSync(path).filter((f) => f !== "insights"))
        cpSync(join(path, file), join(to, PROJECT_FILES.content, entry.name, file), { recursive: true });
  }
}

/** `sitegen serve` on the built folder; for each run, the time from a save until the page it serves shows the edit. */
async function serveEdits(
  cli: string,
  site: string,
  out: string,
  path: string,
  edit: (marker: string) => void,
  runs: number,
): Promise<number[]> {
  const child = spawn(process.execPath, [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--out", out], {
    cwd: site,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let printed = "";
      child.stdout!.on("data", (data: Buffer) => {
        printed += data.toString();
        const at = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(printed);
        if (at && printed.includes("Watching")) resolve(at[1]);
      });
      child.once("exit", (code) => reject(new Error(`sitegen serve stopped (exit code ${code}):\n${printed}`)));
    });
    const page = `${origin}${path}`;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Each save after the previous rebuild has settled, as a developer saves.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const marker = `Served${Date.now()}`;
      const saved = performance.now();
      edit(marker);
      for (;;) {
        const html = await (await fetch(page)).text();
        if (html.includes(marker)) break;
        if (performance.now() - saved > SERVE_WAIT_MS)
          throw new Error(`sitegen serve did not show the edit in ${page} within ${SERVE_WAIT_MS} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      times.push(performance.now() - saved);
      process.stdout.write(`  sitegen serve ${i + 1}/${runs}: ${times[i].toFixed(0)} ms\n`);
    }
    return times;
  } finally {
    // Stopped, and waited for: serve saves its build state as it stops, into the site's folder this bench removes.
    const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    try {
      process.kill(-child.pid!, "SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
      clearTimeout(timer);
    } catch {
      // already gone
    }
  }
}
