/**
 * A recipient refused for good (RecipientRefused, mailer.ts) told apart from any other failure, in the
 * errors each transport throws: a 5xx reply to RCPT TO, and nothing else. Apart from the transports, so
 * that it can be tested without their sockets.
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

/** worker-mailer's error for a recipient refused at RCPT TO: "Invalid RCPT TO: <address> 550 ...". */
export function workerMailerRefusal(error: unknown): RecipientRefused | undefined {
  const text = error instanceof Error ? error.message : "";
  const reply = /^Invalid RCPT TO: <[^>]*>(?: NOTIFY=\S+)? (5\d\d\b[\s\S]*)$/.exec(text)?.[1];
  return reply ? new RecipientRefused(Number(reply.slice(0, 3)), oneLine(reply)) : undefined;
}
