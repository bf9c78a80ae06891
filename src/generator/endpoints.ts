import { build } from "esbuild";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { SiteConfig } from "./config.ts";
import type { Dictionary } from "./content.ts";
import { sitegenError } from "./errors.ts";
import { storeFailure } from "./open-store.ts";
import { cacheFolder, PROJECT_FILES } from "./project.ts";

/** A web-standard handler: the same code runs in `sitegen serve` and on an edge runtime. */
export type ApiHandler = (request: Request) => Promise<Response>;

export interface Endpoints {
  /** Endpoint path → handler, mounted before static files. */
  handlers: Record<string, ApiHandler>;
  /** Closes the submissions store; a PostgreSQL pool closes asynchronously. */
  close(): void | Promise<void>;
}

/**
 * The site's endpoints (src/api/index.ts, when it has one), compiled for Node and loaded. The module
 * exports createApiHandlers({ site, root, messages }), messages being each locale's text, so that the
 * endpoints answer in the visitor's language with the site's own words.
 */
export async function loadEndpoints(root: string, site: SiteConfig, messages: Record<string, Dictionary>): Promise<Endpoints> {
  const entry = join(root, PROJECT_FILES.api);
  if (!existsSync(entry)) return { handlers: {}, close() {} };
  let code: string;
  try {
    const result = await build({ entryPoints: [entry], absWorkingDir: root, bundle: true, platform: "node", format: "cjs", target: "node20", packages: "external", write: false, logLevel: "silent" });
    code = result.outputFiles[0].text;
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0];
    throw sitegenError("ApiModuleInvalid", { file: PROJECT_FILES.api, problem: first?.text ?? String(error) }, { cause: error });
  }
  const dir = join(cacheFolder(root), "api");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `api-${createHash("sha1").update(code).digest("hex").slice(0, 12)}.cjs`);
  if (!existsSync(file)) writeAtomically(file, code);
  const module = createRequire(join(root, "package.json"))(file) as { createApiHandlers?: (options: unknown) => Endpoints };
  if (typeof module.createApiHandlers !== "function") throw sitegenError("ApiModuleInvalid", { file: PROJECT_FILES.api, problem: "it does not export a function createApiHandlers." });
  try {
    return module.createApiHandlers({ site, root, messages });
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
