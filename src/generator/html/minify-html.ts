import { SHARED_PLACEHOLDER } from "./shared-markup.ts";

/**
 * HTML minification for markup React wrote: React already emits compact, well-formed HTML with every
 * attribute double-quoted and every `"&'<>` escaped, so this one pass does only the safe subset that
 * such output needs (README: why not html-minifier-terser):
 * - void elements lose React's `/>` (not SVG's: there the slash is meaningful);
 * - boolean attributes lose `=""`; JSON in attributes (island props) is single-quoted instead of escaping
 *   every `"` (values stay quoted otherwise: unquoted values made pages smaller but compress worse);
 * - `&#x27;` and `&quot;` become plain characters where that is unambiguous;
 * - runs of HTML white space in text collapse to one space (never inside pre, textarea, script or style;
 *   a no-break space is text, not white space, and stays);
 * - React's camelCase HTML attribute names (charSet, hrefLang) are lowercased, as the HTML parser would;
 * - comments go, except React's empty `<!-- -->` text separators, which island hydration relies on.
 *
 * The pass looks only at what may change, found by one pattern: the start of a comment, of a raw element
 * or of an SVG element; `/>`, `=""`, an entity, a capital in a name before `=`; white space to collapse.
 * Everything between two of them (most of a page) is copied as it is. React escapes every `<` and `>` in
 * text and attribute values, so what is found is in a tag when a `<` comes after the last `>` before it:
 * that tag is then rewritten whole, and the search goes on after it.
 *
 * With `placeholder`, the markup shared by many pages (html/shared-markup.ts) comes as its parts, the page
 * naming each by a placeholder: each part is minified once, and put in the minified page in its
 * placeholder's place. The page comes out byte for byte as if it had been minified whole, as long as
 * each part begins and ends with a tag (no text of the page's runs into it): the parts given must.
 *
 * The whole pass is made by one function that refers to nothing outside itself, so that its source text can
 * also run on the thread that writes a large build's pages (build/file-writer.ts).
 */
export function createMinifier(placeholder?: SharedPlaceholder): (html: string, parts?: readonly string[]) => string {
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const BOOLEAN = new Set(["hidden", "disabled", "required", "checked", "selected", "readonly", "multiple", "novalidate", "async", "defer", "autofocus", "open", "inert", "nomodule", "playsinline", "reversed", "itemscope"]);
  /** Elements whose text is kept byte for byte. */
  const RAW = /^<(pre|textarea|script|style)\b[\s\S]*?<\/\1>/i;
  const RAW_END = /<\/(?:pre|textarea|script|style)>/gi;
  /** A name in any case (the pattern below cannot ignore case: it looks for capitals in attribute names). */
  const anyCase = (name: string) => [...name].map((c) => `[${c}${c.toUpperCase()}]`).join("");
  const FIND = new RegExp(
    [
      ...(placeholder ? [placeholder.open.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")] : []),
      "<!--",
      `<(?:${["pre", "textarea", "script", "style"].map(anyCase).join("|")})\\b`,
      `<\\/?${anyCase("svg")}[\\s>]`,
      "\\/>",
      '=""',
      "&#x27;|&quot;",
      // A capital in an attribute's name, which React always follows with `="` (never found in text, where `"` is escaped).
      '[A-Z][^\\s="<>]*="',
      "[ \\t\\n\\r\\f]{2,}|[\\t\\n\\r\\f]",
    ].join("|"),
    "g",
  );
  const TAG_TO_CHANGE = /\/>|=""|&#x27;|&quot;|\s[^\s="]*[A-Z][^\s="]*=/;
  const ATTRIBUTE = /\s+([^\s=/>]+)(?:="([^"]*)")?/g;

  /**
   * Each shared part as minified, in HTML and in SVG: made once, then reused by every page showing it.
   * Emptied when full, so that the parts of builds made again and again (sitegen serve) do not pile up.
   */
  const minifiedParts = [new Map<string, string>(), new Map<string, string>()];
  const REMEMBERED = 4096;

  function minifyHtml(html: string, parts: readonly string[] = [], depth = 0): string {
    // Inside SVG, attribute names are case-sensitive (viewBox) and self-closing tags mean something.
    let svgDepth = depth;
    let out = "";
    /** Where the text not yet copied to `out` starts. */
    let from = 0;
    FIND.lastIndex = 0;
    for (let found = FIND.exec(html); found; found = FIND.exec(html)) {
      const at = found.index;
      const what = found[0];
      if (placeholder && what === placeholder.open) {
        const idEnd = html.indexOf(placeholder.close, at);
        const part = idEnd < 0 ? undefined : parts[Number(html.slice(at + what.length, idEnd))];
        if (part === undefined) throw new Error(`A placeholder names no shared part: ${html.slice(at, idEnd < 0 ? at + 80 : idEnd + placeholder.close.length)}`);
        out += html.slice(from, at) + minifiedPart(part, svgDepth > 0, parts);
        from = FIND.lastIndex = idEnd + placeholder.close.length;
        continue;
      }
      if (what[0] === "<" && what[1] === "!") {
        // A comment goes, except React's empty text separators, which island hydration relies on.
        const end = html.indexOf("-->", at + 4);
        // Not closed (React never writes that), it goes up to the next `>`; with none, its `<` is text.
        const last = end >= 0 ? end + 3 : html.indexOf(">", at) + 1;
        if (last === 0) {
          FIND.lastIndex = at + 1;
          continue;
        }
        if (html.slice(at, last) !== "<!-- -->") {
          out += html.slice(from, at);
          from = last;
        }
        FIND.lastIndex = last;
        continue;
      }
      if (what[0] === "<" && what[1] !== "/" && !/^<svg/i.test(what)) {
        // A raw element: its opening tag is rewritten like any other, its text kept.
        RAW_END.lastIndex = at;
        const close = RAW_END.exec(html);
        const openEnd = html.indexOf(">", at);
        if (openEnd < 0) {
          // A `<` that opens no tag is text.
          FIND.lastIndex = at + 1;
          continue;
        }
        const element = close ? html.slice(at, close.index + close[0].length) : "";
        if (close && RAW.test(element)) {
          out += html.slice(from, at) + tag(html.slice(at, openEnd + 1), false);
          from = openEnd + 1;
          FIND.lastIndex = close.index + close[0].length;
        } else {
          out += html.slice(from, at) + tag(html.slice(at, openEnd + 1), svgDepth > 0);
          from = FIND.lastIndex = openEnd + 1;
        }
        continue;
      }
      const open = what[0] === "<" ? at : html.lastIndexOf("<", at);
      const end = html.indexOf(">", at);
      // With no `>` after it, a `<` opens no tag: it is text.
      if (open < 0 || open < html.lastIndexOf(">", at - 1) || end < 0) {
        // Outside a tag: white space and entities in text; anything else is text that only looks like a tag's.
        if (what[0] === "&") out += html.slice(from, at) + (what === "&quot;" ? '"' : "'");
        // HTML's white space only: a no-break space (R$ 25 mil) means something and stays.
        else if (/^[ \t\n\r\f]+$/.test(what)) out += `${html.slice(from, at)} `;
        else {
          FIND.lastIndex = at + 1;
          continue;
        }
        from = at + what.length;
        continue;
      }
      const token = html.slice(open, end + 1);
      if (/^<svg[\s>]/i.test(token)) svgDepth++;
      else if (/^<\/svg>/i.test(token)) svgDepth--;
      out += html.slice(from, open) + tag(token, svgDepth > 0);
      from = FIND.lastIndex = end + 1;
    }
    return out + html.slice(from);
  }

  function minifiedPart(part: string, svg: boolean, parts: readonly string[]): string {
    const known = minifiedParts[svg ? 1 : 0];
    let out = known.get(part);
    if (out === undefined) {
      // With the same pattern as the page: the page's pass sets where it goes on once the part is in.
      out = minifyHtml(part, parts, svg ? 1 : 0);
      if (known.size >= REMEMBERED) known.clear();
      known.set(part, out);
    }
    return out;
  }

  function tag(token: string, svg: boolean): string {
    if (token[1] === "/" || token[1] === "!" || !TAG_TO_CHANGE.test(token)) return token;
    const selfClosing = token.endsWith("/>");
    const nameEnd = token.search(/[\s/>]/);
    const name = token.slice(1, nameEnd);
    // The slash only matters in foreign content (SVG); on HTML void elements it is noise.
    const keepSlash = selfClosing && !VOID.has(name.toLowerCase());
    const body = token.slice(nameEnd, selfClosing ? -2 : -1);
    let out = `<${name}`;
    for (const [, name, rawValue] of body.matchAll(ATTRIBUTE)) {
      // React writes some HTML attributes in camelCase (charSet, hrefLang, tabIndex); HTML lowercases them anyway.
      const attr = svg ? name : name.toLowerCase();
      if (rawValue === undefined || (rawValue === "" && BOOLEAN.has(attr))) {
        out += ` ${attr}`;
        continue;
      }
      out += ` ${attr}=${quote(rawValue)}`;
    }
    return keepSlash ? `${out}/>` : `${out}>`;
  }

  function quote(escaped: string): string {
    const value = escaped.replaceAll("&#x27;", "'");
    if (value.includes("&quot;") && !value.includes("'")) return `'${value.replaceAll("&quot;", '"')}'`;
    return `"${value}"`;
  }
  return minifyHtml;
}

/** How a page names a shared part: `${open}<index>${close}`. */
export interface SharedPlaceholder {
  open: string;
  close: string;
}

export const minifyHtml = createMinifier(SHARED_PLACEHOLDER);
