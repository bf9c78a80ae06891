import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** How often kept-alive connections are checked for having become idle while draining. */
const SWEEP_MS = 50;

/**
 * The graceful half of stopping `sitegen start` (SIGTERM from a container platform, or Ctrl+C): the
 * listening socket closes at once, so new connections are refused and the platform sends them elsewhere;
 * requests in flight run to their end (a form body still arriving included); and each connection is closed
 * as soon as it holds no request: answers given from now on say `Connection: close`, and kept-alive
 * connections are closed as they fall idle instead of waiting for their idle timeout.
 *
 * Whatever is still open after `timeoutMs` is cut, so a client that never finishes cannot hold the process
 * past the platform's grace period (after which it would be killed without closing the store). `cutNow()`
 * ends the wait early (a second signal). Resolves with the number of connections that were cut.
 */
export function drainServer(server: Server, timeoutMs: number): { done: Promise<number>; cutNow(): void } {
  let cutNow = () => {};
  const done = new Promise<number>((resolve) => {
    let cut = 0;
    const closeAfterAnswer = (_req: IncomingMessage, res: ServerResponse) => res.setHeader("Connection", "close");
    server.prependListener("request", closeAfterAnswer);
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
    cutNow = () =>
      server.getConnections((_error, count) => {
        cut = count;
        server.closeAllConnections();
      });
    const deadline = setTimeout(cutNow, timeoutMs);
    // Called once every connection has ended (or at once, with an error, if the server was not listening).
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      server.off("request", closeAfterAnswer);
      resolve(cut);
    });
    server.closeIdleConnections();
  });
  return { done, cutNow: () => cutNow() };
}
