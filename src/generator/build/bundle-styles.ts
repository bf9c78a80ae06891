import { bundle } from "lightningcss";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { sitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";

export interface Stylesheet {
  /** Path under the output folder: assets/site.<hash>.css */
  file: string;
  href: string;
  code: Uint8Array;
}

// The browsers the site supports; lightningcss lowers nesting and newer syntax below these.
const TARGETS = { chrome: 109 << 16, firefox: 115 << 16, safari: (15 << 16) | (4 << 8), edge: 109 << 16 };

/** Stage 2c. src/styles/main.css and its @imports → one minified stylesheet named by its content's hash. */
export function bundleStyles(root: string): Stylesheet {
  const filename = join(root, PROJECT_FILES.stylesheet);
  if (!existsSync(filename)) throw sitegenError("StylesMissing", { file: PROJECT_FILES.stylesheet });
  let code: Uint8Array;
  try {
    code = bundle({ filename, minify: true, targets: TARGETS }).code;
  } catch (error) {
    const e = error as { fileName?: string; loc?: { line: number; column: number }; message: string };
    const file = e.fileName ? relative(root, e.fileName) : PROJECT_FILES.stylesheet;
    throw sitegenError("CssError", { file, line: e.loc?.line, column: e.loc?.column, text: e.message }, { cause: error });
  }
  const file = `assets/site.${createHash("sha256").update(code).digest("hex").slice(0, 10)}.css`;
  return { file, href: `/${file}`, code };
}
