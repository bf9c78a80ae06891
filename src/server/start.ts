/**
 * `sitegen start`: the production server. It serves a `dist/` that `sitegen build` already made, with the
 * site's endpoints, for a virtual machine or a container: it builds nothing, watches nothing, reloads
 * nothing, and needs nothing of the project but that folder and the production dependencies (what it
 * reads is in dist/_sitegen/, see server-bundle.ts). An output without endpoints has no _sitegen/: it is
 * served with the project's content/site.yaml, when start runs in the project folder.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadSiteConfig, type SiteConfig } from "../generator/config.ts";
import { PROJECT_FILES } from "../generator/project.ts";
import { createEndpoints, NO_ENDPOINTS, requireBuiltModule, type Endpoints } from "../generator/endpoints.ts";
import { formatError, sitegenError } from "../generator/errors.ts";
import { drainServer } from "./drain.ts";
import { pluginFailure, serverSettings } from "../generator/plugin.ts";
import { logRequests } from "./request-log.ts";
import { readServerBundle } from "../generator/server-bundle.ts";
import { createSiteServer, listen } from "./server.ts";

export interface StartOptions {
  /** The project folder: relative paths of the endpoints' settings (a database file) are resolved from it. */
  root: string;
  outDir: string;
  port: number;
  host: string;
  /** Send Strict-Transport-Security: only true behind HTTPS (a proxy or platform that ends TLS). */
  hsts: boolean;
  /** How long requests in flight may take to finish after SIGTERM before their connections are cut. */
  shutdownTimeoutMs: number;
}

export const DEFAULT_PORT = 4321;
export const HEALTH_PATH = "/healthz";
/**
 * This host only: includeSubDomains would force HTTPS on every other host of the domain, which this
 * server knows nothing about, and preload is a decision for the domain's owner.
 */
export const HSTS_VALUE = "max-age=31536000";

/** --port, else PORT (which container platforms set), else 4321. A PORT that is no port is an error, not ignored. */
export function startPort(flag: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) return flag;
  const value = env.PORT?.trim();
  if (!value) return DEFAULT_PORT;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw sitegenError("PortInvalid", { value: env.PORT ?? "", source: "PORT" });
  return n;
}

/** --hsts, or HSTS=1 (or true, yes, on) in the environment, for platforms where the command is fixed. */
export function hstsWanted(flag: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return flag || /^(1|true|yes|on)$/i.test(env.HSTS?.trim() ?? "");
}

/** A lifecycle line, in the same JSON-lines stream as the request log. */
function logEvent(event: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
}

export async function startServer(options: StartOptions): Promise<void> {
  const projectSite = () =>
    existsSync(join(options.root, PROJECT_FILES.config)) ? loadSiteConfig(options.root) : undefined;
  const bundle = readServerBundle(options.outDir, projectSite);
  const site: SiteConfig = bundle.site;
  const plugin = bundle.apiFile ? requireBuiltModule(bundle.apiFile, options.root) : undefined;
  const api: Endpoints = plugin
    ? await createEndpoints(plugin, bundle.apiFile!, { site, root: options.root, messages: bundle.messages })
    : NO_ENDPOINTS;
  let draining = false;
  const server = createSiteServer({
    outDir: options.outDir,
    site,
    api: api.handlers,
    headers: options.hsts ? { "Strict-Transport-Security": HSTS_VALUE } : {},
    health: { path: HEALTH_PATH, ok: () => !draining },
  });
  logRequests(server.server, serverSettings(site, plugin));

  let port: number;
  try {
    // The database is opened and migrated before the first visitor can post: a bad one fails the start.
    await api.ready?.().catch((error: unknown) => {
      throw pluginFailure(plugin, error);
    });
    port = await listen(server.server, options.port, options.host, "start");
  } catch (error) {
    await api.close();
    throw error;
  }
  // Notifications left undelivered by an earlier run go out now, then as they become due.
  api.startBackground?.();
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  logEvent("listening", {
    url: `http://${shownHost}:${port}/`,
    dist: options.outDir,
    endpoints: Object.keys(api.handlers),
    hsts: options.hsts,
  });

  let drain: ReturnType<typeof drainServer> | undefined;
  const stop = async (signal: NodeJS.Signals) => {
    // A second signal while draining: stop waiting for the requests still in flight.
    if (drain) return drain.cutNow();
    draining = true;
    logEvent("stopping", { signal, graceMs: options.shutdownTimeoutMs });
    drain = drainServer(server.server, options.shutdownTimeoutMs);
    // Deliveries in flight finish within the same grace period; whatever is cut is sent by the next start.
    const [cut] = await Promise.all([drain.done, api.stopBackground?.(options.shutdownTimeoutMs)]);
    let code = 0;
    try {
      await api.close();
    } catch (error) {
      console.error(`Closing the endpoints failed.\n${formatError(error)}`);
      code = 1;
    }
    logEvent("stopped", { cutConnections: cut });
    process.exit(code);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // The CLI's promise stays pending: the process ends in stop().
  await new Promise(() => {});
}
