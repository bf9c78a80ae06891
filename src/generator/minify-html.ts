/**
 * HTML minification for markup React wrote. React already emits compact, well-formed HTML with every
 * attribute double-quoted and every `"&'<>` escaped, so a general-purpose minifier (html-minifier-terser
 * took 430 ms of a 1.4 s build for 46 pages, about 10 ms a page, to save 2 % after brotli) is far more
 * than this output needs. This pass does the safe subset in one scan, at well under 1 ms a page:
 * - void elements lose React's `/>` (not SVG's: there the slash is meaningful);
 * - boolean attributes lose `=""`; JSON in attributes (island props) is single-quoted instead of escaping
 *   every `"` (values stay quoted otherwise: measured, unquoting made pages smaller but compress worse);
 * - `&#x27;` and `&quot;` become plain characters where that is unambiguous;
 * - runs of HTML white space in text collapse to one space (never inside pre, textarea, script or style;
 *   a no-break space is text, not white space, and stays);
 * - React's camelCase HTML attribute names (charSet, hrefLang) are lowercased, as the HTML parser would;
 * - comments go, except React's empty `<!-- -->` text separators, which island hydration relies on.
 * Given the build's shared parts (SharedParts), it also puts each part in place of its placeholder
 * (shared-markup.ts), minified once per build: 40 % of every page is such a part.
 */
import { PLACEHOLDER_START } from "./shared-markup.ts";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const BOOLEAN = new Set(["hidden", "disabled", "required", "checked", "selected", "readonly", "multiple", "novalidate", "async", "defer", "autofocus", "open", "inert", "nomodule", "playsinline", "reversed", "itemscope"]);
/** Elements whose text is kept byte for byte. */
const RAW = /^<(pre|textarea|script|style)\b[\s\S]*?<\/\1>/i;
const TOKEN = /<!--[\s\S]*?-->|<(?:pre|textarea|script|style)\b[\s\S]*?<\/(?:pre|textarea|script|style)>|<[^>]+>|[^<]+/gi;
const ATTRIBUTE = /\s+([^\s=/>]+)(?:="([^"]*)")?/g;

export function minifyHtml(html: string, parts?: SharedParts): string {
  // Inside SVG, attribute names are case-sensitive (viewBox) and self-closing tags mean something.
  let svgDepth = 0;
  // A placeholder is two tokens: the part replaces the first, the second (its end tag) goes.
  let inPlaceholder = false;
  return html.replace(TOKEN, (token) => {
    if (inPlaceholder) {
      inPlaceholder = false;
      if (token === "</template>") return "";
    }
    if (token.startsWith("<!--")) return token === "<!-- -->" ? token : "";
    if (token[0] !== "<") return text(token);
    // Parts are minified on their own, so they must not start inside SVG; a <template> cannot be there anyway.
    if (parts && svgDepth === 0 && token.startsWith(PLACEHOLDER_START)) {
      inPlaceholder = true;
      return parts.minified(token.slice(PLACEHOLDER_START.length, -2));
    }
    if (/^<svg[\s>]/i.test(token)) svgDepth++;
    else if (/^<\/svg>/i.test(token)) svgDepth--;
    if (!RAW.test(token)) return tag(token, svgDepth > 0);
    const end = token.indexOf(">") + 1;
    return tag(token.slice(0, end), false) + token.slice(end);
  });
}

/**
 * The shared parts of one build's pages, as rendered (by key, e.g. "pt.footer"), each minified on first
 * use. Each thread that minifies pages keeps its own; a page's parts reach it before or with the page.
 */
export class SharedParts {
  private readonly rendered = new Map<string, string>();
  private readonly done = new Map<string, string>();

  add(parts: Iterable<[string, string]>): void {
    for (const [key, html] of parts) this.rendered.set(key, html);
  }

  minified(key: string): string {
    let part = this.done.get(key);
    if (part === undefined) {
      const html = this.rendered.get(key);
      if (html === undefined) throw new Error(`The shared markup "${key}" was never rendered.`);
      part = minifyHtml(html, this);
      this.done.set(key, part);
    }
    return part;
  }
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
