/**
 * E-mail over SMTP with nodemailer: the firm's copy of each lead, and the confirmation a subscriber gets
 * under double opt-in. One transport per process (it pools nothing: a lead is a rare event, and a fresh
 * connection per message recovers from a server restart by itself). Every try is bounded by the
 * notifications' timeout, and an aborted one (a shutdown) stops at once.
 */
import nodemailer from "nodemailer";

export interface MailToSend {
  to: string[];
  subject: string;
  text: string;
  /** The lead's address, so that answering the e-mail writes to them. */
  replyTo?: { name: string; address: string };
}

export interface Mailer {
  send(mail: MailToSend, signal?: AbortSignal): Promise<void>;
  close(): void;
}

export function createMailer(options: { smtpUrl: string; from: string; timeoutMs: number }): Mailer {
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    dnsTimeout: options.timeoutMs,
  });
  return {
    async send(mail, signal) {
      await transport.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        ...(signal ? { signal } : {}),
      });
    },
    close: () => transport.close(),
  };
}
