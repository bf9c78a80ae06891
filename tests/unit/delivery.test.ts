import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawn } from "node:child_process";
import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { createApiHandlers } from "../../src/api/index.ts";
import { backoffDelay, DeliveryWorker } from "../../src/api/delivery.ts";
import { createDeliverers } from "../../src/api/notify/deliverers.ts";
import { createMailer } from "../../src/api/notify/email.ts";
import { notifySettings } from "../../src/api/notify/settings.ts";
import type { SubmissionStore } from "../../src/api/store.ts";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { ROOT } from "../helpers.ts";
import { downUrl, startSmtpSink, startWebhook, until, type SmtpSink, type WebhookReceiver } from "../notify-sinks.ts";
import { postgresBackend, sqliteBackend, type Backend, type Place } from "../store-backends.ts";

/**
 * Leads reach the firm through the outbox: stored with their notifications, the visitor answered, then sent
 * by e-mail (to an in-process SMTP sink) and webhook (to a local receiver), retried with backoff while the
 * receiver is down, slow or refusing, shown as failing by `sitegen submissions`, and sent later by
 * `sitegen submissions retry`. Against SQLite and PostgreSQL, as the store suite runs.
 */
const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIRM = "leads@firma.example.com, socios@firma.example.com";
const NOTIFICATIONS = {
  from: "Site <site@firma.example.com>",
  to: "fallback@firma.example.com",
  newsletter: true,
  timeoutSeconds: 1,
};

const contactBody = {
  firstName: "Ana",
  lastName: "Souza",
  email: "ana@cliente.example.com",
  company: "Cliente & Cia",
  message: "Olá!\nQueremos um piloto de IA.",
  locale: "pt",
};

function post(api: ReturnType<typeof createApiHandlers>, path: string, body: unknown) {
  return api.handlers[path](
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

/** The test project as `sitegen submissions retry` needs it: the site's text, and the notifications block above. */
function cliProject(place: Place): void {
  cpSync(join(ROOT, "content", "pt"), join(place.root, "content", "pt"), { recursive: true });
  cpSync(join(ROOT, "content", "en"), join(place.root, "content", "en"), { recursive: true });
  appendFileSync(join(place.root, "content", "site.yaml"), `\nnotifications: ${JSON.stringify(NOTIFICATIONS)}\n`);
}

/** The CLI as a child process, awaited without blocking this process, whose event loop runs the receivers. */
function cli(
  place: Place,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, "bin", "sitegen.js"), ...args], {
    cwd: place.root,
    env: { ...process.env, DATABASE_URL: "", ...place.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => (child.kill("SIGKILL"), reject(new Error(`sitegen ${args.join(" ")} did not end within 60 s\n${stderr}`))),
      60_000,
    );
    child.once("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe("backoff", () => {
  it("doubles from the base after each failure and stops growing at the maximum", () => {
    const backoff = { baseMs: 30_000, maxMs: 3_600_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50, 5000].map((n) => backoffDelay(n, backoff))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});

const BACKENDS: Backend[] = [sqliteBackend(), postgresBackend()];

for (const backend of BACKENDS) {
  describe(`delivery through the outbox (${backend.name})`, () => {
    let smtp: SmtpSink;
    let hook: WebhookReceiver;
    const closing: { close(): Promise<void> }[] = [];

    beforeAll(async () => {
      await backend.start();
      smtp = await startSmtpSink();
      hook = await startWebhook();
    });
    afterAll(async () => {
      for (const c of closing) await c.close().catch(() => {});
      await smtp.close();
      await hook.close();
      backend.stop();
    });

    const api = (
      place: Place,
      env: Record<string, string>,
      extra: Partial<Parameters<typeof createApiHandlers>[0]> = {},
    ) => {
      const site: SiteConfig = {
        ...SITE,
        submissions: { ...place.settings, rateLimitPerMinute: 100 },
        notifications: NOTIFICATIONS,
      };
      const instance = createApiHandlers({
        site,
        root: place.root,
        messages: MESSAGES,
        env: { ...place.env, ...env },
        deliveryIntervalMs: 50,
        ...extra,
      });
      closing.push(instance);
      return instance;
    };

    const answersThenDelivers =
      "answers the visitor first, then e-mails the firm and calls the webhook with every field of the lead";
    it(answersThenDelivers, async () => {
      const place = await backend.fresh();
      smtp.mails.length = 0;
      hook.bodies.length = 0;
      hook.arrived = 0;
      const instance = api(place, { SMTP_URL: smtp.url, NOTIFY_EMAIL_TO: FIRM, NOTIFY_WEBHOOK_URL: hook.url });
      await instance.ready();
      instance.startBackground();
      const response = await post(instance, "/api/contact", contactBody);
      expect(response.status).toBe(200);
      // Answered before anything was sent.
      expect(hook.arrived).toBe(0);
      const store = place.open();
      closing.push(store);
      await until(async () => (await store.list("contact"))[0]?.delivery === "delivered", 10_000, "the delivery");

      expect(smtp.mails).toHaveLength(1);
      const [mail] = smtp.mails;
      expect(mail.from).toBe("site@firma.example.com");
      expect(mail.to).toEqual(["leads@firma.example.com", "socios@firma.example.com"]);
      expect(mail.subject).toBe("Novo contato pelo site: Ana Souza");
      expect(mail.headers["reply-to"]).toContain("ana@cliente.example.com");
      expect(mail.headers["content-type"]).toMatch(/^text\/plain/);
      // The notification's stable id, also the local part of the Message-ID.
      const mailId = mail.headers["x-sitegen-id"];
      expect(mailId).toMatch(UUID);
      expect(mail.headers["message-id"]).toBe(`<${mailId}@firma.example.com>`);
      expect(mail.text).toContain("Uma mensagem chegou pelo formulário de contato do site.");
      expect(mail.text).toContain(
        "Nome: Ana Souza\nE-mail: ana@cliente.example.com\nEmpresa: Cliente & Cia\nIdioma da página: pt\n",
      );
      expect(mail.text).toContain("Mensagem:\nOlá!\nQueremos um piloto de IA.\n");

      expect(hook.bodies).toEqual([
        {
          id: expect.stringMatching(UUID),
          text: "Novo contato pelo site: Ana Souza",
          event: "contact",
          submission: { type: "contact", ...contactBody, createdAt: expect.any(String), suspect: false },
        },
      ]);

      // A newsletter signup notifies too when notifications.newsletter is on.
      expect((await post(instance, "/api/newsletter", { email: "leitor@example.com" })).status).toBe(200);
      await until(
        async () => (await store.list("newsletter"))[0]?.delivery === "delivered",
        10_000,
        "the newsletter's delivery",
      );
      expect(smtp.mails[1].subject).toBe("Nova inscrição na newsletter: leitor@example.com");
      // Each notification has an id of its own, sent as the Idempotency-Key header too.
      const ids = [mailId, smtp.mails[1].headers["x-sitegen-id"], ...hook.requests.map((r) => r.body.id)];
      expect(new Set(ids).size).toBe(4);
      for (const { headers, body } of hook.requests) expect(headers["idempotency-key"]).toBe(`"${String(body.id)}"`);
      await instance.stopBackground(1000);
    });

    const keepsFailingDelivery =
      "keeps a failing delivery in the outbox, retried with a backoff that stops growing, and shows it failing";
    it(keepsFailingDelivery, async () => {
      const place = await backend.fresh();
      const down = await downUrl();
      let clock = T0;
      const store = place.open();
      closing.push(store);
      const instance = api(
        place,
        { SMTP_URL: smtp.url, NOTIFY_EMAIL_TO: FIRM, NOTIFY_WEBHOOK_URL: down.url },
        { now: () => clock },
      );
      expect((await post(instance, "/api/contact", contactBody)).status).toBe(200);

      smtp.refuse = "Mailbox busy, try again later";
      const settings = notifySettings(NOTIFICATIONS, {
        SMTP_URL: smtp.url,
        NOTIFY_EMAIL_TO: FIRM,
        NOTIFY_WEBHOOK_URL: down.url,
      });
      const { deliverers, close } = createDeliverers(settings, MESSAGES, "pt", { createMailer });
      const worker = new DeliveryWorker({
        store,
        deliverers,
        now: () => clock,
        backoff: { baseMs: 1000, maxMs: 4000 },
      });
      try {
        const waits: number[] = [];
        for (let attempt = 1; attempt <= 5; attempt++) {
          const report = await worker.runDue();
          expect(report.delivered).toEqual([]);
          expect(report.failed.map((f) => f.row.kind).sort()).toEqual(["email", "webhook"]);
          const failedWebhook = report.failed.find((f) => f.row.kind === "webhook")!;
          expect(failedWebhook.error).toMatch(/^the webhook could not be reached \(ECONNREFUSED\)$/);
          expect(report.failed.find((f) => f.row.kind === "email")!.error).toMatch(/451.*Mailbox busy/);
          waits.push(failedWebhook.nextAttemptAt - clock);
          // Nothing is due before the wait is over.
          clock = failedWebhook.nextAttemptAt - 1;
          expect((await worker.runDue()).failed).toEqual([]);
          clock += 1;
        }
        expect(waits).toEqual([1000, 2000, 4000, 4000, 4000]);
        const [row] = await store.list("contact");
        expect(row).toMatchObject({ delivery: "failing", delivery_attempts: 5 });
        expect(row.delivery_error).toMatch(/ECONNREFUSED|Mailbox busy/);

        // sitegen submissions shows it, through the CLI.
        cliProject(place);
        const listed = await cli(place, ["submissions", "--type", "contact", "--format", "json"], {});
        expect(listed.status, listed.stderr).toBe(0);
        expect(JSON.parse(listed.stdout)[0]).toMatchObject({
          email: "ana@cliente.example.com",
          delivery: "failing",
          delivery_attempts: 5,
        });

        // The receivers come back; `sitegen submissions retry` sends at once what waits out its backoff.
        smtp.refuse = undefined;
        const mailsBefore = smtp.mails.length;
        const back = await startWebhook(down.port);
        try {
          const retried = await cli(place, ["submissions", "retry"], {
            SMTP_URL: smtp.url,
            NOTIFY_EMAIL_TO: FIRM,
            NOTIFY_WEBHOOK_URL: back.url,
          });
          expect(retried.status, retried.stderr).toBe(0);
          expect(retried.stdout).toContain("Sent 2:\n");
          expect(retried.stdout).toContain("  email for contact 1 (try 6)\n");
          expect(retried.stdout).toContain("  webhook for contact 1 (try 6)");
          expect(back.bodies).toHaveLength(1);
          expect(smtp.mails.length).toBe(mailsBefore + 1);
          expect((await store.list("contact"))[0]).toMatchObject({
            delivery: "delivered",
            delivery_attempts: 6,
            delivery_error: null,
          });
          expect(
            (
              await cli(place, ["submissions", "retry"], {
                SMTP_URL: smtp.url,
                NOTIFY_EMAIL_TO: FIRM,
                NOTIFY_WEBHOOK_URL: back.url,
              })
            ).stdout,
          ).toBe("Nothing to send: every notification in the outbox has been delivered.\n");
        } finally {
          await back.close();
        }
      } finally {
        smtp.refuse = undefined;
        close();
      }
    });

    const givesUpOnSlowReceiver =
      "gives up one try on a receiver that does not answer in time, and says what still fails after a retry";
    it(givesUpOnSlowReceiver, async () => {
      const place = await backend.fresh();
      const slow = await startWebhook();
      slow.delayMs = 5_000;
      const store = place.open();
      closing.push(store);
      try {
        const instance = api(place, { NOTIFY_WEBHOOK_URL: slow.url });
        expect((await post(instance, "/api/newsletter", { email: "lento@example.com" })).status).toBe(200);
        const report = await instance.retry();
        expect(report.delivered).toEqual([]);
        expect(report.failed.map((f) => [f.row.kind, f.error])).toEqual([
          ["webhook", "the webhook did not answer within 1 s"],
        ]);
        expect(slow.arrived).toBe(1);
        expect((await store.list("newsletter"))[0]).toMatchObject({
          delivery: "failing",
          delivery_attempts: 1,
          delivery_error: "the webhook did not answer within 1 s",
        });

        cliProject(place);
        const retried = await cli(place, ["submissions", "retry"], { NOTIFY_WEBHOOK_URL: slow.url });
        expect(retried.status, retried.stderr).toBe(0);
        expect(retried.stdout).toContain("Still failing 1 (kept in the outbox");
        expect(retried.stdout).toContain("  webhook for newsletter 1 (try 2): the webhook did not answer within 1 s");
      } finally {
        await slow.close();
      }
    });

    it("sends a slow receiver the same id on every try of one notification", async () => {
      const place = await backend.fresh();
      const slow = await startWebhook();
      // Answers after the 1-second timeout: each try is given up, and the receiver gets the lead again.
      slow.delayMs = 1_500;
      try {
        const instance = api(place, { NOTIFY_WEBHOOK_URL: slow.url }, { backoff: { baseMs: 10, maxMs: 10 } });
        await instance.ready();
        instance.startBackground();
        expect((await post(instance, "/api/newsletter", { email: "duas-vezes@example.com" })).status).toBe(200);
        await until(() => slow.requests.length >= 2, 15_000, "the second try");
        await instance.stopBackground(0);
        const [first, second] = slow.requests;
        expect(first.body.id).toMatch(UUID);
        expect(second.body).toEqual(first.body);
        expect(second.headers["idempotency-key"]).toBe(`"${String(first.body.id)}"`);
        expect(first.headers["idempotency-key"]).toBe(second.headers["idempotency-key"]);
      } finally {
        await slow.close();
      }
    });

    it("delivers other receivers' notifications while a slow receiver is still answering", async () => {
      const place = await backend.fresh();
      const slow = await startWebhook();
      // Far longer than the test: the webhook of the first lead is still unanswered when it ends.
      slow.delayMs = 60_000;
      try {
        const instance = api(
          place,
          { SMTP_URL: smtp.url, NOTIFY_EMAIL_TO: FIRM, NOTIFY_WEBHOOK_URL: slow.url },
          {
            site: {
              ...SITE,
              submissions: { ...place.settings, rateLimitPerMinute: 100 },
              notifications: { ...NOTIFICATIONS, timeoutSeconds: 120 },
            },
          },
        );
        await instance.ready();
        instance.startBackground();
        const mailsBefore = smtp.mails.length;
        expect((await post(instance, "/api/contact", contactBody)).status).toBe(200);
        await until(() => slow.requests.length === 1, 10_000, "the first webhook call");
        // A second lead, stored while the first one's webhook waits: its e-mail goes out meanwhile.
        expect((await post(instance, "/api/contact", { ...contactBody, firstName: "Bia" })).status).toBe(200);
        await until(() => smtp.mails.length === mailsBefore + 2, 10_000, "both e-mails");
        expect(slow.answered).toBe(0);
        expect(smtp.mails.slice(mailsBefore).map((m) => m.subject)).toEqual([
          "Novo contato pelo site: Ana Souza",
          "Novo contato pelo site: Bia Souza",
        ]);
        await instance.stopBackground(0);
      } finally {
        await slow.close();
      }
    });

    it("cuts deliveries still in flight when stopped, leaving them due for the next start", async () => {
      const place = await backend.fresh();
      const slow = await startWebhook();
      slow.delayMs = 5_000;
      const store = place.open();
      closing.push(store) as unknown as SubmissionStore;
      try {
        const site: SiteConfig = {
          ...SITE,
          submissions: { ...place.settings, rateLimitPerMinute: 100 },
          notifications: { ...NOTIFICATIONS, timeoutSeconds: 30 },
        };
        const instance = createApiHandlers({
          site,
          root: place.root,
          messages: MESSAGES,
          env: { ...place.env, NOTIFY_WEBHOOK_URL: slow.url },
          deliveryIntervalMs: 50,
        });
        closing.push(instance);
        instance.startBackground();
        expect((await post(instance, "/api/contact", contactBody)).status).toBe(200);
        await until(() => slow.arrived === 1, 10_000, "the webhook call");
        const logged: string[] = [];
        const spy = vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(args.join(" ")));
        try {
          await instance.stopBackground(100);
        } finally {
          spy.mockRestore();
        }
        // The server's log says what failed and when it is tried again.
        expect(logged).toEqual([
          expect.stringMatching(
            new RegExp(
              /^sitegen: the webhook notification of contact 1 failed \(try 1\): /.source +
                /interrupted by a shutdown: .*; next try at \d{4}-/.source,
            ),
          ),
        ]);
        const [row] = await store.list("contact");
        expect(row.delivery).toBe("failing");
        expect(row.delivery_error).toMatch(/^interrupted by a shutdown/);
        // Due at once: the next start takes it without waiting for a lease or a backoff.
        expect((await store.claimOutbox({ now: Date.now() + 1 })).map((r) => r.kind)).toEqual(["webhook"]);
      } finally {
        await slow.close();
      }
    });
  });
}
