import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ROOT, projectCopy } from "../helpers.ts";
import { cacheDir } from "../../src/generator/build-cache.ts";

const cli = join(ROOT, "bin", "sitegen.js");
const run = (args: string[], cwd = ROOT, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env } });

/** Every file of a folder with its content hash, to prove a failed build left it byte-for-byte alone. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = createHash("sha1").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return files;
}

describe("the CLI", () => {
  it("prints help and version and exits 0", () => {
    const help = run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/build/);
    expect(help.stdout).toMatch(/serve/);
    const version = run(["--version"]);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("explains an unknown flag or command and exits non-zero", () => {
    const flag = run(["build", "--bogus"]);
    expect(flag.status).not.toBe(0);
    expect(flag.stderr).toMatch(/unknown option '--bogus'/);
    // What is valid: build's own options.
    for (const option of ["--out <dir>", "--site-url <url>", "--strict", "--precompress"]) expect(flag.stderr).toContain(option);
    const command = run(["biuld"]);
    expect(command.status).not.toBe(0);
    expect(command.stderr).toMatch(/Did you mean build\?/);
    for (const name of ["build [options]", "serve [options]", "submissions [options]", "bench [options]"]) expect(command.stderr).toContain(name);
    expect(run(["serve", "--port", "abc"]).status).not.toBe(0);
  });
});

describe("failing builds", () => {
  it("name the YAML file, line and column, exit non-zero and leave dist unchanged", () => {
    const project = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    expect(run(["build", "--out", out], project).status).toBe(0);
    const before = snapshot(out);
    const file = join(project, "content", "pt", "home.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^hero:\n/m, "hero:\n  broken: [unclosed\n"));
    const failed = run(["build", "--out", out], project);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/content\/pt\/home\.yaml:\d+:\d+/);
    expect(snapshot(out)).toEqual(before);
  });

  it("name the page and route of a component that throws, and leave dist unchanged", () => {
    const project = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    expect(run(["build", "--out", out], project).status).toBe(0);
    const before = snapshot(out);
    const page = join(project, "src", "pages", "about.tsx");
    writeFileSync(page, readFileSync(page, "utf8").replace("export default function AboutPage() {", 'export default function AboutPage() {\n  throw new Error("leadership data is broken");'));
    const failed = run(["build", "--out", out], project);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/about.*\/about.*leadership data is broken/s);
    expect(snapshot(out)).toEqual(before);
  });

  it("write the same bytes with the output thread and shared markup as without them, twins included", () => {
    // Shared markup: parts rendered once per language and pasted into every page (SharedMarkup.tsx).
    const outs = ["1", "0"].map((flag) => {
      const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
      const built = run(["build", "--out", out, "--precompress"], ROOT, { SITEGEN_OUTPUT_THREAD: flag, SITEGEN_SHARED_MARKUP: flag });
      expect(built.status, built.stderr).toBe(0);
      return snapshot(out);
    });
    expect(Object.keys(outs[0]).filter((f) => f.endsWith(".html.br")).length).toBeGreaterThan(40);
    expect(outs[0]).toEqual(outs[1]);
  });

  it("leave the caches written by the output thread in place when the process ends", () => {
    // Caches of its own (the usual copy shares the repository's node_modules, and other tests' builds
    // would rewrite the same cache files meanwhile).
    const project = projectCopy();
    rmSync(join(project, "node_modules"));
    mkdirSync(join(project, "node_modules"));
    for (const name of readdirSync(join(ROOT, "node_modules")).filter((n) => n !== ".cache")) symlinkSync(join(ROOT, "node_modules", name), join(project, "node_modules", name));
    const marker = `Pular para o conteúdo ${process.pid}-${Date.now()}`;
    const yaml = join(project, "content", "pt", "common.yaml");
    writeFileSync(yaml, readFileSync(yaml, "utf8").replace(/skipToContent: .*/, `skipToContent: ${marker}`));
    const built = run(["build", "--out", join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist")], project);
    expect(built.status, built.stderr).toBe(0);
    // Written on the thread after the last page, and still complete once the process has exited.
    for (const name of ["yaml.json", "pages.json"]) expect(readFileSync(cacheDir(project, name), "utf8")).toContain(marker);
    expect(readFileSync(cacheDir(project, "compressed.pack")).byteLength).toBeGreaterThan(100_000);
  });

  it("render the same bytes with the render worker as without it, and name a component that throws inside it", () => {
    const project = projectCopy();
    const outs = ["1", "0"].map((flag) => {
      const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
      expect(run(["build", "--out", out], project, { SITEGEN_RENDER_WORKER: flag }).status).toBe(0);
      return snapshot(out);
    });
    expect(outs[0]).toEqual(outs[1]);
    // Odd pages render in the worker: /en/about is one of them.
    const page = join(project, "src", "pages", "about.tsx");
    writeFileSync(page, readFileSync(page, "utf8").replace("export default function AboutPage() {", 'export default function AboutPage() {\n  if (usePage().locale === "en") throw new Error("english leadership data is broken");'));
    const failed = run(["build", "--out", join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist")], project, { SITEGEN_RENDER_WORKER: "1" });
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/PageRenderError.*\/en\/about.*english leadership data is broken/s);
  });

  it("warn about a removed translation, show the key itself, and fail with --strict", () => {
    const project = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    const file = join(project, "content", "en", "common.yaml");
    // The first two-space "about:" of common.yaml is nav.about (nav is the file's first block).
    // footer.tagline shows in the footer only, which is rendered once per language and pasted into every
    // page (SharedMarkup.tsx): the report must still name every English page.
    writeFileSync(file, readFileSync(file, "utf8").replace(/^  about: .*\n/m, "").replace(/^  tagline: .*\n/m, ""));
    const warned = run(["build", "--out", out], project);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toMatch(/warning: \d+ missing translation/);
    expect(warned.stdout).toMatch(/en\s+nav\.about\s+\(defined only in content\/pt\/common\.yaml; shown raw on \/en/);
    const englishPages = readdirSync(out, { recursive: true }).filter((f) => String(f).startsWith("en") && String(f).endsWith(".html")).length;
    expect(englishPages).toBeGreaterThan(20);
    expect(warned.stdout).toMatch(new RegExp(`en\\s+footer\\.tagline\\s+\\(defined only in content/pt/common\\.yaml; shown raw on [^,\\n]+, [^,\\n]+, [^ \\n]+ and ${englishPages - 3} more\\)`));
    expect(readFileSync(join(out, "en/contact.html"), "utf8")).toContain(">footer.tagline<");
    expect(readFileSync(join(out, "en.html"), "utf8")).toContain(">nav.about<");
    const strict = run(["build", "--out", out, "--strict"], project);
    expect(strict.status).not.toBe(0);
    expect(strict.stderr).toMatch(/nav\.about/);
    expect(strict.stderr).not.toMatch(/ENOENT|Node\.js v/); // the build's own error, not a crash after it
    // Nothing of the failed build is left beside the output, not even files still being compressed.
    expect(readdirSync(dirname(out)).filter((name) => !name.startsWith("dist.old-"))).toEqual(["dist"]);
  });

  it("take the site address from --site-url or SITE_URL", () => {
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    expect(run(["build", "--out", out], ROOT, { SITE_URL: "https://staging.example.org/" }).status).toBe(0);
    expect(readFileSync(join(out, "about.html"), "utf8")).toContain('<link rel="canonical" href="https://staging.example.org/about">');
    expect(run(["build", "--out", out, "--site-url", "https://flag.example.org"]).status).toBe(0);
    expect(readFileSync(join(out, "sitemap.xml"), "utf8")).toContain("<loc>https://flag.example.org/en/about</loc>");
  });
});
