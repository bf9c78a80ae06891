/**
 * A stack trace through the compiled pages, shown as the site's own files: each position in the bundle
 * (node_modules/.cache/sitegen/pages/pages-*.cjs) becomes the file, line and column of src/ it was compiled
 * from, read from the bundle's inline source map (its sources are relative to the project). Done here
 * rather than by Node's --enable-source-maps, which a test runner or another Error.prepareStackTrace bypasses.
 */
import { readFileSync, realpathSync } from "node:fs";
import { SourceMap } from "node:module";
import { isAbsolute } from "node:path";

const INLINE_MAP = "//# sourceMappingURL=data:application/json;base64,";

function inlineMap(file: string): SourceMap | undefined {
  try {
    const code = readFileSync(file, "utf8");
    const at = code.lastIndexOf(INLINE_MAP);
    if (at === -1) return undefined;
    return new SourceMap(JSON.parse(Buffer.from(code.slice(at + INLINE_MAP.length).trim(), "base64").toString()));
  } catch {
    return undefined;
  }
}

function realPath(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

export function mapPageStack(stack: string, bundleFile: string): string {
  let map: SourceMap | undefined;
  // Node names a module by its real path: the project's folder may be reached through a symbolic link.
  const names = new Set([bundleFile, realPath(bundleFile)]);
  const escaped = [...names].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return stack.replace(new RegExp(`(?:${escaped}):(\\d+):(\\d+)`, "g"), (position, line: string, column: string) => {
    map ??= inlineMap(bundleFile);
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !("originalSource" in entry)) return position;
    return `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/**
 * The first frames of an error's stack through the compiled pages, mapped to src/; when some are the site's own
 * files, only those: the generator's and React's frames above and below them say nothing about what to fix.
 */
export function pageFrames(stack: string, bundleFile: string, count = 5): string {
  const frames = mapPageStack(stack.split("\n").slice(1, 30).join("\n"), bundleFile).split("\n");
  const own = frames.filter((frame) => {
    const place = /\(([^()]*)\)$/.exec(frame)?.[1] ?? frame.trim().replace(/^at /, "");
    return /:\d+:\d+$/.test(place) && !isAbsolute(place) && !place.startsWith("node:");
  });
  return (own.length ? own : frames).slice(0, count).join("\n");
}
