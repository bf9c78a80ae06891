/**
 * The deliverer of each outbox kind, from the notification settings: "email" (the firm's copy of a lead,
 * over SMTP) and "webhook" (the lead as JSON). Only what is configured exists; a notification of a kind
 * that is not (its setting was removed since it was queued) waits in the outbox with that as its error.
 */
import type { Deliverer } from "../delivery.ts";
import type { ApiLocale, Messages } from "../http.ts";
import { createMailer, type Mailer } from "./email.ts";
import { leadMessage, type LeadPayload } from "./lead-message.ts";
import type { NotifySettings } from "./settings.ts";
import { postWebhook } from "./webhook.ts";

export interface Deliverers {
  deliverers: Record<string, Deliverer>;
  /** The SMTP transport for other e-mails (double opt-in), when SMTP_URL is set. */
  mailer: Mailer | undefined;
  close(): void;
}

export function createDeliverers(settings: NotifySettings, messages: Messages, firmLocale: ApiLocale): Deliverers {
  const deliverers: Record<string, Deliverer> = {};
  const mailer = settings.smtpUrl && settings.from ? createMailer({ smtpUrl: settings.smtpUrl, from: settings.from, timeoutMs: settings.timeoutMs }) : undefined;
  const email = settings.email;
  if (email && mailer) {
    deliverers.email = async (row, signal) => {
      const lead = row.payload as LeadPayload;
      const { subject, text } = leadMessage(lead, messages, firmLocale);
      const name = [lead.firstName, lead.lastName].filter(Boolean).join(" ");
      await mailer.send({ to: email.to, subject, text, replyTo: { name, address: lead.email } }, signal);
    };
  }
  const webhook = settings.webhook;
  if (webhook) {
    deliverers.webhook = async (row, signal) => {
      const lead = row.payload as LeadPayload;
      const { summary } = leadMessage(lead, messages, firmLocale);
      await postWebhook(webhook.url, { text: summary, event: lead.type, submission: lead }, settings.timeoutMs, signal);
    };
  }
  return { deliverers, mailer, close: () => mailer?.close() };
}
