/**
 * Netlify's local runtime, `@netlify/dev` run in-process (its NetlifyDev class), for a project that
 * `sitegen build --target netlify` built: the functions of its netlify.toml (each run in a worker thread, as
 * Netlify runs them), the static files of `publish` with `_headers` and `_redirects`, and a local Netlify
 * Blobs server. A loopback HTTP server in front of it gives it real requests, with the visitor's address in
 * X-Forwarded-For, where Netlify's proxy puts it and where the local runtime reads `context.ip` from.
 *
 * Nothing reaches the network: no account (an empty API token, so no token is read from the user's Netlify
 * configuration either, and the unlinked project resolves its configuration offline), and the features that
 * would call Netlify's services are off (the database, which would start its own server, the AI gateway,
 * geolocation, edge functions, which download Deno, and the image CDN). `serverAddress` is set, so it starts
 * no passthrough server of its own.
 */
import { Server } from "node:net";
import { createServer, type Server as HttpServer } from "node:http";
import { Readable } from "node:stream";
import { NetlifyDev } from "@netlify/dev";

export interface RunningNetlify {
  /** The loopback address the runtime answers on, such as http://127.0.0.1:41234 */
  url: string;
  dev: NetlifyDev;
  /** Stops everything it started; calling it again waits for the same stop. */
  stop(): Promise<void>;
}

/**
 * The local Blobs server listens without naming a host (every interface, and no option changes it), so
 * while `start` runs, a listen that names no host is given the loopback one.
 */
export async function onLoopback<T>(start: () => Promise<T>): Promise<T> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    if (typeof args[0] === "number" && (args.length === 1 || typeof args[1] === "function"))
      args.splice(1, 0, "127.0.0.1");
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}

export async function startNetlifyDev(projectRoot: string): Promise<RunningNetlify> {
  let server: HttpServer | undefined;
  const dev = new NetlifyDev({
    projectRoot,
    apiToken: "",
    skipGitignore: true,
    serverAddress: "http://127.0.0.1:9",
    database: { enabled: false },
    aiGateway: { enabled: false },
    geolocation: { enabled: false },
    edgeFunctions: { enabled: false },
    images: { enabled: false },
    environmentVariables: { enabled: false },
    logger: { log() {}, info() {}, warn: console.warn, error: console.error } as never,
  });
  try {
    await onLoopback(() => dev.start());
    server = createServer(async (req, res) => {
      try {
        // The socket's address, as Netlify's proxy passes it on: any value the client sent is replaced.
        req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
        const result = await dev.handleAndIntrospectNodeRequest(req);
        const response = result?.response ?? new Response("Not found", { status: 404 });
        res.writeHead(response.status, [...response.headers].flat());
        if (response.body) Readable.fromWeb(response.body as never).pipe(res);
        else res.end();
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
    await new Promise<void>((resolve, reject) => server!.once("error", reject).listen(0, "127.0.0.1", resolve));
  } catch (error) {
    server?.close();
    await dev.stop();
    throw error;
  }
  const { port } = server.address() as { port: number };
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    dev,
    /** The loopback server, then the runtime (its Blobs server, file watchers and the environment it set); once. */
    stop: () =>
      (stopping ??= (async () => {
        server!.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
        await dev.stop();
      })()),
  };
}
