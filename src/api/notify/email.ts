/**
 * E-mail over SMTP with nodemailer: the firm's copy of each lead, and the confirmation a subscriber gets
 * under double opt-in. One transport per process (it pools nothing: a lead is a rare event, and a fresh
 * connection per message recovers from a server restart by itself). Every try is bounded by the
 * notifications' timeout, and an aborted one (a shutdown) stops at once. With DKIM_* set, every message
 * is DKIM-signed.
 */
import nodemailer from "nodemailer";
import { idHeaders, type Mailer, type MailerOptions } from "./mailer.ts";
import { nodemailerRefusal } from "./smtp-refusal.ts";

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
          throw nodemailerRefusal(error) ?? error;
        });
    },
    close: () => transport.close(),
  };
}
