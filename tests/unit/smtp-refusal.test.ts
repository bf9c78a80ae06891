import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../src/api/notify/email.ts";
import { RecipientRefused } from "../../src/api/notify/mailer.ts";
import { startSmtpSink, type SmtpSink } from "../notify-sinks.ts";

/**
 * Only a 5xx reply to RCPT TO says an address is gone for good (RecipientRefused): a temporary refusal, a
 * refused login or a refused message is an ordinary failure, tried again. With nodemailer against a local
 * SMTP server.
 */
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  smtp.refuseRecipients.add("gone@example.com");
});
afterAll(() => smtp.close());

const mail = (to: string) => ({ to: [to], subject: "Issue", text: "Hello" });
const failure = async (send: Promise<void>) =>
  send.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("a recipient refused for good", () => {
  it("is a 550 to RCPT TO, with the server's reply (nodemailer)", async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: "site@example.com", timeoutMs: 5000 });
    try {
      const error = await failure(mailer.send(mail("Gone@Example.com")));
      expect(error).toBeInstanceOf(RecipientRefused);
      expect([(error as RecipientRefused).code, (error as RecipientRefused).reply]).toEqual([
        550,
        "550 5.1.1 No such user here",
      ]);

      smtp.refuse = "4.2.2 Mailbox full, try later";
      const later = await failure(mailer.send(mail("ana@example.com")));
      expect(later).toBeInstanceOf(Error);
      expect(later).not.toBeInstanceOf(RecipientRefused);
    } finally {
      smtp.refuse = undefined;
      mailer.close();
    }
    const wrongLogin = createMailer({
      smtpUrl: smtp.url.replace("s3cret", "wrong"),
      from: "site@example.com",
      timeoutMs: 5000,
    });
    try {
      const error = await failure(wrongLogin.send(mail("gone@example.com")));
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RecipientRefused);
    } finally {
      wrongLogin.close();
    }
  });
});
