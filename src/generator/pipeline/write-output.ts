import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { StagingFolder } from "./staging.ts";
import type { RenderedPage } from "./render-pages.ts";
import type { PlannedPage } from "./plan-pages.ts";

/** A file of the output: its path relative to the output folder, and its content. */
export interface OutputFile {
  file: string;
  data: string | Uint8Array;
}

/** How hard the compressed twins of text files are compressed, if they are written at all. */
export type Precompress = false | "best" | "fast";

export interface WriteInput {
  outDir: string;
  /**
   * The output folder's files as the previous build left them (BuildState.output), for an incremental build:
   * a file whose bytes did not change stays as it is. Absent for a cold build, which writes a new folder.
   */
  previous?: Record<string, number>;
  /** The pages this build renders, written as they come and then let go (never all held at once). */
  pages: Iterable<RenderedPage>;
  /** The pages kept from the previous output as they are (an incremental build's). */
  kept: PlannedPage[];
  /** Every other file: assets, images, feeds, sitemap, robots.txt, public/, the host's files. */
  files: OutputFile[];
  /** What `sitegen start` reads (server-bundle.ts): never compressed. */
  serverFiles: OutputFile[];
  /** Also write .br and .gz copies of every text file, for servers that send precompressed files. */
  precompress: Precompress;
}

/** What is remembered of each page written (its HTML is not). */
export interface WrittenPage {
  page: PlannedPage;
  missing: string[];
  reads: string[];
  /** The page's HTML, in bytes. */
  bytes: number;
}

export interface StagedOutput {
  staging: StagingFolder;
  pages: WrittenPage[];
  /** Every file the output folder will hold, with its size in bytes. */
  output: Record<string, number>;
  /** Whether the staged folder replaces the output whole (a cold build) or updates it. */
  cold: boolean;
}

/** The compressed twins written beside each text file when precompressing. */
export const TWINS = [".br", ".gz"];

const TEXT_FILE = /\.(html|css|js|mjs|svg|xml|txt|json|webmanifest)$/;

/** Whether hosts compress the file (and a build with --precompress writes its twins): text, not a font or an image. */
export const isTextFile = (file: string) => TEXT_FILE.test(file);

/** Brotli's quality and gzip's level: the formats' best for what is deployed, fast for sitegen serve's rebuilds. */
const LEVELS = { best: { brotli: 11, gzip: 9 }, fast: { brotli: 5, gzip: 6 } };

/** How many files are being compressed at once, on Node's thread pool, while this thread renders the next pages. */
const COMPRESSING = 8;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Stage 6. Everything the output folder holds, written into a staging folder (staging.ts), which
 * publishOutput then moves into place: a build that fails before then leaves the previous output untouched.
 * A cold build stages every file; an incremental build stages only the files whose bytes changed, and its
 * kept pages stay where they are.
 */
export async function writeOutput(input: WriteInput): Promise<StagedOutput> {
  const staging = new StagingFolder(input.outDir);
  const output: Record<string, number> = {};
  const compressing = new Set<Promise<void>>();
  /** A compressed twin that could not be written: the build fails with it once the compressing is done. */
  let failure: unknown;
  const previous = input.previous;
  const twinsOf = (file: string) => (input.precompress && isTextFile(file) ? TWINS.map((twin) => file + twin) : []);

  const write = async (file: string, data: string | Uint8Array) => {
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    const twins = twinsOf(file);
    if (previous && previous[file] === bytes && twins.every((t) => t in previous) && sameBytes(input.outDir, file, data)) {
      for (const name of [file, ...twins]) output[name] = previous[name];
      return;
    }
    staging.write(file, data);
    output[file] = bytes;
    if (!input.precompress || twins.length === 0) return;
    while (compressing.size >= COMPRESSING) await Promise.race(compressing);
    const done = compress(data, input.precompress)
      .then(([br, gz]) => {
        staging.write(twins[0], br);
        staging.write(twins[1], gz);
        output[twins[0]] = br.byteLength;
        output[twins[1]] = gz.byteLength;
      })
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => compressing.delete(done));
    compressing.add(done);
  };

  try {
    const pages: WrittenPage[] = [];
    for (const page of input.kept) for (const name of [page.file, ...twinsOf(page.file)]) output[name] = previous![name];
    for (const { page, html, missing, reads } of input.pages) {
      await write(page.file, html);
      pages.push({ page, missing, reads, bytes: output[page.file] });
    }
    for (const { file, data } of input.files) await write(file, data);
    await Promise.all(compressing);
    if (failure) throw failure;
    for (const { file, data } of input.serverFiles) {
      staging.write(file, data);
      output[file] = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    }
    return { staging, pages, output, cold: previous === undefined };
  } catch (error) {
    await Promise.all(compressing);
    staging.discard();
    throw error;
  }
}

/** Moves the staged output into place: the whole folder for a cold build, the changed files for another. */
export function publishOutput(staged: StagedOutput, previous: Record<string, number> | undefined): void {
  if (staged.cold || !previous) return staged.staging.replace();
  staged.staging.update(Object.keys(previous).filter((file) => !(file in staged.output)));
}

async function compress(data: string | Uint8Array, level: "best" | "fast"): Promise<[Uint8Array, Uint8Array]> {
  const { brotli: quality, gzip: gzipLevel } = LEVELS[level];
  const params = { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(data) };
  return Promise.all([brotli(data, { params }), gzipped(data, { level: gzipLevel })]);
}

/** Whether the output folder's file holds these bytes already. */
function sameBytes(outDir: string, file: string, data: string | Uint8Array): boolean {
  let old: Buffer;
  try {
    old = readFileSync(join(outDir, file));
  } catch {
    return false;
  }
  return typeof data === "string" ? old.toString() === data : Buffer.compare(old, data) === 0;
}
