/**
 * What the notification tests deliver to, all in-process on 127.0.0.1: an SMTP sink (smtp-server) that keeps
 * each message, decoded, and can refuse them; a webhook receiver that keeps each JSON body and can answer an
 * error, or answer late; and a port where nothing listens.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { freePort } from "./start-process.ts";

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  /** The message as the server received it, byte for byte (to check a DKIM signature). */
  raw: Buffer;
}

/** `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words of a header, decoded. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
      enc.toLowerCase() === "b"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(
            data
              .replace(/_/g, " ")
              .replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

/** A MIME entity's headers (names lower-cased, encoded words decoded) and its body, decoded to text. */
function parseEntity(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const at = line.indexOf(":");
    headers[line.slice(0, at).toLowerCase()] = decodeWords(line.slice(at + 1).trim());
  }
  let body = raw.slice(split + 4);
  // A multipart message (an issue: text and HTML): its first text/plain part is the text.
  const boundary = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
  if (boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => parseEntity(part.replace(/^\r\n/, "")));
    const plain =
      parts.find((part) => part.text !== "" && !/^multipart\//i.test(part.headers["content-type"] ?? "")) ?? parts[0];
    return { headers, text: plain?.text ?? "" };
  }
  const encoding = headers["content-transfer-encoding"]?.toLowerCase();
  if (encoding === "quoted-printable") {
    body = Buffer.from(
      body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  } else if (encoding === "base64") {
    body = Buffer.from(body, "base64").toString("utf8");
  } else {
    body = Buffer.from(body, "latin1").toString("utf8");
  }
  return { headers, text: body.replace(/\r\n/g, "\n") };
}

function parseMail(raw: Buffer, from: string, to: string[]): ReceivedMail {
  const { headers, text } = parseEntity(raw.toString("latin1"));
  return { from, to, headers, subject: headers.subject ?? "", text, raw };
}

export interface SmtpSink {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** While set, every message is refused with this reply (a temporary failure, as a full mailbox or a greylist). */
  refuse: string | undefined;
  /** Addresses (lower-cased) refused for good at RCPT TO: "550 5.1.1 No such user here". */
  refuseRecipients: Set<string>;
  /**
   * Asked of each message before it is accepted: when it answers true, the message is neither kept nor
   * answered, as when the sender dies while the server has not yet said it accepted it.
   */
  hold?: (mail: ReceivedMail) => boolean;
  close(): Promise<void>;
}

/** Accepts user "leads" with password "s3cret" (and nothing else), without TLS, on a free port. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const sink = { mails: [] as ReceivedMail[], refuse: undefined, refuseRecipients: new Set<string>() } as SmtpSink;
  const server = new SMTPServer({
    authOptional: false,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "leads" && auth.password === "s3cret") return callback(null, { user: "leads" });
      callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (!sink.refuseRecipients.has(address.address.toLowerCase())) return callback();
      const error = new Error("5.1.1 No such user here") as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (sink.refuse) {
          const error = new Error(sink.refuse) as Error & { responseCode: number };
          error.responseCode = 451;
          return callback(error);
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const mail = parseMail(
          Buffer.concat(chunks),
          from,
          session.envelope.rcptTo.map((r) => r.address),
        );
        if (sink.hold?.(mail)) return;
        sink.mails.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://leads:s3cret@127.0.0.1:${sink.port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}

export interface WebhookReceiver {
  port: number;
  url: string;
  bodies: unknown[];
  /** Every request as it arrived, answered or not: its headers and its JSON body. */
  requests: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[];
  /** Requests answered (a client that gave up before the answer counts too). */
  answered: number;
  /** The status to answer (200 by default). */
  status: number;
  /** Wait this long before answering. */
  delayMs: number;
  /** Requests that arrived, answered or not. */
  arrived: number;
  close(): Promise<void>;
}

/** On `port` if given (to bring a receiver that was down back up), else a free one. */
export async function startWebhook(port = 0): Promise<WebhookReceiver> {
  const receiver = {
    bodies: [],
    requests: [],
    answered: 0,
    status: 200,
    delayMs: 0,
    arrived: 0,
  } as unknown as WebhookReceiver;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    receiver.arrived++;
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      receiver.requests.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      const answer = () => {
        receiver.answered++;
        if (receiver.status >= 200 && receiver.status < 300)
          receiver.bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        response.writeHead(receiver.status, { "content-type": "text/plain" }).end("ok");
      };
      if (receiver.delayMs <= 0) return answer();
      const timer = setTimeout(() => (timers.delete(timer), answer()), receiver.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** The address of a port where nothing listens: a receiver that is down. */
export async function downUrl(): Promise<{ port: number; url: string }> {
  const port = await freePort();
  return { port, url: `http://127.0.0.1:${port}/hook` };
}

/** Waits (polling, at most `ms`) until `check` returns true. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = "the condition",
): Promise<void> {
  for (let waited = 0; waited <= ms; waited += 25) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} did not happen within ${ms} ms`);
}
