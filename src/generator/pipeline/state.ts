import { createHash, hash as digestOf } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrokenLink } from "../links.ts";
import { cacheFolder } from "../project.ts";
import type { EntryRecord } from "../entry.ts";
import type { CompiledCode } from "./bundle.ts";

/**
 * What a build leaves for the next one into the same folder, loaded before the first stage and saved whole
 * after the last: each page's inputs and output, each entry file's fields, the compiled code and every file of
 * the output. `sitegen serve` keeps it in memory between rebuilds; any other build reads it from the project's
 * cache folder (never in git, safe to delete: the next build is then cold).
 */
export interface BuildState {
  version: typeof VERSION;
  /** What every page depends on (stateKey): under another key, every page is rendered. */
  key: string;
  /** What reading an entry file depends on: under another key, every entry file is read again. */
  entriesKey: string;
  entries: Record<string, EntryRecord>;
  /** Each thing a page read beyond its plan, once, with its digest in the build that saved the state. */
  reads: [name: string, digest: string][];
  pages: Record<string, PageRecord>;
  /** Every file of the output folder, by its path relative to it, and its size in bytes. */
  output: Record<string, number>;
  code?: CompiledCode;
  /** What sitemap.xml was made from (sitemap.ts' sitemapKey): the same, and the file is reused as it is. */
  sitemap?: string;
}

/** What a build remembers of each page it wrote, to keep the page in the next build if nothing it read changed. */
export interface PageRecord {
  locale: string;
  label: string;
  /** The hash of the page's plan (select-pages.ts' PageInputs). */
  input: string;
  /** Each thing the page read beyond its plan, as an index into BuildState.reads. */
  reads: number[];
  /** Text keys the page asked for and its locale lacks. */
  missing: string[];
  /** The page's HTML, in bytes. */
  bytes: number;
  /** The page's links that lead nowhere (links.ts), when it has any. */
  links?: BrokenLink[];
}

/** Raised when the file's shape changes: an older state is then ignored (a cold build). */
export const VERSION = 2;

function stateFile(root: string, outDir: string): string {
  const name = createHash("sha1").update(resolve(outDir)).digest("hex").slice(0, 16);
  return join(cacheFolder(root), "state", `${name}.json`);
}

/** The state the previous build into outDir left, if any, and if this version of sitegen can read it. */
export function loadState(root: string, outDir: string): BuildState | undefined {
  const file = stateFile(root, outDir);
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, "utf8"), revive) as BuildState;
    return state.version === VERSION ? state : undefined;
  } catch {
    // A state cut short (a build killed while saving it) only means a cold build.
    return undefined;
  }
}

/**
 * Saves the state whole: written beside its final name, then renamed over it. The entries and pages are
 * written a few hundred at a time: the state of a large site as one string would be the build's largest
 * allocation, and its peak memory.
 */
export function saveState(root: string, outDir: string, state: BuildState): void {
  const file = stateFile(root, outDir);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    const { entries, pages, ...rest } = state;
    let chunk = JSON.stringify(rest, keepBytes).slice(0, -1);
    const add = (text: string) => {
      chunk += text;
      if (chunk.length < 1 << 20) return;
      writeSync(fd, chunk);
      chunk = "";
    };
    for (const [name, records] of Object.entries({ entries, pages })) {
      add(`,${JSON.stringify(name)}:{`);
      let first = true;
      for (const [key, record] of Object.entries(records)) {
        add(`${first ? "" : ","}${JSON.stringify(key)}:${JSON.stringify(record)}`);
        first = false;
      }
      add("}");
    }
    writeSync(fd, `${chunk}}`);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/**
 * Forgets the state, just before a build changes the output folder: a build stopped while it does leaves no
 * state that describes an output no longer there, and the next build is cold.
 */
export function forgetState(root: string, outDir: string): void {
  rmSync(stateFile(root, outDir), { force: true });
}

/**
 * The hash of what every page (or every entry) depends on: sitegen's own code, the project's lock file (the
 * dependencies' versions), and the parts given (the site's settings, text, compiled code, options).
 */
export function stateKey(root: string, parts: Record<string, unknown>): string {
  return hash(JSON.stringify({ ...codeAndLock(root), ...parts }));
}

/** SHA-1 in hex, in one call (a Hash object per value costs more than the hashing of a page's small plan). */
export const hash = (value: string | Uint8Array) => digestOf("sha1", value, "hex");

/** sitegen's code and the project's lock file, hashed once per process and lock file. */
const known = new Map<string, { stamp: string; value: { code: string; lock: string } }>();
function codeAndLock(root: string): { code: string; lock: string } {
  const lock = join(root, "package-lock.json");
  const stat = statSync(lock, { throwIfNoEntry: false });
  const stamp = stat ? `${stat.mtimeMs} ${stat.size}` : "";
  const before = known.get(root);
  if (before?.stamp === stamp) return before.value;
  const value = {
    code: hash(readFileSync(fileURLToPath(import.meta.url))),
    lock: stat ? hash(readFileSync(lock)) : "",
  };
  known.set(root, { stamp, value });
  return value;
}

/** Compiled files are bytes: kept in the JSON as base64 (before a Buffer's own toJSON makes a list of numbers). */
function keepBytes(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (!(raw instanceof Uint8Array)) return value;
  return { base64: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64") };
}

function revive(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && "base64" in value && Object.keys(value).length === 1) {
    return new Uint8Array(Buffer.from((value as { base64: string }).base64, "base64"));
  }
  return value;
}
