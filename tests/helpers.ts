import { createHash } from "node:crypto";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { parse, type HTMLElement } from "node-html-parser";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..");

/** Every file of a folder with the hash of its bytes, and every folder: two builds' outputs compare whole. */
export function treeHashes(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const path = join(dir, name);
    files[name] = statSync(path).isFile() ? createHash("sha1").update(readFileSync(path)).digest("hex") : "(folder)";
  }
  return files;
}

/** A throwaway copy of the project (content, src and public copied, packages linked) that a test may break. */
export function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "sitegen-project-"));
  cpSync(join(ROOT, "content"), join(dir, "content"), { recursive: true });
  cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
  cpSync(join(ROOT, "public"), join(dir, "public"), { recursive: true });
  // Each package linked, not the folder: the copy keeps its own node_modules/.cache (compiled pages, endpoints).
  mkdirSync(join(dir, "node_modules"));
  // Preact, which the islands bundle, is copied: esbuild names chunks by a hash of their inputs' paths, and a
  // link would put this repository's own path in them, so the copy's scripts would weigh a few bytes more
  // or less than the real site's depending on where the repository is cloned.
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name === "preact")
      cpSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), { recursive: true });
    else if (name !== ".cache") symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  symlinkSync(join(ROOT, "package.json"), join(dir, "package.json"));
  // The processed images are shared: their cache is keyed by content, so a copy never reads another's
  // image by mistake, and the covers are encoded once for all the tests rather than once per copy.
  const images = join(ROOT, "node_modules", ".cache", "sitegen", "images");
  mkdirSync(images, { recursive: true });
  mkdirSync(join(dir, "node_modules", ".cache", "sitegen"), { recursive: true });
  symlinkSync(images, join(dir, "node_modules", ".cache", "sitegen", "images"), "dir");
  return dir;
}

/**
 * A throwaway copy of the second site (tests/fixtures/minimal-site: one locale, no islands, no endpoints)
 * that a test may change: its imports of the generator made absolute, the repository's packages linked.
 */
export function fixtureCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "sitegen-fixture-copy-"));
  const fixture = join(ROOT, "tests", "fixtures", "minimal-site");
  // Its sources only: a build run in the fixture's folder leaves node_modules/.cache there.
  cpSync(fixture, dir, { recursive: true, filter: (source) => !source.startsWith(join(fixture, "node_modules")) });
  const pages = join(dir, "src", "pages");
  for (const file of readdirSync(pages)) {
    const path = join(pages, file);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replaceAll("../../../../../src/generator/", `${join(ROOT, "src", "generator")}/`),
    );
  }
  mkdirSync(join(dir, "node_modules"));
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name !== ".cache") symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  return dir;
}

/** Attribute value of the first tag matching `selector` (a regular expression for the tag's start). */
export function attr(html: string, tagPattern: RegExp, name: string): string | undefined {
  const tag = html.match(tagPattern)?.[0];
  return tag?.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** A page parsed as the browser would (node-html-parser): tests query elements instead of matching markup. */
export function parseHtml(html: string): HTMLElement {
  return parse(html, { comment: false, blockTextElements: { script: true, style: true, template: true } });
}

/** The text a visitor sees: no script, style or template content, white space collapsed, entities decoded. */
export function visibleText(root: HTMLElement): string {
  const clone = parse(root.toString(), { blockTextElements: { script: true, style: true, template: true } });
  for (const el of clone.querySelectorAll("script, style, template")) el.remove();
  return clone.textContent.replace(/\s+/g, " ").trim();
}

/** The parsed JSON-LD graph of a page. */
export function jsonLdGraph(root: HTMLElement): Record<string, any>[] {
  return JSON.parse(root.querySelector('script[type="application/ld+json"]')!.rawText)["@graph"];
}

/**
 * The site's routes with their path in every locale, and the locale codes, as the build plans them:
 * `routes` are the fixed pages (the spec's screens and the Insights listing), `articles` one per article.
 */
export async function sitePlan() {
  const { default: site } = await import("../src/pages/routes.ts");
  const { planPages } = await import("../src/generator/pipeline/plan-pages.ts");
  const { loadSiteConfig } = await import("../src/generator/config.ts");
  const { loadLocaleContent } = await import("../src/generator/content.ts");
  const { loadCollections } = await import("../src/generator/pipeline/collections.ts");
  const config = loadSiteConfig(ROOT);
  const locales = config.locales.map((l) => l.code);
  const dictionaries = Object.fromEntries(locales.map((l) => [l, loadLocaleContent(ROOT, l, config).dictionary]));
  const collections = loadCollections({
    root: ROOT,
    siteUrl: config.siteUrl,
    locales,
    dictionaries,
    definitions: site.collections ?? [],
    drafts: false,
  });
  const all = planPages({ definition: site, site: config, collections }).routes;
  return {
    routes: all.filter((r) => !r.id.includes(":")),
    articles: all.filter((r) => r.id.includes(":")),
    locales,
    config,
    site,
    collections,
  };
}

/**
 * Gives a test project the site's endpoints module (src/api, through which `sitegen submissions` opens
 * the store) and the repository's packages, so the CLI's commands can run in it.
 */
export function addEndpoints(root: string): void {
  cpSync(join(ROOT, "src", "api"), join(root, "src", "api"), { recursive: true });
  mkdirSync(join(root, "node_modules"), { recursive: true });
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name !== ".cache") symlinkSync(join(ROOT, "node_modules", name), join(root, "node_modules", name), "dir");
  }
  writeFileSync(join(root, "package.json"), "{}\n");
}

/**
 * A minimal project whose forms store into `database` (under the project folder) with that rate limit,
 * carrying the site's endpoints module: what `sitegen submissions` and the store tests need, and no site.
 */
export function submissionsProject(database: string, rateLimitPerMinute: number): string {
  const root = mkdtempSync(join(tmpdir(), "sitegen-submissions-"));
  mkdirSync(join(root, "content"));
  writeFileSync(
    join(root, "content", "site.yaml"),
    [
      "brand: Test",
      "siteUrl: https://example.com",
      "email: test@example.com",
      "locales:",
      "  - { code: pt, lang: pt-BR, ogLocale: pt_BR, prefix: '' }",
      "  - { code: en, lang: en, ogLocale: en_US, prefix: /en }",
      "endpoints: { newsletter: /api/newsletter, contact: /api/contact, detectLanguage: /api/detect-language }",
      `submissions: { database: ${JSON.stringify(database)}, rateLimitPerMinute: ${rateLimitPerMinute}, ` +
        "trustProxy: false, minFillSeconds: 2 }",
    ].join("\n"),
  );
  addEndpoints(root);
  return root;
}
