/**
 * Markup that is the same on every page of a locale (a footer, a consent banner's text), rendered on the
 * first page that shows it and reused by the others (PageData.shared, the <Shared> component): while React
 * renders a page, each such part is an empty placeholder element naming it. The minifier puts each part,
 * minified once, in its placeholder's place (html/minify-html.ts); fillShared puts the part's markup there
 * as it is, for a part the minifier cannot take on its own and for markup that is not minified. The page
 * comes out byte for byte as if the part had been rendered inside it.
 */

/** The placeholder's tag: a custom element name, which React writes with its attributes as given. */
export const SHARED_TAG = "sitegen-shared";
const OPEN = `<${SHARED_TAG} data-id="`;
const CLOSE = `"></${SHARED_TAG}>`;

/** The placeholder's text around a part's number, for the minifier. */
export const SHARED_PLACEHOLDER = { open: OPEN, close: CLOSE };

/**
 * Whether a part can be minified apart from the page around it: it begins and ends with a tag, so that no
 * text of the page runs into it (two runs of white space, one on each side, would collapse into one).
 */
export const standsAlone = (part: string) => part.startsWith("<") && part.endsWith(">");

/** The page with each placeholder replaced by the markup of the part it names (by its number); with `only`, the placeholders of the parts it accepts. */
export function fillShared(html: string, parts: readonly string[], only?: (part: string) => boolean): string {
  let at = html.indexOf(OPEN);
  if (at < 0) return html;
  let out = "";
  let from = 0;
  while (at >= 0) {
    const idEnd = html.indexOf(CLOSE, at);
    const part = parts[Number(html.slice(at + OPEN.length, idEnd))];
    if (part === undefined) throw new Error(`A <${SHARED_TAG}> placeholder names no shared part: ${html.slice(at, idEnd + CLOSE.length)}`);
    if (only && !only(part)) {
      at = html.indexOf(OPEN, idEnd);
      continue;
    }
    out += html.slice(from, at) + part;
    from = idEnd + CLOSE.length;
    at = html.indexOf(OPEN, from);
  }
  return out + html.slice(from);
}
