import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { sitegenError } from "../errors.ts";

/**
 * A build is written into a fresh sibling of the output folder (".dist.building-<pid>") and moved into place
 * only when everything succeeded, so a failed build leaves the previous output as it was. A build killed
 * before then leaves its folder behind: every build removes the folders of builds that no longer run (their
 * process id is in the name).
 */
export class StagingFolder {
  readonly dir: string;
  readonly target: string;
  private readonly folders = new Set<string>();

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

  /** Writes one file under the staging folder (creating its folders). */
  write(file: string, data: string | Uint8Array): void {
    const path = join(this.dir, file);
    guard(join(this.target, file), () => {
      const folder = dirname(path);
      if (!this.folders.has(folder)) {
        mkdirSync(folder, { recursive: true });
        this.folders.add(folder);
      }
      writeFileSync(path, data);
    });
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

  discard(): void {
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
