import MarkdownIt from "markdown-it";
import anchor from "markdown-it-anchor";
import footnote from "markdown-it-footnote";

/**
 * Markdown → HTML for collection entries (markdown-it): CommonMark plus tables and footnotes; headings get
 * ids (accents folded: "Governança" → "governanca") and link to themselves, so a section can be shared;
 * links to other sites get rel="noopener"; raw HTML is never passed through (it is shown as text), so
 * content cannot inject a script or a style.
 */
export function createMarkdown(siteUrl: string): (source: string) => string {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.use(footnote);
  md.use(anchor, { level: [2, 3, 4], slugify: slugifyHeading, permalink: anchor.permalink.headerLink({ safariReaderFix: true }) });
  const siteOrigin = new URL(siteUrl).origin;
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const href = String(tokens[idx].attrGet("href") ?? "");
    if (/^https?:\/\//i.test(href) && new URL(href).origin !== siteOrigin) tokens[idx].attrSet("rel", "noopener");
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return (source) => md.render(source);
}

/** A heading's id: lower case, accents folded, anything else a single hyphen ("Por que a LGPD já pede isso?" → "por-que-a-lgpd-ja-pede-isso"). */
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

/** The words of a Markdown source, markup left out. */
export function countWords(source: string): number {
  return source.replace(/[#>*_`|[\]()-]+/g, " ").split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w)).length;
}
