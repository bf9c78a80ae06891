import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compileFunction } from "node:vm";
import type { SiteConfig } from "./config.ts";
import type { Dictionary } from "./content.ts";
import { sitegenError } from "./errors.ts";
import { storeFailure } from "./open-store.ts";
import { cacheFolder, PROJECT_FILES } from "./project.ts";

/** esbuild, loaded when something is compiled: a build whose code is compiled already never starts it. */
const esbuild = () => import("esbuild");

/** A web-standard handler: the same code runs in `sitegen serve` and on an edge runtime. */
export type ApiHandler = (request: Request) => Promise<Response>;

export interface Endpoints {
  /** Endpoint path → handler, mounted before static files. */
  handlers: Record<string, ApiHandler>;
  /** Opens the store and migrates it: `start` awaits it before listening, so a bad database fails the start. */
  ready?(): Promise<void>;
  /** The endpoints' background work (delivering notifications, purging old rows), started once the server listens. */
  startBackground?(): void;
  /** Stops that work; what is in flight may finish within `graceMs`. */
  stopBackground?(graceMs: number): Promise<void>;
  /** Sends every notification not yet delivered (`sitegen submissions retry`). */
  retry?(): Promise<DeliveryReport>;
  /** Closes the submissions store; a PostgreSQL pool closes asynchronously. */
  close(): void | Promise<void>;
}

/** What a retry sent and what still fails, as the site's endpoints report it. */
export interface DeliveryReport {
  delivered: OutboxRowSummary[];
  failed: { row: OutboxRowSummary; error: string; nextAttemptAt: number }[];
}

export interface OutboxRowSummary {
  id: number;
  kind: string;
  submission_type: string;
  submission_id: number;
  attempts: number;
}

/** What the site's endpoints module exports: its handlers, and the store the commands read. */
export interface ApiModule {
  createApiHandlers?: (options: unknown) => Endpoints | Promise<Endpoints>;
  openStore?: (settings: { database?: string }, env: Readonly<Record<string, string | undefined>>, root: string) => CommandStore;
  storeKind?: (env: Readonly<Record<string, string | undefined>>) => "postgres" | "sqlite";
  sqliteFile?: (settings: { database?: string }, root: string) => string;
}

/** The part of the site's store that `sitegen submissions` uses. */
export interface CommandStore {
  ready(): Promise<void>;
  list(type: string): Promise<unknown[]>;
  /** Everything stored about an address, per table (LGPD art. 18: access). */
  findByEmail(email: string): Promise<Record<string, unknown[]>>;
  /** Erases it, returning the rows removed per table (LGPD art. 18: deletion). */
  deleteByEmail(email: string): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/**
 * The site's endpoints module (src/api/index.ts) compiled for Node as one CommonJS file, its packages left
 * as require() calls, so it runs wherever the project's node_modules are installed. Undefined when the site
 * has no endpoints. The build writes it into the output for `sitegen start` (server-bundle.ts).
 */
export async function compileEndpoints(root: string, inputs?: Set<string>): Promise<string | undefined> {
  const entry = join(root, PROJECT_FILES.api);
  if (!existsSync(entry)) return undefined;
  try {
    const result = await (await esbuild()).build({ entryPoints: [entry], absWorkingDir: root, bundle: true, platform: "node", format: "cjs", target: "node20", packages: "external", write: false, logLevel: "silent", metafile: true });
    for (const input of Object.keys(result.metafile.inputs)) inputs?.add(join(root, input));
    return result.outputFiles[0].text;
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0];
    throw sitegenError("ApiModuleInvalid", { file: PROJECT_FILES.api, problem: first?.text ?? String(error) }, { cause: error });
  }
}

/**
 * `sitegen serve`: the site's endpoints compiled from the sources and loaded. The module exports
 * createApiHandlers({ site, root, messages }), messages being each locale's text, so that the endpoints
 * answer in the visitor's language with the site's own words.
 */
export async function loadEndpoints(root: string, site: SiteConfig, messages: Record<string, Dictionary>): Promise<Endpoints> {
  const module = await loadApiModule(root);
  if (!module) return { handlers: {}, close() {} };
  return instantiate(module, PROJECT_FILES.api, { site, root, messages });
}

/** The site's endpoints module compiled from its sources and loaded (undefined when the site has none). */
export async function loadApiModule(root: string): Promise<ApiModule | undefined> {
  const code = await compileEndpoints(root);
  if (code === undefined) return undefined;
  const dir = join(cacheFolder(root), "api");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `api-${createHash("sha1").update(code).digest("hex").slice(0, 12)}.cjs`);
  if (!existsSync(file)) writeAtomically(file, code);
  return createRequire(join(root, "package.json"))(file) as ApiModule;
}

/**
 * `sitegen start`: the endpoints module a build wrote into the output, loaded without esbuild. Its packages
 * are looked up from the module's own folder first (dist inside the project, as in the container image),
 * then from the project folder, then from sitegen's own installation, so an output kept elsewhere
 * (--out /srv/site) or a start from another folder still finds the installed production dependencies.
 */
export function loadBuiltEndpoints(file: string, root: string, site: SiteConfig, messages: Record<string, Dictionary>): Promise<Endpoints> {
  return instantiate(requireBuiltModule(file, root), file, { site, root, messages });
}

/** The endpoints module a build wrote, loaded as loadBuiltEndpoints says, not instantiated (the submissions commands use its store). */
export function requireBuiltModule(file: string, root: string): ApiModule {
  const places = [createRequire(file), createRequire(join(root, "package.json")), createRequire(import.meta.url)];
  const require = Object.assign((id: string) => {
    for (const from of places) {
      try {
        return from(id);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND" || !(error as Error).message.includes(`'${id}'`)) throw error;
      }
    }
    throw sitegenError("ApiDependencyMissing", { file, module: id, root });
  }, places[0]);
  const module = { exports: {} as ApiModule };
  let run: (...args: unknown[]) => void;
  try {
    run = compileFunction(readFileSync(file, "utf8"), ["exports", "require", "module", "__filename", "__dirname"], { filename: file }) as typeof run;
  } catch (error) {
    throw sitegenError("ApiModuleInvalid", { file, problem: (error as Error).message }, { cause: error });
  }
  run(module.exports, require, module, file, dirname(file));
  return module.exports;
}

async function instantiate(module: ApiModule, file: string, options: { site: SiteConfig; root: string; messages: Record<string, Dictionary> }): Promise<Endpoints> {
  if (typeof module.createApiHandlers !== "function") throw sitegenError("ApiModuleInvalid", { file, problem: "it does not export a function createApiHandlers." });
  try {
    return await module.createApiHandlers(options);
  } catch (error) {
    // A DATABASE_URL that is no PostgreSQL URL is refused here, before the server listens.
    throw storeFailure(error);
  }
}

/** Written beside its final name, then renamed: another build in another process may be loading the same file. */
function writeAtomically(file: string, code: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, file);
}
