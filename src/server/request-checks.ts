/**
 * Checks made of every request before it is routed (RFC 9110, RFC 9112 §3.2): a method this server
 * implements on no path, and a Host header that is missing, repeated or no host at all.
 */
import type { IncomingMessage } from "node:http";

/**
 * Methods no path of this server answers, which a web-standard Request cannot even carry (CONNECT is
 * answered in raw-answer.ts, a method Node does not parse there too): 501 rather than 405.
 */
const NOT_IMPLEMENTED = new Set(["TRACE", "TRACK", "CONNECT"]);

/** The methods every file and page answers. */
export const FILE_METHODS = "GET, HEAD, OPTIONS";

export function notImplemented(method: string): boolean {
  return NOT_IMPLEMENTED.has(method.toUpperCase());
}

/** uri-host [ ":" port ] of RFC 3986: a reg-name (no percent-escapes) or an IP literal. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=]+)(?::\d{0,5})?$/i;

/**
 * Why the Host header makes the request unanswerable, or undefined when it is fine: none in an HTTP/1.1
 * request (HTTP/1.0 clients may omit it), more than one, or a value that is no host.
 */
export function hostProblem(req: IncomingMessage): string | undefined {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === "host") count++;
  if (count > 1) return "More than one Host header.";
  const host = req.headers.host;
  if (host === undefined) return req.httpVersion === "1.0" ? undefined : "The Host header is missing.";
  return HOST.test(host) ? undefined : "The Host header is not a host.";
}
