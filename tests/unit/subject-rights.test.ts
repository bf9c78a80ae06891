import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { ContactEntry, IssueStore, NewsletterEntry, SubmissionStore } from "../../src/api/store.ts";
import { ROOT } from "../helpers.ts";
import { postgresBackend, sqliteBackend, type Backend, type Place } from "../store-backends.ts";

/**
 * The LGPD's data-subject rights through the CLI, against SQLite and PostgreSQL: `sitegen submissions
 * export --email` prints everything stored about a person, the newsletter issues sent to them included,
 * `delete --email` erases it, queued notifications and issue copies included, and says how many rows went
 * from each table.
 */
const at = "2026-01-15T12:00:00.000Z";
const news = (email: string): NewsletterEntry => ({ email, locale: "pt", createdAt: at });
const contact = (email: string, message: string): ContactEntry => ({
  firstName: "Ana",
  lastName: "Souza",
  email,
  company: "ACME",
  message,
  locale: "pt",
  createdAt: at,
});

function cli(place: Place, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, "bin", "sitegen.js"), "submissions", ...args], {
    cwd: place.root,
    env: { ...process.env, DATABASE_URL: "", ...place.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => (child.kill("SIGKILL"), reject(new Error(`sitegen submissions ${args.join(" ")} did not end within 60 s`))),
      60_000,
    );
    child.once("exit", (status) => (clearTimeout(timer), resolve({ status, stdout, stderr })));
  });
}

for (const backend of [sqliteBackend(), postgresBackend()] as Backend[]) {
  describe(`sitegen submissions export and delete (${backend.name})`, () => {
    beforeAll(() => backend.start());
    afterAll(() => backend.stop());

    const exportsThenErases =
      "exports everything about an address in any case, then erases it, notifications included, counting rows per " +
      "table";
    it(exportsThenErases, async () => {
      const place = await backend.fresh();
      const store = place.open() as SubmissionStore & IssueStore;
      try {
        await store.addNewsletter(news("Ana@Example.com"), [
          { kind: "email", payload: { type: "newsletter", email: "Ana@Example.com" } },
        ]);
        await store.addNewsletter(news("bia@example.com"));
        // Two issues: Ana's copy of the first went out; her copy of the second is still queued.
        const parts = { intro: null, html: "<p>…</p>", text: "…", createdAt: at };
        const first = await store.recordIssue({
          ...{ locale: "pt", day: "2026-01-12", articles: ["insights.governanca-de-ia"] },
          ...{ subject: "Insights · 12 de janeiro de 2026", ...parts },
        });
        const second = await store.recordIssue({
          ...{ locale: "pt", day: "2026-01-19", articles: ["insights.a", "insights.b"] },
          ...{ subject: "Insights · 19 de janeiro de 2026", ...parts },
        });
        const [ana, bia] = await store.list("newsletter");
        const copy = (issue: number, to: string) => ({ kind: "issue", payload: { issue, to, subject: "…" } });
        const sentAt = Date.parse("2026-01-12T09:00:00.000Z");
        for (const [issue, reader] of [
          [first, ana],
          [second, ana],
          [first, bia],
        ] as const)
          await store.queueOnce(`issue:${issue}:${reader.id}`, reader.id, copy(issue, reader.email), sentAt);
        const [delivered] = await store.claimOutbox({ now: sentAt, limit: 1 });
        await store.markDelivered(delivered.id, sentAt);
        await store.addContact(contact("ana@example.com", "Primeira mensagem"), [
          { kind: "webhook", payload: { type: "contact", email: "ana@example.com" } },
        ]);
        await store.addContact(contact("ANA@EXAMPLE.COM", "Segunda mensagem"));
        await store.addContact(contact("bia@example.com", "Outra pessoa"), [
          { kind: "email", payload: { type: "contact", email: "bia@example.com" } },
        ]);
      } finally {
        await store.close();
      }

      const exported = await cli(place, ["export", "--email", "ana@EXAMPLE.com"]);
      expect(exported.status, exported.stderr).toBe(0);
      const data = JSON.parse(exported.stdout);
      expect(data.email).toBe("ana@EXAMPLE.com");
      expect(data.newsletter).toEqual([
        {
          ...{ id: 1, email: "Ana@Example.com", locale: "pt", created_at: at, suspect: 0, confirmed_at: at },
          ...{ bounced_at: null, bounce_reason: null },
        },
      ]);
      expect(data.issues).toEqual([
        {
          ...{ issue: 1, day: "2026-01-12", locale: "pt", articles: ["insights.governanca-de-ia"] },
          ...{ subject: "Insights · 12 de janeiro de 2026", sent_at: "2026-01-12T09:00:00.000Z", refused_at: null },
        },
        {
          ...{ issue: 2, day: "2026-01-19", locale: "pt", articles: ["insights.a", "insights.b"] },
          ...{ subject: "Insights · 19 de janeiro de 2026", sent_at: null, refused_at: null },
        },
      ]);
      expect(data.contact.map((r: { message: string; company: string }) => [r.message, r.company])).toEqual([
        ["Primeira mensagem", "ACME"],
        ["Segunda mensagem", "ACME"],
      ]);
      expect(
        data.outbox.map((r: { kind: string; submission_type: string; payload: unknown }) => [
          r.kind,
          r.submission_type,
          r.payload,
        ]),
      ).toEqual([
        ["email", "newsletter", { type: "newsletter", email: "Ana@Example.com" }],
        ["issue", "newsletter", { issue: 1, to: "Ana@Example.com", subject: "…" }],
        ["issue", "newsletter", { issue: 2, to: "Ana@Example.com", subject: "…" }],
        ["webhook", "contact", { type: "contact", email: "ana@example.com" }],
      ]);

      const deleted = await cli(place, ["delete", "--email", "ANA@example.com"]);
      expect(deleted.status, deleted.stderr).toBe(0);
      expect(deleted.stdout).toBe(
        "Erased everything stored about ANA@example.com (LGPD art. 18): " +
          "newsletter: 1 row, contact: 2 rows, outbox: 4 rows.\n",
      );
      const after = JSON.parse((await cli(place, ["export", "--email", "ana@example.com"])).stdout);
      expect(after).toEqual({ email: "ana@example.com", newsletter: [], contact: [], issues: [], outbox: [] });
      expect((await cli(place, ["delete", "--email", "ana@example.com"])).stdout).toBe(
        "Nothing is stored about ana@example.com; nothing was erased.\n",
      );

      // Nobody else's data went with it.
      const bia = JSON.parse((await cli(place, ["export", "--email", "bia@example.com"])).stdout);
      expect([bia.newsletter.length, bia.contact.length, bia.outbox.length]).toEqual([1, 1, 2]);
      expect(bia.issues.map((i: { issue: number }) => i.issue)).toEqual([1]);
    });
  });
}
