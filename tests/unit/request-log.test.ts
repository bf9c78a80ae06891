import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { logRequests } from "../../src/server/request-log.ts";

/**
 * When a request counts as aborted in the log: a client that has every byte of the declared length may
 * close before the server has ended the response (a file still streaming its end), and that answer was
 * complete; one that goes away with bytes still missing was not.
 */
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that declares 10 bytes, writes `sent` of them at once, and ends the response 300 ms later. */
async function slowEnding(sent: number): Promise<{ port: number; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": "10" });
    res.write("x".repeat(sent));
    setTimeout(() => res.end(), 300);
  });
  logRequests(server, { trustProxy: false, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, lines };
}

/**
 * Sends a GET and closes the connection once `bytes` bytes of body have arrived; resolves when the server has logged
 * it.
 */
async function readThenClose(port: number, bytes: number, lines: unknown[]): Promise<void> {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  await new Promise<void>((resolve) => {
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const body = text.split("\r\n\r\n")[1];
      if (body !== undefined && body.length >= bytes) {
        socket.destroy();
        resolve();
      }
    });
    socket.write("GET /file HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  });
  for (let i = 0; i < 100 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
}

describe("the request log", () => {
  it("does not call aborted an answer the client had whole before the response was ended", async () => {
    const { port, lines } = await slowEnding(10);
    await readThenClose(port, 10, lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "GET", path: "/file", status: 200, bytes: 10 });
    expect(lines[0]).not.toHaveProperty("aborted");
  });

  it("calls aborted an answer the client left with bytes missing", async () => {
    const { port, lines } = await slowEnding(4);
    await readThenClose(port, 4, lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ path: "/file", bytes: 4, aborted: true });
  });
});
