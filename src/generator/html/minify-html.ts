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
 * The whole pass is made by one function that refers to nothing outside itself, so that its source text can
 * also run on the thread that writes a large build's pages (build/file-writer.ts).
 */
export function createMinifier(): (html: string) => string {
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const BOOLEAN = new Set(["hidden", "disabled", "required", "checked", "selected", "readonly", "multiple", "novalidate", "async", "defer", "autofocus", "open", "inert", "nomodule", "playsinline", "reversed", "itemscope"]);
  /** Elements whose text is kept byte for byte. */
  const RAW = /^<(pre|textarea|script|style)\b[\s\S]*?<\/\1>/i;
  const TOKEN = /<!--[\s\S]*?-->|<(?:pre|textarea|script|style)\b[\s\S]*?<\/(?:pre|textarea|script|style)>|<[^>]+>|[^<]+/gi;
  const ATTRIBUTE = /\s+([^\s=/>]+)(?:="([^"]*)")?/g;

  function minifyHtml(html: string): string {
    // Inside SVG, attribute names are case-sensitive (viewBox) and self-closing tags mean something.
    let svgDepth = 0;
    return html.replace(TOKEN, (token) => {
      if (token.startsWith("<!--")) return token === "<!-- -->" ? token : "";
      if (token[0] !== "<") return text(token);
      if (/^<svg[\s>]/i.test(token)) svgDepth++;
      else if (/^<\/svg>/i.test(token)) svgDepth--;
      if (!RAW.test(token)) return tag(token, svgDepth > 0);
      const end = token.indexOf(">") + 1;
      return tag(token.slice(0, end), false) + token.slice(end);
    });
  }

  /** Text or a tag with nothing to change, by far the most common case, is returned as it is. */
  const TEXT_TO_CHANGE = /[ \t\n\r\f]{2}|[\t\n\r\f]|&#x27;|&quot;/;
  const TAG_TO_CHANGE = /\/>|=""|&#x27;|&quot;|\s[^\s="]*[A-Z][^\s="]*=/;

  function text(value: string): string {
    if (!TEXT_TO_CHANGE.test(value)) return value;
    // HTML's white space only: a no-break space (R$ 25 mil) means something and stays.
    return value.replace(/[ \t\n\r\f]+/g, " ").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
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

export const minifyHtml = createMinifier();
