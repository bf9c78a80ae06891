import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ROOT, parseHtml, projectCopy } from "../helpers.ts";

const cli = join(ROOT, "bin", "sitegen.js");
// A CLI that does not stop by itself (a thread left running) is stopped, and its run fails: status null.
const run = (args: string[], cwd = ROOT, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 120_000,
  });

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
    for (const option of ["--out <dir>", "--site-url <url>", "--strict", "--precompress"])
      expect(flag.stderr).toContain(option);
    const command = run(["biuld"]);
    expect(command.status).not.toBe(0);
    expect(command.stderr).toMatch(/Did you mean build\?/);
    for (const name of ["build [options]", "serve [options]", "start [options]", "submissions [options]"])
      expect(command.stderr).toContain(name);
    expect(run(["serve", "--port", "abc"]).status).not.toBe(0);
    // A host sitegen cannot build for is named with those it can, before anything is built.
    const target = run([
      "build",
      "--target",
      "vercel",
      "--out",
      join(mkdtempSync(join(tmpdir(), "sitegen-target-")), "dist"),
    ]);
    expect(target.status).not.toBe(0);
    expect(target.stderr).toContain(
      "option '--target <host>' argument 'vercel' is invalid. Allowed choices are node, cloudflare, netlify.",
    );
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
    expect(failed.stderr).toMatch(/YamlSyntaxError: YAML syntax error\n\s+content\/pt\/home\.yaml:3:\d+: /);
    expect(failed.stderr).toMatch(/\n\s+hint: Fix the YAML at that line and column/);
    expect(snapshot(out)).toEqual(before);
  });

  const stopOnFirstBuildFailure =
    "stop by themselves when a first build fails before writing (the thread started for its pages is stopped too)";
  it(stopOnFirstBuildFailure, () => {
    const project = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    const file = join(project, "content", "pt", "home.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^hero:\n/m, "hero:\n  broken: [unclosed\n"));
    const failed = run(["build", "--out", out], project);
    expect(failed.signal).toBeNull();
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/YamlSyntaxError: YAML syntax error/);
    expect(readdirSync(dirname(out))).not.toContain("dist");
  });

  it("name the page and route of a component that throws, and leave dist unchanged", () => {
    const project = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    // The build's scratch file of entry bodies goes with the build, whether it succeeds or fails.
    const scratch = () => readdirSync(join(project, "node_modules", ".cache", "sitegen"));
    expect(run(["build", "--out", out], project).status).toBe(0);
    expect(scratch().filter((name) => name.startsWith("bodies-"))).toEqual([]);
    const before = snapshot(out);
    const page = join(project, "src", "pages", "about.tsx");
    writeFileSync(
      page,
      readFileSync(page, "utf8").replace(
        "export default function AboutPage() {",
        'export default function AboutPage() {\n  throw new Error("leadership data is broken");',
      ),
    );
    const failed = run(["build", "--out", out], project);
    expect(failed.status).not.toBe(0);
    expect(scratch().filter((name) => name.startsWith("bodies-"))).toEqual([]);
    expect(failed.stderr).toMatch(
      new RegExp(
        /PageRenderError: A page failed to render\n\s+/.source +
          /Rendering route "about" at \/about \(pt\) failed: leadership data is broken\n\s+at AboutPage/.source,
      ),
    );
    expect(snapshot(out)).toEqual(before);
  });

  it("warn about a removed translation, show the key itself, and fail with --strict", () => {
    const project = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    const file = join(project, "content", "en", "common.yaml");
    // The first two-space "about:" of common.yaml is nav.about (nav is the file's first block);
    // footer.tagline shows in the footer, so on every English page.
    writeFileSync(
      file,
      readFileSync(file, "utf8")
        .replace(/^  about: .*\n/m, "")
        .replace(/^  tagline: .*\n/m, ""),
    );
    const warned = run(["build", "--out", out], project);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toMatch(/warning: \d+ missing translation/);
    expect(warned.stdout).toMatch(/en\s+nav\.about\s+\(defined only in content\/pt\/common\.yaml; shown raw on \/en/);
    const englishPages = readdirSync(out, { recursive: true }).filter(
      (f) => String(f).startsWith("en") && String(f).endsWith(".html"),
    ).length;
    expect(englishPages).toBeGreaterThan(20);
    expect(warned.stdout).toMatch(
      new RegExp(
        `en\\s+footer\\.tagline\\s+\\(defined only in content/pt/common\\.yaml; ` +
          `shown raw on [^,\\n]+, [^,\\n]+, [^ \\n]+ and ${englishPages - 3} more\\)`,
      ),
    );
    expect(
      parseHtml(readFileSync(join(out, "en/contact.html"), "utf8")).querySelector(".site-footer p")!.textContent,
    ).toBe("footer.tagline");
    expect(
      parseHtml(readFileSync(join(out, "en.html"), "utf8"))
        .querySelectorAll(".nav-list a")
        .map((a) => a.textContent),
    ).toContain("nav.about");
    const strict = run(["build", "--out", out, "--strict"], project);
    expect(strict.status).not.toBe(0);
    expect(strict.stderr).toMatch(/MissingTranslations: Missing translations\n.*\n\s+en\s+footer\.tagline/);
    expect(strict.stderr).toMatch(/nav\.about/);
    expect(strict.stderr).not.toMatch(/ENOENT|Node\.js v/); // the build's own error, not a crash after it
    // Nothing of the failed build is left beside the output, not even files still being compressed.
    expect(readdirSync(dirname(out))).toEqual(["dist"]);
  });

  it("take the site address from --site-url or SITE_URL", () => {
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-out-")), "dist");
    expect(run(["build", "--out", out], ROOT, { SITE_URL: "https://staging.example.org/" }).status).toBe(0);
    expect(
      parseHtml(readFileSync(join(out, "about.html"), "utf8"))
        .querySelector('link[rel="canonical"]')!
        .getAttribute("href"),
    ).toBe("https://staging.example.org/about");
    expect(run(["build", "--out", out, "--site-url", "https://flag.example.org"]).status).toBe(0);
    expect(
      parseHtml(readFileSync(join(out, "sitemap.xml"), "utf8"))
        .querySelectorAll("loc")
        .map((l) => l.textContent),
    ).toContain("https://flag.example.org/en/about");
  });

  it("after a build killed with kill -9, remove the staging folder it left, cold or incremental", () => {
    const parent = mkdtempSync(join(tmpdir(), "sitegen-out-"));
    for (const pid of ["999999", "999998"]) {
      // A dead build's leftovers: its pid is one no process has.
      const dead = join(parent, `.dist.building-${pid}`);
      mkdirSync(dead);
      writeFileSync(join(dead, "index.html"), "half a page");
      // The first build is cold; the second keeps every page of the first.
      const built = run(["build", "--out", join(parent, "dist")]);
      expect(built.status, built.stderr).toBe(0);
      expect(readdirSync(parent)).toEqual(["dist"]);
    }
  });

  it("say that site.yaml is missing, with a hint, instead of a stack trace", () => {
    const empty = mkdtempSync(join(tmpdir(), "sitegen-empty-"));
    const failed = run(["build", "--out", join(empty, "dist")], empty);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(
      `ConfigMissing: No site configuration\n  ${join(empty, "content", "site.yaml")} does not exist`,
    );
    expect(failed.stderr).toMatch(/hint: Run sitegen in the project folder/);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });

  it("on a full disk, name the file, say the disk is full and leave no staging folder", () => {
    const mount = mkdtempSync(join(tmpdir(), "sitegen-full-"));
    // A 256 KB file system of its own, in a user and mount namespace (no root needed, nothing left mounted).
    const mountTmpfs = `mount -t tmpfs -o size=256k tmpfs "${mount}"`;
    const build = `"${process.execPath}" "${cli}" build --out "${mount}/dist"`;
    const script = `${mountTmpfs} && ${build}; status=$?; ls -A "${mount}"; exit $status`;
    const failed = spawnSync("unshare", ["-rm", "sh", "-c", script], { cwd: ROOT, encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(
      /OutputWriteFailed: Cannot write the output\n\s+Writing \S+ failed: no space left on device \(ENOSPC\)/,
    );
    expect(failed.stderr).toMatch(/hint: The disk is full/);
    expect(failed.stdout.trim()).toBe("");
  });
});
