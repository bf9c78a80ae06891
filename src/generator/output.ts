import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { writeCachedHere } from "./build-cache.ts";
import { claimJob, FileWriter, OUTPUT_THREAD_ROLE, runOutputJob, type OutputJob, type OutputReply, type WriteFailure } from "./output-thread.ts";
import { SharedParts } from "./minify-html.ts";

export type EmitOptions = Omit<OutputJob, "id" | "file" | "data">;
export type Emitted = Omit<OutputReply, "id">;

/**
 * Writes a build into a fresh sibling of the output folder and swaps it in only when the build succeeded,
 * so a failed build leaves the previous output byte-for-byte as it was. The old tree is renamed away and
 * deleted in a detached process: deleting thousands of files right before writing new ones slows the
 * kernel down for a while (research/peer-benchmark.md), and the build need not wait for it.
 *
 * With a second core, pages are minified, written and compressed on a thread of their own
 * (output-thread.ts) while the build's thread renders the next one. Measured on a 46-page first build:
 * minifying took 50-60 ms of the rendering thread; creating a file costs 0.5 to 2 ms here (kernel time,
 * varying from minute to minute); and Node's asynchronous brotli hands each result back to the rendering
 * thread, which renders every page in one go, so all compression finished only after the last page, 80 ms
 * later. The thread is compiled beside the CLI; run from TypeScript sources (the unit tests), on one
 * core or with SITEGEN_OUTPUT_THREAD=0, the same work runs on the build's thread, with the same result.
 * Measured and not kept: compressing asynchronously from the output thread (more CPU, slower), and
 * having the build's thread minify pages itself whenever the output thread fell behind (no faster).
 *
 * When the build's thread has nothing left to render, the output thread is often still behind (50-100 ms
 * of a first build): catchUp() then has the build's thread take the newest jobs while the output thread
 * works through the oldest, each job claimed by whichever thread gets to it first (claimJob).
 */
export class StagedOutput {
  readonly dir: string;
  private readonly target: string;
  /**
   * Started by prepareThread (a build that will render pages) or by the first job with more to do than
   * writing; a build whose pages all come from the cache never needs it. null: there is none.
   */
  private thread: Worker | null | undefined;
  private readonly writer = new FileWriter();
  /** The shared parts of this build's pages, for the jobs this thread runs (the output thread has its own). */
  private readonly parts = new SharedParts();
  private readonly pending = new Map<number, { job: OutputJob; done: (reply: OutputReply) => void; fail: (error: Error) => void }>();
  /** One flag per job id, shared with the output thread: set by whichever thread takes the job. */
  private readonly claims = new Int32Array(new SharedArrayBuffer(4 * CLAIMABLE_JOBS));
  private flushed: ((failure: WriteFailure | null) => void) | undefined;
  /** Why the output thread stopped, if it did before the build was done with it. */
  private crashed: Error | undefined;
  private nextId = 0;
  bytes = 0;
  files = 0;

  /** `threadEntry`: the output thread's compiled module (default: output-thread.cjs beside this one). */
  constructor(outDir: string, private readonly threadEntry = fileURLToPath(new URL("./output-thread.cjs", import.meta.url))) {
    this.target = resolve(outDir);
    mkdirSync(dirname(this.target), { recursive: true });
    this.dir = mkdtempSync(join(dirname(this.target), `.${basename(this.target)}.building-`));
  }

  /** Starts the output thread now, so that it has booted (30-60 ms) by the time the first page comes. */
  prepareThread(): void {
    this.ensureThread();
  }

  private ensureThread(): Worker | null {
    if (this.thread === undefined) {
      this.thread = startThread(this.threadEntry, this.claims);
      if (this.thread) this.listen(this.thread);
      this.releaseCaches();
    }
    return this.thread;
  }

  /** Whether jobs run on the output thread (else on this one, as they are emitted). */
  get threaded(): boolean {
    return Boolean(this.thread);
  }

  /** Writes a file (minified, compressed, with twins, as `options` say); resolves with what that made. */
  emit(relativePath: string, data: string | Uint8Array, options: EmitOptions = {}): Promise<Emitted> {
    const job: OutputJob = { id: this.nextId++, file: join(this.dir, relativePath), data, ...options };
    if (job.parts) this.parts.add(job.parts);
    const busy = job.minify || typeof job.br === "number" || job.gz === true;
    let reply: Promise<OutputReply>;
    // Files with nothing to do but be written are written here: handing them over costs more.
    if (busy && this.ensureThread()) {
      if (this.crashed) return Promise.reject(this.crashed);
      this.thread!.postMessage(job);
      reply = new Promise((done, fail) => this.pending.set(job.id, { job, done, fail }));
    } else {
      reply = Promise.resolve(runOutputJob(job, this.writer, this.parts));
    }
    return reply.then((r) => this.count(job, r));
  }

  /** Writes a build cache file on the output thread when there is one (build-cache.ts), else here. */
  writeCache(file: string, data: string | Uint8Array): void {
    // Before the thread is started (or known not to be), caches wait: most builds start it soon after.
    if (this.thread === undefined) return void this.heldCaches.push([file, data]);
    if (!this.thread || this.crashed) return writeCachedHere(file, data);
    const job: OutputJob = { id: this.nextId++, file, data, cache: true };
    this.thread.postMessage(job);
    this.pending.set(job.id, { job, done: () => {}, fail: () => {} });
  }

  private heldCaches: [string, string | Uint8Array][] = [];

  private releaseCaches(): void {
    const held = this.heldCaches;
    this.heldCaches = [];
    for (const [file, data] of held) this.writeCache(file, data);
  }

  /** Files and bytes written, twins included. */
  private count(job: OutputJob, reply: OutputReply): Emitted {
    const data = reply.html ?? job.data;
    this.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    this.files++;
    if (job.twins) {
      for (const copy of [reply.br ?? job.br, reply.gz ?? job.gz]) {
        if (copy instanceof Uint8Array) {
          this.bytes += copy.byteLength;
          this.files++;
        }
      }
    }
    const { id: _, ...emitted } = reply;
    return emitted;
  }

  private listen(thread: Worker): void {
    thread.on("message", (reply: OutputReply | { flushed: true; failure: WriteFailure | null }) => {
      if ("flushed" in reply) return this.flushed?.(reply.failure);
      // A job this thread took (catchUp) is answered "skipped" by the output thread, and was settled here.
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      job.done(reply);
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
  }

  /**
   * Does the output thread's newest jobs on this thread, newest first, until it meets a job the output
   * thread has taken: for when this thread has nothing else to do but wait. Each job's promise settles
   * as if the output thread had done it. Returns how many it did.
   */
  catchUp(): number {
    let taken = 0;
    while (this.takeNewestJob()) taken++;
    return taken;
  }

  /**
   * catchUp() one job at a time, letting this thread's other work (the sitemap's stream, replies from the
   * output thread) run in between, so that the two threads end together.
   */
  async catchUpGradually(): Promise<number> {
    let taken = 0;
    while (this.takeNewestJob()) {
      taken++;
      await new Promise((next) => setImmediate(next));
    }
    return taken;
  }

  /** Does the newest job still waiting for the output thread here; false when there is none left to take. */
  private takeNewestJob(): boolean {
    if (!this.thread || this.crashed) return false;
    const newest = [...this.pending.keys()].at(-1);
    if (newest === undefined || !claimJob(this.claims, newest)) return false;
    const entry = this.pending.get(newest)!;
    this.pending.delete(newest);
    let reply: OutputReply;
    try {
      reply = runOutputJob(entry.job, this.writer, this.parts);
    } catch (error) {
      entry.fail(error as Error);
      return true;
    }
    entry.done(reply);
    return true;
  }

  /** Waits until every file is on disk; throws the first write that failed. */
  private async flush(): Promise<void> {
    // No thread was ever needed: the held caches are written here.
    if (this.thread === undefined) this.thread = null;
    this.releaseCaches();
    const thread = this.thread;
    // Cache files are the last jobs of a build: written here if the output thread has not got to them.
    this.catchUp();
    let failure = this.writer.failure;
    if (thread) {
      const theirs = this.crashed
        ? { message: this.crashed.message }
        : await new Promise<WriteFailure | null>((done) => {
            this.flushed = done;
            thread.postMessage("flush");
          });
      this.crashed ??= new Error("The output was already flushed.");
      void thread.terminate();
      failure ??= theirs;
    }
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

/** Jobs with an id below this can be taken by either thread; later ones (a site of more files) by the output thread only. */
const CLAIMABLE_JOBS = 1 << 16;

/** The output thread, when the compiled CLI (with output-thread.cjs beside it) runs on two cores or more. */
function startThread(entry: string, claims: Int32Array): Worker | null {
  if (availableParallelism() < 2 || process.env.SITEGEN_OUTPUT_THREAD === "0") return null;
  if (!existsSync(entry)) return null;
  try {
    return new Worker(entry, { workerData: { role: OUTPUT_THREAD_ROLE, claims } });
  } catch {
    return null;
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
