/**
 * `sitegen start` run as a child process, as a container platform runs it: its JSON-lines log collected,
 * its port read from the "listening" line, signals sent to it, and its exit awaited, each with a bound.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "./helpers.ts";

export interface StartedServer {
  child: ChildProcess;
  port: number;
  /** Every stdout line so far, parsed (all of them are JSON). */
  lines: Record<string, unknown>[];
  stderr(): string;
  /** Resolves with the exit code (or the signal's name), rejects after `ms`. */
  exited(ms?: number): Promise<number | string>;
  /** Kills the process if it still runs (tests' cleanup). */
  stop(): void;
}

/** A port free at the moment of asking (for PORT, which cannot be 0 when a test must know it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <bin> start ...args` (or `node ...command`) in `cwd` and waits (at most `readyMs`) for its
 * "listening" line. `bin` defaults to this repository's bin/sitegen.js.
 */
export function startProcess(options: {
  cwd: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  bin?: string;
  command?: string[];
  readyMs?: number;
}): Promise<StartedServer> {
  const command = options.command ?? [options.bin ?? join(ROOT, "bin", "sitegen.js"), "start", ...(options.args ?? [])];
  const child = spawn(process.execPath, command, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = "";
  let pending = "";
  let code: number | string | undefined;
  const exit = new Promise<number | string>((resolve) =>
    child.once("exit", (c, signal) => resolve((code = c ?? signal ?? "unknown"))),
  );
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const server: StartedServer = {
    child,
    port: 0,
    lines,
    stderr: () => stderr,
    exited: (ms = 20_000) =>
      Promise.race([
        exit,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`sitegen start did not exit within ${ms} ms`)), ms).unref(),
        ),
      ]),
    stop: () => {
      if (code === undefined && child.exitCode === null) child.kill("SIGKILL");
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.stop();
      reject(new Error(`sitegen start was not listening within ${options.readyMs ?? 30_000} ms\n${stderr}`));
    }, options.readyMs ?? 30_000);
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      pending += d;
      let at: number;
      while ((at = pending.indexOf("\n")) !== -1) {
        const text = pending.slice(0, at);
        pending = pending.slice(at + 1);
        let line: Record<string, unknown>;
        try {
          line = JSON.parse(text) as Record<string, unknown>;
        } catch {
          line = { unparsed: text };
        }
        lines.push(line);
        if (line.event === "listening") {
          clearTimeout(timer);
          server.port = Number(new URL(String(line.url)).port);
          resolve(server);
        }
      }
    });
    void exit.then((c) => {
      clearTimeout(timer);
      reject(new Error(`sitegen start exited (${c}) before listening\n${stderr}`));
    });
  });
}
