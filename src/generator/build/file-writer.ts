import { mkdirSync, writeFileSync } from "node:fs";
import * as zlib from "node:zlib";
import { dirname } from "node:path";
import { Worker, type TransferListItem } from "node:worker_threads";
import { createMinifier } from "../html/minify-html.ts";
import { SHARED_PLACEHOLDER } from "../html/shared-markup.ts";

/** Why a file could not be written: its path, and the system's code and message. */
export interface WriteFailure {
  path: string;
  code: string;
  message: string;
}

/** How hard compressed twins are compressed: brotli's quality and gzip's level. */
export interface TwinLevels {
  brotli: number;
  gzip: number;
}

/**
 * As hard as the formats allow, for the twins hosts send; or fast, for `sitegen serve`'s builds, made again
 * on every save and never deployed (brotli's best quality takes tens of milliseconds on a long page or feed).
 */
export const TWIN_LEVELS = { best: { brotli: 11, gzip: 9 }, fast: { brotli: 5, gzip: 6 } } satisfies Record<string, TwinLevels>;

/**
 * Work for the writing thread besides the files (the sitemap, seo/sitemap.ts): the source text of a function
 * that refers to nothing outside itself, called there as `(data, require, pause)`. Awaiting `pause()` lets
 * the thread take the files sent meanwhile, so that the work fills the moments it would wait for pages.
 */
export interface WriterTask {
  source: string;
  data: unknown;
}

/** What runs a WriterTask: a FileWriter with its thread. */
export interface TaskRunner {
  run<T>(task: WriterTask): Promise<T>;
}

/** What writing a page made: its minified HTML's bytes, and the files written for it (its twins too) and their bytes. */
export interface PageWritten {
  bytes: number;
  files: number;
  written: number;
}

/**
 * Writes the output's files, each with its folders, in the order they come; a page is minified first, and
 * compressed too when its twins are asked for. With `thread`, all this happens on a thread of its own while
 * the build goes on rendering the next pages, so that the second core minifies, compresses and writes beside
 * the first's rendering. Without it (a rebuild of a few pages, where starting a thread costs more than it
 * saves), each file is written at once.
 *
 * A failure is thrown at once without a thread, and returned by `close()` with one.
 */
export class FileWriter {
  private readonly worker: Worker | undefined;
  private readonly inline: { folders: Set<string>; finish: ReturnType<typeof finishPage> };
  /** Files sent to the thread and not yet confirmed written. */
  private pending = 0;
  /**
   * Files sent to the thread, and files it has taken (a counter it shares: this thread renders without
   * going back to its event loop, where the thread's reports arrive, so it reads how far behind it is here).
   */
  private sent = 0;
  private readonly taken = new Int32Array(new SharedArrayBuffer(4));
  private failure: WriteFailure | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly done = new Map<number, (written: PageWritten) => void>();
  private nextId = 0;
  /** The tasks sent to the thread and not yet done, by number. */
  private readonly tasks = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextTask = 0;
  private readonly closed: Promise<void> | undefined;
  /** The shared parts the pages name (render-pages.ts), and how many of them the thread has. */
  private parts: readonly string[] = [];
  private partsSent = 0;

  constructor(thread: boolean, levels: TwinLevels = TWIN_LEVELS.best) {
    this.inline = { folders: new Set<string>(), finish: finishPage(createMinifier(SHARED_PLACEHOLDER), zlib, levels) };
    if (!thread) return;
    // Its live data is a few pages at a time (drain): a small heap makes it collect as it goes rather than
    // grow with the build, which would add up to most of a large build's memory.
    this.worker = new Worker(`(${writerThread.toString()})(${finishPage.toString()}, ${createMinifier.toString()}, ${JSON.stringify(SHARED_PLACEHOLDER)}, ${REPORT_EVERY}, ${JSON.stringify(levels)})`, { eval: true, resourceLimits: WRITER_HEAP, workerData: { taken: this.taken } });
    this.closed = new Promise((resolve, reject) => {
      this.worker!.on("message", (message: { count: number; pages: [number, PageWritten][]; failure?: WriteFailure } | TaskDone) => {
        if ("task" in message) return this.settle(message);
        this.pending -= message.count;
        for (const [id, written] of message.pages) {
          this.done.get(id)!(written);
          this.done.delete(id);
        }
        if (message.failure) this.failure ??= message.failure;
        this.wakeUp?.();
      });
      this.worker!.once("error", reject);
      this.worker!.once("exit", () => {
        for (const task of this.tasks.values()) task.reject(new Error("The writing thread stopped before its task was done."));
        this.tasks.clear();
        resolve();
      });
    });
  }

  /** Whether the files go to a thread of their own, which can also run tasks (`run`). */
  get threaded(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Runs a task on the writing thread, between the files it writes; its failure keeps the system's code.
   * What its data holds that moves to the thread (a MessagePort) is named in `transfer`.
   */
  run<T>(task: WriterTask, transfer: TransferListItem[] = []): Promise<T> {
    if (!this.worker) return Promise.reject(new Error("A FileWriter without its thread runs no task."));
    const id = this.nextTask++;
    return new Promise<T>((resolve, reject) => {
      this.tasks.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker!.postMessage({ task: id, source: task.source, data: task.data }, transfer);
    });
  }

  private settle(done: TaskDone): void {
    const task = this.tasks.get(done.task);
    this.tasks.delete(done.task);
    if (done.failure) task?.reject(Object.assign(new Error(done.failure.message), { code: done.failure.code }));
    else task?.resolve(done.result);
  }

  /** Writes one file as it is. */
  write(path: string, data: string | Uint8Array): void {
    if (!this.worker) return writeNow(path, data, this.inline.folders);
    this.pending++;
    this.sent++;
    this.worker.postMessage({ path, data });
  }

  /**
   * Writes a page's HTML minified, with the shared parts it names put in (`shared`: the build's parts, a list
   * that only grows), and its compressed twins, `.br` and `.gz`, if asked; `done` is told what was written.
   */
  writePage(path: string, html: string, shared: readonly string[], twins: boolean, done: (written: PageWritten) => void): void {
    if (!this.worker) {
      const page = this.inline.finish(html, shared, twins);
      for (const file of page.files) writeNow(path + file.suffix, file.data, this.inline.folders);
      return done(page.written);
    }
    // While the thread is behind (its disk slower than the rendering), this thread minifies and compresses
    // the page itself and sends only its files: the two then share the work instead of the rendering waiting.
    if (this.sent - Atomics.load(this.taken, 0) > SHARE_FROM) {
      const page = this.inline.finish(html, shared, twins);
      for (const file of page.files) this.write(path + file.suffix, file.data);
      return done(page.written);
    }
    // Each part goes to the thread once, before the first page that names it (messages arrive in order).
    if (shared !== this.parts) {
      this.parts = shared;
      this.partsSent = 0;
    }
    if (shared.length > this.partsSent) {
      this.worker.postMessage({ parts: shared.slice(this.partsSent), from: this.partsSent });
      this.partsSent = shared.length;
    }
    const id = this.nextId++;
    this.done.set(id, done);
    this.pending++;
    this.sent++;
    this.worker.postMessage({ path, html, twins, id });
  }

  /**
   * Waits while more than `limit` files are on their way, so that pages rendered faster than they are
   * written never pile up in memory. The thread says what it wrote every REPORT_EVERY files: the limit must
   * be larger than that, or a wait could outlast the last report.
   */
  async drain(limit = 8 * REPORT_EVERY): Promise<void> {
    while (this.worker && this.pending > limit && !this.failure) await new Promise<void>((resolve) => (this.wakeUp = resolve));
    this.wakeUp = undefined;
  }

  /** Waits until every file is written and stops the thread; the first failure, if any, is returned. */
  async close(): Promise<WriteFailure | undefined> {
    if (!this.worker) return undefined;
    this.worker.postMessage({ close: true });
    await this.closed;
    return this.failure;
  }

  /** Stops the thread without waiting for what it has left to write (the build failed anyway). */
  async abandon(): Promise<void> {
    if (this.worker) await this.worker.terminate();
  }
}

/** A task's end, as the thread reports it. */
interface TaskDone {
  task: number;
  result?: unknown;
  failure?: { code: string; message: string };
}

/** How many files the thread writes between two reports of what it wrote. */
const REPORT_EVERY = 8;

/** From how many files waiting for the thread the page is made ready here (below drain's limit, so that it comes first). */
const SHARE_FROM = 4 * REPORT_EVERY;

/** The writing thread's heap, in MB: its pages on their way (at most `drain`'s limit) several times over. */
const WRITER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 };

function writeNow(path: string, data: string | Uint8Array, folders: Set<string>): void {
  const folder = dirname(path);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  writeFileSync(path, data);
}

/**
 * A page as written: its HTML minified, and its twins compressed as `sitegen start` and precompressing
 * servers expect them (at `levels`). It refers to nothing outside itself: its source text is also the thread's.
 */
function finishPage(minify: (html: string, parts: readonly string[]) => string, compress: Pick<typeof zlib, "brotliCompressSync" | "gzipSync" | "constants">, levels: TwinLevels) {
  return (html: string, parts: readonly string[], twins: boolean) => {
    const minified = minify(html, parts);
    // Without twins the page stays a string until it is written: a string goes to the writing thread for
    // less than its bytes would, and writing it encodes it as encoding it here would.
    if (!twins) {
      const bytes = Buffer.byteLength(minified);
      return { files: [{ suffix: "", data: minified as string | Uint8Array }], written: { bytes, files: 1, written: bytes } };
    }
    const data = Buffer.from(minified);
    const files: { suffix: string; data: string | Uint8Array }[] = [{ suffix: "", data }];
    files.push({ suffix: ".br", data: compress.brotliCompressSync(data, { params: { [compress.constants.BROTLI_PARAM_QUALITY]: levels.brotli } }) });
    files.push({ suffix: ".gz", data: compress.gzipSync(data, { level: levels.gzip }) });
    return { files, written: { bytes: data.byteLength, files: files.length, written: files.reduce((sum, f) => sum + (f.data as Uint8Array).byteLength, 0) } };
  };
}

/**
 * The thread's code, run from its source text with finishPage's and the minifier's (so it needs no file of
 * its own, compiled or not). It writes each file it is sent, tells how many it wrote and what each page made
 * every few files, and the first failure, after which it writes nothing more.
 */
function writerThread(finish: typeof finishPage, minifier: typeof createMinifier, placeholder: typeof SHARED_PLACEHOLDER, reportEvery: number, levels: TwinLevels): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const fs = require("node:fs") as typeof import("node:fs");
  const path = require("node:path") as typeof import("node:path");
  const { parentPort, workerData } = require("node:worker_threads") as typeof import("node:worker_threads");
  const { taken } = workerData as { taken: Int32Array };
  const page = finish(minifier(placeholder), require("node:zlib"), levels);
  // The shared parts the pages name, as the build's thread sends them.
  const parts: string[] = [];
  const folders = new Set<string>();
  let count = 0;
  let pages: [number, PageWritten][] = [];
  let failed = false;
  const report = (failure?: WriteFailure) => {
    parentPort!.postMessage({ count, pages, failure });
    count = 0;
    pages = [];
  };
  const put = (file: string, data: string | Uint8Array) => {
    const folder = path.dirname(file);
    if (!folders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    fs.writeFileSync(file, data);
  };
  const tasks = new Set<Promise<void>>();
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  const runTask = (id: number, source: string, data: unknown) => {
    const run = new Function(`return (${source})`)() as (data: unknown, require: NodeJS.Require, pause: () => Promise<void>) => Promise<unknown>;
    const done = Promise.resolve()
      .then(() => run(data, require, pause))
      .then(
        (result) => parentPort!.postMessage({ task: id, result }),
        (e: NodeJS.ErrnoException) => parentPort!.postMessage({ task: id, failure: { code: e?.code ?? "", message: e?.message ?? String(e) } }),
      )
      .finally(() => tasks.delete(done));
    tasks.add(done);
  };
  parentPort!.on("message", (message: { path: string; data?: string | Uint8Array; html?: string; twins?: boolean; id?: number; close?: boolean; task?: number; source?: string; parts?: string[]; from?: number }) => {
    if (message.task !== undefined) return runTask(message.task, message.source!, message.data);
    if (message.parts) {
      parts.length = message.from!;
      parts.push(...message.parts);
      return;
    }
    if (message.close) {
      // The tasks still running end first: each reports its end before the thread stops.
      void Promise.all(tasks).then(() => {
        report();
        parentPort!.close();
      });
      return;
    }
    count++;
    // Counted as taken, written or not: the build's thread reads it to tell how far behind this one is.
    Atomics.add(taken, 0, 1);
    if (failed) return;
    let file = message.path;
    try {
      if (message.html === undefined) {
        put(file, message.data!);
      } else {
        const made = page(message.html, parts, message.twins === true);
        for (const { suffix, data } of made.files) put((file = message.path + suffix), data);
        pages.push([message.id!, made.written]);
      }
    } catch (error) {
      failed = true;
      const e = error as NodeJS.ErrnoException;
      return report({ path: file, code: e.code ?? "", message: e.message });
    }
    if (count >= reportEvery) report();
  });
}
