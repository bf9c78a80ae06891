import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadState } from "../../src/generator/pipeline/state.ts";
import { ROOT, projectCopy } from "../helpers.ts";

/**
 * `sitegen serve` in watch mode, as a developer runs it: edits rebuild and reload; a broken edit keeps the last good
 * build.
 */
describe("sitegen serve, watching", () => {
  const project = projectCopy();
  const out = join(mkdtempSync(join(tmpdir(), "sitegen-watch-")), "dist");
  let server: ChildProcess | undefined;
  let stdout = "";
  let stderr = "";
  afterAll(() => server?.kill("SIGTERM"));

  const waitFor = (what: () => boolean, label: string, ms = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const tick = () =>
        what()
          ? resolve()
          : Date.now() - started > ms
            ? reject(new Error(`Timed out waiting for ${label}.\nstdout: ${stdout}\nstderr: ${stderr}`))
            : setTimeout(tick, 50);
      tick();
    });
  const fetchText = (url: string) => fetch(url).then(async (r) => ({ status: r.status, text: await r.text() }));

  // Four rebuilds, each of every page (a text change touches them all): the bound allows for a loaded machine.
  const rebuildsAndReloads =
    "rebuilds on a content change and tells open pages to reload; a broken file keeps the last good build";
  it(
    rebuildsAndReloads,
    async () => {
      server = spawn(
        process.execPath,
        [join(ROOT, "bin", "sitegen.js"), "serve", "--host", "127.0.0.1", "--port", "0", "--out", out],
        { cwd: project, env: { ...process.env, NO_COLOR: "1" } },
      );
      server.stdout!.on("data", (d) => (stdout += d));
      server.stderr!.on("data", (d) => (stderr += d));
      await waitFor(() => /Watching src\/ and content\//.test(stdout), "the server to start");
      const base = stdout.match(/at (http:\/\/127\.0\.0\.1:\d+)\//)![1];

      // The page carries the reload script, and the reload stream is open.
      expect((await fetchText(`${base}/en/about`)).text).toContain('src="/__sitegen/reload.js"');
      let events = "";
      const stream = get(`${base}/__sitegen/reload`, (res) => res.on("data", (d) => (events += d)));
      await waitFor(() => stream.writableFinished, "the reload stream");

      const yaml = join(project, "content", "en", "common.yaml");
      const original = readFileSync(yaml, "utf8");
      writeFileSync(
        yaml,
        original.replace("skipToContent: Skip to content", "skipToContent: Skip to the page content"),
      );
      await waitFor(() => events.includes("event: reload"), "a reload event");
      expect((await fetchText(`${base}/en/about`)).text).toContain("Skip to the page content");

      // Saves that write a new file and rename it over the old one (sed -i, editors' atomic saves), each seen,
      // the second as well as the first.
      for (const text of ["Skip to the main content", "Jump to the content"]) {
        writeFileSync(`${yaml}.tmp`, original.replace("skipToContent: Skip to content", `skipToContent: ${text}`));
        renameSync(`${yaml}.tmp`, yaml);
        let served = "";
        const fetching = setInterval(
          () =>
            void fetchText(`${base}/en/about`).then(
              (page) => (served = page.text),
              () => {},
            ),
          200,
        );
        try {
          await waitFor(() => served.includes(text), `the page to show "${text}" after a rename over common.yaml`);
        } finally {
          clearInterval(fetching);
        }
      }

      writeFileSync(yaml, `${original}\nbroken: [unclosed\n`);
      await waitFor(() => /Rebuild failed; still serving the last good build/.test(stderr), "the failed rebuild");
      expect(stderr).toMatch(/common\.yaml:\d+:\d+/);
      const page = await fetchText(`${base}/en/about`);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Jump to the content");

      // A rebuild looks again only at the files the watcher reported (build-memory.ts): those of a failed
      // rebuild are looked at again by the next one, so an edit saved beside a broken file is not lost.
      writeFileSync(yaml, original.replace("skipToContent: Skip to content", "skipToContent: Jump to the content"));
      await waitFor(() => (stdout.match(/Rebuilt in/g) ?? []).length >= 4, "the rebuild after common.yaml was mended");
      const edited = join(project, "content", "en", "insights", "mlops-llmops.md");
      const broken = join(project, "content", "en", "insights", "ai-governance.md");
      const brokenText = readFileSync(broken, "utf8");
      const failures = (stderr.match(/Rebuild failed/g) ?? []).length;
      writeFileSync(
        edited,
        readFileSync(edited, "utf8").replace(
          /^title: ".*"$/m,
          'title: "MLOps and LLMOps, retitled while another file was broken"',
        ),
      );
      writeFileSync(broken, brokenText.replace(/^date: .*$/m, "date: someday"));
      await waitFor(
        () => (stderr.match(/Rebuild failed/g) ?? []).length > failures,
        "the rebuild that fails on ai-governance.md",
      );
      expect(stderr).toMatch(/ai-governance\.md:5:1, `date`: must be a date/);
      writeFileSync(broken, brokenText);
      let article = "";
      const polling = setInterval(
        () =>
          void fetchText(`${base}/en/insights/mlops-llmops`).then(
            (p) => (article = p.text),
            () => {},
          ),
        200,
      );
      try {
        await waitFor(
          () => article.includes("MLOps and LLMOps, retitled while another file was broken"),
          "the edit saved beside the broken file",
        );
      } finally {
        clearInterval(polling);
      }
      stream.destroy();

      // Rebuilds save no state; stopping saves the last good build's, for the next serve or build to start from.
      expect(loadState(project, out)).toBeUndefined();
      const stopped = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await stopped;
      const saved = loadState(project, out);
      expect(saved?.pages["en/insights/mlops-llmops.html"]?.bytes).toBe(
        statSync(join(out, "en/insights/mlops-llmops.html")).size,
      );
    },
    180_000,
  );
});
