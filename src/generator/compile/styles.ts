import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SitegenError, sitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";
import { styleAssets, type StyleAsset } from "./style-assets.ts";

export interface Stylesheet {
  /** Path under the output folder: assets/site.<hash>.css */
  file: string;
  href: string;
  code: Uint8Array;
  /** The files its url()s name (fonts, images), hashed, under assets/. */
  assets: StyleAsset[];
  /** The fonts its @font-face rules name, for the pages to preload. */
  fonts: { href: string; type: string }[];
}

// The browsers the site supports; lightningcss lowers nesting and newer syntax below these.
const TARGETS = { chrome: 109 << 16, firefox: 115 << 16, safari: (15 << 16) | (4 << 8), edge: 109 << 16 };

/**
 * Stage 2c. src/styles/main.css and its @imports → one minified stylesheet named by its content's hash,
 * and the files it names with url() (fonts subset to their @font-face rule), hashed beside it.
 */
export async function bundleStyles(root: string, inputs?: Set<string>): Promise<Stylesheet> {
  const filename = join(root, PROJECT_FILES.stylesheet);
  if (!existsSync(filename)) throw sitegenError("StylesMissing", { file: PROJECT_FILES.stylesheet });
  let code: Uint8Array;
  let assets: StyleAsset[];
  try {
    const found = await styleAssets(root, PROJECT_FILES.stylesheet, filename, TARGETS, inputs);
    assets = found.assets;
    // Each file the stylesheet is made of (main.css and its @imports) is read here, and noted.
    const read = (file: string) => {
      inputs?.add(file);
      return readFileSync(file, "utf8");
    };
    const { bundleAsync } = await import("lightningcss");
    code = (
      await bundleAsync({
        filename,
        minify: true,
        targets: TARGETS,
        resolver: { read },
        visitor: { Url: (url) => ({ ...url, url: found.hrefs.get(url.url) ?? url.url }) },
      })
    ).code;
  } catch (error) {
    if (error instanceof SitegenError) throw error;
    const e = error as { fileName?: string; loc?: { line: number; column: number }; message: string };
    const file = e.fileName ? relative(root, e.fileName) : PROJECT_FILES.stylesheet;
    const place = { file, line: e.loc?.line, column: e.loc?.column };
    throw sitegenError("CssError", { ...place, text: e.message }, { cause: error });
  }
  const file = `assets/site.${createHash("sha256").update(code).digest("hex").slice(0, 10)}.css`;
  const fonts = assets.flatMap((a) => (a.fontType ? [{ href: a.href, type: a.fontType }] : []));
  return { file, href: `/${file}`, code, assets, fonts };
}
