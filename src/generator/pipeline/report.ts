import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import type { LocaleContent } from "../content.ts";
import { formatError, sitegenError, type SitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";
import { hasListedPages } from "../seo/sitemap.ts";
import type { Route } from "../site-definition.ts";
import { isTextFile } from "./write-output.ts";

export interface MissingKey {
  locale: string;
  key: string;
  /** Pages that show the raw key because of it. */
  pages: string[];
  /** The file of another locale that defines it. */
  definedIn?: string;
}

/**
 * Every text key a page asked for and its locale lacks, with the pages that show it raw and the file of
 * another locale that defines it. A key no page shows is not reported, whatever the other locales hold.
 */
export function missingTranslations(contents: LocaleContent[], pages: ReportInput["pages"]): MissingKey[] {
  const report = new Map<string, MissingKey>();
  const definedIn = (key: string) => contents.find((c) => c.sources.has(key))?.sources.get(key);
  const entry = (locale: string, key: string) => {
    const id = `${locale}\u0000${key}`;
    if (!report.has(id)) report.set(id, { locale, key, pages: [], definedIn: definedIn(key) });
    return report.get(id)!;
  };
  for (const page of pages) for (const key of page.missing) entry(page.locale, key).pages.push(page.label);
  return [...report.values()].sort((a, b) => a.locale.localeCompare(b.locale) || a.key.localeCompare(b.key));
}

/**
 * What the plan says is wrong, found before any page is rendered: a site of no page still builds (its 404
 * page, no sitemap), but that is hardly what its author meant. With --strict, the build fails here.
 */
export function planWarnings(routes: Route[], strict: boolean): SitegenError[] {
  const warnings = hasListedPages(routes) ? [] : [sitegenError("NoPages", { file: PROJECT_FILES.routes })];
  if (warnings.length && strict) throw warnings[0];
  return warnings;
}

export interface ReportInput {
  contents: LocaleContent[];
  /** Every page of the build (rendered or kept), with the text keys it lacked. */
  pages: { locale: string; label: string; missing: string[] }[];
  /** Fail on what is otherwise a warning. */
  strict: boolean;
}

/**
 * Stage 7, before the output is published: the text keys a locale lacks, and the pages that show them raw.
 * With --strict, any fails the build, the previous output left as it was.
 */
export function reportBuild(input: ReportInput): MissingKey[] {
  const missing = missingTranslations(input.contents, input.pages);
  if (missing.length && input.strict) {
    throw sitegenError("MissingTranslations", { count: missing.length, list: formatMissing(missing) });
  }
  return missing;
}

const more = (count: number) => (count > 0 ? ` and ${count} more` : "");

/** One line per key: the locale, the key, where another locale defines it, and which pages show it raw. */
export function formatMissing(missing: MissingKey[]): string {
  return missing
    .map((m) => {
      const where = m.definedIn ? `defined only in ${m.definedIn}` : "defined in no locale";
      const shown = m.pages.length ? `; shown raw on ${m.pages.slice(0, 3).join(", ")}${more(m.pages.length - 3)}` : "";
      return `  ${m.locale.padEnd(5)} ${m.key}  (${where}${shown})`;
    })
    .join("\n");
}

export interface BuildSummaryInput {
  outDir: string;
  /** Each page's file, locale and size (its HTML is in outDir). */
  pages: { file: string; locale: string; bytes: number }[];
  /** How many pages this build rendered (the others were kept from the previous output). */
  rendered?: number;
  assets: { file: string; code: Uint8Array }[];
  files: number;
  bytes: number;
  timings: Record<string, number>;
  totalMs: number;
  missing: MissingKey[];
  /** Catalogued mistakes that did not stop the build. */
  warnings?: SitegenError[];
  images?: { count: number; encoded: number };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const brotliSize = (data: string | Uint8Array) => brotliCompressSync(data).byteLength;

/** A page's size, and what brotli makes of it (read back from the output: the build does not keep pages' HTML). */
function largestSizes(outDir: string, page: { file: string; bytes: number }): string {
  return `${kb(page.bytes)} (${kb(brotliSize(readFileSync(join(outDir, page.file))))} brotli)`;
}

/**
 * The summary the CLI prints after a build: pages per locale, sizes (raw, and brotli for the largest
 * page and each text asset, what a visitor downloads), time per stage, and every missing translation. The
 * largest page is read back from outDir: the build does not keep pages' HTML.
 */
export function buildSummary(input: BuildSummaryInput): string {
  const perLocale = new Map<string, number>();
  for (const p of input.pages) perLocale.set(p.locale, (perLocale.get(p.locale) ?? 0) + 1);
  const html = input.pages.reduce((sum, p) => sum + p.bytes, 0);
  const largest = input.pages.reduce<(typeof input.pages)[number] | undefined>(
    (a, b) => (!a || b.bytes > a.bytes ? b : a),
    undefined,
  );
  const kept = input.rendered === undefined ? 0 : input.pages.length - input.rendered;
  const locales = [...perLocale].map(([l, n]) => `${l} ${n}`).join(", ");
  const lines = [
    `Built ${input.pages.length} pages (${locales}) into ${input.outDir} in ${Math.round(input.totalMs)} ms` +
      (kept ? `; ${kept} unchanged pages kept from the previous build` : ""),
    `  HTML ${kb(html)}${largest ? `; largest page ${largest.file}, ${largestSizes(input.outDir, largest)}` : ""}`,
    // A font or an image is compressed in its own format, and hosts send it as it is: its size is what a visitor
    // downloads.
    ...input.assets.map(
      (a) =>
        `  ${a.file} ${kb(a.code.byteLength)} ` +
        `(${isTextFile(a.file) ? `${kb(brotliSize(a.code))} brotli` : "sent as it is"})`,
    ),
    ...(input.images?.count
      ? [
          `  images: ${input.images.count} sources, ${input.images.encoded} encoded, ` +
            `${input.images.count - input.images.encoded} from the cache`,
        ]
      : []),
    `  ${input.files} files, ${kb(input.bytes)} written`,
    `  stages: ${Object.entries(input.timings)
      .map(([stage, ms]) => `${stage} ${Math.round(ms)} ms`)
      .join(", ")}`,
  ];
  for (const warning of input.warnings ?? []) lines.push(`warning: ${formatError(warning)}`);
  if (input.missing.length) {
    lines.push(
      `warning: ${input.missing.length} missing translation(s); pages show the key itself (run with --strict to fail):`,
      formatMissing(input.missing),
    );
  }
  return lines.join("\n");
}
