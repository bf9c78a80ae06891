/**
 * Checks made of every request before it is routed (RFC 9110): a method this server implements on no path.
 */

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
