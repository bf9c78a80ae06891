/**
 * The endpoints' side of the Node server: a Node request handed to a web-standard handler as a Request,
 * its Response written back, and what the handler left unread drained before the connection closes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiHandler } from "../generator/endpoints.ts";

/**
 * Runs a web-standard handler for a Node request. The body is streamed to the handler, which reads only as
 * much as its own limit allows and answers in the visitor's language (a 413 included); what it leaves
 * unread is drained after the answer (drainAndAnswer). `maxBodyBytes` caps what any handler may read.
 */
export async function runApi(
  handler: ApiHandler,
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
): Promise<void> {
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    requestHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  requestHeaders.set("x-sitegen-remote-address", req.socket.remoteAddress ?? "");

  // The server refused a Host that is no host (request-checks.ts); an HTTP/1.0 request may have none.
  let url: string;
  try {
    url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`).href;
  } catch {
    url = new URL(req.url ?? "/", "http://localhost").href;
  }
  // `Expect: 100-continue` (the server's checkContinue): the client waits for 100 before sending the body,
  // which is sent only once the handler reads it. A handler that refuses first (a Content-Length over its
  // limit: 413) answers before a byte of the body has been sent.
  let awaitingContinue = hasBody && /^100-continue$/i.test(req.headers.expect ?? "");

  let ended = !hasBody;
  /** Set once the handler is done with the body (or exceeded the cap): later data is drainAndAnswer's. */
  let detached = false;
  let body: ReadableStream<Uint8Array> | undefined;
  if (hasBody) {
    let seen = 0;
    req.on("end", () => (ended = true));
    body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          req.on("data", (chunk: Buffer) => {
            if (detached) return;
            seen += chunk.byteLength;
            if (seen > maxBodyBytes) {
              detached = true;
              req.pause();
              controller.error(new RangeError("The request body is over the server's limit."));
              return;
            }
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 0) <= 0) req.pause();
          });
          req.on("end", () => !detached && controller.close());
          req.on("error", (error) => !detached && controller.error(error));
          req.pause();
        },
        pull() {
          if (awaitingContinue) {
            awaitingContinue = false;
            res.writeContinue();
          }
          req.resume();
        },
        cancel() {
          detached = true;
          req.pause();
        },
        // Nothing is read before the handler asks for it (pull), so no 100 goes out for a body it never reads.
      },
      { highWaterMark: 0 },
    );
  }
  const init = { method, headers: requestHeaders, body, duplex: "half" } as RequestInit;
  const response = await handler(new Request(url, init));
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => (out[name] = value));
  const payload = method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer());
  detached = true;
  // Never asked for, the body is not coming: the answer ends the exchange.
  if (awaitingContinue) {
    res.writeHead(response.status, { ...out, connection: "close" });
    return void res.end(payload);
  }
  // Read to its end, or wholly received already (the rest sits in memory): an ordinary answer, keep-alive kept.
  if (ended || req.complete) {
    req.resume();
    res.writeHead(response.status, out);
    return void res.end(payload);
  }
  drainAndAnswer(req, res, response.status, out, payload);
}

/**
 * Answers a request whose body is still arriving (over the limit, or not wanted). The answer is written at
 * once, so a client that reads while it sends sees it, but the connection stays open while the rest of the
 * body is read and dropped: closing a socket with unread data in it makes the kernel send a reset, which can
 * destroy the answer before a client that reads only after sending has read it. Bounded in bytes and in
 * time, so a client that never stops sending is cut off rather than held.
 */
function drainAndAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | undefined,
): void {
  const maxBytes = 1024 * 1024;
  const maxMs = 5_000;
  // Lower-case names, as the handler's headers are, so these replace any it set rather than doubling them.
  res.writeHead(status, { ...headers, "content-length": String(body?.byteLength ?? 0), connection: "close" });
  if (body) res.write(body);
  let drained = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    req.off("data", onData);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > maxBytes) finish();
  };
  const timer = setTimeout(finish, maxMs);
  req.on("data", onData);
  req.once("end", finish);
  req.once("close", finish);
  req.once("error", finish);
  req.resume();
}
