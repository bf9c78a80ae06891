import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, join } from "node:path";
import type { Metadata, Sharp, SharpOptions } from "sharp";
import { sitegenError } from "../errors.ts";
import type { ImageFile, ProcessedImage } from "../site-definition.ts";

/**
 * The widths every image is made at: those narrower than the source, then the source's own width (or the
 * largest of these), so nothing is ever upscaled. Pages choose among them with `sizes`.
 */
export const WIDTHS = [400, 800, 1200, 1600];
/** The `<img>` of a `<picture>`: only browsers without AVIF and WebP load it, so one middling JPEG does. */
const FALLBACK_WIDTH = 800;
/** What Facebook, LinkedIn and X show best (1.91:1). */
export const OG_SIZE = { width: 1200, height: 630 };
/** Formats the pipeline reads, as sharp names them (AVIF is a HEIF), and how to say them in an error. */
export const READABLE: Record<string, string> = { jpeg: "JPEG", png: "PNG", webp: "WebP", heif: "AVIF" };
/** Part of every cache key: change it when the encoding below changes, so old cache entries are not reused. */
const RECIPE = "v1 avif q50 e2, webp q75 e4, jpeg q78 mozjpeg, og jpeg q82 attention";

type SharpFactory = (input?: Buffer, options?: SharpOptions) => Sharp;
let sharpModule: Promise<SharpFactory> | undefined;
let sharpVersion: string | undefined;

/**
 * sharp, loaded when an image must be encoded: a build whose images all come from the cache, and the
 * commands that process none (`sitegen start`), never load libvips.
 */
function loadSharp(): Promise<SharpFactory> {
  sharpModule ??= import("sharp").then((m) => (m.default ?? m) as unknown as SharpFactory);
  return sharpModule;
}

/**
 * sharp's version, part of the cache key, read from its package.json (which its exports do not expose) without loading
 * it.
 */
function versionOfSharp(): string {
  if (sharpVersion === undefined) {
    const entry = createRequire(import.meta.url).resolve("sharp");
    let dir = dirname(entry);
    while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
    sharpVersion = String(
      (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version,
    );
  }
  return sharpVersion;
}

export interface EncodeRequest {
  /** Absolute path of the source file. */
  path: string;
  /** The source relative to the project folder (ProcessedImage.source). */
  source: string;
  /** Where the image is used, for errors: "content/de/blog/x.md:12". */
  place: string;
  /** As written where it is used. */
  written: string;
  /** Also make a 1200×630 Open Graph JPEG. */
  og: boolean;
}

type OutputFile = { file: string; code: Uint8Array };

export interface EncodedImage {
  image: ProcessedImage;
  files: OutputFile[];
  /** True when every file came from the cache (nothing was encoded). */
  cached: boolean;
}

interface Manifest {
  image: Omit<ProcessedImage, "source">;
  files: string[];
}

/**
 * One source image → its AVIF, WebP and JPEG files, named `assets/img/<name>-<width>.<hash>.<ext>` by their
 * content. The result is kept in `<cacheDir>/<key>/` (key: the source's bytes and name, the options and the recipe),
 * so a later build reads the files back instead of encoding them again.
 */
export async function encodeImage(request: EncodeRequest, cacheDir: string): Promise<EncodedImage> {
  const bytes = readFileSync(request.path);
  const name = slugOf(request.path);
  // The name is part of the key too: the same picture under two names gives files under each name, as a build without
  // the cache would.
  const key = createHash("sha256")
    .update(`${RECIPE}\0${versionOfSharp()}\0${name}\0${request.og}\0`)
    .update(bytes)
    .digest("hex")
    .slice(0, 32);
  const entry = join(cacheDir, key);
  const cached = readCache(entry);
  if (cached) return { image: { source: request.source, ...cached.image }, files: cached.files, cached: true };

  const sharp = await loadSharp();
  const { width, height } = await inspect(sharp, bytes, request);
  const files: OutputFile[] = [];
  const output = async (pipeline: Sharp, label: string | number, ext: string): Promise<ImageFile> => {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true }).catch((error: Error) => {
      throw unreadable(request, error.message, error);
    });
    const file = `assets/img/${name}-${label}.${createHash("sha256").update(data).digest("hex").slice(0, 10)}.${ext}`;
    files.push({ file, code: data });
    return { src: `/${file}`, width: info.width, height: info.height };
  };
  // rotate() turns the pixels as the EXIF orientation says; the metadata itself (camera, place) is dropped.
  const resized = (w: number) => sharp(bytes).rotate().resize({ width: w, withoutEnlargement: true });
  const largest = Math.min(width, WIDTHS.at(-1)!);
  const widths = [...WIDTHS.filter((w) => w < largest), largest];
  const avif = await Promise.all(widths.map((w) => output(resized(w).avif({ quality: 50, effort: 2 }), w, "avif")));
  const webp = await Promise.all(widths.map((w) => output(resized(w).webp({ quality: 75, effort: 4 }), w, "webp")));
  const fallbackWidth = Math.min(width, FALLBACK_WIDTH);
  const fallback = await output(
    resized(fallbackWidth).flatten({ background: "#ffffff" }).jpeg({ quality: 78, mozjpeg: true }),
    fallbackWidth,
    "jpg",
  );
  let og: ImageFile | undefined;
  if (request.og) {
    // Cropped to 1.91:1 around the most interesting region; a source smaller than 1200×630 gives the
    // largest such crop it holds rather than an upscaled one.
    const scale = Math.min(1, width / OG_SIZE.width, height / OG_SIZE.height);
    const size = { width: Math.round(OG_SIZE.width * scale), height: Math.round(OG_SIZE.height * scale) };
    const crop = sharp(bytes)
      .rotate()
      .resize({ ...size, fit: "cover", position: "attention" })
      .flatten({ background: "#ffffff" });
    og = await output(crop.jpeg({ quality: 82, mozjpeg: true }), "og", "jpg");
  }
  const image = { avif, webp, fallback, ...(og ? { og } : {}) };
  writeCache(entry, { image, files: files.map((f) => f.file) }, files);
  return { image: { source: request.source, ...image }, files, cached: false };
}

/**
 * The source's size (as displayed, EXIF orientation applied), or a catalogued error if it is no image the pipeline
 * reads.
 */
async function inspect(sharp: SharpFactory, bytes: Buffer, request: EncodeRequest) {
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    throw unreadable(request, (error as Error).message, error);
  }
  const format = String(meta.format ?? "unknown");
  // HEIF also holds HEIC photos (iPhone), which sharp's prebuilt libvips cannot decode: only AVIF passes.
  if (!(format in READABLE) || (format === "heif" && meta.compression !== "av1")) {
    const named = format === "heif" ? `HEIF (${meta.compression ?? "unknown"})` : format.toUpperCase();
    throw sitegenError("ImageUnsupported", { place: request.place, image: request.written, format: named });
  }
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  if (!width || !height) throw unreadable(request, "it has no width or height.");
  return { width, height };
}

const unreadable = (request: EncodeRequest, text: string, cause?: unknown) =>
  sitegenError("ImageUnreadable", { place: request.place, image: request.written, text }, { cause });

/** The file name's stem in lower case, any other character a hyphen: "Equipe Reunião.JPG" → "equipe-reuniao". */
function slugOf(path: string): string {
  const stem = basename(path, extname(path))
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  return stem.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "image";
}

function readCache(entry: string): (Pick<EncodedImage, "files"> & { image: Manifest["image"] }) | undefined {
  const manifestFile = join(entry, "manifest.json");
  if (!existsSync(manifestFile)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    return {
      image: manifest.image,
      files: manifest.files.map((file) => ({ file, code: readFileSync(join(entry, basename(file))) })),
    };
  } catch {
    // A damaged entry (a file deleted by hand) is encoded again.
    return undefined;
  }
}

/** Written into a folder of its own, then renamed into place: builds running side by side never read half an entry. */
function writeCache(entry: string, manifest: Manifest, files: OutputFile[]): void {
  const temporary = `${entry}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(temporary, { recursive: true });
    for (const { file, code } of files) writeFileSync(join(temporary, basename(file)), code);
    writeFileSync(join(temporary, "manifest.json"), JSON.stringify(manifest));
    rmSync(entry, { recursive: true, force: true });
    renameSync(temporary, entry);
  } catch {
    // The cache only saves time: a build that cannot keep its images still ships them.
    rmSync(temporary, { recursive: true, force: true });
  }
}
