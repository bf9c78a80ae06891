import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, posix, relative, sep } from "node:path";
import { sitegenError } from "../errors.ts";
import { cacheFolder, PROJECT_FILES } from "../project.ts";
import type { Collections } from "./collections.ts";
import type { LocaleContent } from "../content.ts";
import type { CollectionDefinition, ImageFile, ProcessedImage } from "../site-definition.ts";
import { encodeImage, type EncodeRequest } from "../images/encode.ts";
import { pictureHtml } from "../images/picture.ts";

export interface ImagesInput {
  root: string;
  definitions: CollectionDefinition[];
  collections: Collections;
  /** Each locale's text and the file of each key. */
  contents: LocaleContent[];
  /** Text keys whose value is an image (SiteDefinition.imageKeys). */
  imageKeys: string[];
  /** The site's own image for pages without one (SiteConfig.socialImage), as content/site.yaml writes it. */
  socialImage?: string;
  /** Told after each source image how many are done, from the cache or encoded (build/progress.ts). */
  progress?: (done: number, total: number) => void;
}

export interface ProcessedImages {
  /** Locale → text key → its image (PageData.image). */
  byKey: Record<string, Map<string, ProcessedImage>>;
  /** The Open Graph crop of the site's image (socialImage), which a page without an image of its own shows. */
  social?: ImageFile;
  /** What the output folder receives. */
  files: { file: string; code: Uint8Array }[];
  /** Source images, and how many of them had to be encoded (the others came from the cache). */
  count: number;
  encoded: number;
}

/** A use of an image: the entry or text key that refers to it, and how to report it. */
interface Use {
  path: string;
  request: EncodeRequest;
  apply(image: ProcessedImage): void;
  /** Only its Open Graph crop is shown (the site's card): its other files are not written. */
  ogOnly?: boolean;
}

/** A text key pattern of `imageKeys` ("home.hero.*") as a regular expression; `*` stands for one part. */
const keyPattern = (pattern: string) => {
  const parts = pattern.split(".").map((p) => (p === "*" ? "[^.]+" : p.replace(/[^\w-]/g, "\\$&")));
  return new RegExp(`^${parts.join("\\.")}$`);
};

/** The `sizes` of an image in an entry's body when its collection names none. */
const BODY_SIZES = "100vw";

/**
 * Stage 3b, after the collections are loaded. Every image the content refers to (image fields of
 * collection entries, images in their Markdown, text keys of `imageKeys`) → AVIF, WebP and JPEG files at
 * several widths (images/encode.ts, cached between builds). Entries are completed in place: `images`
 * (by field), `image` and `ogImage` (the first image field's Open Graph crop), and a `<picture>` in the
 * HTML for each image of the body. Text keys' images are returned for PageData.image, and the site's own
 * image (content/site.yaml's socialImage) as the Open Graph image of every page that has none.
 */
export async function processImages(input: ImagesInput): Promise<ProcessedImages> {
  const uses: Use[] = [];
  /** What needs every image done first (an entry's HTML, once all its pictures are known). */
  const afterwards: (() => void)[] = [];
  for (const definition of input.definitions) {
    const fields = Object.entries(definition.schema)
      .filter(([, rule]) => rule.type === "image")
      .map(([field]) => field);
    for (const entries of Object.values(input.collections[definition.name] ?? {})) {
      for (const entry of entries) {
        fields.forEach((field, i) => {
          const written = entry.data[field];
          if (typeof written !== "string") return;
          const og = i === 0;
          uses.push(
            use(input.root, entry.file, written, `${entry.file}, \`${field}\``, og, (image) => {
              entry.images = { ...entry.images, [field]: image };
              if (og && image.og) {
                entry.image = image.og.src;
                entry.ogImage = image.og;
              }
            }),
          );
        });
        const refs = entry.bodyImages ?? [];
        const pictures: string[] = [];
        refs.forEach((ref, i) => {
          const place = ref.line ? `${entry.file}:${ref.line}` : entry.file;
          uses.push(
            use(input.root, entry.file, ref.src, place, false, (image) => {
              pictures[i] = pictureHtml(image, {
                alt: ref.alt,
                title: ref.title,
                sizes: definition.bodyImageSizes ?? BODY_SIZES,
              });
            }),
          );
        });
        // The entry's html puts them in place of its placeholders each time it is rendered (collections.ts).
        if (refs.length) afterwards.push(() => (entry.bodyPictures = pictures));
      }
    }
  }
  const byKey: ProcessedImages["byKey"] = {};
  const patterns = input.imageKeys.map(keyPattern);
  for (const content of input.contents) {
    const images = (byKey[content.locale] = new Map());
    for (const [key, written] of content.dictionary) {
      if (!patterns.some((p) => p.test(key))) continue;
      const file = content.sources.get(key)!;
      uses.push(use(input.root, file, written, `${file}, \`${key}\``, false, (image) => images.set(key, image)));
    }
  }
  let social: ImageFile | undefined;
  if (input.socialImage) {
    const file = PROJECT_FILES.config;
    uses.push({
      ...use(input.root, file, input.socialImage, `${file}, \`socialImage\``, true, (image) => (social = image.og)),
      ogOnly: true,
    });
  }

  // One encoding per source file, with the Open Graph crop when any of its uses needs it.
  const requests = new Map<string, EncodeRequest>();
  for (const u of uses) {
    const known = requests.get(u.path);
    if (known) known.og ||= u.request.og;
    else requests.set(u.path, { ...u.request });
  }
  const cacheDir = join(cacheFolder(input.root), "images");
  const results = new Map<string, Awaited<ReturnType<typeof encodeImage>>>();
  // Two at a time: libvips spreads each image over the cores already, and more would only hold more pixels in memory.
  const queue = [...requests.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      results.set(next[0], await encodeImage(next[1], cacheDir));
      input.progress?.(results.size, requests.size);
    }
  };
  await Promise.all([worker(), worker()]);
  for (const u of uses) u.apply(results.get(u.path)!.image);
  for (const finish of afterwards) finish();

  const files = new Map<string, Uint8Array>();
  const pictured = new Set(uses.filter((u) => !u.ogOnly).map((u) => u.path));
  for (const [path, result] of results) {
    const og = result.image.og && result.image.og.src.slice(1);
    for (const f of result.files) if (pictured.has(path) || f.file === og) files.set(f.file, f.code);
  }
  return {
    byKey,
    social,
    files: [...files].map(([file, code]) => ({ file, code })),
    count: results.size,
    encoded: [...results.values()].filter((r) => !r.cached).length,
  };
}

/** A use of the image `written` (relative to `file`), checked: a file of the project that exists. */
function use(root: string, file: string, written: string, place: string, og: boolean, apply: Use["apply"]): Use {
  const notLocal = (problem: string) => sitegenError("ImageNotLocal", { place, image: written, problem });
  if (/^[a-z][a-z0-9+.-]*:/i.test(written) || written.startsWith("//"))
    throw notLocal("is an address on the web, not a file of the project.");
  if (isAbsolute(written) || written.startsWith("/"))
    throw notLocal("is an absolute path: write it relative to the file that uses it.");
  const path = join(root, dirname(file), written);
  const source = relative(root, path).split(sep).join(posix.sep);
  if (source.startsWith("../")) throw notLocal(`is outside the project folder (${source}).`);
  if (!existsSync(path) || !statSync(path).isFile())
    throw sitegenError("ImageMissing", { place, image: written, resolved: source });
  return { path, request: { path, source, place, written, og }, apply };
}
