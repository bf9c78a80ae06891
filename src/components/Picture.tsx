import type { ProcessedImage } from "../generator/site-definition.ts";
import { imgAttributes, srcset, type PictureOptions } from "../generator/images/picture.ts";

/**
 * A processed image (src/generator/images/): AVIF, then WebP, then the JPEG `<img>` whose width and height
 * reserve its space before it loads. `priority` for the one large image above the fold (fetched first);
 * every other image loads lazily.
 */
export function Picture({ image, ...options }: PictureOptions & { image: ProcessedImage }) {
  const img = Object.fromEntries(imgAttributes(image, options).map(([name, value]) => [reactName(name), value]));
  return (
    <picture>
      <source type="image/avif" srcSet={srcset(image.avif)} sizes={options.sizes} />
      <source type="image/webp" srcSet={srcset(image.webp)} sizes={options.sizes} />
      <img {...img} />
    </picture>
  );
}

/** React's names for the attributes imgAttributes gives by their HTML names. */
function reactName(name: string): string {
  return ({ class: "className", fetchpriority: "fetchPriority" } as Record<string, string>)[name] ?? name;
}
