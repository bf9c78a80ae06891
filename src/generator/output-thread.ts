import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import { minifyHtml, SharedParts } from "./minify-html.ts";
import { writeCachedHere } from "./build-cache.ts";

/**
 * What happens to each output file after the build made it: minified (pages), written, compressed
 * (brotli for the summary, the byte budgets and the cache; gzip with twins), twins written. The build
 * hands this to a thread of its own (output.ts) so that it runs on the second core while the next page
 * renders; without one, the same function runs on the build's thread. The thread's entry is this
 * module, compiled beside the CLI by bin/sitegen.js.
 */

export interface OutputJob {
  id: number;
  /** Absolute path. */
  file: string;
  data: string | Uint8Array;
  /** A page as React rendered it: minify before anything else, shared parts put in place. */
  minify?: boolean;
  /**
   * Shared parts (shared-markup.ts) this page is the first to use, by key. Each thread that runs jobs
   * adds them to its SharedParts when the job reaches it, taken or not: jobs reach a thread in order.
   */
  parts?: [string, string][];
  /** Brotli: a quality to compress at, or a copy made by an earlier build. */
  br?: number | Uint8Array;
  /** Gzip (level 9): true to compress, or a copy made by an earlier build. */
  gz?: boolean | Uint8Array;
  /** Also write the compressed copies beside the file (.br, .gz). */
  twins?: boolean;
  /** A build cache file, not output: written atomically, and a failure only costs the next build time. */
  cache?: boolean;
}

export interface OutputReply {
  id: number;
  /** The minified page (when the job asked for minifying), and how long that took. */
  html?: string;
  minifyMs?: number;
  /** The copies this job compressed (not those it was given). */
  br?: Uint8Array;
  gz?: Uint8Array;
}

export interface WriteFailure {
  message: string;
  code?: string;
}

/** Writes files, making folders once; after the first failure it writes nothing more and keeps the error. */
export class FileWriter {
  private readonly made = new Set<string>();
  failure: WriteFailure | null = null;

  write(file: string, data: string | Uint8Array): void {
    if (this.failure) return;
    try {
      const folder = dirname(file);
      if (!this.made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        this.made.add(folder);
      }
      writeFileSync(file, data);
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      this.failure = { message: e.message, code: e.code };
    }
  }
}

/** `parts`: the shared parts of the pages so far (the job's own already added). */
export function runOutputJob(job: OutputJob, writer: FileWriter, parts: SharedParts): OutputReply {
  const reply: OutputReply = { id: job.id };
  if (job.cache) {
    writeCachedHere(job.file, job.data);
    return reply;
  }
  let data = job.data;
  if (job.minify) {
    const started = performance.now();
    data = reply.html = minifyHtml(data as string, parts);
    reply.minifyMs = performance.now() - started;
  }
  writer.write(job.file, data);
  if (job.br !== undefined) {
    const size = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    const br = typeof job.br === "number" ? (reply.br = brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: job.br, [zlib.BROTLI_PARAM_SIZE_HINT]: size } })) : job.br;
    if (job.twins) writer.write(`${job.file}.br`, br);
  }
  if (job.gz) {
    const gz = job.gz === true ? (reply.gz = gzipSync(data, { level: 9 })) : job.gz;
    if (job.twins) writer.write(`${job.file}.gz`, gz);
  }
  return reply;
}

export const OUTPUT_THREAD_ROLE = "sitegen-output";

/**
 * Takes a job for the thread that calls it: true once per job id, to whichever of the two threads asks
 * first (ids past the shared array belong to the output thread).
 */
export function claimJob(claims: Int32Array, id: number): boolean {
  return id >= claims.length || Atomics.compareExchange(claims, id, 0, 1) === 0;
}

// The thread's side: jobs in the order sent, each answered (a job the build's thread took first is
// answered "skipped"); a flush is answered with the first failure.
if (!isMainThread && parentPort && (workerData as { role?: string } | null)?.role === OUTPUT_THREAD_ROLE) {
  const port = parentPort;
  const { claims } = workerData as { claims: Int32Array };
  const writer = new FileWriter();
  const parts = new SharedParts();
  port.on("message", (message: OutputJob | "flush") => {
    if (message === "flush") return port.postMessage({ flushed: true, failure: writer.failure });
    if (message.parts) parts.add(message.parts);
    if (!claimJob(claims, message.id)) port.postMessage({ id: message.id, skipped: true });
    else port.postMessage(runOutputJob(message, writer, parts));
  });
}
