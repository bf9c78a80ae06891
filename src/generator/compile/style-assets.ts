import type { FontFaceProperty, Url } from "lightningcss";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { sitegenError } from "../errors.ts";
import { cacheFolder } from "../project.ts";

/** A file the stylesheet refers to with url(), as written to the output folder. */
export interface StyleAsset {
  /** Path under the output folder: assets/<name>.<hash>.<ext> */
  file: string;
  href: string;
  code: Uint8Array;
  /** The MIME type of a font the page should preload (a file named in an @font-face src), else undefined. */
  fontType?: string;
}

/** Each font file's MIME type (for preloading) and hb-subset's name for its format. */
const FONTS: Record<string, { type: string; format: "woff2" | "woff" | "truetype" }> = {
  ".woff2": { type: "font/woff2", format: "woff2" },
  ".woff": { type: "font/woff", format: "woff" },
  ".ttf": { type: "font/ttf", format: "truetype" },
  ".otf": { type: "font/otf", format: "truetype" },
};

/** What an @font-face rule says of the file its src names: the characters it serves and its weight range. */
interface FontUse {
  ranges: { start: number; end: number }[];
  weights?: [number, number];
}

/** url() values that name a file of the project (not data:, not another origin, not an absolute path). */
const isProjectFile = (url: string) => !/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(url);

/**
 * Pass 1 over the stylesheet: every project file it names with url(), and for the files an @font-face src
 * names, the unicode-range and weight range the rule declares.
 */
export async function scanStyleUrls(filename: string, targets: object) {
  // Loaded when the stylesheet is compiled: a build whose stylesheet is compiled already never loads it.
  const { bundle } = await import("lightningcss");
  const urls = new Set<string>();
  const fonts = new Map<string, FontUse>();
  bundle({
    filename,
    targets,
    visitor: {
      Url(url: Url) {
        if (isProjectFile(url.url)) urls.add(url.url);
      },
      Rule: {
        "font-face"(rule) {
          const props: FontFaceProperty[] = rule.value.properties;
          const use: FontUse = { ranges: [] };
          for (const p of props) {
            if (p.type === "unicode-range") use.ranges = p.value;
            if (p.type === "font-weight") {
              const [a, b] = p.value.map((w) =>
                w.type === "absolute" && w.value.type === "weight" ? w.value.value : undefined,
              );
              if (a !== undefined && b !== undefined && a !== b) use.weights = [a, b];
            }
          }
          for (const p of props) {
            if (p.type !== "source") continue;
            for (const s of p.value)
              if (s.type === "url" && isProjectFile(s.value.url.url)) fonts.set(s.value.url.url, use);
          }
        },
      },
    },
  });
  return { urls, fonts };
}

/** The characters a unicode-range covers, as the text hb-subset keeps glyphs for. */
function rangeText(ranges: { start: number; end: number }[]): string {
  let text = "";
  for (const { start, end } of ranges) {
    for (let c = start; c <= end; c++) if (c < 0xd800 || c > 0xdfff) text += String.fromCodePoint(c);
  }
  return text;
}

/**
 * A font cut down to what its @font-face rule lets the browser use from it: the glyphs of its
 * unicode-range, and for a variable font declared with a weight range, that range of its weight axis.
 * The browser never draws anything else from that file, so nothing visible is lost, and the file shrinks.
 * hb-subset (HarfBuzz, through subset-font) takes a while to start, so each result is kept in the
 * project's cache under the hash of its inputs.
 */
async function subsetForFace(root: string, stylesheet: string, url: string, source: Buffer, use: FontUse) {
  const ext = extname(url.split(/[?#]/)[0]).toLowerCase();
  const format = FONTS[ext]?.format;
  if (!format || use.ranges.length === 0) return source;
  const text = rangeText(use.ranges);
  const axes = use.weights ? { wght: { min: use.weights[0], max: use.weights[1] } } : undefined;
  const key = createHash("sha256")
    .update(source)
    .update(JSON.stringify({ text, axes, format, v: 1 }))
    .digest("hex")
    .slice(0, 20);
  const cached = join(cacheFolder(root), "fonts", `${key}${ext}`);
  if (existsSync(cached)) return readFileSync(cached) as Uint8Array;
  let code: Uint8Array;
  try {
    // hb-subset is loaded only when a font is not in the cache yet.
    const { default: subsetFont } = await import("subset-font");
    code = await subsetFont(source, text, { targetFormat: format, ...(axes ? { variationAxes: axes } : {}) });
  } catch (error) {
    throw sitegenError("FontSubsetFailed", { file: stylesheet, url, text: (error as Error).message }, { cause: error });
  }
  mkdirSync(dirname(cached), { recursive: true });
  writeFileSync(cached, code);
  return code;
}

/**
 * The files a stylesheet names with url(), read from disk (paths are relative to the stylesheet's folder,
 * where main.css and its @imports live), fonts subset to their @font-face rule, each named by its content's
 * hash. Returns them with the map from each url() as written to its address in the output.
 */
export async function styleAssets(
  root: string,
  stylesheet: string,
  filename: string,
  targets: object,
  inputs?: Set<string>,
): Promise<{ assets: StyleAsset[]; hrefs: Map<string, string> }> {
  const { urls, fonts } = await scanStyleUrls(filename, targets);
  const assets: StyleAsset[] = [];
  const hrefs = new Map<string, string>();
  for (const url of urls) {
    const path = resolve(dirname(filename), decodeURIComponent(url.split(/[?#]/)[0]));
    if (!existsSync(path)) throw sitegenError("StyleAssetMissing", { file: stylesheet, url });
    const source = readFileSync(path);
    inputs?.add(path);
    const use = fonts.get(url);
    const code = use ? await subsetForFace(root, stylesheet, url, source, use) : source;
    const ext = extname(path);
    const name = basename(path, ext).replace(/[^\w-]+/g, "-");
    const file = `assets/${name}.${createHash("sha256").update(code).digest("hex").slice(0, 10)}${ext}`;
    const fontType = use ? FONTS[ext.toLowerCase()]?.type : undefined;
    assets.push({ file, href: `/${file}`, code, fontType });
    hrefs.set(url, `/${file}`);
  }
  return { assets, hrefs };
}
