import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { sitegenError } from "../errors.ts";
import { FileWriter, type PageWritten, type TaskRunner, type TwinLevels } from "./file-writer.ts";

/**
 * A build is written into a fresh sibling of the output folder (".dist.building-<pid>") and swapped in
 * only when everything succeeded, so a failed build leaves the previous output as it was. A build killed
 * before its swap leaves its folder behind; the next build removes the folders of builds that no longer
 * run (their pid is in the name).
 */
export class StagingFolder {
  readonly dir: string;
  readonly target: string;
  files = 0;
  bytes = 0;
  private readonly writer: FileWriter;

  /**
   * `thread`: write the files on a thread of their own (file-writer.ts), for a build of many files; `levels`:
   * how hard pages' twins are compressed; `writer`: the thread, if already started (it is then this folder's).
   */
  constructor(outDir: string, thread = false, levels?: TwinLevels, writer?: FileWriter) {
    this.target = resolve(outDir);
    const parent = dirname(this.target);
    guard(parent, () => mkdirSync(parent, { recursive: true }));
    removeDeadStaging(parent, basename(this.target));
    this.dir = join(parent, `.${basename(this.target)}.building-${process.pid}`);
    guard(this.dir, () => {
      rmSync(this.dir, { recursive: true, force: true });
      mkdirSync(this.dir);
    });
    this.writer = writer ?? new FileWriter(thread, levels);
  }

  /** Writes one file under the staging folder (creating its folders). */
  write(file: string, data: string | Uint8Array): void {
    guard(join(this.target, file), () => this.writer.write(join(this.dir, file), data));
    this.files++;
    this.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
  }

  /** Writes a page minified, with the shared parts it names, and its compressed twins if asked (see FileWriter.writePage); `done` is told what was written. */
  writePage(file: string, html: string, shared: readonly string[], twins: boolean, done: (written: PageWritten) => void): void {
    guard(join(this.target, file), () =>
      this.writer.writePage(join(this.dir, file), html, shared, twins, (written) => {
        this.files += written.files;
        this.bytes += written.written;
        done(written);
      }),
    );
  }

  /** What runs work on the writing thread between its files, when the files have a thread (see FileWriter.run). */
  get tasks(): TaskRunner | undefined {
    return this.writer.threaded ? this.writer : undefined;
  }

  /** Waits while many files are still on their way to the disk (see FileWriter.drain). */
  drain(): Promise<void> {
    return this.writer.drain();
  }

  /** Waits until every file is on disk; a file that could not be written fails the build here, named. */
  async finish(): Promise<void> {
    const failure = await this.writer.close();
    if (failure) {
      guard(join(this.target, relative(this.dir, failure.path)), () => {
        throw Object.assign(new Error(failure.message), { code: failure.code });
      });
    }
  }

  /**
   * Moves each staged file into the output folder (replacing the file there, atomically for a reader) and
   * removes the given files of it, with the folders they leave empty: an incremental build's changes.
   */
  apply(remove: string[]): void {
    const staged = readdirSync(this.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const entry of staged) {
      const from = join(entry.parentPath ?? entry.path, entry.name);
      const to = join(this.target, relative(this.dir, from));
      guard(to, () => {
        mkdirSync(dirname(to), { recursive: true });
        renameSync(from, to);
      });
    }
    for (const file of remove) {
      const path = join(this.target, file);
      guard(path, () => rmSync(path, { force: true }));
      for (let folder = dirname(path); folder.startsWith(`${this.target}/`) && readdirSync(folder).length === 0; folder = dirname(folder)) rmSync(folder, { recursive: true });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Replaces the output folder with the staged one. */
  commit(): void {
    const old = `${this.dir}.old`;
    guard(this.target, () => {
      if (existsSync(this.target)) renameSync(this.target, old);
      renameSync(this.dir, this.target);
    });
    rmSync(old, { recursive: true, force: true });
  }

  async discard(): Promise<void> {
    await this.writer.abandon();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs a file operation; a failure (a full disk, no permission) becomes OutputWriteFailed naming the file. */
function guard(file: string, operation: () => void): void {
  try {
    operation();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw sitegenError("OutputWriteFailed", { file, code: e.code ?? "", reason: e.message.replace(/^[A-Z]+: /, "").replace(/, \w+( '.*')?$/, "") }, { cause: error });
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
