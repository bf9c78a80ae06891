/**
 * Cloudflare's local runtime for the tests: `wrangler pages dev` (the pinned wrangler, with its workerd) run
 * in a folder that `sitegen build --target cloudflare` wrote, bound to 127.0.0.1 on a free port, kept off
 * the network (no metrics, no error reports, no update check, no request for Cloudflare's `cf` object),
 * and stopped with its whole process tree, workerd included.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { openSqlite } from "../src/api/sqlite-driver.ts";
import { ROOT } from "./helpers.ts";
import { freePort } from "./start-process.ts";

const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/** What keeps wrangler quiet and offline: no account, no prompt, nothing sent anywhere. */
export function wranglerEnv(folder: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    // The banner is where wrangler asks the registry for a newer version.
    WRANGLER_HIDE_BANNER: "true",
    WRANGLER_LOG_PATH: join(folder, ".wrangler", "logs"),
    // Non-interactive: wrangler never waits for an answer on a terminal.
    CI: "1",
    NO_COLOR: "1",
  };
}

export interface PagesDev {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Ends the process group (wrangler and the workerd it started), waiting until none of it is left. */
  stop(): Promise<void>;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `wrangler pages dev` in `folder` (which holds wrangler.jsonc and the output), ready to answer. */
export async function startPagesDev(folder: string, readyMs = 90_000): Promise<PagesDev> {
  const port = await freePort();
  // Its own process group, so the stop reaches workerd too.
  const child = spawn(
    process.execPath,
    [
      WRANGLER,
      "pages",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
    ],
    {
      cwd: folder,
      env: wranglerEnv(folder),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (output += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (output += d));
  const pid = child.pid!;
  const stop = async () => {
    for (const [signal, waits] of [
      ["SIGTERM", 50],
      ["SIGKILL", 50],
    ] as const) {
      if (!groupAlive(pid)) return;
      try {
        process.kill(-pid, signal);
      } catch {
        return;
      }
      for (let i = 0; i < waits && groupAlive(pid); i++) await sleep(100);
    }
    if (groupAlive(pid)) throw new Error(`wrangler's process group ${pid} survived SIGKILL`);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { url, child, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`wrangler pages dev did not answer on ${url} within ${readyMs} ms\n${output}`);
}

/**
 * Rows of the local D1 database that `pages dev` in `folder` stores into: the SQLite file Miniflare keeps
 * under .wrangler/state, opened directly, as `wrangler d1 execute --local` opens it (a second process on the
 * same file; SQLite's write-ahead log shows each side the other's commits). A statement that changes rows
 * returns none. Waits up to 5 s for a write lock the worker holds.
 */
export async function d1Query(folder: string, sql: string): Promise<Record<string, unknown>[]> {
  const dir = join(folder, ".wrangler", "state", "v3", "d1", "miniflare-D1DatabaseObject");
  const files = existsSync(dir)
    ? readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")
    : [];
  if (files.length !== 1) throw new Error(`expected one local D1 database in ${dir}, found ${JSON.stringify(files)}`);
  const db = openSqlite(join(dir, files[0]));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const statement = db.prepare(sql);
    if (/^\s*(select|with|pragma)\b/i.test(sql)) return statement.all() as Record<string, unknown>[];
    statement.run();
    return [];
  } finally {
    db.close();
  }
}
