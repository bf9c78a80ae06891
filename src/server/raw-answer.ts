/**
 * Answers written straight to the socket, for requests Node never hands to the request handler: those it
 * cannot parse or that took too long (http.Server's 'clientError'), and CONNECT ('connect'). Each carries
 * the security headers every other answer has, and the connection is closed after it.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"],
  // A method Node's parser does not know (RFC 9110 §15.6.2).
  HPE_INVALID_METHOD: [501, "Not Implemented"],
};

function answer(socket: Duplex, status: number, reason: string, headers: Record<string, string>): void {
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(reason)}`,
    "Cache-Control: no-store",
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join("\r\n")}\r\n\r\n${reason}`, () => socket.destroy());
}

/**
 * What Node would answer to a request it cannot parse or that took too long; `inFlightStarted` says the
 * status line of another answer on this connection has gone out already, so none can follow.
 */
export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  headers: Record<string, string>,
  inFlightStarted: boolean,
): void {
  if (error.code === "ECONNRESET" || !socket.writable || inFlightStarted) return void socket.destroy();
  const [status, reason] = CLIENT_ERRORS[error.code ?? ""] ?? [400, "Bad Request"];
  answer(socket, status, reason, headers);
}

/** CONNECT: this server opens no tunnels, on any path. */
export function answerConnect(_req: IncomingMessage, socket: Duplex, headers: Record<string, string>): void {
  if (!socket.writable) return void socket.destroy();
  answer(socket, 501, "Not Implemented", headers);
}
