import type * as LightningCss from "lightningcss";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "./list-files.ts";
import { SitegenError } from "./errors.ts";
import { requireLazily } from "./lazy-require.ts";
import { cacheDir, inputsKey, readCachedJson, writeCached } from "./build-cache.ts";

export interface StylesheetAsset {
  /** Path under dist: assets/site.<hash>.css */
  file: string;
  href: string;
  code: Uint8Array;
}

// Browsers we promise to support; lightningcss lowers nesting and newer syntax below these.
const TARGETS = { chrome: 109 << 16, firefox: 115 << 16, safari: (15 << 16) | (4 << 8), edge: 109 << 16 };

/** src/styles/main.css and its @imports → one minified stylesheet with a content hash in its name. */
export function buildStylesheet(root: string): StylesheetAsset {
  const filename = join(root, "src", "styles", "main.css");
  if (!existsSync(filename)) {
    throw new SitegenError("StylesMissing", `${filename} does not exist.`, "Create src/styles/main.css (it may @import other files).");
  }
  // The stylesheet of an earlier build when no CSS file changed since (build-cache.ts).
  const sources = listFiles(root, "src/styles", [".css"], true).map((f) => join(root, f));
  const key = inputsKey(root, [], sources);
  const cacheFile = cacheDir(root, "css.json");
  const cached = readCachedJson<{ key: string; css: string }>(cacheFile);
  if (cached?.key === key) return asset(new TextEncoder().encode(cached.css));
  let code: Uint8Array;
  try {
    const { bundle } = requireLazily("lightningcss") as typeof LightningCss;
    code = bundle({ filename, minify: true, targets: TARGETS }).code;
  } catch (error) {
    const e = error as { fileName?: string; loc?: { line: number; column: number }; message: string };
    const where = e.fileName ? `${e.fileName}:${e.loc?.line ?? 0}:${e.loc?.column ?? 0}` : filename;
    throw new SitegenError("CssError", `${where}: ${e.message}`, "Fix the CSS at that position.", { cause: error });
  }
  writeCached(cacheFile, JSON.stringify({ key, css: new TextDecoder().decode(code) }));
  return asset(code);
}

function asset(code: Uint8Array): StylesheetAsset {
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
  const file = `assets/site.${hash}.css`;
  return { file, href: `/${file}`, code };
}
