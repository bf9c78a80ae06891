import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { listFiles } from "./list-files.ts";

/**
 * The build's caches, under node_modules/.cache/sitegen (never committed; a clean install starts afresh).
 * Each one saves work whose inputs did not change since an earlier build, in any process:
 * - parsed YAML, keyed by the file's text;
 * - the pages bundle and the islands bundle, keyed by the path, size and modification time of every input
 *   esbuild reported last time, the list of entries, the lockfile and the generator's own sources;
 * - brotli and gzip copies, keyed by the bytes they compress.
 * A cache that cannot be read is a miss, never an error; writes are atomic (write, then rename), so
 * parallel builds (the test suite runs several) never see half a file.
 */
export function cacheDir(root: string, ...sub: string[]): string {
  return join(root, "node_modules", ".cache", "sitegen", ...sub);
}

export const sha1 = (data: string | Uint8Array) => createHash("sha1").update(data).digest("hex");

/** Path, size and modification time of each file (what make trusts); a missing file counts too. */
export function stampFiles(files: string[]): string {
  const hash = createHash("sha1");
  for (const file of files) {
    try {
      const s = statSync(file);
      hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
    } catch {
      hash.update(`${file}\0missing\n`);
    }
  }
  return hash.digest("hex");
}

const generatorStamps = new Map<string, string>();

/**
 * Changes whenever the generator itself or an installed package does, which voids every cached bundle.
 * Run compiled, the compiled files stand for it: bin/sitegen.js recompiles them whenever one of their
 * sources or the lockfile changed (two stamps instead of some forty, 5-7 ms on these machines).
 */
export function generatorStamp(root: string): string {
  let stamp = generatorStamps.get(root);
  if (!stamp) {
    const self = fileURLToPath(import.meta.url);
    const files = self.endsWith(".cjs")
      ? [self, join(dirname(self), "output-thread.cjs")]
      : [...listFiles(root, "src/generator", [".ts"]), "package-lock.json"].map((f) => join(root, f));
    // The project's own folder too: projects may share a node_modules (and so these caches).
    stamp = sha1(`${root}\0${stampFiles(files)}`);
    generatorStamps.set(root, stamp);
  }
  return stamp;
}

/**
 * The key of a cached build product: the generator's own stamp, the names that decide what is built
 * (entry files), and the stamps of every file it was built from.
 */
export function inputsKey(root: string, names: string[], inputs: string[]): string {
  return sha1(`${generatorStamp(root)}\0${names.join("\0")}\0${stampFiles(inputs)}`);
}

export function readCached(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

export function readCachedJson<T>(file: string): T | undefined {
  const data = readCached(file);
  try {
    return data ? (JSON.parse(data.toString("utf8")) as T) : undefined;
  } catch {
    return undefined;
  }
}

let deferredWriter: ((file: string, data: string | Uint8Array) => void) | null = null;

/**
 * While a build runs on two threads, cache files are written by its output thread (output.ts) instead of
 * this one: creating a file costs 1-7 ms here, and a first build writes a dozen caches. The build waits
 * for that thread before it ends, so the next build always finds them. null writes here again.
 */
export function deferCacheWrites(writer: ((file: string, data: string | Uint8Array) => void) | null): void {
  deferredWriter = writer;
}

/** Writes a cache file (atomically); `now` when this build reads it back at once. */
export function writeCached(file: string, data: string | Uint8Array, options: { now?: boolean } = {}): void {
  if (deferredWriter && !options.now) return deferredWriter(file, data);
  writeCachedHere(file, data);
}

export function writeCachedHere(file: string, data: string | Uint8Array): void {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only makes the next build slower.
  }
}

/** Keeps a cache folder from growing without end: past `keep` entries, the oldest go. */
export function pruneCache(dir: string, keep: number): void {
  try {
    const entries = readdirSync(dir);
    if (entries.length <= keep) return;
    const dated = entries.map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
    for (const { name } of dated.slice(0, dated.length - keep)) rmSync(join(dir, name), { recursive: true, force: true });
  } catch {
    // Another build may be pruning the same folder.
  }
}
