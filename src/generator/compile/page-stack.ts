/**
 * A stack trace through the compiled pages, shown as the site's own files: each position in the bundle
 * (node_modules/.cache/sitegen/pages/pages-*.cjs) becomes the file, line and column of src/ it was compiled
 * from, read from the bundle's inline source map (its sources are relative to the project). Done here
 * rather than by Node's --enable-source-maps, which a test runner or another Error.prepareStackTrace bypasses.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";

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

export function mapPageStack(stack: string, bundleFile: string): string {
  let map: SourceMap | undefined;
  const escaped = bundleFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return stack.replace(new RegExp(`${escaped}:(\\d+):(\\d+)`, "g"), (position, line: string, column: string) => {
    map ??= inlineMap(bundleFile);
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !("originalSource" in entry)) return position;
    return `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
