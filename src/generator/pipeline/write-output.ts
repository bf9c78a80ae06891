import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
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
  /** What the page read, as indexes into the build's ReadLog names. */
  reads: number[];
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

/** How many files may wait for the writing thread (a page's HTML is tens of KB). */
const MAX_PENDING = 256;

/** The compressed twins written beside each text file when precompressing. */
export const TWINS = [".br", ".gz"];

const TEXT_FILE = /\.(html|css|js|mjs|svg|xml|txt|json|webmanifest)$/;

/** Whether hosts compress the file (and a build with --precompress writes its twins): text, not a font or an image. */
export const isTextFile = (file: string) => TEXT_FILE.test(file);

/** Brotli's quality and gzip's level: the formats' best for what is deployed, fast for sitegen serve's rebuilds. */
const LEVELS = { best: { brotli: 11, gzip: 9 }, fast: { brotli: 5, gzip: 6 } };

/**
 * Stage 6. Everything the output folder holds, written into a staging folder (staging.ts), which
 * publishOutput then moves into place: a build that fails before then leaves the previous output untouched.
 * A cold build stages every file; an incremental build stages only the files whose bytes changed, and its
 * kept pages stay where they are.
 */
export async function writeOutput(input: WriteInput): Promise<StagedOutput> {
  const staging = new StagingFolder(input.outDir);
  const output: Record<string, number> = {};
  const previous = input.previous;
  const twinsOf = (file: string) => (input.precompress && isTextFile(file) ? TWINS.map((twin) => file + twin) : []);
  const put = (file: string, data: string | Uint8Array) => {
    staging.write(file, data);
    output[file] = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
  };
  const write = (file: string, data: string | Uint8Array) => {
    const twins = twinsOf(file);
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    if (previous?.[file] === bytes && twins.every((t) => t in previous) && sameBytes(input.outDir, file, data)) {
      for (const name of [file, ...twins]) output[name] = previous[name];
      return;
    }
    put(file, data);
    if (!input.precompress || twins.length === 0) return;
    const { brotli, gzip } = LEVELS[input.precompress];
    put(twins[0], brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: brotli } }));
    put(twins[1], gzipSync(data, { level: gzip }));
  };

  try {
    const pages: WrittenPage[] = [];
    for (const page of input.kept)
      for (const name of [page.file, ...twinsOf(page.file)]) output[name] = previous![name];
    for (const { page, html, missing, reads } of input.pages) {
      write(page.file, html);
      pages.push({ page, missing, reads, bytes: output[page.file] });
      // Pages wait in memory only while the writing thread is this far behind.
      await staging.settle(MAX_PENDING);
    }
    for (const { file, data } of input.files) write(file, data);
    for (const { file, data } of input.serverFiles) put(file, data);
    await staging.close();
    return { staging, pages, output, cold: previous === undefined };
  } catch (error) {
    await staging.discard();
    throw error;
  }
}

/** Moves the staged output into place: the whole folder for a cold build, the changed files for another. */
export function publishOutput(staged: StagedOutput, previous: Record<string, number> | undefined): void {
  if (staged.cold || !previous) return staged.staging.replace();
  staged.staging.update(Object.keys(previous).filter((file) => !(file in staged.output)));
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
