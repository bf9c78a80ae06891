/**
 * The deliverer of each outbox kind, from the notification settings: "email" (the firm's copy of a lead,
 * over SMTP), "confirm" (the double opt-in's e-mail), "issue" (a subscriber's copy of a newsletter issue)
 * and "webhook" (the lead as JSON). Only what is configured exists; a notification of a kind
 * that is not (its setting was removed since it was queued) waits in the outbox with that as its error.
 */
import { AddressRefused, type Deliverer } from "../delivery.ts";
import { localeFromField, message, type ApiLocale, type Messages } from "../http.ts";
import { RecipientRefused, type Mailer, type MailerFactory } from "./mailer.ts";
import { leadMessage, type LeadPayload } from "./lead-message.ts";
import type { NotifySettings } from "./settings.ts";
import { notificationId } from "./notification-id.ts";
import { postWebhook } from "./webhook.ts";

export interface Deliverers {
  deliverers: Record<string, Deliverer>;
  /** The SMTP transport for other e-mails (double opt-in), when SMTP_URL is set. */
  mailer: Mailer | undefined;
  close(): void;
}

export type { MailerFactory } from "./mailer.ts";

export interface DelivererOptions {
  /** The SMTP transport of this runtime (nodemailer, email.ts; a test may give another). */
  createMailer: MailerFactory;
  /** How long a double opt-in link stays valid, as the confirmation e-mail says. */
  unconfirmedDays?: number;
}

export function createDeliverers(
  settings: NotifySettings,
  messages: Messages,
  firmLocale: ApiLocale,
  options: DelivererOptions,
): Deliverers {
  const { createMailer, unconfirmedDays = 7 } = options;
  const deliverers: Record<string, Deliverer> = {};
  const mailer =
    settings.smtpUrl && settings.from
      ? createMailer({
          ...{ smtpUrl: settings.smtpUrl, from: settings.from, timeoutMs: settings.timeoutMs },
          ...(settings.dkim ? { dkim: settings.dkim } : {}),
        })
      : undefined;
  const email = settings.email;
  if (email && mailer) {
    deliverers.email = async (row, signal) => {
      const lead = row.payload as LeadPayload;
      const { subject, text } = leadMessage(lead, messages, firmLocale);
      const name = [lead.firstName, lead.lastName].filter(Boolean).join(" ");
      const id = await notificationId(row);
      await mailer.send({ to: email.to, subject, text, replyTo: { name, address: lead.email }, id }, signal);
    };
  }
  if (mailer) {
    // Double opt-in: the subscriber's own confirmation link, in the language of the page they signed up on.
    deliverers.confirm = async (row, signal) => {
      const { email: to, locale, link } = row.payload as { email: string; locale: string; link: string };
      const mail = confirmationMail(messages, localeFromField(locale) ?? firmLocale, link, unconfirmedDays);
      await mailer.send({ to: [to], ...mail, id: await notificationId(row) }, signal);
    };
  }
  if (mailer) deliverers.issue = issueDeliverer(mailer);
  const webhook = settings.webhook;
  if (webhook) {
    deliverers.webhook = async (row, signal) => {
      const lead = row.payload as LeadPayload;
      const { summary } = leadMessage(lead, messages, firmLocale);
      const body = { id: await notificationId(row), text: summary, event: lead.type, submission: lead };
      await postWebhook(webhook.url, body, settings.timeoutMs, signal);
    };
  }
  return { deliverers, mailer, close: () => mailer?.close() };
}

/** A subscriber's copy of a newsletter issue, as `sitegen newsletter send` queues it (newsletter/send.ts). */
export interface IssuePayload {
  issue: number;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The subscriber's own unsubscribe link (unsubscribe.ts). */
  unsubscribe: string;
  /** The address that takes unsubscribe requests by e-mail (newsletter.unsubscribeEmail), when one is set. */
  unsubscribeEmail?: string;
}

/**
 * The headers mail clients show an unsubscribe button by: List-Unsubscribe (RFC 2369) naming the
 * subscriber's link, then a mailto: when an address takes requests by e-mail, and List-Unsubscribe-Post
 * (RFC 8058) for the one-click POST to the link.
 */
export function unsubscribeHeaders(link: string, email?: string): Record<string, string> {
  const mailto = email ? `, <mailto:${encodeURI(email)}?subject=unsubscribe>` : "";
  return { "List-Unsubscribe": `<${link}>${mailto}`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/**
 * Sends an issue's copy with its unsubscribe headers. A 5xx refusal of the address (RecipientRefused) is
 * final: the copy is not tried again and the subscriber is marked (delivery.ts, AddressRefused).
 */
export function issueDeliverer(mailer: Mailer): Deliverer {
  return async (row, signal) => {
    const copy = row.payload as IssuePayload;
    const headers = unsubscribeHeaders(copy.unsubscribe, copy.unsubscribeEmail);
    try {
      await mailer.send({ to: [copy.to], subject: copy.subject, text: copy.text, html: copy.html, headers }, signal);
    } catch (error) {
      if (error instanceof RecipientRefused) throw new AddressRefused(error.reply);
      throw error;
    }
  };
}

/** The confirmation e-mail (`newsletterConfirm.mail.*` of content/<locale>/notifications.yaml), plain text. */
export function confirmationMail(
  messages: Messages,
  locale: ApiLocale,
  link: string,
  days: number,
): { subject: string; text: string } {
  const fill = (text: string) => text.replace(/\{lead\.link\}/g, link).replace(/\{lead\.days\}/g, String(days));
  return {
    subject: fill(message(messages, locale, "newsletterConfirm.mail.subject")).replace(/[\r\n]+/g, " "),
    text: `${fill(message(messages, locale, "newsletterConfirm.mail.body"))}\n`,
  };
}
