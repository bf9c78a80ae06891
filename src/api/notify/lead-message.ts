/**
 * What the firm reads about a lead: a subject and a plain-text body with every field the visitor sent, in
 * the words of content/<locale>/notifications.yaml (`leadMail.*`). Plain text only, so nothing the visitor
 * typed can become markup in a mail client; line breaks are taken out of the subject, the one header built
 * from their text (nodemailer encodes it).
 */
import type { ApiLocale, Messages } from "../http.ts";
import { message } from "../http.ts";

/** An outbox payload as the form handlers queue it: the submission's type and its stored fields. */
export interface LeadPayload {
  type: "newsletter" | "contact";
  email: string;
  locale: string;
  createdAt: string;
  suspect?: boolean;
  firstName?: string;
  lastName?: string;
  company?: string | null;
  message?: string;
}

export interface LeadMessage {
  subject: string;
  text: string;
  /** One line for a chat channel (the webhook's `text`). */
  summary: string;
}

/** `{lead.name}` and the like: never a site.yaml fact, which content loading fills in as `{name}`. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{lead\.(\w+)\}/g, (match, name: string) => values[name] ?? match);
}

const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();

export function leadMessage(payload: LeadPayload, messages: Messages, locale: ApiLocale): LeadMessage {
  const t = (key: string) => message(messages, locale, `leadMail.${key}`);
  const name = [payload.firstName, payload.lastName].filter(Boolean).join(" ");
  const values = { name: oneLine(name), email: oneLine(payload.email) };
  const lines: string[] = [];
  if (payload.type === "contact") {
    lines.push(t("contactIntro"), "");
    lines.push(`${t("name")}: ${name}`);
    lines.push(`${t("email")}: ${payload.email}`);
    lines.push(`${t("company")}: ${payload.company ? payload.company : t("noCompany")}`);
  } else {
    lines.push(t("newsletterIntro"), "");
    lines.push(`${t("email")}: ${payload.email}`);
  }
  lines.push(`${t("language")}: ${payload.locale}`);
  lines.push(`${t("sentAt")}: ${payload.createdAt}`);
  if (payload.suspect) lines.push("", t("suspect"));
  if (payload.type === "contact") {
    lines.push("", `${t("message")}:`, payload.message ?? "", "", fill(t("replyHint"), values));
  }
  const subject = oneLine(fill(t(payload.type === "contact" ? "contactSubject" : "newsletterSubject"), values));
  return { subject, text: `${lines.join("\n")}\n`, summary: subject };
}
