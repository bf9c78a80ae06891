/**
 * Markup that is the same on every page of a locale (a footer, a consent banner's text), rendered on the
 * first page that shows it and reused by the others (PageData.shared, the <Shared> component): while React
 * renders a page, each such part is an empty placeholder element naming it; then, before the page goes on
 * to be minified and written, fillShared puts the part's markup in the placeholder's place. The page comes
 * out byte for byte as if the part had been rendered inside it.
 */

/** The placeholder's tag: a custom element name, which React writes with its attributes as given. */
export const SHARED_TAG = "sitegen-shared";
const OPEN = `<${SHARED_TAG} data-id="`;
const CLOSE = `"></${SHARED_TAG}>`;

/** The page with each placeholder replaced by the markup of the part it names (by its number). */
export function fillShared(html: string, parts: readonly string[]): string {
  let at = html.indexOf(OPEN);
  if (at < 0) return html;
  let out = "";
  let from = 0;
  while (at >= 0) {
    const idEnd = html.indexOf(CLOSE, at);
    const part = parts[Number(html.slice(at + OPEN.length, idEnd))];
    if (part === undefined) throw new Error(`A <${SHARED_TAG}> placeholder names no shared part: ${html.slice(at, idEnd + CLOSE.length)}`);
    out += html.slice(from, at) + part;
    from = idEnd + CLOSE.length;
    at = html.indexOf(OPEN, from);
  }
  return out + html.slice(from);
}
