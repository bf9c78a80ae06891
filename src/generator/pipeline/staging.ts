import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { sitegenError } from "../errors.ts";
import { sitegenFolder } from "../project.ts";

/** What the writing thread answers for each file: its path, and why it could not be written if it could not. */
interface Written {
  path: string;
  failed?: { code: string; message: string };
}

/**
 * A build is written into a fresh sibling of the output folder (".dist.building-<pid>") and moved into place
 * only when everything succeeded, so a failed build leaves the previous output as it was. A build killed
 * before then leaves its folder behind: every build removes the folders of builds that no longer run (their
 * process id is in the name).
 */
export class StagingFolder {
  readonly dir: string;
  readonly target: string;
  /** The thread that writes the files (write-files.worker.mjs), started with the first one. */
  private worker?: Worker;
  /** Files sent to the thread and not yet written. */
  private pending = 0;
  private failed?: Written;
  private wake?: () => void;

  constructor(outDir: string) {
    this.target = resolve(outDir);
    const parent = dirname(this.target);
    guard(parent, () => mkdirSync(parent, { recursive: true }));
    removeDeadStaging(parent, basename(this.target));
    this.dir = join(parent, `.${basename(this.target)}.building-${process.pid}`);
    guard(this.dir, () => {
      rmSync(this.dir, { recursive: true, force: true });
      mkdirSync(this.dir);
    });
  }

  /**
   * Sends one file to be written under the staging folder (with its folders) by a thread of its own, while this
   * one goes on rendering; settle() waits for it.
   */
  write(file: string, data: string | Uint8Array): void {
    this.worker ??= this.startWriter();
    this.pending++;
    this.worker.postMessage({ path: join(this.dir, file), data });
  }

  /**
   * Waits until at most `limit` files are still being written (none, by default); a file that could not be
   * written is thrown here as OutputWriteFailed, naming its place in the output folder.
   */
  async settle(limit = 0): Promise<void> {
    while (this.pending > limit && !this.failed) await new Promise<void>((wake) => (this.wake = wake));
    const failed = this.failed;
    if (failed)
      guard(join(this.target, relative(this.dir, failed.path)), () => {
        throw Object.assign(new Error(failed.failed!.message), { code: failed.failed!.code });
      });
  }

  private startWriter(): Worker {
    const worker = new Worker(join(sitegenFolder(), "src/generator/pipeline/write-files.worker.mjs"));
    worker.on("message", (written: Written) => {
      this.pending--;
      if (written.failed) this.failed ??= written;
      this.wake?.();
    });
    worker.on("error", (error) => {
      this.failed ??= { path: this.dir, failed: { code: "", message: error.message } };
      this.wake?.();
    });
    return worker;
  }

  /** Stops the writing thread, once every file sent to it is written. */
  async close(): Promise<void> {
    await this.settle().finally(() => this.worker?.terminate());
  }

  /** Replaces the output folder with the staged one (a cold build). */
  replace(): void {
    const old = `${this.dir}.old`;
    guard(this.target, () => {
      if (existsSync(this.target)) renameSync(this.target, old);
      renameSync(this.dir, this.target);
    });
    rmSync(old, { recursive: true, force: true });
  }

  /**
   * Moves each staged file into the output folder (replacing the file there, atomically for a reader) and
   * removes the given files of it, with the folders they leave empty (an incremental build).
   */
  update(remove: string[]): void {
    const staged = readdirSync(this.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const entry of staged) {
      const from = join(entry.parentPath, entry.name);
      const to = join(this.target, relative(this.dir, from));
      guard(to, () => {
        mkdirSync(dirname(to), { recursive: true });
        renameSync(from, to);
      });
    }
    for (const file of remove) {
      const path = join(this.target, file);
      guard(path, () => rmSync(path, { force: true }));
      let folder = dirname(path);
      while (folder.startsWith(`${this.target}/`) && readdirSync(folder).length === 0) {
        rmSync(folder, { recursive: true });
        folder = dirname(folder);
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Removes the staging folder, once the writing thread has stopped. */
  async discard(): Promise<void> {
    await this.close().catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs a file operation; a failure (a full disk, no permission) becomes OutputWriteFailed naming the file. */
export function guard(file: string, operation: () => void): void {
  try {
    operation();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const reason = e.message.replace(/^[A-Z]+: /, "").replace(/, \w+( '.*')?$/, "");
    throw sitegenError("OutputWriteFailed", { file, code: e.code ?? "", reason }, { cause: error });
  }
}

/** The staging folders of builds whose process is gone (killed, or the machine restarted). */
function removeDeadStaging(parent: string, name: string): void {
  const pattern = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.building-(\\d+)(\\.old)?$`);
  for (const entry of readdirSync(parent)) {
    const match = pattern.exec(entry);
    if (match && !isRunning(Number(match[1]))) rmSync(join(parent, entry), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
