/**
 * A recipient refused for good (RecipientRefused, mailer.ts) told apart from any other failure, in the
 * errors nodemailer throws: a 5xx reply to RCPT TO, and nothing else. Apart from the transport, so that it
 * can be tested without its sockets.
 */
import { RecipientRefused } from "./mailer.ts";

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** nodemailer's error when the server refused every recipient at RCPT TO with a 5xx reply. */
export function nodemailerRefusal(error: unknown): RecipientRefused | undefined {
  const e = error as { command?: unknown; responseCode?: unknown; response?: unknown } | null;
  const code = typeof e?.responseCode === "number" ? e.responseCode : 0;
  if (e?.command !== "RCPT TO" || code < 500 || code > 599) return undefined;
  return new RecipientRefused(code, oneLine(String(e.response ?? code)));
}
