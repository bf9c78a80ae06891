import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cacheFolder } from "../project.ts";
import type { IslandsBundle } from "./bundle-islands.ts";
import type { Stylesheet } from "./bundle-styles.ts";

/** What stage 2 compiled, as kept between builds: the pages by their module's file, the rest as they are. */
export interface CompiledCode {
  islands: IslandsBundle;
  pages: { file: string; hash: string };
  apiCode: string | undefined;
  stylesheet: Stylesheet;
}

interface CacheFile {
  key: string;
  /** Every file the compilers read, with its size and time of change then. */
  inputs: [string, number, number][];
  code: CompiledCode;
}

/**
 * The site's compiled code (stage 2) from an earlier build, when none of the files the compilers read has
 * changed since (same size and time of change, as for the entries) and the key is the same (sitegen's own
 * code, the lock file: buildKey). A build whose sources did not change then starts neither esbuild nor
 * lightningcss, as `sitegen serve` already did between its own rebuilds.
 */
export function loadCompiledCode(root: string, key: string): CompiledCode | undefined {
  const file = cacheFile(root);
  if (!existsSync(file)) return undefined;
  try {
    const cached = JSON.parse(readFileSync(file, "utf8"), revive) as CacheFile;
    if (cached.key !== key || !existsSync(cached.code.pages.file)) return undefined;
    for (const [path, size, mtimeMs] of cached.inputs) {
      if (!existsSync(path)) return undefined;
      const stat = statSync(path);
      if (stat.size !== size || stat.mtimeMs !== mtimeMs) return undefined;
    }
    return cached.code;
  } catch {
    // A cache cut short or from another version only means compiling again.
    return undefined;
  }
}

export function saveCompiledCode(root: string, key: string, inputs: Iterable<string>, code: CompiledCode): void {
  const file = cacheFile(root);
  const stamped: CacheFile["inputs"] = [];
  for (const path of [...new Set(inputs)].sort()) {
    const stat = statSync(path);
    stamped.push([path, stat.size, stat.mtimeMs]);
  }
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ key, inputs: stamped, code } satisfies CacheFile, bytes));
  renameSync(temporary, file);
}

/** Compiled files are bytes: kept in the JSON as base64 (looked at before a Buffer's own toJSON turns it into a list). */
function bytes(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Uint8Array ? { base64: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64") } : value;
}

function revive(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && "base64" in value && Object.keys(value).length === 1) return new Uint8Array(Buffer.from((value as { base64: string }).base64, "base64"));
  return value;
}

function cacheFile(root: string): string {
  return join(cacheFolder(root), "compiled.json");
}
