/**
 * A throwaway PostgreSQL cluster for tests, from Debian's package (apt-get install -y postgresql): made with
 * initdb in a temporary folder, started with pg_ctl on a free port of 127.0.0.1 with its unix socket in that
 * folder, stopped (immediate mode) and removed by stop(). Root cannot run postgres, so as root every
 * command runs as the `postgres` user, who is given the folder.
 *
 * Missing binaries throw, with a one-line message naming the package: a test that needs PostgreSQL fails
 * rather than skipping silently.
 */
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export const POSTGRES_MISSING =
  "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run apt-get install -y postgresql";

/** The bin folder of the newest PostgreSQL installed by Debian's packages. */
export function postgresBin(base = "/usr/lib/postgresql"): string {
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))) : [];
  if (versions.length === 0) throw new Error(POSTGRES_MISSING);
  versions.sort((a, b) => Number(b) - Number(a));
  return join(base, versions[0], "bin");
}

export interface PgCluster {
  port: number;
  /** A new empty database; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => {
    const result = spawnSync("id", [flag, name], { encoding: "utf8", timeout: 10_000 });
    if (result.status !== 0)
      throw new Error(
        `No ${name} user to run PostgreSQL as (${result.stderr.trim()}): run apt-get install -y postgresql`,
      );
    return Number(result.stdout.trim());
  };
  return { uid: id("-u"), gid: id("-g") };
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), "sitegen-pg-"));
  const data = join(dir, "data");
  const sockets = join(dir, "sockets");
  mkdirSync(sockets);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = userIds("postgres");
    for (const path of [dir, sockets]) chownSync(path, uid, gid);
  }
  /** A PostgreSQL program, as the postgres user when we are root; bounded by `timeout`. */
  const run = (program: string, args: string[], timeout = 60_000) => {
    const [command, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, program), ...args]]
      : [join(bin, program), args];
    const result = spawnSync(command, argv, { cwd: dir, encoding: "utf8", timeout });
    if (result.status !== 0) {
      const log = existsSync(join(dir, "server.log")) ? readFileSync(join(dir, "server.log"), "utf8").slice(-2000) : "";
      throw new Error(
        `${program} failed (${result.error?.message ?? `exit ${result.status}`}): ${result.stderr.trim()}\n${log}`,
      );
    }
  };

  let port = 0;
  let started = false;
  const stop = () => {
    if (started) {
      try {
        run("pg_ctl", ["-D", data, "stop", "-m", "immediate", "-w", "-t", "30"], 40_000);
      } catch {
        // pg_ctl could not stop it: end the postmaster we started by its pid, its children follow it.
        const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        if (pid > 0) process.kill(pid, "SIGKILL");
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    // Another process may take the free port before the server binds it: a few tries with fresh ports.
    for (let attempt = 1; !started; attempt++) {
      port = await freePort();
      const settings = "-c listen_addresses=127.0.0.1 -c max_connections=60 -c shared_buffers=16MB";
      const options = `-p ${port} -k ${sockets} ${settings}`;
      try {
        run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-o", options, "-w", "-t", "30", "start"], 40_000);
        started = true;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    await waitUntilAccepting(port);
  } catch (error) {
    stop();
    throw error;
  }

  let databases = 0;
  return {
    port,
    async createDatabase() {
      const name = `test_${++databases}`;
      const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
  };
}

/** pg_ctl -w already waited for the server; this proves a TCP client gets in, for at most ten seconds. */
async function waitUntilAccepting(port: number): Promise<void> {
  let lastError: unknown;
  for (let i = 0; i < 100; i++) {
    const client = new pg.Client({
      host: "127.0.0.1",
      port,
      user: "postgres",
      database: "postgres",
      connectionTimeoutMillis: 2000,
    });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new Error(`PostgreSQL on 127.0.0.1:${port} did not accept connections: ${(lastError as Error)?.message}`);
}

/** Runs one statement on the database at `url` through a connection of its own; its rows. */
export async function queryOnce(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
