import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseYaml } from "../src/generator/yaml.ts";
import { PROJECT_FILES } from "../src/generator/project.ts";
import { median } from "./bench.ts";

interface Figures {
  wallMs: number;
  cpuMs: number;
  pages: number;
  timings: Record<string, number>;
  maxRssMb: number;
}

/**
 * `npm run bench -- --articles N`: the site itself with N generated articles per locale added (its whole
 * pages, islands, listing pages, feeds and sitemap), against bench/site built from the same N entries,
 * each built cold in a fresh process, in turns, `runs` times. The articles are ../shared/bench's
 * generated entries written as the site's Markdown articles (their authors and tags the site's own).
 */
export function runArticlesBench(root: string, entries: number, runs: number): number {
  const bench = join(root, "..", "shared", "bench");
  if (!existsSync(join(bench, "gen-content.mjs"))) {
    console.error(
      `npm run bench -- --articles: ${bench} is missing ` +
        "(the peer benchmark lives in ../shared/bench beside the project).",
    );
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), "sitegen-articles-"));
  const links: string[] = [];
  try {
    const generated = join(work, "generated");
    const made = spawnSync(process.execPath, [join(bench, "gen-content.mjs"), String(entries), generated], {
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`gen-content.mjs failed:\n${made.stderr}`);
    const site = join(work, "site");
    copyProject(root, site);
    const count = addArticles(site, generated);
    // gen-content.mjs writes one folder per locale of the benchmark's page.
    for (const locale of readdirSync(generated)) {
      const link = join(root, "bench", "site", PROJECT_FILES.content, locale, "insights");
      rmSync(link, { recursive: true, force: true });
      symlinkSync(join(generated, locale), link, "dir");
      links.push(link);
    }
    const cli = join(root, "bin", "sitegen.js");
    let builds = 0;
    const build = (cwd: string, out: string): Figures => {
      // The previous build's files are written back to the disk first, as the peer runner's --prepare does:
      // otherwise each build pays for the one before it (docs/performance.md).
      spawnSync("sync");
      const started = performance.now();
      const child = spawnSync(process.execPath, [cli, "build", "--no-cache", "--out", out, "--json"], {
        cwd,
        encoding: "utf8",
      });
      const wallMs = performance.now() - started;
      // Moved aside, not removed: on ext4 the next build would pay for the thousands of files removed just before
      // it (../shared/bench's README, "Disk"). The work folder, and so what is moved aside, goes at the end.
      if (existsSync(out)) renameSync(out, join(work, `done-${++builds}`));
      if (child.status !== 0) throw new Error(`Build in ${cwd} failed:\n${child.stderr || child.stdout}`);
      return { wallMs, ...(JSON.parse(child.stdout.trim().split("\n").pop()!) as Omit<Figures, "wallMs">) };
    };
    const real: Figures[] = [];
    const benchSite: Figures[] = [];
    build(site, join(work, "warmup"));
    for (let i = 0; i < runs; i++) {
      real.push(build(site, join(work, "out-site")));
      benchSite.push(build(join(root, "bench", "site"), join(work, "out-bench")));
      const [siteMs, benchMs] = [real[i].wallMs.toFixed(0), benchSite[i].wallMs.toFixed(0)];
      process.stdout.write(`  run ${i + 1}/${runs}: site ${siteMs} ms, bench site ${benchMs} ms\n`);
    }
    const ms = (figures: Figures[], of: (f: Figures) => number) => `${median(figures.map(of)).toFixed(0)} ms`;
    const line = (name: string, figures: Figures[]) => {
      const stages = Object.keys(figures[0].timings).map((s) => `${s} ${ms(figures, (f) => f.timings[s])}`);
      const peak = Math.max(...figures.map((f) => f.maxRssMb)).toFixed(0);
      const times = `median wall ${ms(figures, (f) => f.wallMs)}, CPU ${ms(figures, (f) => f.cpuMs)}`;
      return `  ${name}: ${figures[0].pages} pages, ${times}, peak ${peak} MB; per stage ${stages.join(", ")}`;
    };
    console.log(
      `\nnpm run bench -- --articles ${entries}: the site with ${count} generated articles added, ` +
        `against bench/site with the same entries (${runs} cold builds each, in turns)`,
    );
    console.log(line("site + articles", real));
    console.log(line("bench site     ", benchSite));
    const ratio = median(real.map((f) => f.wallMs)) / median(benchSite.map((f) => f.wallMs));
    console.log(`  ratio (site / bench site, median wall): ${ratio.toFixed(2)}`);
    return 0;
  } finally {
    // The links into the generated entries would point nowhere once they are removed.
    for (const link of links) rmSync(link, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

/** The project's content, code and public files, with its packages linked (each one: the copy keeps its own cache). */
export function copyProject(root: string, to: string): void {
  for (const folder of [PROJECT_FILES.content, "src", "public"])
    if (existsSync(join(root, folder))) cpSync(join(root, folder), join(to, folder), { recursive: true });
  mkdirSync(join(to, "node_modules"));
  for (const name of readdirSync(join(root, "node_modules")))
    if (name !== ".cache") symlinkSync(join(root, "node_modules", name), join(to, "node_modules", name), "dir");
  for (const file of ["package.json", "package-lock.json"])
    if (existsSync(join(root, file))) symlinkSync(join(root, file), join(to, file));
}

/**
 * Each generated entry as one of the site's articles (content/<locale>/insights/<slug>.md): its title,
 * excerpt, date and body; an author and tags taken in turn from those the site's articles already use.
 */
export function addArticles(site: string, generated: string): number {
  let count = 0;
  for (const locale of readdirSync(generated)) {
    const dir = join(site, PROJECT_FILES.content, locale, "insights");
    const existing = readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => frontMatter(join(dir, f)));
    const authors = [...new Set(existing.map((f) => String(f.author)))];
    const tags = [...new Set(existing.flatMap((f) => (Array.isArray(f.tags) ? (f.tags as string[]) : [])))];
    readdirSync(join(generated, locale)).forEach((file, i) => {
      const entry = parseYaml(file, readFileSync(join(generated, locale, file), "utf8")) as Record<string, string>;
      const front = [
        `title: ${JSON.stringify(entry.title)}`,
        `description: ${JSON.stringify(entry.excerpt)}`,
        `date: ${entry.date}`,
        `author: ${authors[i % authors.length]}`,
        `tags: [${tags[i % tags.length]}, ${tags[(i + 3) % tags.length]}]`,
      ];
      writeFileSync(join(dir, file.replace(/\.yaml$/, ".md")), `---\n${front.join("\n")}\n---\n\n${entry.body}\n`);
      count++;
    });
  }
  return count;
}

function frontMatter(file: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, "utf8"));
  return (match ? parseYaml(file, match[1]) : {}) as Record<string, unknown>;
}
