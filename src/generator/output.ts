import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { basename, dirname, join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import { promisify } from "node:util";

/** What to do besides writing a file: compress it (to know its size, and to keep the copy), write twins. */
export interface EmitOptions {
  /** Brotli: a quality to compress at, or a copy made by an earlier build. */
  br?: number | Uint8Array;
  /** Gzip (level 9): true to compress, or a copy made by an earlier build. */
  gz?: boolean | Uint8Array;
  /** Also write the compressed copies beside the file (.br, .gz). */
  twins?: boolean;
}

/** The copies an emit compressed (not those it was given). */
export interface Compressed {
  br?: Uint8Array;
  gz?: Uint8Array;
}

interface OutputJob extends EmitOptions {
  id: number;
  file: string;
  data: string | Uint8Array;
}

/**
 * The output thread, as a script (a worker of its own would need a file to start from, and the CLI runs
 * both from TypeScript sources and compiled). It handles jobs in the order sent, answers each with the
 * copies it compressed, and answers a flush with the first error it met, if any.
 */
const OUTPUT_THREAD = `
const { parentPort } = require("node:worker_threads");
const { mkdirSync, writeFileSync } = require("node:fs");
const { dirname } = require("node:path");
const zlib = require("node:zlib");
const made = new Set();
let failure = null;
const write = (file, data) => {
  if (failure) return;
  const folder = dirname(file);
  if (!made.has(folder)) {
    mkdirSync(folder, { recursive: true });
    made.add(folder);
  }
  writeFileSync(file, data);
};
const brotli = (data, quality) =>
  zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(data) } });
parentPort.on("message", (job) => {
  if (job === "flush") return parentPort.postMessage({ flushed: true, failure });
  const reply = { id: job.id };
  try {
    write(job.file, job.data);
    if (job.br !== undefined) {
      const br = typeof job.br === "number" ? (reply.br = brotli(job.data, job.br)) : job.br;
      if (job.twins) write(job.file + ".br", br);
    }
    if (job.gz) {
      const gz = job.gz === true ? (reply.gz = zlib.gzipSync(job.data, { level: 9 })) : job.gz;
      if (job.twins) write(job.file + ".gz", gz);
    }
  } catch (error) {
    failure ??= { message: error.message, code: error.code };
  }
  parentPort.postMessage(reply);
});
`;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a build into a fresh sibling of the output folder and swaps it in only when the build succeeded,
 * so a failed build leaves the previous output byte-for-byte as it was. The old tree is renamed away and
 * deleted in a detached process: deleting thousands of files right before writing new ones slows the
 * kernel down for a while (research/peer-benchmark.md), and the build need not wait for it.
 *
 * With a second core, files are written and compressed on a thread of their own, while the build's
 * thread renders the next page. Measured on a 46-page build: creating a file costs 0.5 to 2 ms here
 * (kernel time, varying from minute to minute), and Node's asynchronous brotli hands each result back to
 * the rendering thread, which renders all pages in one go: every compression finished only after the
 * last page, 80 ms later. (Node's asynchronous fs was slower still: three trips through the thread pool
 * per file.)
 */
export class StagedOutput {
  readonly dir: string;
  private readonly target: string;
  private readonly made = new Set<string>();
  /** Started by the first file that needs compressing (a build whose copies all come from the cache never needs it). */
  private thread: Worker | null | undefined;
  private readonly pending = new Map<number, { done: (copies: Compressed) => void; fail: (error: Error) => void }>();
  /** Why the output thread stopped, if it did before the build was done with it. */
  private crashed: Error | undefined;
  private flushed: ((failure: { message: string; code?: string } | null) => void) | undefined;
  private nextId = 0;
  bytes = 0;
  files = 0;

  constructor(outDir: string) {
    this.target = resolve(outDir);
    mkdirSync(dirname(this.target), { recursive: true });
    this.dir = mkdtempSync(join(dirname(this.target), `.${basename(this.target)}.building-`));
  }

  private startThread(): Worker | null {
    try {
      const thread = new Worker(OUTPUT_THREAD, { eval: true });
      thread.on("message", (reply: { id: number; br?: Uint8Array; gz?: Uint8Array } | { flushed: true; failure: { message: string; code?: string } | null }) => {
        if ("flushed" in reply) return this.flushed?.(reply.failure);
        const job = this.pending.get(reply.id)!;
        this.pending.delete(reply.id);
        job.done({ br: reply.br, gz: reply.gz });
      });
      // A thread that dies takes its jobs with it: they fail, and so does the build (never a hang).
      const stopped = (error: Error) => {
        this.crashed ??= error;
        for (const job of this.pending.values()) job.fail(error);
        this.pending.clear();
        this.flushed?.({ message: error.message });
      };
      thread.on("error", stopped);
      thread.on("exit", (code) => stopped(new Error(`The output thread stopped (exit code ${code}).`)));
      return thread;
    } catch {
      return null;
    }
  }

  /** Writes a file (and compresses it, writes its twins) as `options` say; resolves with what it compressed. */
  emit(relativePath: string, data: string | Uint8Array, options: EmitOptions = {}): Promise<Compressed> {
    const file = join(this.dir, relativePath);
    const size = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    this.count(size, options);
    const compresses = typeof options.br === "number" || options.gz === true;
    if (compresses && this.thread === undefined) {
      this.thread = availableParallelism() > 1 && process.env.SITEGEN_OUTPUT_THREAD !== "0" ? this.startThread() : null;
    }
    // Files that need no compressing are written here: handing them over costs more than writing them.
    if (compresses && this.thread) {
      if (this.crashed) return Promise.reject(this.crashed);
      const job: OutputJob = { id: this.nextId++, file, data, ...options };
      this.thread.postMessage(job);
      return new Promise<Compressed>((done, fail) => this.pending.set(job.id, { done, fail })).then((made) => this.countMade(made, options));
    }
    this.writeHere(file, data);
    return this.compressHere(file, data, options).then((made) => this.countMade(made, options));
  }

  /** The first write that failed here (as on the output thread, it fails the commit, not the emit). */
  private failure: Error | undefined;

  private writeHere(file: string, data: string | Uint8Array): void {
    if (this.failure) return;
    try {
      const folder = dirname(file);
      if (!this.made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        this.made.add(folder);
      }
      writeFileSync(file, data);
    } catch (error) {
      this.failure = error as Error;
    }
  }

  /** Files and bytes written, twins included (a twin compressed here is counted when it is made). */
  private count(size: number, options: EmitOptions): void {
    this.bytes += size;
    this.files++;
    if (!options.twins) return;
    for (const copy of [options.br, options.gz]) {
      if (copy === undefined || copy === false) continue;
      this.files++;
      if (copy instanceof Uint8Array) this.bytes += copy.byteLength;
    }
  }

  private countMade(made: Compressed, options: EmitOptions): Compressed {
    if (options.twins) this.bytes += (made.br?.byteLength ?? 0) + (made.gz?.byteLength ?? 0);
    return made;
  }

  /** Without an output thread: compression on libuv's pool, twins written when it ends. */
  private async compressHere(file: string, data: string | Uint8Array, options: EmitOptions): Promise<Compressed> {
    const buffer = typeof data === "string" ? Buffer.from(data) : data;
    const quality = typeof options.br === "number" ? options.br : undefined;
    const [br, gz] = await Promise.all([
      quality === undefined ? options.br : brotliAsync(buffer, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: buffer.byteLength } }),
      options.gz === true ? gzipAsync(buffer, { level: 9 }) : options.gz || undefined,
    ]);
    if (options.twins && br) this.writeHere(`${file}.br`, br as Uint8Array);
    if (options.twins && gz) this.writeHere(`${file}.gz`, gz);
    return { br: quality === undefined ? undefined : (br as Uint8Array), gz: options.gz === true ? gz : undefined };
  }

  /** Waits until every file sent to the output thread is on disk; throws the first write that failed. */
  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const thread = this.thread;
    if (!thread) return;
    const failure = this.crashed
      ? { message: this.crashed.message }
      : await new Promise<{ message: string; code?: string } | null>((done) => {
          this.flushed = done;
          thread.postMessage("flush");
        });
    this.crashed ??= new Error("The output was already flushed.");
    void thread.terminate();
    if (failure) throw Object.assign(new Error(failure.message), { code: failure.code });
  }

  /** Makes the staged tree the output folder, once every file is written. */
  async commit(): Promise<void> {
    await this.flush();
    let old: string | undefined;
    if (existsSync(this.target)) {
      old = `${this.target}.old-${process.pid}-${Date.now()}`;
      renameSync(this.target, old);
    }
    renameSync(this.dir, this.target);
    if (old) removeInBackground(old);
  }

  /** Throws the staged tree away; the output folder was never touched. */
  async discard(): Promise<void> {
    await this.flush().catch(() => {});
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
