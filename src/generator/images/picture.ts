import type { ImageFile, ProcessedImage } from "../site-definition.ts";

/**
 * How a `<picture>` shows its image: the text that replaces it, the slot it fills, whether it is the page's main image.
 */
export interface PictureOptions {
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport width. */
  sizes: string;
  title?: string;
  /**
   * The largest image above the fold (an article's cover): fetched first and at once. Every other image
   * loads lazily, when it nears the viewport.
   */
  priority?: boolean;
  className?: string;
}

/** A `srcset` value: each file with its width ("/a-400.x.avif 400w, /a-800.y.avif 800w"). */
export function srcset(files: ImageFile[]): string {
  return files.map((f) => `${f.src} ${f.width}w`).join(", ");
}

/** The attributes of the `<img>` in a `<picture>`, by their HTML names, in the order they are written. */
export function imgAttributes(image: ProcessedImage, options: PictureOptions): [string, string][] {
  const attributes: [string, string][] = [
    ["src", image.fallback.src],
    ["alt", options.alt],
    ["width", String(image.fallback.width)],
    ["height", String(image.fallback.height)],
  ];
  if (options.title) attributes.push(["title", options.title]);
  if (options.className) attributes.push(["class", options.className]);
  attributes.push(
    ...((options.priority
      ? [["fetchpriority", "high"]]
      : [
          ["loading", "lazy"],
          ["decoding", "async"],
        ]) as [string, string][]),
  );
  return attributes;
}

/**
 * The `<picture>` markup of a processed image, for HTML the build writes itself (images in Markdown):
 * AVIF, then WebP, then the JPEG `<img>` whose width and height reserve the image's space before it loads.
 * Every value is escaped.
 */
export function pictureHtml(image: ProcessedImage, options: PictureOptions): string {
  const source = (type: string, files: ImageFile[]) =>
    `<source type="${type}" srcset="${escapeAttribute(srcset(files))}" sizes="${escapeAttribute(options.sizes)}">`;
  const img = imgAttributes(image, options)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  return `<picture>${source("image/avif", image.avif)}${source("image/webp", image.webp)}<img${img}></picture>`;
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
