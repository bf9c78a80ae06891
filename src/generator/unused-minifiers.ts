/**
 * Stand-ins for clean-css and terser inside the CLI bundle (bin/sitegen.js aliases them here).
 * html-minifier-terser imports both at load time, which costs about 150 ms of every cold build, but we
 * never ask it to minify inline CSS or JavaScript (minify-html.ts: minifyCSS and minifyJS are off; pages
 * carry no inline script or style). If a future option needs them, these throw instead of doing nothing.
 */
const unavailable = (what: string) => new Error(`${what} is not bundled into the sitegen CLI; enable it in bin/sitegen.js before using it.`);

export default class CleanCSS {
  minify(): never {
    throw unavailable("clean-css");
  }
}

export function minify(): never {
  throw unavailable("terser");
}
