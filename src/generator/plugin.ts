/**
 * The plug-in point: what the site's endpoints module (src/api/index.ts, found by convention, endpoints.ts)
 * may export. Through it the site gives the generator its endpoints, its own CLI commands, the addresses
 * the deploy targets route to the endpoints, what the Node server needs of its settings, and its failures
 * as catalogued errors; the generator knows nothing else of the site's back office. docs/extending.md is
 * the reference.
 */
import type { Command } from "commander";
import type { SiteConfig } from "./config.ts";
import type { Dictionary } from "./content.ts";
import type { Endpoints } from "./endpoints.ts";
import type { ErrorName, ErrorParams } from "./error-catalogue.ts";
import { sitegenError } from "./errors.ts";
import type { PublishedEntry } from "./published-entries.ts";

export type { PublishedEntry, PublishedImage } from "./published-entries.ts";

/** What the module exports. Every export is optional; a module with none is no error until it is needed. */
export interface SitePlugin {
  /** The endpoints of `sitegen serve` and `sitegen start`: called once per server, before it listens. */
  createApiHandlers?(options: EndpointsOptions): Endpoints | Promise<Endpoints>;
  /** Adds the site's subcommands to the CLI: called when the CLI is given a command not its own, or asked for help. */
  commands?(program: Command, context: CommandContext): void;
  /**
   * Every address the endpoints answer, a path of the site (/api/signup) or an absolute URL: called by
   * `sitegen build --target cloudflare` and `--target netlify`, which route them to the endpoints. Without
   * it, the values of site.yaml's `endpoints`.
   */
  routes?(site: SiteConfig): string[];
  /**
   * The D1 database the Cloudflare Pages worker reads through: the binding its code names, and the name
   * the database gets, after the Pages project's (`<project>-<database>`), unless site.yaml's
   * `cloudflare.database` names it. Written into wrangler.jsonc by `sitegen build --target cloudflare`.
   */
  d1?: { binding: string; database: string };
  /** What the Node server takes from the site's settings: called by `sitegen start` before it listens. */
  serverSettings?(site: SiteConfig): ServerSettings;
  /**
   * A failure of the module's own code (thrown by createApiHandlers, by `ready()`, or by `routes`) as an
   * entry of the error catalogue, or undefined to show it as it is.
   */
  describeError?(error: unknown): ErrorDescription | undefined;
}

/** What createApiHandlers is given. */
export interface EndpointsOptions {
  /** content/site.yaml as the generator read it; any section the generator does not read is there as written. */
  site: SiteConfig;
  /** The project folder: relative paths of the site's settings are resolved from it. */
  root: string;
  /** Each locale's text (content/<locale>/*.yaml), dotted key → text, which the endpoints answer with. */
  messages: Record<string, Dictionary>;
}

/** What a command of the site is given besides its commander `Command`. */
export interface CommandContext {
  /** The project folder. */
  root: string;
  /** The built output the commands read: `dist/` in the project folder, where `sitegen build` writes by default. */
  output: string;
  /**
   * The site's configuration: content/site.yaml's, or, in a folder that holds only a built output (the
   * container of `sitegen start`), what the build recorded in dist/_sitegen/. Read when first asked for.
   */
  site(): SiteConfig;
  /** Each locale's text, from the same place. */
  messages(): Record<string, Dictionary>;
  /**
   * A collection's entries in every locale as the site publishes them (drafts left out): front matter, the
   * full address of each entry's page, and its images' full addresses and sizes. Read from the sources
   * (content/, src/pages/), so only in a project folder: in a folder holding only a built output it throws.
   */
  entries(collection: string): Promise<PublishedEntry[]>;
  /** The catalogued error a description names, to throw: the CLI prints its name, title, message, hint; exits 1. */
  error(description: ErrorDescription, cause?: unknown): Error;
}

export interface ServerSettings {
  /** Take the client's address from X-Forwarded-For in the request log: only behind a proxy the operator runs. */
  trustProxy: boolean;
}

/** An entry of the error catalogue (error-catalogue.ts) by name, with the values its message and hint are made of. */
export type ErrorDescription = { [N in ErrorName]: { name: N; params: ErrorParams<N> } }[ErrorName];

/** The catalogued error a description names. */
export function describedError(description: ErrorDescription, cause?: unknown): Error {
  return sitegenError(description.name, description.params as never, cause === undefined ? undefined : { cause });
}

/** A failure of the module's code as its describeError describes it, catalogued; anything else as it is. */
export function pluginFailure(plugin: SitePlugin | undefined, error: unknown): unknown {
  const description = plugin?.describeError?.(error);
  return description ? describedError(description, error) : error;
}

/** The addresses the deploy targets route to the endpoints: the module's routes, else site.yaml's `endpoints`. */
export function endpointAddresses(site: SiteConfig, plugin: SitePlugin | undefined): string[] {
  if (!plugin?.routes) return Object.values(site.endpoints);
  try {
    return plugin.routes(site);
  } catch (error) {
    throw pluginFailure(plugin, error);
  }
}

/** What the Node server needs of the site's settings; nothing trusted unless the module says so. */
export function serverSettings(site: SiteConfig, plugin: SitePlugin | undefined): ServerSettings {
  if (!plugin?.serverSettings) return { trustProxy: false };
  try {
    return { trustProxy: plugin.serverSettings(site).trustProxy === true };
  } catch (error) {
    throw pluginFailure(plugin, error);
  }
}
