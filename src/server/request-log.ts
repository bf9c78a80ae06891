import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** One request as `sitegen start` logs it: one JSON object per line on stdout, for a log collector. */
export interface RequestLogLine {
  time: string;
  method: string;
  /** The path only: a query string can carry what a visitor typed (an e-mail address in a GET form). */
  path: string;
  status: number;
  /** Body bytes sent. */
  bytes: number;
  durationMs: number;
  remote: string;
  /** Present when the client went away before the answer was complete. */
  aborted?: true;
}

const MAX_PATH = 1024;

/**
 * Logs every request the server answers, when its connection is done with it. Nothing of the body or the
 * headers is logged. `trustProxy` (the site's setting, as its endpoints module reports it: plugin.ts) takes
 * the client's address from the first X-Forwarded-For entry, which only a proxy you run can be trusted to set.
 */
export function logRequests(server: Server, options: { trustProxy: boolean; write?: (line: string) => void }): void {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  // Prepended, so that the counting is in place before the site's handler writes anything.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const time = new Date().toISOString();
    // Read now: once the client has closed the socket, Node no longer knows its address.
    const remote = clientAddress(req, options.trustProxy);
    const counter = countBodyBytes(res);
    res.once("close", () => {
      const line: RequestLogLine = {
        time,
        method: req.method ?? "",
        path: (req.url ?? "").split(/[?#]/)[0].slice(0, MAX_PATH),
        status: res.statusCode,
        // Node sends no body for these whatever the handler wrote.
        bytes: req.method === "HEAD" || res.statusCode === 204 || res.statusCode === 304 ? 0 : counter.bytes,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        remote,
      };
      // The client may close as soon as it has every byte of the length declared, before the stream sending a
      // file has ended the response: that answer was complete all the same.
      const declared = Number(res.getHeader("content-length") ?? counter.declared);
      if (!res.writableFinished && !(Number.isFinite(declared) && counter.bytes >= declared)) line.aborted = true;
      write(JSON.stringify(line));
    });
  });
}

function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy
    ? String(req.headers["x-forwarded-for"] ?? "")
        .split(",")[0]
        .trim()
    : "";
  return forwarded || req.socket.remoteAddress || "";
}

/**
 * Counts what goes through write() and end(), the body (the status line and headers are not counted), and notes the
 * Content-Length given to writeHead.
 */
function countBodyBytes(res: ServerResponse): { bytes: number; declared?: unknown } {
  const counter: { bytes: number; declared?: unknown } = { bytes: 0 };
  // Headers given to writeHead itself (as sirv gives them) are not among those getHeader reads.
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((arg) => typeof arg === "object" && arg !== null);
    if (Array.isArray(headers)) {
      // Either [name, value] pairs or a flat list of names and values.
      const flat = headers.flat() as unknown[];
      for (let i = 0; i + 1 < flat.length; i += 2)
        if (String(flat[i]).toLowerCase() === "content-length") counter.declared = flat[i + 1];
    } else if (headers) {
      for (const [name, value] of Object.entries(headers))
        if (name.toLowerCase() === "content-length") counter.declared = value;
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
  const size = (chunk: unknown, encoding: unknown) =>
    typeof chunk === "string"
      ? Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
      : chunk instanceof Uint8Array
        ? chunk.byteLength
        : 0;
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    counter.bytes += size(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") counter.bytes += size(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse["end"];
  return counter;
}
