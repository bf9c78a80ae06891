/**
 * The Dockerfile, proven without a Docker engine or an image registry (neither is reachable here): its
 * stages are read and their steps done in fresh folders, one per stage, each getting only what that
 * stage's COPY lines give it. Then the runtime folder is started with the image's CMD and checked as a
 * platform would: a page, the HEALTHCHECK command, a form post stored, SIGTERM.
 *
 * Three things cannot be replayed as they are: the build stage's `npm ci` (every dependency, dev tools
 * included) links this repository's installed packages, which come from the same package-lock.json; the
 * production install runs with --prefer-offline, from the npm cache; and `chown` is a no-op, since this
 * machine has no user `node`. The production install compiles better-sqlite3 when no prebuilt binary can
 * be downloaded, which makes the replay slow: it runs only with SITEGEN_PRODUCTION_INSTALL_TEST=1 (.ci/run
 * sets it). The checks of what the image needs run every time.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { build } from "esbuild";
import { openSqlite } from "../../src/api/sqlite-driver.ts";
import { ROOT } from "../helpers.ts";
import { copyArgs, execForm, parseDockerfile, type Stage } from "../dockerfile.ts";
import { freePort, startProcess, type StartedServer } from "../start-process.ts";

const STAGES = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const stage = (name: string) => STAGES.find((s) => s.name === name)!;
const runtime = () => stage("runtime");
const steps = (s: Stage, op: string) => s.steps.filter((step) => step.op === op).map((step) => step.args);

/** The npm package a bare import names (`react-dom/server` → react-dom, `@scope/x/y` → @scope/x). */
const packageOf = (path: string) =>
  path
    .split("/")
    .slice(0, path.startsWith("@") ? 2 : 1)
    .join("/");

describe("what the production image needs", () => {
  it("everything the CLI and the endpoints load at run time is a production dependency", async () => {
    // What `npm ci --omit=dev` installs: the lock file's packages not marked dev (the production dependencies
    // and what they need, their peers included: React, which the newsletter's e-mail library renders with).
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const installed = (name: string) => {
      const entry = lock.packages[`node_modules/${name}`];
      return entry !== undefined && entry.dev !== true;
    };
    for (const entry of ["src/generator/cli.ts", "src/api/index.ts"]) {
      const result = await build({
        entryPoints: [join(ROOT, entry)],
        absWorkingDir: ROOT,
        bundle: true,
        platform: "node",
        format: "cjs",
        packages: "external",
        write: false,
        metafile: true,
        logLevel: "silent",
      });
      const packages = new Set(
        Object.values(result.metafile.inputs)
          .flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path))
          .filter((path) => !path.startsWith("node:") && !builtinModules.includes(path))
          .map(packageOf),
      );
      expect(packages.size, entry).toBeGreaterThan(0);
      expect(
        [...packages].filter((name) => !installed(name)),
        entry,
      ).toEqual([]);
    }
  });

  const dockerfileStages =
    "the Dockerfile builds in one stage, installs production dependencies only in another, and runs as node with a " +
    "health check";
  it(dockerfileStages, () => {
    expect(STAGES.map((s) => s.name)).toEqual(["build", "deps", "runtime"]);
    expect(steps(stage("build"), "RUN")).toEqual(["npm ci", "node bin/sitegen.js build"]);
    expect(steps(stage("deps"), "RUN")).toEqual(["npm ci --omit=dev"]);
    // No npm ci in the runtime stage at all: its node_modules come from deps, so no dev tool can slip in.
    expect(steps(runtime(), "RUN").filter((r) => r.includes("npm"))).toEqual([]);
    expect(steps(runtime(), "COPY").filter((c) => copyArgs(c).from === "build")).toEqual([
      "--from=build /app/dist ./dist",
    ]);
    expect(steps(runtime(), "USER")).toEqual(["node"]);
    expect(steps(runtime(), "EXPOSE")).toEqual(["8080"]);
    expect(steps(runtime(), "ENV")).toContain("PORT=8080");
    expect(execForm(steps(runtime(), "CMD")[0])).toEqual(["node", "bin/sitegen.js", "start"]);
    expect(execForm(steps(runtime(), "HEALTHCHECK")[0]).join(" ")).toContain("/healthz");
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", "dist", ".data", ".git", ".env"]) expect(ignored, entry).toContain(entry);
  });
});

const replay = process.env.SITEGEN_PRODUCTION_INSTALL_TEST === "1";
/** The bound on one RUN step: compiling better-sqlite3 on a busy two-core machine is the long one. */
const STEP_LIMIT_MS = 15 * 60_000;

describe.skipIf(!replay)("the Dockerfile's steps, replayed in fresh folders", () => {
  const folders: Record<string, string> = {};
  let server: StartedServer | undefined;
  /** Process groups of RUN steps still going (only if the test failed midway): stopped whole. */
  const running = new Set<number>();
  afterAll(() => {
    server?.stop();
    for (const pid of running) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    // Each stage's folder holds a node_modules: not left behind in the temporary folder.
    for (const dir of [...Object.values(folders), shims].filter(Boolean)) rmSync(dir, { recursive: true, force: true });
  });

  /** A clean environment for the stages: the variables of the image, none of this test run's. */
  const baseEnv: Record<string, string | undefined> = {
    NODE_ENV: undefined,
    PORT: undefined,
    HSTS: undefined,
    SUBMISSIONS_DB: undefined,
    SUBMISSIONS_RATE_LIMIT: undefined,
    DATABASE_URL: undefined,
    SITE_URL: undefined,
  };
  // chown is the one step this machine cannot do (there is no user node here): a no-op stands in for it.
  let shims = "";
  function makeShims(): void {
    shims = mkdtempSync(join(tmpdir(), "sitegen-shims-"));
    writeFileSync(join(shims, "chown"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(shims, "chown"), 0o755);
  }

  function copy(step: string, into: string): void {
    const { from, sources, destination } = copyArgs(step);
    const target = join(into, destination);
    for (const source of sources) {
      // From another stage: its WORKDIR /app is that stage's folder.
      const path = from ? join(folders[from], source.replace(/^\/app\/?/, "")) : join(ROOT, source);
      expect(existsSync(path), `COPY ${step}: ${path}`).toBe(true);
      if (from && basename(path) === "node_modules") {
        renameSync(path, target);
        continue;
      }
      const dest = statSync(path).isDirectory() || !destination.endsWith("/") ? target : join(target, basename(path));
      cpSync(path, dest, { recursive: true });
    }
  }

  /**
   * One RUN line, in its own process group: npm starts compilers several levels down, and a step that
   * overruns its bound is stopped whole, not just its shell.
   */
  async function run(command: string, cwd: string, env: Record<string, string | undefined>): Promise<void> {
    const started = Date.now();
    const child = spawn("sh", ["-c", command], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...baseEnv, ...env, PATH: `${shims}:${process.env.PATH}` },
    });
    running.add(child.pid!);
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), STEP_LIMIT_MS);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once("close", (c, s) => resolve([c, s])),
    );
    clearTimeout(timer);
    running.delete(child.pid!);
    console.log(`replayed RUN ${command} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(code, `${command} (${signal ?? "exited"})\n${output}`).toBe(0);
  }

  /** Does what one stage does, in a fresh folder; returns the ENV it sets. */
  async function replayStage(s: Stage): Promise<Record<string, string>> {
    const dir = mkdtempSync(join(tmpdir(), `sitegen-image-${s.name}-`));
    folders[s.name] = dir;
    const env: Record<string, string> = {};
    for (const { op, args } of s.steps) {
      if (op === "COPY") copy(args, dir);
      else if (op === "ENV") {
        const [name, ...value] = args.split("=");
        env[name] = value.join("=");
      } else if (op === "RUN" && s.name === "build" && args === "npm ci") {
        // Every dependency, from the same lock file: this repository's installed packages, linked.
        mkdirSync(join(dir, "node_modules"));
        for (const name of readdirSync(join(ROOT, "node_modules"))) {
          if (name !== ".cache") symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
        }
      } else if (op === "RUN" && args.startsWith("npm ci")) {
        await run(`${args} --prefer-offline --ignore-scripts=false --no-audit --no-fund`, dir, env);
      } else if (op === "RUN") await run(args, dir, env);
    }
    return env;
  }

  const servesFromProductionInstall =
    "builds, installs the production dependencies alone, and serves pages, /healthz and the forms from them; " +
    "SIGTERM exits 0";
  it(
    servesFromProductionInstall,
    async () => {
      makeShims();
      await replayStage(stage("build"));
      expect(existsSync(join(folders.build, "dist", "_sitegen", "site.json"))).toBe(true);
      await replayStage(stage("deps"));
      const env = await replayStage(runtime());
      const app = folders.runtime;

      // Only what the runtime stage copies: no content, no pages' sources, no dev tools.
      expect(existsSync(join(app, "content"))).toBe(false);
      expect(readdirSync(join(app, "src")).sort()).toEqual(["generator", "server"]);
      for (const dev of ["vitest", "typescript", "@playwright", "node-html-parser"])
        expect(existsSync(join(app, "node_modules", dev)), dev).toBe(false);
      expect(existsSync(join(app, "node_modules", "better-sqlite3"))).toBe(true);

      // As `docker run -e PORT=...`; on loopback, since this machine may listen nowhere else.
      const port = String(await freePort());
      const containerEnv = { ...baseEnv, ...env, PORT: port };
      server = await startProcess({
        cwd: app,
        command: [...execForm(steps(runtime(), "CMD")[0]).slice(1), "--host", "127.0.0.1"],
        env: containerEnv,
      });
      expect(server.port).toBe(Number(port));

      const page = await send(server.port, "/en", "GET");
      expect(page.status).toBe(200);
      expect(page.body).toContain('lang="en"');
      expect(page.headers["content-security-policy"]).toMatch(/^default-src 'self'/);
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
      expect(page.headers["x-frame-options"]).toBe("DENY");

      const [node, ...check] = execForm(steps(runtime(), "HEALTHCHECK")[0]);
      expect(node).toBe("node");
      expect(
        spawnSync(process.execPath, check, { env: { ...process.env, ...containerEnv }, timeout: 10_000 }).status,
      ).toBe(0);

      // A visitor without JavaScript: a plain form post, answered with a redirect to the thank-you page.
      const post = await send(server.port, "/api/newsletter", "POST", "email=docker%40example.com", {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
      });
      expect(post.status).toBe(303);
      expect(post.headers.location).toBe("/forms/newsletter-success");

      process.kill(server.child.pid!, "SIGTERM");
      expect(await server.exited()).toBe(0);
      // Where site.yaml puts it, inside the image's data volume.
      const db = openSqlite(join(app, ".data", "submissions.db"), { readonly: true });
      try {
        expect((db.prepare("SELECT email FROM newsletter").all() as { email: string }[]).map((r) => r.email)).toEqual([
          "docker@example.com",
        ]);
      } finally {
        db.close();
      }
    },
    3 * STEP_LIMIT_MS,
  );
});

function send(
  port: number,
  path: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}
