import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { basename, dirname, join, resolve } from "node:path";

/**
 * Writes a build into a fresh sibling of the output folder and swaps it in only when the build succeeded,
 * so a failed build leaves the previous output byte-for-byte as it was. The old tree is renamed away and
 * deleted in a detached process: deleting thousands of files right before writing new ones slows the
 * kernel down for a while (research/peer-benchmark.md), and the build need not wait for it.
 */
export class StagedOutput {
  readonly dir: string;
  private readonly target: string;
  private readonly made = new Set<string>();
  bytes = 0;
  files = 0;

  constructor(outDir: string) {
    this.target = resolve(outDir);
    mkdirSync(dirname(this.target), { recursive: true });
    this.dir = mkdtempSync(join(dirname(this.target), `.${basename(this.target)}.building-`));
  }

  write(relativePath: string, data: string | Uint8Array): void {
    const file = join(this.dir, relativePath);
    const folder = dirname(file);
    if (!this.made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.made.add(folder);
    }
    writeFileSync(file, data);
    this.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    this.files++;
  }

  /** Makes the staged tree the output folder. */
  commit(): void {
    let old: string | undefined;
    if (existsSync(this.target)) {
      old = `${this.target}.old-${process.pid}-${Date.now()}`;
      renameSync(this.target, old);
    }
    renameSync(this.dir, this.target);
    if (old) removeInBackground(old);
  }

  /** Throws the staged tree away; the output folder was never touched. */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function removeInBackground(dir: string): void {
  if (process.platform === "win32") {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const child = spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" });
  child.on("error", () => rmSync(dir, { recursive: true, force: true }));
  child.unref();
}
