import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import fg from "fast-glob";
import type { HeadData } from "../components/Document.tsx";
import type { PageContextValue } from "../components/page-context.tsx";
import { SitegenError } from "./errors.ts";

/** What the server-side bundle exports: page names and one function that renders a full document. */
export interface SsrModule {
  pageNames: string[];
  renderDocument(head: HeadData, page: PageContextValue, pageName: string, props?: Record<string, unknown>): string;
}

/**
 * Bundles src/pages and src/components into one ES module for Node (React stays external, so the generator
 * and the pages share one React), writes it under node_modules/.cache with a content hash in its name
 * (so a rebuild in watch mode imports fresh code), and imports it.
 */
export async function loadSsrModule(root: string): Promise<SsrModule> {
  const pageFiles = fg.sync("src/pages/*.tsx", { cwd: root }).sort();
  const names = pageFiles.map((f) => basename(f, ".tsx"));
  const entry = [
    `import { createElement } from "react";`,
    `import { renderToString } from "react-dom/server";`,
    `import { Document } from "./src/components/Document.tsx";`,
    ...pageFiles.map((f, i) => `import * as page${i} from "./${f}";`),
    `const pages = { ${names.map((n, i) => `${JSON.stringify(n)}: page${i}.default`).join(", ")} };`,
    `export const pageNames = Object.keys(pages);`,
    `export function renderDocument(head, page, pageName, props) {`,
    `  return "<!doctype html>" + renderToString(createElement(Document, { head, page }, createElement(pages[pageName], props ?? {})));`,
    `}`,
  ].join("\n");
  let code: string;
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: root, sourcefile: "ssr-entry.js", loader: "js" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // React stays external (one copy shared with everything else in the process); other packages
      // (lucide-react) are bundled from their ES builds, so only the icons the pages use are loaded:
      // importing lucide-react's CommonJS build whole cost about 140 ms of every cold build.
      external: ["react", "react-dom", "react/*", "react-dom/*"],
      mainFields: ["module", "main"],
      jsx: "automatic",
      write: false,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
    code = result.outputFiles[0].text;
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] }).errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}` : "src/pages";
    throw new SitegenError("PageCompileError", `${where}: ${first?.text ?? String(error)}`, "Fix the TypeScript/JSX error at that position.", { cause: error });
  }
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 12);
  const dir = join(root, "node_modules", ".cache", "sitegen");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `ssr-${hash}.mjs`);
  writeFileSync(file, code);
  const mod = (await import(pathToFileURL(file).href)) as SsrModule;
  if (mod.pageNames.length === 0) {
    throw new SitegenError("NoPages", `No page components in ${relative(root, join(root, "src/pages"))}.`, "Add src/pages/home.tsx.");
  }
  return mod;
}
