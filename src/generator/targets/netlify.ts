/**
 * `sitegen build --target netlify`: besides the usual build, what Netlify needs to run the endpoints.
 *
 * - One Netlify Function (v2: `export default (request, context) => Response` with
 *   `export const config = { path }`) in FUNCTIONS_DIR/sitegen-api/: `sitegen-api.mjs`, the function Netlify
 *   reads (its `config` a literal, as Netlify parses it without running it), and `endpoints.cjs`, the site's
 *   src/api/netlify.ts bundled with its packages (the same handlers as `sitegen start`, Netlify Blobs, pg)
 *   and the build's configuration and text, so the function needs nothing from node_modules.
 * - A scheduled function in FUNCTIONS_DIR/sitegen-deliver/, which sends the notifications that are due
 *   every few minutes through the same bundle, so a failed one is retried even without visitors.
 * - `netlify.toml` at the project root: the build command, `publish` the output folder, the functions folder.
 *
 * The functions live in a build folder of their own, not in `netlify/functions/` (the folder people write
 * functions in by hand, which they commit) nor in `.netlify/functions-internal/` (which Netlify's build
 * scans by itself, so naming it in netlify.toml too would list the function twice, and which
 * `@netlify/dev` does not read). The output folder stays a plain static folder: the files `sitegen start`
 * needs (`_sitegen/`) are left out of it, since Netlify would publish them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { SiteConfig } from "../config.ts";
import { plainDictionaries, type Dictionary } from "../content.ts";
import { sitegenError } from "../errors.ts";
import { PROJECT_FILES } from "../project.ts";
import { endpointAddresses, type SitePlugin } from "../plugin.ts";
import { targetPlugin, type TargetInput, type TargetOutput } from "./targets.ts";

/** esbuild, loaded when something is compiled: a build whose code is compiled already never starts it. */
const esbuild = () => import("esbuild");

/** The generated functions, relative to the project folder. */
export const FUNCTIONS_DIR = ".sitegen/netlify-functions";
export const FUNCTION_NAME = "sitegen-api";
/** The scheduled function: the endpoints' background work when no request comes (src/api/edge.ts). */
export const DELIVERY_FUNCTION = "sitegen-deliver";
/** How often it runs: a failed notification's first retry is due within a minute, later ones far apart. */
export const DELIVERY_SCHEDULE = "*/5 * * * *";
export const NETLIFY_CONFIG = "netlify.toml";
/** The first line of a netlify.toml sitegen wrote: any other is the developer's, never overwritten. */
const MARKER = "# Written by `sitegen build --target netlify`";

/** The addresses the endpoints answer (plugin.ts, routes) that are paths on this site: the function serves those. */
function localPaths(site: SiteConfig, plugin: SitePlugin | undefined): string[] {
  return endpointAddresses(site, plugin).filter((path) => path.startsWith("/") && !path.startsWith("//"));
}

/** A project-relative path as netlify.toml writes it, with forward slashes. */
const tomlPath = (root: string, path: string) => relative(root, path).split(sep).join("/") || ".";

export function netlifyToml(root: string, outDir: string): string {
  const out = tomlPath(root, outDir);
  const command = `npx --no sitegen build --target netlify${out === "dist" ? "" : ` --out ${out}`}`;
  return [
    `${MARKER}: rewritten by each such build, so edit the build, not this file.`,
    "# Netlify reads it before building: commit it with the site.",
    "[build]",
    `  command = ${JSON.stringify(command)}`,
    `  publish = ${JSON.stringify(out)}`,
    "",
    "[functions]",
    `  directory = ${JSON.stringify(FUNCTIONS_DIR)}`,
    "",
  ].join("\n");
}

/** The function's entry: Netlify's v2 signature over the bundled endpoints, with its addresses written out. */
function functionSource(paths: string[]): string {
  return [
    "// Written by `sitegen build --target netlify`: the site's endpoints (src/api) as one Netlify Function.",
    'import endpoints from "./endpoints.cjs";',
    "",
    "export default (request, context) => endpoints.handle(request, context);",
    "",
    `export const config = { path: ${JSON.stringify(paths)} };`,
    "",
  ].join("\n");
}

/**
 * The scheduled function: one pass of the endpoints' background work (their bundle, from the other
 * function's folder) on Netlify's timer, answering nothing a visitor could call: Netlify does not route
 * scheduled functions.
 */
function deliverySource(): string {
  return [
    "// Written by `sitegen build --target netlify`: sends the notifications that are due, on a schedule.",
    `import endpoints from "../${FUNCTION_NAME}/endpoints.cjs";`,
    "",
    "export default async () => {",
    "  await endpoints.deliver();",
    "  return new Response(null, { status: 204 });",
    "};",
    "",
    `export const config = { schedule: ${JSON.stringify(DELIVERY_SCHEDULE)} };`,
    "",
  ].join("\n");
}

async function bundleEndpoints(root: string, site: SiteConfig, dictionaries: Record<string, Dictionary>) {
  const file = PROJECT_FILES.netlifyApi;
  const problem = "it does not exist, and the Netlify Function is made from it.";
  if (!existsSync(join(root, file))) throw sitegenError("NetlifyFunctionInvalid", { file, problem });
  const messages = plainDictionaries(dictionaries);
  const entry = [
    `const { createNetlifyFunction } = require(${JSON.stringify(`./${file}`)});`,
    `if (typeof createNetlifyFunction !== "function") throw new ` +
      `Error(${JSON.stringify(`${file} does not export createNetlifyFunction.`)});`,
    `module.exports = createNetlifyFunction(${JSON.stringify({ site, messages })});`,
  ].join("\n");
  try {
    const result = await (
      await esbuild()
    ).build({
      stdin: { contents: entry, resolveDir: root, sourcefile: "netlify-function-entry.cjs", loader: "js" },
      absWorkingDir: root,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      // pg loads its optional native binding only when asked for it; the function never asks.
      external: ["pg-native"],
      write: false,
      logLevel: "silent",
      legalComments: "none",
    });
    return result.outputFiles[0].text;
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0];
    throw sitegenError("NetlifyFunctionInvalid", { file, problem: first?.text ?? String(error) }, { cause: error });
  }
}

/** Refuses a netlify.toml that sitegen did not write; the CLI asks before building, so nothing is built in vain. */
export function checkNetlifyConfig(root: string): void {
  const configFile = join(root, NETLIFY_CONFIG);
  if (existsSync(configFile) && !readFileSync(configFile, "utf8").startsWith(MARKER))
    throw sitegenError("NetlifyConfigExists", { file: configFile });
}

/**
 * The function and netlify.toml, written into the project once the build succeeded; the output keeps no
 * `_sitegen/` (Netlify would publish it) and keeps `_redirects` (Netlify reads it).
 */
export async function netlifyTarget(input: TargetInput): Promise<TargetOutput> {
  const { root, outDir, site, dictionaries } = input;
  checkNetlifyConfig(root);
  const paths = localPaths(site, targetPlugin(input));
  const code = await bundleEndpoints(root, site, dictionaries);
  const functionDir = `${FUNCTIONS_DIR}/${FUNCTION_NAME}`;
  const deliveryDir = `${FUNCTIONS_DIR}/${DELIVERY_FUNCTION}`;
  return {
    summary:
      `Netlify: ${functionDir} answers ${paths.join(", ")}, ${deliveryDir} sends due notifications on the schedule ` +
      `"${DELIVERY_SCHEDULE}"; ${NETLIFY_CONFIG} publishes ${tomlPath(root, outDir)}.`,
    outputFiles: [],
    serverBundle: false,
    redirects: true,
    besideOutput: [],
    projectFolders: [functionDir, deliveryDir],
    projectFiles: [
      { file: `${functionDir}/endpoints.cjs`, data: code },
      { file: `${functionDir}/${FUNCTION_NAME}.mjs`, data: functionSource(paths) },
      { file: `${deliveryDir}/${DELIVERY_FUNCTION}.mjs`, data: deliverySource() },
      { file: NETLIFY_CONFIG, data: netlifyToml(root, outDir) },
    ],
  };
}
