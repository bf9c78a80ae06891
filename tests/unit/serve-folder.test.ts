import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, fixtureCopy } from "../helpers.ts";

/**
 * `sitegen serve` builds into a folder of its own (node_modules/.cache/sitegen/serve/), with its drafts and
 * compressed copies, so that dist/ only ever holds what `sitegen build` made and a later upload publishes.
 */
describe("sitegen serve without --out", () => {
  const project = fixtureCopy();
  let server: ChildProcess | undefined;
  let stdout = "";
  let stderr = "";
  afterAll(() => server?.kill("SIGTERM"));

  it("builds into node_modules/.cache/sitegen/serve/ and serves it, writing no dist/", async () => {
    server = spawn(
      process.execPath,
      [join(ROOT, "bin", "sitegen.js"), "serve", "--no-watch", "--host", "127.0.0.1", "--port", "0"],
      { cwd: project, env: { ...process.env, NO_COLOR: "1" } },
    );
    server.stdout!.on("data", (d) => (stdout += d));
    server.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<never>((_, reject) =>
      server!.once("exit", (code) => reject(new Error(`serve exited with ${code}\n${stdout}\n${stderr}`))),
    );
    // Its "Serving ... at <address>" line, or its end (a failure), whichever comes first.
    const serving = new Promise<RegExpMatchArray>((resolve) => {
      const look = () => {
        const match = stdout.match(/^Serving (.+) at (http:\/\/127\.0\.0\.1:\d+)\//m);
        if (match) resolve(match);
        else server!.stdout!.once("data", look);
      };
      look();
    });
    const [, folder, base] = await Promise.race([serving, exited]);
    const served = join(project, "node_modules", ".cache", "sitegen", "serve");
    expect(folder).toBe(served);
    const page = await fetch(`${base}/atelier`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Trois artisans verriers");
    // The compressed copies serve makes are in its own folder; dist/ was never made.
    expect(readdirSync(served)).toEqual(expect.arrayContaining(["atelier.html", "atelier.html.br", "atelier.html.gz"]));
    expect(existsSync(join(project, "dist"))).toBe(false);
  }, 60_000);
});
