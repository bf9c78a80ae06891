/**
 * Deploy targets of `sitegen build --target <name>`: what a host needs besides the pages. `node` (the
 * default) is the output as `sitegen start` and any static host take it; each other target is a module of
 * this folder that adds its files.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import { loadCompiledModule } from "../endpoints.ts";
import type { SitePlugin } from "../plugin.ts";
import { cloudflareTarget } from "./cloudflare.ts";
import { netlifyTarget } from "./netlify.ts";

export interface TargetInput {
  root: string;
  outDir: string;
  site: SiteConfig;
  dictionaries: Record<string, Dictionary>;
  /** The site's endpoints module compiled (endpoints.ts), undefined when it has none: asked for its routes. */
  apiCode: string | undefined;
}

/** The build's endpoints module, loaded when a target asks what it needs (plugin.ts); undefined when there is none. */
export function targetPlugin(input: TargetInput): SitePlugin | undefined {
  return input.apiCode === undefined ? undefined : loadCompiledModule(input.root, input.apiCode);
}

export interface TargetOutput {
  /** Files written into the output, path relative to it. */
  outputFiles: { file: string; data: string }[];
  /** Whether the output keeps `_sitegen/`, what `sitegen start` reads (server-bundle.ts). */
  serverBundle: boolean;
  /** Whether the output keeps `_redirects` (Netlify's rules for the not-found pages of each locale). */
  redirects: boolean;
  /** Files written beside the output folder (the project root for the default `dist`), once the build succeeded. */
  besideOutput: { file: string; data: string }[];
  /** Files written into the project folder (path relative to it), once the build succeeded. */
  projectFiles?: { file: string; data: string }[];
  /** Project folders emptied first, so that nothing of an earlier build stays in them. */
  projectFolders?: string[];
  /** A line for the build's summary: what was made for the host, and where. */
  summary?: string;
}

export const TARGETS = {
  node: async (): Promise<TargetOutput> => ({ outputFiles: [], serverBundle: true, redirects: true, besideOutput: [] }),
  cloudflare: cloudflareTarget,
  netlify: netlifyTarget,
} satisfies Record<string, (input: TargetInput) => Promise<TargetOutput>>;

export type TargetName = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as TargetName[];

/** Each file written whole or not at all: to a temporary name, then renamed over the old one. */
function writeWhole(file: string, data: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

/** Writes what a target puts outside the output folder, once the output is in place. */
export function writeTargetFiles(root: string, outDir: string, target: TargetOutput): void {
  for (const { file, data } of target.besideOutput) writeWhole(join(dirname(outDir), file), data);
  for (const folder of target.projectFolders ?? []) rmSync(join(root, folder), { recursive: true, force: true });
  for (const { file, data } of target.projectFiles ?? []) writeWhole(join(root, file), data);
}
