/**
 * What the deliverers need of an SMTP transport: nodemailer (email.ts), on Node and in workerd alike (its
 * nodejs_compat flag gives node:net, node:tls and node:crypto over workerd's own sockets). Each runtime
 * passes the factory to createEndpoints, so no module shared by every runtime imports a transport, and a
 * test may give its own.
 */
import type { DkimSettings } from "./settings.ts";

export interface MailToSend {
  to: string[];
  subject: string;
  text: string;
  /** The lead's address, so that answering the e-mail writes to them. */
  replyTo?: { name: string; address: string };
  /** An HTML part beside the text (a newsletter issue). */
  html?: string;
  /** Further headers (List-Unsubscribe and List-Unsubscribe-Post of an issue). */
  headers?: Record<string, string>;
  /** The notification's stable id (notification-id.ts): `X-Sitegen-Id`, and the Message-ID is made of it. */
  id?: string;
}

/** The headers that carry a notification's id: the same on every try, so a mail client shows one copy. */
export function idHeaders(id: string | undefined, from: string): Record<string, string> {
  if (!id) return {};
  const domain = /@([^@\s>]+)>?\s*$/.exec(from)?.[1] ?? "sitegen.invalid";
  return { "Message-ID": `<${id}@${domain}>`, "X-Sitegen-Id": id };
}

/**
 * The mail server refused a recipient for good: a 5xx reply to RCPT TO (RFC 5321: "mailbox unavailable",
 * "no such user"). Only that reply counts: a 5xx to the login or to the message (its size, its content)
 * says nothing about the address, and stays an ordinary failure that is tried again.
 */
export class RecipientRefused extends Error {
  constructor(
    /** The server's reply code, 500 to 599. */
    readonly code: number,
    /** The server's reply, one line. */
    readonly reply: string,
  ) {
    super(`refused by the mail server: ${reply}`);
    this.name = "RecipientRefused";
  }
}

export interface Mailer {
  send(mail: MailToSend, signal?: AbortSignal): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** smtp://user:password@host:port (STARTTLS when offered), or smtps:// for TLS from the start. */
  smtpUrl: string;
  /** The sender: an address, or `Name <address>`. */
  from: string;
  /** How long one try may take. */
  timeoutMs: number;
  /** Signs every message with DKIM, when set (settings.ts). */
  dkim?: DkimSettings;
}

export type MailerFactory = (options: MailerOptions) => Mailer;
