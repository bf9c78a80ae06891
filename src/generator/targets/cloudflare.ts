/**
 * `sitegen build --target cloudflare`: the output made deployable to Cloudflare Pages as it is.
 * - `_worker.js`: the site's Pages worker module (PROJECT_FILES.cloudflareWorker) bundled by esbuild for
 *   workerd, with the build's configuration, text and security headers inlined. Pages' advanced mode (one
 *   `_worker.js` in the output) rather than a `functions/` folder: the output stays one self-contained
 *   folder that `wrangler pages dev <dir>` and `wrangler pages deploy <dir>` take as it is, with no
 *   compile step of Pages' own, and the site's module routes its endpoints itself.
 * - `_routes.json`: only the endpoints' paths reach the worker; Pages serves every other file with `_headers`.
 * - the wrangler configuration, beside the output folder (the project root for the default `dist`): wrangler
 *   reads a Pages project's configuration from the folder it runs in, where `pages_build_output_dir` names
 *   the output; inside the output it would be uploaded and served as a file.
 * No `_sitegen/` folder: it is for `sitegen start`, and Pages would serve it; no `_redirects` (below).
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type { SiteConfig } from "../config.ts";
import { plainDictionaries, type Dictionary } from "../content.ts";
import { sitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";
import { securityHeaders } from "../security-headers.ts";
import { endpointAddresses, type SitePlugin } from "../plugin.ts";
import type { EsbuildFailure } from "../compile/esbuild-errors.ts";
import { targetPlugin, type TargetInput, type TargetOutput } from "./targets.ts";

/** esbuild, loaded when something is compiled: a build whose code is compiled already never starts it. */
const esbuild = () => import("esbuild");

/**
 * The runtime date the worker is written for. wrangler defaults to today, which the workerd of the pinned
 * wrangler (4.86.0) refuses past 2026-05-03; this date is one it accepts, and nothing here needs a later one.
 */
export const COMPATIBILITY_DATE = "2026-04-01";
export const WRANGLER_FILE = "wrangler.jsonc";

/** What site.yaml's `cloudflare` section may set; every field has a default drawn from the site's address. */
export interface CloudflareSettings {
  /** The Pages project's name (its *.pages.dev address). */
  project: string;
  /** The D1 database the worker reads through (the endpoints module's `d1`: plugin.ts), if it reads one. */
  d1?: {
    /** The name the worker's code reads the database by. */
    binding: string;
    /** The D1 database's name, as `wrangler d1 create` was given it. */
    database: string;
    /** The D1 database's id, as `wrangler d1 create` printed it; only a deployment needs it. */
    databaseId?: string;
  };
}

/** "https://www.example.com.br" → "example-com-br": a name Cloudflare accepts (lower-case letters, digits, hyphens). */
function nameFromUrl(siteUrl: string): string {
  const host = new URL(siteUrl).hostname.replace(/^www\./, "").toLowerCase();
  const name = host.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return name.slice(0, 58) || "site";
}

export function cloudflareSettings(site: SiteConfig, d1?: SitePlugin["d1"]): CloudflareSettings {
  const raw = (site.cloudflare ?? {}) as Record<string, unknown>;
  const text = (field: string, fallback: string | undefined) => {
    const value = raw[field];
    if (value === undefined) return fallback;
    const problem = "must be letters, digits and hyphens.";
    if (typeof value !== "string" || !/^[a-z0-9][a-z0-9-]*$/i.test(value))
      throw sitegenError("ConfigInvalid", { file: PROJECT_FILES.config, field: `cloudflare.${field}`, problem });
    return value;
  };
  const project = text("project", nameFromUrl(site.siteUrl))!;
  if (!d1) return { project };
  const database = text("database", `${project}-${d1.database}`)!;
  return { project, d1: { binding: d1.binding, database, databaseId: text("databaseId", undefined) } };
}

/**
 * The paths the worker answers: the path of each address the endpoints answer (plugin.ts, routes), an
 * absolute URL's included (the deployment at that origin serves it, for pages served by a host with no
 * functions).
 */
function endpointPaths(site: SiteConfig, plugin: SitePlugin | undefined): string[] {
  const paths = endpointAddresses(site, plugin).map((endpoint) => {
    if (endpoint.startsWith("/")) return endpoint.startsWith("//") ? undefined : endpoint;
    return /^https?:\/\//i.test(endpoint) ? new URL(endpoint).pathname : undefined;
  });
  return [...new Set(paths.filter((path): path is string => path !== undefined))].sort();
}

/** The site's worker module bundled for workerd, its options inlined. */
async function bundleWorker(root: string, site: SiteConfig, dictionaries: Record<string, Dictionary>): Promise<string> {
  const file = PROJECT_FILES.cloudflareWorker;
  if (!existsSync(join(root, file))) throw sitegenError("WorkerModuleMissing", { file });
  const options = {
    site,
    messages: plainDictionaries(dictionaries),
    headers: securityHeaders(site),
  };
  const entry =
    `import { createPagesWorker } from ${JSON.stringify(`./${file}`)};\nexport default ` +
    `createPagesWorker(${JSON.stringify(options)});\n`;
  try {
    const result = await (
      await esbuild()
    ).build({
      stdin: { contents: entry, resolveDir: root, sourcefile: "_worker.entry.js", loader: "js" },
      absWorkingDir: root,
      bundle: true,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      // workerd's Node modules (the nodejs_compat flag, wranglerConfig), which nodemailer sends and signs
      // e-mail with: node:net and node:tls over workerd's TCP sockets, node:crypto for DKIM.
      external: ["node:*"],
      target: "es2022",
      minifySyntax: true,
      legalComments: "none",
      write: false,
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  } catch (error) {
    const first = (error as EsbuildFailure).errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}: ` : "";
    const problem = first ? `${where}${first.text}` : String(error);
    throw sitegenError("WorkerBundleInvalid", { file, problem }, { cause: error });
  }
}

/** The wrangler configuration (JSON with comments, which wrangler reads as wrangler.jsonc). */
export function wranglerConfig(settings: CloudflareSettings, outputDir: string): string {
  const config = {
    name: settings.project,
    pages_build_output_dir: `./${outputDir}`,
    compatibility_date: COMPATIBILITY_DATE,
    compatibility_flags: ["nodejs_compat"],
    ...(settings.d1
      ? {
          d1_databases: [
            // Without a databaseId in site.yaml the binding works locally only (wrangler keeps it in .wrangler/).
            {
              binding: settings.d1.binding,
              database_name: settings.d1.database,
              ...(settings.d1.databaseId ? { database_id: settings.d1.databaseId } : {}),
            },
          ],
        }
      : {}),
  };
  return (
    `// Written by \`sitegen build --target cloudflare\` from content/site.yaml (its \`cloudflare\` section): edit ` +
    `that, not this file.\n${JSON.stringify(config, null, 2)}\n`
  );
}

export async function cloudflareTarget(input: TargetInput): Promise<TargetOutput> {
  const plugin = targetPlugin(input);
  const include = endpointPaths(input.site, plugin);
  // A site without endpoints is static files alone: no worker to run.
  const outputFiles =
    include.length === 0
      ? []
      : [
          { file: "_worker.js", data: await bundleWorker(input.root, input.site, input.dictionaries) },
          { file: "_routes.json", data: `${JSON.stringify({ version: 1, include, exclude: [] }, null, 2)}\n` },
        ];
  return {
    outputFiles,
    serverBundle: false,
    // Pages serves the nearest 404.html by itself, and reports a 404 rule of _redirects as invalid on every run.
    redirects: false,
    besideOutput: [
      { file: WRANGLER_FILE, data: wranglerConfig(cloudflareSettings(input.site, plugin?.d1), basename(input.outDir)) },
    ],
  };
}
