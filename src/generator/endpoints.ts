import { existsSync, mkdirSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { SiteConfig } from "./config.ts";
import type { Dictionary } from "./content.ts";
import { sitegenError } from "./errors.ts";
import { pluginFailure, type EndpointsOptions, type SitePlugin } from "./plugin.ts";
import { cacheFolder, PROJECT_FILES } from "./project.ts";

/** esbuild, loaded when something is compiled: a build whose code is compiled already never starts it. */
const esbuild = () => import("esbuild");

/** A web-standard handler: the same code runs in `sitegen serve` and on an edge runtime. */
export type ApiHandler = (request: Request) => Promise<Response>;

export interface Endpoints {
  /** Endpoint path → handler, mounted before static files. */
  handlers: Record<string, ApiHandler>;
  /** Opens what the endpoints store into: `start` awaits it before listening, so a bad database fails the start. */
  ready?(): Promise<void>;
  /** The endpoints' background work (sending queued notifications, erasing old data), started once listening. */
  startBackground?(): void;
  /** Stops that work; what is in flight may finish within `graceMs`. */
  stopBackground?(graceMs: number): Promise<void>;
  /** Closes what the endpoints opened; a database pool may close asynchronously. */
  close(): void | Promise<void>;
}

/** A site without endpoints. */
export const NO_ENDPOINTS: Endpoints = { handlers: {}, close() {} };

/**
 * The site's endpoints module (src/api/index.ts) compiled for Node as one CommonJS file, its packages left
 * as require() calls, so it runs wherever the project's node_modules are installed. Undefined when the site
 * has no endpoints. The build writes it into the output for `sitegen start` (server-bundle.ts).
 */
export async function compileEndpoints(root: string, inputs?: Set<string>): Promise<string | undefined> {
  const entry = join(root, PROJECT_FILES.api);
  if (!existsSync(entry)) return undefined;
  try {
    const result = await (
      await esbuild()
    ).build({
      entryPoints: [entry],
      absWorkingDir: realpathSync(root),
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      packages: "external",
      // A module whose export is a function of `require`: its loader gives it the require that finds its packages
      // (requireBuiltModule), with no code compiled from text.
      banner: {
        js:
          'module.exports = function sitegenEndpoints(require) {\n"use strict";\n' +
          "var module = { exports: {} }, exports = module.exports;",
      },
      footer: { js: "return module.exports;\n};" },
      write: false,
      logLevel: "silent",
      metafile: true,
    });
    // esbuild names its inputs relative to where it works from: the project's real path, as it names theirs.
    for (const input of Object.keys(result.metafile.inputs)) inputs?.add(join(realpathSync(root), input));
    return result.outputFiles[0].text;
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0];
    throw sitegenError(
      "ApiModuleInvalid",
      { file: PROJECT_FILES.api, problem: first?.text ?? String(error) },
      { cause: error },
    );
  }
}

/**
 * `sitegen serve`: the site's endpoints compiled from the sources and loaded. The module exports
 * createApiHandlers({ site, root, messages }), messages being each locale's text, so that the endpoints
 * answer in the visitor's language with the site's own words.
 */
export async function loadEndpoints(
  root: string,
  site: SiteConfig,
  messages: Record<string, Dictionary>,
): Promise<Endpoints> {
  const module = await loadApiModule(root);
  if (!module) return NO_ENDPOINTS;
  return createEndpoints(module, PROJECT_FILES.api, { site, root, messages });
}

/** The site's endpoints module compiled from its sources and loaded (undefined when the site has none). */
export async function loadApiModule(root: string): Promise<SitePlugin | undefined> {
  const code = await compileEndpoints(root);
  return code === undefined ? undefined : loadCompiledModule(root, code);
}

/** The endpoints module compileEndpoints made, loaded (the deploy targets ask it for their routes). */
export function loadCompiledModule(root: string, code: string): SitePlugin {
  const dir = join(cacheFolder(root), "api");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `api-${createHash("sha1").update(code).digest("hex").slice(0, 12)}.cjs`);
  if (!existsSync(file)) writeAtomically(file, code);
  return instantiate(file, createRequire(join(root, "package.json")));
}

/**
 * `sitegen start`: the endpoints module a build wrote into the output, loaded without esbuild. Its packages
 * are looked up from the module's own folder first (dist inside the project, as in the container image),
 * then from the project folder, then from sitegen's own installation, so an output kept elsewhere
 * (--out /srv/site) or a start from another folder still finds the installed production dependencies.
 */
export function loadBuiltEndpoints(
  file: string,
  root: string,
  site: SiteConfig,
  messages: Record<string, Dictionary>,
): Promise<Endpoints> {
  return createEndpoints(requireBuiltModule(file, root), file, { site, root, messages });
}

/** The endpoints module a build wrote, loaded as loadBuiltEndpoints says, not instantiated (commands, settings). */
export function requireBuiltModule(file: string, root: string): SitePlugin {
  const places = [createRequire(file), createRequire(join(root, "package.json")), createRequire(import.meta.url)];
  const require = Object.assign((id: string) => {
    for (const from of places) {
      try {
        return from(id);
      } catch (error) {
        if (
          (error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND" ||
          !(error as Error).message.includes(`'${id}'`)
        )
          throw error;
      }
    }
    throw sitegenError("ApiDependencyMissing", { file, module: id, root });
  }, places[0]);
  return instantiate(file, require);
}

/**
 * The module compileEndpoints wrote, loaded as a file (and forgotten by Node's module cache, as another build may
 * write the same path), then made with the given require for its packages.
 */
function instantiate(file: string, require: NodeJS.Require): SitePlugin {
  const load = createRequire(file);
  let made: unknown;
  try {
    made = load(file);
  } catch (error) {
    throw sitegenError("ApiModuleInvalid", { file, problem: (error as Error).message }, { cause: error });
  } finally {
    delete load.cache[file];
  }
  if (typeof made !== "function")
    throw sitegenError("ApiModuleInvalid", { file, problem: "it was not written by this sitegen: build again." });
  return (made as (require: NodeJS.Require) => SitePlugin)(require);
}

/**
 * The module's endpoints, made by its createApiHandlers; what it refuses (a setting that cannot work) fails
 * here, before a server listens.
 */
export async function createEndpoints(module: SitePlugin, file: string, options: EndpointsOptions): Promise<Endpoints> {
  if (typeof module.createApiHandlers !== "function")
    throw sitegenError("ApiModuleInvalid", { file, problem: "it does not export a function createApiHandlers." });
  try {
    return await module.createApiHandlers(options);
  } catch (error) {
    throw pluginFailure(module, error);
  }
}

/** Written beside its final name, then renamed: another build in another process may be loading the same file. */
function writeAtomically(file: string, code: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, file);
}
