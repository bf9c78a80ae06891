/**
 * Deploy targets of `sitegen build --target <name>`: what a host needs besides the pages. `node` (the
 * default) is the output as `sitegen start` and any static host take it; each other target is a module of
 * this folder that adds its files.
 */
import type { SiteConfig } from "../config.ts";
import type { Dictionary } from "../content.ts";
import { cloudflareTarget } from "./cloudflare.ts";

export interface TargetInput {
  root: string;
  outDir: string;
  site: SiteConfig;
  dictionaries: Record<string, Dictionary>;
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
}

export const TARGETS = {
  node: async (): Promise<TargetOutput> => ({ outputFiles: [], serverBundle: true, redirects: true, besideOutput: [] }),
  cloudflare: cloudflareTarget,
} satisfies Record<string, (input: TargetInput) => Promise<TargetOutput>>;

export type TargetName = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as TargetName[];
