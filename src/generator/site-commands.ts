/**
 * The site's own CLI commands: its endpoints module's `commands` export (plugin.ts), added to the CLI when
 * the command asked for is none of sitegen's, and the context they run in. In a project folder the module
 * and the site come from src/api and content/, compiled and read as for `sitegen serve`. On a server that
 * holds only a built output, as the container image of `sitegen start` does, they come from what the build
 * recorded in `dist/_sitegen/` (server-bundle.ts), so the commands reach what the server reaches.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { loadSiteConfig, type SiteConfig } from "./config.ts";
import { loadLocaleContent, type Dictionary } from "./content.ts";
import { loadApiModule, requireBuiltModule } from "./endpoints.ts";
import { PROJECT_FILES } from "./project.ts";
import { describedError, type CommandContext, type SitePlugin } from "./plugin.ts";
import { publishedEntries } from "./published-entries.ts";
import { sitegenError } from "./errors.ts";
import { readServerBundle, SITE_FILE } from "./server-bundle.ts";

/** The output folder the commands read when the project folder has no content/site.yaml. */
export const BUILT_OUTPUT = "dist";

/** Whether the site's commands are wanted for this command line: not for sitegen's own commands, nor --version. */
export function wantsSiteCommands(program: Command, argv: readonly string[]): boolean {
  const first = argv[2];
  if (first === "-v" || first === "--version") return false;
  return (
    first === undefined ||
    first.startsWith("-") ||
    !program.commands.some((c) => c.name() === first || c.aliases().includes(first))
  );
}

/** Adds the site's commands to `program`; nothing when its module exports none, or the site has no endpoints. */
export async function addSiteCommands(program: Command, root: string, env = process.env): Promise<void> {
  const source = siteSource(root, env);
  const plugin = await source.plugin();
  plugin?.commands?.(program, source.context);
}

/** The context a command of the site runs in, for this project folder. */
export function commandContext(root: string, env: NodeJS.ProcessEnv = process.env): CommandContext {
  return siteSource(root, env).context;
}

function siteSource(
  root: string,
  env: NodeJS.ProcessEnv,
): { context: CommandContext; plugin(): Promise<SitePlugin | undefined> } {
  const outDir = join(root, BUILT_OUTPUT);
  const error = describedError;
  // The sources win when both are there: a developer's dist/ may be older than their site.yaml.
  if (existsSync(join(root, PROJECT_FILES.config)) || !existsSync(join(outDir, SITE_FILE))) {
    const site = once(() => loadSiteConfig(root, {}, env));
    const messages = once(() =>
      Object.fromEntries(site().locales.map((l) => [l.code, loadLocaleContent(root, l.code, site()).dictionary])),
    );
    const entries = (collection: string) => publishedEntries(root, collection);
    return { context: { root, output: outDir, site, messages, error, entries }, plugin: () => loadApiModule(root) };
  }
  const bundle = once(() => readServerBundle(outDir));
  const site = (): SiteConfig => bundle().site;
  const messages = (): Record<string, Dictionary> => bundle().messages;
  const plugin = async () => (bundle().apiFile ? requireBuiltModule(bundle().apiFile!, root) : undefined);
  const entries = async (collection: string) => {
    throw sitegenError("SourcesMissing", { root, collection });
  };
  return { context: { root, output: outDir, site, messages, error, entries }, plugin };
}

function once<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}
