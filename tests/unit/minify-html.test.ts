import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement as h } from "react";
import { createMinifier, minifyHtml } from "../../src/generator/html/minify-html.ts";
import { fillShared, SHARED_PLACEHOLDER } from "../../src/generator/html/shared-markup.ts";
import { decodeEntities } from "../helpers.ts";

describe("minifyHtml over React's output", () => {
  it("drops the slash of HTML void elements but keeps SVG's, where it is meaningful", () => {
    const html = renderToStaticMarkup(h("div", null, h("hr", { className: "rule" }), h("br")));
    expect(html).toContain("/>");
    expect(minifyHtml(html)).toBe('<div><hr class="rule"><br></div>');
    expect(minifyHtml('<svg viewBox="0 0 24 24"><path d="M4 5h16"/><circle r="4"/></svg>')).toBe('<svg viewBox="0 0 24 24"><path d="M4 5h16"/><circle r="4"/></svg>');
  });

  it("shortens boolean attributes only", () => {
    const html = renderToStaticMarkup(h("div", { hidden: true, "data-x": "" }, h("input", { required: true, disabled: true, value: "" , readOnly: true })));
    expect(minifyHtml(html)).toBe('<div hidden data-x=""><input required disabled readonly value=""></div>');
  });

  it("single-quotes JSON props, and the value reads back exactly", () => {
    const props = { text: 'Diga "olá" & <bem-vindo>', list: [1, 2] };
    const html = renderToStaticMarkup(h("div", { "data-props": JSON.stringify(props) }));
    const out = minifyHtml(html);
    expect(out.length).toBeLessThan(html.length);
    const value = out.match(/data-props='([^']*)'/)![1];
    expect(JSON.parse(decodeEntities(value))).toEqual(props);
  });

  it("keeps double quotes when a value holds both kinds of quote, and stays exact", () => {
    const props = { a: "We'll say \"hi\"" };
    const out = minifyHtml(renderToStaticMarkup(h("div", { "data-props": JSON.stringify(props) })));
    const value = out.match(/data-props="([^"]*)"/)![1];
    expect(JSON.parse(decodeEntities(value))).toEqual(props);
  });

  it("collapses whitespace in text, never inside pre, textarea or scripts, and decodes harmless entities", () => {
    const json = '{"a":  "b\\n  c"}';
    const html = renderToStaticMarkup(
      h("main", null, h("p", null, "It's  a\n   \"quote\""), h("pre", null, "a\n   b"), h("textarea", { defaultValue: "x\n\n  y" }), h("script", { type: "application/ld+json", dangerouslySetInnerHTML: { __html: json } })),
    );
    expect(minifyHtml(html)).toBe(`<main><p>It's a "quote"</p><pre>a\n   b</pre><textarea>x\n\n  y</textarea><script type="application/ld+json">${json}</script></main>`);
  });

  it("keeps a no-break space, which is text and not white space, even beside white space it collapses", () => {
    const html = renderToStaticMarkup(h("p", null, "R$\u00a025 mil\n   por ano", h("span", null, "10\u00a0%")));
    expect(minifyHtml(html)).toBe("<p>R$\u00a025 mil por ano<span>10\u00a0%</span></p>");
  });

  it("keeps text escaped where it must be, and React's empty text separators", () => {
    const html = renderToStaticMarkup(h("p", null, "a < b && c", " ", "d"));
    const out = minifyHtml(`${html}<!-- a note -->`);
    expect(out).toContain("a &lt; b &amp;&amp; c");
    expect(out).not.toContain("a note");
  });

  it("lowercases React's camelCase HTML attributes, never SVG's", () => {
    const html = renderToStaticMarkup(h("p", { tabIndex: -1 }, h("a", { hrefLang: "en", href: "/en" }, "EN"), h("svg", { viewBox: "0 0 2 2" }, h("path", { d: "M0 0" }))));
    expect(minifyHtml(html)).toBe('<p tabindex="-1"><a hreflang="en" href="/en">EN</a><svg viewBox="0 0 2 2"><path d="M0 0"></path></svg></p>');
  });

  it("leaves the doctype and closing tags alone", () => {
    expect(minifyHtml("<!doctype html><html lang=\"en\"><body></body></html>")).toBe('<!doctype html><html lang="en"><body></body></html>');
  });

  it("minifies a template's content like the rest of the page, and keeps React's text separators", () => {
    const html = `<footer>\n  <p>Av. Paulista,   1000</p><img src="/logo.svg" alt=""/></footer><template id="toast"><div role="status" hidden=""></div></template><!-- a comment --><p>a<!-- -->b</p>`;
    expect(minifyHtml(html)).toBe('<footer> <p>Av. Paulista, 1000</p><img src="/logo.svg" alt=""></footer><template id="toast"><div role="status" hidden></div></template><p>a<!-- -->b</p>');
  });

  it("puts each shared part in, minified, with the same bytes as minifying the page whole", () => {
    const icon = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 5h16"/></svg>';
    const parts = [
      '<footer class="site-footer">\n  <p>Av. Paulista,   1000</p><img src="/logo.svg" alt=""/><a hrefLang="en" href="/en">EN</a></footer>',
      icon,
      // A part inside SVG: its capitals and self-closing tags stay, as they would in the whole page.
      '<g><rect rx="2"/><text textLength="10">A  b</text></g>',
      '<div data-props="{&quot;a&quot;:&quot;it&#x27;s&quot;}" hidden=""></div>',
    ];
    const at = (i: number) => `${SHARED_PLACEHOLDER.open}${i}${SHARED_PLACEHOLDER.close}`;
    const page = `<!doctype html><html><head><meta charSet="utf-8"/></head><body><main><p>Text   before${at(1)}  and after</p><svg viewBox="0 0 10 10">${at(2)}<circle r="1"/></svg>${at(3)}</main>${at(0)}<p>${at(1)}</p></body></html>`;
    const minify = createMinifier(SHARED_PLACEHOLDER);
    const whole = minifyHtml(fillShared(page, parts));
    expect(minify(page, parts)).toBe(whole);
    expect(whole).toContain('<g><rect rx="2"/><text textLength="10">A b</text></g>');
    expect(whole).toContain('<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 5h16"/></svg>');
    // Made once, the parts are reused, and the next page comes out the same way.
    expect(minify(page, parts)).toBe(whole);
    expect(minify(`<p>${at(1)}</p>`, parts)).toBe(`<p>${icon}</p>`);
    expect(() => minify(`<p>${at(9)}</p>`, parts)).toThrow(/names no shared part/);
  });

  it("reads markup React never writes as it always did: a stray `<` is text, a comment left open ends at the next `>`", () => {
    expect(minifyHtml("text < more  text")).toBe("text < more text");
    expect(minifyHtml("<p>a  <!-- open  x> b  c</p>")).toBe("<p>a  b c</p>");
    expect(minifyHtml("<p>a  b <!-- never closed")).toBe("<p>a b <!-- never closed");
    expect(minifyHtml("<!---->x  <!-- -->y")).toBe("x <!-- -->y");
  });
});
