import { minify } from "html-minifier-terser";

/**
 * React already emits compact markup, so this pass is about what React leaves: optional tags and quotes,
 * boolean attributes and redundant whitespace. Empty comments are kept: they are React's text separators,
 * which island hydration relies on.
 */
export function minifyHtml(html: string): Promise<string> {
  return minify(html, {
    collapseWhitespace: true,
    conservativeCollapse: false,
    removeComments: true,
    ignoreCustomComments: [/^\s*$/],
    collapseBooleanAttributes: true,
    removeRedundantAttributes: true,
    removeScriptTypeAttributes: false,
    sortAttributes: false,
    minifyCSS: false,
    minifyJS: false,
    decodeEntities: true,
  });
}
