import { createRequire } from "node:module";
import type { default as MarkdownItClass } from "markdown-it";
import type anchorPlugin from "markdown-it-anchor";
import type footnotePlugin from "markdown-it-footnote";
import type { ImageRef } from "./site-definition.ts";

/** What a render collects: each image of the body, which the image stage turns into a `<picture>`. */
export type MarkdownEnv = {
  images: ImageRef[];
  /**
   * The file's line that holds the body's first line (after the front matter); 0 when unknown (a YAML entry's `body`).
   */
  firstLine: number;
};

/**
 * Markdown → HTML for collection entries (markdown-it): CommonMark plus tables and footnotes; headings get
 * ids (accents folded: "Governança" → "governanca") and link to themselves, so a section can be shared;
 * links to other sites get rel="noopener"; raw HTML is never passed through (it is shown as text), so
 * content cannot inject a script or a style. Images are collected into `env.images` (source, alt text, line)
 * and leave a placeholder comment, which no content can write (raw HTML being text): the build's image
 * stage puts the image's `<picture>` there (imagePlaceholder).
 */
export function createMarkdown(siteUrl: string): (source: string, env?: MarkdownEnv) => string {
  let md: InstanceType<typeof MarkdownItClass> | undefined;
  // Made at the first body rendered: a site of YAML entries, or a rebuild whose pages read no new body, never loads
  // markdown-it.
  return (source, env) => (md ??= configureMarkdown(siteUrl)).render(source, env);
}

function configureMarkdown(siteUrl: string): InstanceType<typeof MarkdownItClass> {
  const load = createRequire(import.meta.url);
  const MarkdownIt = load("markdown-it") as typeof MarkdownItClass;
  const anchor = load("markdown-it-anchor") as typeof anchorPlugin;
  const footnote = load("markdown-it-footnote") as typeof footnotePlugin;
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.use(footnote);
  md.use(anchor, {
    level: [2, 3, 4],
    slugify: slugifyHeading,
    permalink: anchor.permalink.headerLink({ safariReaderFix: true }),
  });
  const siteOrigin = new URL(siteUrl).origin;
  const defaultLinkOpen =
    md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const href = String(tokens[idx].attrGet("href") ?? "");
    if (/^https?:\/\//i.test(href) && new URL(href).origin !== siteOrigin) tokens[idx].attrSet("rel", "noopener");
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  // The line of each image: its paragraph's first line, plus the line breaks before it in the paragraph.
  md.core.ruler.push("image_lines", (state) => {
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.map || !block.children) continue;
      let line = block.map[0];
      for (const child of block.children) {
        if (child.type === "softbreak" || child.type === "hardbreak") line++;
        else if (child.type === "image") child.meta = { ...child.meta, line };
      }
    }
  });
  md.renderer.rules.image = (tokens, idx, options, rendering, self) => {
    const token = tokens[idx];
    const env = rendering as Partial<MarkdownEnv> | undefined;
    if (!env?.images) return self.renderToken(tokens, idx, options);
    const raw = String(token.attrGet("src") ?? "");
    let src = raw;
    try {
      src = decodeURI(raw);
    } catch {
      // A malformed escape stays as written; the image stage reports the file it cannot find.
    }
    const title = token.attrGet("title");
    env.images.push({
      src,
      alt: self.renderInlineAsText(token.children ?? [], options, rendering),
      ...(title ? { title: String(title) } : {}),
      ...(env.firstLine ? { line: env.firstLine + Number(token.meta?.line ?? 0) } : {}),
    });
    return imagePlaceholder(env.images.length - 1);
  };
  return md;
}

/** Where the image stage puts the `<picture>` of the body's image number `index`. */
export function imagePlaceholder(index: number): string {
  return `<!--sitegen-image:${index}-->`;
}

/** Every placeholder of a rendered body, its number captured. */
export const IMAGE_PLACEHOLDER = /<!--sitegen-image:(\d+)-->/g;

/**
 * A heading's id: lower case, accents folded, anything else a single hyphen ("Por que a IA já muda isso?" →
 * "por-que-a-ia-ja-muda-isso").
 */
export function slugifyHeading(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Minutes a reader needs for a text of that many words, at an unhurried 200 words a minute; at least 1. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 200));
}

/**
 * The words of a Markdown source, markup left out: the runs of characters between white space and markup
 * (`#>*_|[]()-` and backticks) that hold a letter or a digit, counted from each run's first letter or digit
 * to the run's end (the runs of /[\p{L}\p{N}][^\s#>*_`|[\]()-]*\/gu). Counted by walking the text once, not
 * by matching: a match per word would make a string per word, thousands per article.
 */
export const countWords = wordCounter();

function wordCounter(): (source: string) => number {
  const table = (pattern: RegExp) => new Uint8Array(128).map((_, c) => (pattern.test(String.fromCharCode(c)) ? 1 : 0));
  /** ASCII letters and digits, and ASCII markup and white space (1), by character code. */
  const asciiWordStart = table(/[A-Za-z0-9]/);
  const asciiWordEnd = table(/[\s#>*_`|[\]()-]/);
  const wordStart = /[\p{L}\p{N}]/uy;
  /**
   * Whether the character ends a word: markup, or white space as `\s` matches it (beyond ASCII: Unicode's spaces, the
   * line and paragraph separators, the BOM).
   */
  const wideSpaces = new Set([0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
  const endsWord = (c: number) => (c < 128 ? asciiWordEnd[c] === 1 : (c >= 0x2000 && c <= 0x200a) || wideSpaces.has(c));
  return (source) => {
    let words = 0;
    let i = 0;
    while (i < source.length) {
      const c = source.charCodeAt(i);
      // A letter or a digit starts a word; beyond ASCII, Unicode says what is one (a surrogate pair is one character).
      const starts = c < 128 ? asciiWordStart[c] === 1 : ((wordStart.lastIndex = i), wordStart.test(source));
      if (!starts) {
        i++;
        continue;
      }
      words++;
      i++;
      while (i < source.length && !endsWord(source.charCodeAt(i))) i++;
    }
    return words;
  };
}
