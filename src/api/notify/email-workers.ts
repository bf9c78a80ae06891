/**
 * E-mail over SMTP from Cloudflare's runtime (workerd), which has no Node sockets for nodemailer: the
 * worker-mailer package speaks SMTP over workerd's own TCP sockets (`cloudflare:sockets` connect()), with
 * STARTTLS or TLS from the start and AUTH PLAIN/LOGIN, and nothing else to bundle. Same settings and same
 * messages as on Node (email.ts): one connection per message, every try bounded by the notifications'
 * timeout. It cannot DKIM-sign: the SMTP provider must sign what it relays.
 */
import { LogLevel, WorkerMailer, type User, type WorkerMailerOptions } from "worker-mailer";
import { idHeaders, type Mailer, type MailerOptions } from "./mailer.ts";
import { workerMailerRefusal } from "./smtp-refusal.ts";
import { addressOf } from "./settings.ts";

/**
 * smtp://user:password@host:port → worker-mailer's options; smtps:// is TLS from the start, smtp:// upgrades when
 * offered.
 */
export function workerMailerOptions(smtpUrl: string, timeoutMs: number): WorkerMailerOptions {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const username = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    startTls: !secure,
    ...(username
      ? { credentials: { username, password: decodeURIComponent(url.password) }, authType: ["plain", "login"] as const }
      : {}),
    socketTimeoutMs: timeoutMs,
    responseTimeoutMs: timeoutMs,
    // Failures are thrown, recorded in the outbox and logged by the delivery worker; nothing else is printed.
    logLevel: LogLevel.NONE,
  } as WorkerMailerOptions;
}

/**
 * A display name as worker-mailer may write it: it quotes an ASCII name as it is (and encodes others), so a
 * quote, a backslash or a line break typed into the form could otherwise end the header early.
 */
const displayName = (name: string) =>
  name
    .replace(/[\r\n"\\]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** `Name <address>` or a bare address, as worker-mailer takes a sender. */
function user(mailbox: string): User {
  const email = addressOf(mailbox);
  const name = displayName(mailbox.slice(0, Math.max(0, mailbox.lastIndexOf("<"))).replace(/^\s*"(.*)"\s*$/, "$1"));
  return name ? { name, email } : { email };
}

export function createWorkersMailer(options: MailerOptions): Mailer {
  const connection = workerMailerOptions(options.smtpUrl, options.timeoutMs);
  // worker-mailer writes the message itself and has no way to sign it: the mail provider must (docs/forms.md).
  if (options.dkim)
    console.warn(
      "sitegen: DKIM_PRIVATE_KEY is set, but e-mail sent from Cloudflare's runtime is not DKIM-signed " +
        "(worker-mailer cannot sign): have the SMTP provider sign for your domain.",
    );
  return {
    async send(mail, signal) {
      signal?.throwIfAborted();
      await WorkerMailer.send(connection, {
        from: user(options.from),
        to: mail.to.map((email) => ({ email })),
        subject: mail.subject,
        text: mail.text,
        headers: { ...idHeaders(mail.id, options.from), ...mail.headers },
        ...(mail.replyTo ? { reply: { name: displayName(mail.replyTo.name), email: mail.replyTo.address } } : {}),
        ...(mail.html ? { html: mail.html } : {}),
      }).catch((error: unknown) => {
        throw workerMailerRefusal(error) ?? error;
      });
    },
    close() {},
  };
}
