/**
 * E-mail over SMTP with nodemailer: the firm's copy of each lead, and the confirmation a subscriber gets
 * under double opt-in. One transport per process (it pools nothing: a lead is a rare event, and a fresh
 * connection per message recovers from a server restart by itself). Every try is bounded by the
 * notifications' timeout, and an aborted one (a shutdown) stops at once. With DKIM_* set, every message
 * is DKIM-signed.
 */
import nodemailer from "nodemailer";
import { idHeaders, RecipientRefused, type Mailer, type MailerOptions } from "./mailer.ts";

export type { Mailer, MailToSend } from "./mailer.ts";

export function createMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    dnsTimeout: options.timeoutMs,
    // DKIM (RFC 6376): nodemailer signs each message as it is sent, headers and body (relaxed/relaxed).
    ...(options.dkim ? { dkim: { ...options.dkim } } : {}),
  });
  return {
    async send(mail, signal) {
      const { "Message-ID": messageId, ...ids } = idHeaders(mail.id, options.from);
      await transport
        .sendMail({
          ...(messageId ? { messageId } : {}),
          headers: { ...ids, ...mail.headers },
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          ...(mail.html ? { html: mail.html } : {}),
          ...(signal ? { signal } : {}),
        })
        .catch((error: unknown) => {
          throw refusal(error) ?? error;
        });
    },
    close: () => transport.close(),
  };
}

/** nodemailer's error when the server refused every recipient at RCPT TO with a 5xx reply. */
function refusal(error: unknown): RecipientRefused | undefined {
  const e = error as { command?: unknown; responseCode?: unknown; response?: unknown };
  const code = typeof e?.responseCode === "number" ? e.responseCode : 0;
  if (e?.command !== "RCPT TO" || code < 500 || code > 599) return undefined;
  return new RecipientRefused(
    code,
    String(e.response ?? code)
      .replace(/\s+/g, " ")
      .trim(),
  );
}
