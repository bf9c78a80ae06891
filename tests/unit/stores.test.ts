import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../src/api/sqlite-driver.ts";
import { createApiHandlers } from "../../src/api/index.ts";
import { PG_MIGRATIONS } from "../../src/api/pg-migrations.ts";
import { SQLITE_MIGRATIONS } from "../../src/api/sqlite-migrations.ts";
import type { ContactEntry, IssueStore, NewsletterEntry, OutboxMessage, SubmissionStore } from "../../src/api/store.ts";
import { loadSiteConfig, type SiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { printSubmissions } from "../../src/api/commands/list.ts";
import { submissionSettings } from "../../src/api/submission-settings.ts";
import { SqliteSubmissionStore } from "../../src/api/sqlite-store.ts";
import { LAST_MIGRATION_WITH_CARRY_OVER } from "../../src/api/sqlite-migrations.ts";
import {
  blobsBackend,
  d1Backend,
  OLDER_ROWS,
  postgresBackend,
  SQLITE_LAYOUT_BEFORE_MIGRATIONS,
  sqliteBackend,
  type Backend,
  type Place,
} from "../store-backends.ts";

/**
 * One suite, run against every store: the same body for SQLite, PostgreSQL, D1 (in wrangler's Miniflare)
 * and Netlify Blobs. PostgreSQL runs in a throwaway cluster (tests/pg-cluster.ts); without Debian's
 * postgresql package its part fails, naming the package. Blobs runs against Netlify's local Blobs server,
 * with its writes queued one at a time (see tests/store-backends.ts); having no SQL, it skips the
 * migrations. The older layout is SQLite's and PostgreSQL's only (D1 and Blobs had no earlier release), and
 * `sitegen submissions` reads those two (D1 is read with wrangler, Blobs with Netlify's CLI). Ids are
 * compared with the ids the store listed, as Blobs ids are not 1, 2, 3.
 */
const ROOT = join(import.meta.dirname, "../..");
const SITE = loadSiteConfig(ROOT);
const MESSAGES = {
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
};
/** A subscription whose address no mail server has refused (IssueStore.markRefused). */
const BOUNCED_NOT = { bounced_at: null, bounce_reason: null };
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;
const at = (ms: number) => new Date(T0 + ms).toISOString();

const news = (email: string, extra: Partial<NewsletterEntry> = {}): NewsletterEntry => ({
  email,
  locale: "pt",
  createdAt: at(0),
  ...extra,
});
const contact = (email: string, extra: Partial<ContactEntry> = {}): ContactEntry => ({
  firstName: "Ana",
  lastName: "Souza",
  email,
  company: null,
  message: "Olá",
  locale: "pt",
  createdAt: at(0),
  ...extra,
});
const email = (payload: unknown = {}): OutboxMessage => ({ kind: "email", payload });
const count = (place: Place, table: "newsletter" | "contact") => place.count(table);

const BACKENDS: [Backend, readonly { version: number }[]][] = [
  [sqliteBackend(), SQLITE_MIGRATIONS],
  [postgresBackend(), PG_MIGRATIONS],
  [d1Backend(), SQLITE_MIGRATIONS],
  // Netlify Blobs has no schema (each blob is a JSON document), so no migrations.
  [blobsBackend(), []],
];

for (const [backend, migrations] of BACKENDS) {
  describe(`${backend.name} store`, () => {
    const opened: { close(): Promise<void> }[] = [];
    const open = (place: Place): SubmissionStore => {
      const store = place.open();
      opened.push(store);
      return store;
    };
    const fresh = async () => {
      const place = await backend.fresh();
      return { place, store: open(place) };
    };

    beforeAll(() => backend.start());
    afterAll(async () => {
      for (const store of opened) await store.close().catch(() => {});
      await backend.stop();
    });

    // SQL only (Blobs has no schema to migrate nor older layout): see Backend.sql.
    it.skipIf(!backend.sql)(
      "migrates a fresh database: each migration once, in order, recorded in schema_migrations",
      async () => {
        const place = await backend.fresh();
        // Two processes starting at once.
        await Promise.all([open(place).ready(), open(place).ready()]);
        const applied = await place.query("SELECT version, applied_at FROM schema_migrations ORDER BY version");
        expect(applied.map((r) => Number(r.version))).toEqual(migrations.map((m) => m.version));
        await open(place).ready();
        expect(await place.query("SELECT version, applied_at FROM schema_migrations ORDER BY version")).toEqual(
          applied,
        );
        expect(await open(place).list("newsletter")).toEqual([]);
      },
    );

    it.skipIf(!backend.older)("migrates a database of the previous layout in place, every row kept", async () => {
      const place = await backend.older!();
      const store = open(place);
      const none = { delivery: "none", delivery_attempts: 0, delivery_error: null };
      // Subscriptions from before double opt-in count as confirmed when they were made.
      expect(await store.list("newsletter")).toEqual(
        OLDER_ROWS.newsletter.map((r, i) => ({ id: i + 1, ...r, confirmed_at: r.created_at, ...BOUNCED_NOT, ...none })),
      );
      expect(await store.list("contact")).toEqual(OLDER_ROWS.contact.map((r, i) => ({ id: i + 1, ...r, ...none })));
      expect(
        (await place.query("SELECT version FROM schema_migrations ORDER BY version")).map((r) => Number(r.version)),
      ).toEqual(migrations.map((m) => m.version));
      // The old rows take part in the new rules at once.
      expect(await store.addNewsletter(news("EARLY@example.com"))).toBe("exists");
      expect((await store.findByEmail("ana@EXAMPLE.com")).contact).toHaveLength(1);
      await store.addContact(contact("new@example.com"), [email()]);
      expect((await store.list("contact")).map((r) => [r.id, r.delivery])).toEqual([
        [1, "none"],
        [2, "pending"],
      ]);
    });

    it("de-duplicates newsletter addresses on their lower-cased form, Unicode included", async () => {
      const { store } = await fresh();
      expect(await store.addNewsletter(news("Ana@Example.com"))).toBe("added");
      expect(await store.addNewsletter(news("ana@example.com"))).toBe("exists");
      expect(await store.addNewsletter(news("ANA@EXAMPLE.COM", { locale: "en" }))).toBe("exists");
      expect(await store.addNewsletter(news("ÉLODIE@exemplo.com.br"))).toBe("added");
      expect(await store.addNewsletter(news("élodie@exemplo.com.br"))).toBe("exists");
      const rows = await store.list("newsletter");
      expect(rows.map((r) => r.email.toLowerCase())).toEqual(["ana@example.com", "élodie@exemplo.com.br"]);
      // The first spelling and locale are kept.
      expect(rows[0]).toMatchObject({ email: "Ana@Example.com", locale: "pt" });
    });

    it.skipIf(!backend.serialisesConflicts)("de-duplicates an address sent twenty times at once", async () => {
      const { store } = await fresh();
      const race = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.addNewsletter(news(i % 2 ? "Race@x.com" : "race@X.COM"))),
      );
      expect(race.filter((r) => r === "added")).toHaveLength(1);
      expect((await store.list("newsletter")).map((r) => r.email.toLowerCase())).toEqual(["race@x.com"]);
    });

    const marksSuspectSubmissions =
      "marks suspect submissions, keeps the mark for suspect repeats and clears it for a human-paced one";
    it(marksSuspectSubmissions, async () => {
      const { store } = await fresh();
      const mark = async () => (await store.list("newsletter"))[0].suspect;
      expect(await store.addNewsletter(news("fast@x.com", { suspect: true }))).toBe("added");
      expect(await mark()).toBe(1);
      expect(await store.addNewsletter(news("FAST@x.com", { suspect: true }))).toBe("exists");
      expect(await mark()).toBe(1);
      expect(await store.addNewsletter(news("Fast@X.com"))).toBe("exists");
      expect(await mark()).toBe(0);
      expect(await store.addNewsletter(news("fast@x.com", { suspect: true }))).toBe("exists");
      expect(await mark()).toBe(0);
      await store.addContact(contact("a@x.com", { suspect: true }));
      await store.addContact(contact("a@x.com"));
      expect((await store.list("contact")).map((r) => r.suspect)).toEqual([1, 0]);
    });

    it("keeps all of 1,000 concurrent writes", async () => {
      const { place, store } = await fresh();
      await store.ready();
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          i % 2
            ? store.addNewsletter(news(`n${i}@x.com`))
            : store.addContact(contact(`c${i}@x.com`, { message: `m${i}` })),
        ),
      );
      const elapsed = Math.round(performance.now() - started);
      console.info(`${backend.name}: 1,000 concurrent writes (500 contact, 500 newsletter) stored in ${elapsed} ms`);
      expect(results.filter((r) => r === "added")).toHaveLength(500);
      expect(await count(place, "newsletter")).toBe(500);
      expect(await count(place, "contact")).toBe(500);
      const messages = new Set((await store.list("contact")).map((r) => r.message));
      expect(messages.size).toBe(500);
    });

    const outboxLifecycle =
      "takes notifications through the outbox: queued with the submission, claimed, failed with a next attempt, " +
      "delivered";
    it(outboxLifecycle, async () => {
      const { store } = await fresh();
      await store.addContact(contact("lead@x.com"), [email({ to: "firm" }), { kind: "webhook", payload: { n: 1 } }]);
      expect(await store.addNewsletter(news("sub@x.com"), [email()])).toBe("added");
      // A repeated address queues nothing; nor does a submission without notifications.
      expect(await store.addNewsletter(news("SUB@x.com"), [email()])).toBe("exists");
      await store.addContact(contact("quiet@x.com"));
      expect((await store.list("contact")).map((r) => [r.email, r.delivery, r.delivery_attempts])).toEqual([
        ["lead@x.com", "pending", 0],
        ["quiet@x.com", "none", 0],
      ]);

      const now = T0 + 1000;
      const lead = (await store.list("contact"))[0].id;
      const subscriber = (await store.list("newsletter"))[0].id;
      // A kind whose lane is full is left for later.
      const webhooks = await store.claimOutbox({ now, limit: 10, leaseMs: 1, skipKinds: ["email"] });
      expect(webhooks.map((r) => r.kind)).toEqual(["webhook"]);
      expect(await store.claimOutbox({ now, skipKinds: ["email", "webhook"] })).toEqual([]);
      const claimed = await store.claimOutbox({ now: now + 1, limit: 10, leaseMs: 60_000 - 1 });
      expect(
        claimed.map((r) => [r.kind, r.submission_type, r.submission_id, r.attempts, r.last_error, r.delivered_at]),
      ).toEqual([
        ["email", "contact", lead, 0, null, null],
        ["webhook", "contact", lead, 0, null, null],
        ["email", "newsletter", subscriber, 0, null, null],
      ]);
      expect(claimed[0]).toMatchObject({
        payload: { to: "firm" },
        created_at: at(0),
        next_attempt_at: new Date(now + 60_000).toISOString(),
      });
      // Leased: another worker gets nothing.
      expect(await store.claimOutbox({ now })).toEqual([]);

      await store.markDelivered(claimed[0].id, now);
      await store.markFailed(claimed[1].id, "webhook answered 502", now + 30_000);
      await store.markDelivered(claimed[2].id, now);
      expect((await store.list("contact"))[0]).toMatchObject({
        delivery: "failing",
        delivery_attempts: 1,
        delivery_error: "webhook answered 502",
      });
      expect((await store.list("newsletter"))[0]).toMatchObject({
        delivery: "delivered",
        delivery_attempts: 1,
        delivery_error: null,
      });

      expect(await store.claimOutbox({ now: now + 29_999 })).toEqual([]);
      const retry = await store.claimOutbox({ now: now + 30_000 });
      expect(retry.map((r) => [r.id, r.attempts, r.last_error])).toEqual([[claimed[1].id, 1, "webhook answered 502"]]);
      await store.markDelivered(retry[0].id, now + 30_000);
      expect((await store.list("contact"))[0]).toMatchObject({
        delivery: "delivered",
        delivery_attempts: 2,
        delivery_error: null,
      });
      expect(await store.claimOutbox({ now: now + 365 * DAY })).toEqual([]);

      // A worker that dies holding a claim: the row comes back when the lease ends.
      await store.addContact(contact("late@x.com", { createdAt: at(DAY) }), [email()]);
      const [held] = await store.claimOutbox({ now: T0 + DAY, leaseMs: 60_000 });
      expect(await store.claimOutbox({ now: T0 + DAY + 59_999 })).toEqual([]);
      expect((await store.claimOutbox({ now: T0 + DAY + 60_000 })).map((r) => r.id)).toEqual([held.id]);
    });

    it("stores nothing when a notification cannot be queued: one transaction", async () => {
      const { store } = await fresh();
      const broken = { kind: null as unknown as string, payload: {} };
      await expect(store.addContact(contact("x@x.com"), [email(), broken])).rejects.toThrow();
      await expect(store.addNewsletter(news("y@x.com"), [broken])).rejects.toThrow();
      expect(await store.list("contact")).toEqual([]);
      expect(await store.list("newsletter")).toEqual([]);
      expect(await store.claimOutbox({ now: T0 })).toEqual([]);
      expect(await store.addNewsletter(news("y@x.com"), [email()])).toBe("added");
    });

    it.skipIf(!backend.serialisesConflicts)(
      "gives each due notification to one worker when two claim at once",
      async () => {
        const { place, store } = await fresh();
        for (let i = 0; i < 20; i++) await store.addContact(contact(`c${i}@x.com`), [email({ i })]);
        const [a, b] = await Promise.all([
          open(place).claimOutbox({ now: T0, limit: 15 }),
          open(place).claimOutbox({ now: T0, limit: 15 }),
        ]);
        const ids = [...a, ...b].map((r) => r.id).sort((x, y) => x - y);
        // Once the leases end, every notification is due again: the twenty, each claimed once above.
        const all = (await store.claimOutbox({ now: T0 + DAY, limit: 100 })).map((r) => r.id);
        expect(all).toHaveLength(20);
        expect(ids).toEqual(all);
      },
    );

    const findsAndErases =
      "finds and erases everything about an address, in any case, notifications and issues sent included; purges " +
      "by age";
    it(findsAndErases, async () => {
      const { store: opened } = await fresh();
      const store = opened as SubmissionStore & IssueStore;
      await store.addNewsletter(news("Ana@Example.com"), [email({ who: "ana" })]);
      await store.addContact(contact("ana@example.com", { message: "primeira" }), [email({ who: "ana" })]);
      await store.addContact(contact("ANA@example.com", { message: "segunda" }));
      await store.addNewsletter(news("bia@example.com"), [email({ who: "bia" })]);
      await store.addContact(contact("bia@example.com"), [email({ who: "bia" })]);
      // Two issues: Ana gets both, and the first reaches her; Bia gets the first, which reaches her too.
      const issue = (day: string, articles: string[]) =>
        store.recordIssue({
          ...{ locale: "pt", day, articles, subject: `Insights · ${day}`, intro: null },
          ...{ html: "<p>…</p>", text: "…", createdAt: at(0) },
        });
      const first = await issue("2026-01-12", ["insights.a"]);
      const second = await issue("2026-01-19", ["insights.b", "insights.c"]);
      const [anaRow, biaRow] = await store.list("newsletter");
      const copy = (id: number, to: string) => ({ kind: "issue", payload: { issue: id, to, subject: "…" } });
      for (const [id, reader] of [
        [first, anaRow],
        [second, anaRow],
        [first, biaRow],
      ] as const)
        await store.queueOnce(`issue:${id}:${reader.id}`, reader.id, copy(id, reader.email), T0 + DAY);
      for (const [id, reader] of [
        [first, anaRow],
        [first, biaRow],
      ] as const) {
        const queued = (await store.findByEmail(reader.email)).outbox.find(
          (o) => o.kind === "issue" && (o.payload as { issue: number }).issue === id,
        );
        await store.markDelivered(queued!.id, T0 + DAY);
      }
      const sent = (id: number, sentAt: string | null) => ({
        ...{ issue: id, locale: "pt", sent_at: sentAt, refused_at: null },
        ...(id === first
          ? { day: "2026-01-12", articles: ["insights.a"], subject: "Insights · 2026-01-12" }
          : { day: "2026-01-19", articles: ["insights.b", "insights.c"], subject: "Insights · 2026-01-19" }),
      });

      const found = await store.findByEmail(" ana@EXAMPLE.com ");
      expect(found.newsletter.map((r) => r.email)).toEqual(["Ana@Example.com"]);
      expect(found.contact.map((r) => r.message)).toEqual(["primeira", "segunda"]);
      expect(found.issues).toEqual([sent(first, at(DAY)), sent(second, null)]);
      expect(found.outbox.map((r) => [r.submission_type, r.kind])).toEqual([
        ["newsletter", "email"],
        ["contact", "email"],
        ["newsletter", "issue"],
        ["newsletter", "issue"],
      ]);

      expect(await store.deleteByEmail("ANA@example.com")).toEqual({ newsletter: 1, contact: 2, outbox: 4 });
      expect(await store.findByEmail("ana@example.com")).toEqual({
        newsletter: [],
        contact: [],
        issues: [],
        outbox: [],
      });
      expect(await store.deleteByEmail("ana@example.com")).toEqual({ newsletter: 0, contact: 0, outbox: 0 });
      const bia = await store.findByEmail("bia@example.com");
      expect([bia.newsletter.length, bia.contact.length, bia.outbox.length]).toEqual([1, 1, 3]);
      expect(bia.issues).toEqual([sent(first, at(DAY))]);
      // The issues themselves stay: they hold no address.
      expect((await store.issues()).map((i) => i.id)).toEqual([first, second]);

      // Purge: everything stored more than 30 days before now goes, with its notifications.
      await store.addContact(contact("old@x.com", { createdAt: at(-40 * DAY) }), [email()]);
      await store.addNewsletter(news("old@x.com", { createdAt: at(-31 * DAY) }));
      await store.addContact(contact("recent@x.com", { createdAt: at(-29 * DAY) }), [email()]);
      expect(await store.purgeOlderThan(30, T0)).toEqual({ newsletter: 1, contact: 1, outbox: 1 });
      expect((await store.list("contact")).map((r) => r.email)).toEqual(["bia@example.com", "recent@x.com"]);
      expect((await store.claimOutbox({ now: T0, limit: 100 })).map((r) => r.payload)).toEqual([
        { who: "bia" },
        { who: "bia" },
        {},
      ]);
      await expect(store.purgeOlderThan(0, T0)).rejects.toThrow(RangeError);
    });

    const keepsUnconfirmedSignups =
      "keeps double opt-in subscriptions unconfirmed until confirmed, queues with the confirmation, and expires the " +
      "unconfirmed";
    it(keepsUnconfirmedSignups, async () => {
      const { store } = await fresh();
      expect(
        await store.addNewsletter(news("Wait@x.com", { confirmed: false }), [
          { kind: "confirm", payload: { link: "l" } },
        ]),
      ).toBe("added");
      expect(await store.addNewsletter(news("direct@x.com"))).toBe("added");
      expect(
        await store.addNewsletter(news("stale@x.com", { confirmed: false, createdAt: at(-8 * DAY) }), [
          { kind: "confirm", payload: {} },
        ]),
      ).toBe("added");
      expect((await store.list("newsletter")).map((r) => [r.email, r.confirmed_at])).toEqual([
        ["Wait@x.com", null],
        ["direct@x.com", at(0)],
        ["stale@x.com", null],
      ]);

      expect(await store.confirmNewsletter("wait@X.com", T0 + 5000, [email({ firm: true })])).toBe("confirmed");
      expect(await store.confirmNewsletter("wait@x.com", T0 + 6000, [email()])).toBe("already");
      expect(await store.confirmNewsletter("nobody@x.com", T0, [email()])).toBe("missing");
      expect((await store.list("newsletter"))[0]).toMatchObject({ email: "Wait@x.com", confirmed_at: at(5000) });
      // The confirmation e-mail and the firm's notice queued at confirmation (the later one only once).
      // Ids are the store's own (Blobs draws them from the time), so the subscriptions' are read back.
      const [wait, , stale] = (await store.list("newsletter")).map((r) => r.id);
      const queued = await store.claimOutbox({ now: T0 + 10_000, limit: 10 });
      expect(queued.map((r) => [r.kind, r.submission_id, r.payload])).toEqual([
        ["confirm", wait, { link: "l" }],
        ["confirm", stale, {}],
        ["email", wait, { firm: true }],
      ]);

      // Seven days for a confirmation: the stale one goes with its notification, the others stay.
      expect(await store.purgeUnconfirmed(7, T0)).toEqual({ newsletter: 1, contact: 0, outbox: 1 });
      expect((await store.list("newsletter")).map((r) => r.email)).toEqual(["Wait@x.com", "direct@x.com"]);
      expect(await store.confirmNewsletter("stale@x.com", T0)).toBe("missing");
    });

    it("purges the tables it is told to, leaving the others as they are", async () => {
      const { store } = await fresh();
      await store.addNewsletter(news("reader@x.com", { createdAt: at(-400 * DAY) }), [email()]);
      await store.addContact(contact("lead@x.com", { createdAt: at(-400 * DAY) }), [email()]);
      await store.addContact(contact("new@x.com", { createdAt: at(-DAY) }), [email()]);
      expect(await store.purgeOlderThan(365, T0, ["contact"])).toEqual({ newsletter: 0, contact: 1, outbox: 1 });
      expect((await store.list("newsletter")).map((r) => r.email)).toEqual(["reader@x.com"]);
      expect((await store.list("contact")).map((r) => r.email)).toEqual(["new@x.com"]);
      expect((await store.claimOutbox({ now: T0, limit: 10 })).map((r) => r.submission_type)).toEqual([
        "newsletter",
        "contact",
      ]);
    });

    it.skipIf(!backend.command)(
      "sitegen submissions reads through the store, with each row's delivery state in CSV and JSON",
      async () => {
        const { place, store } = await fresh();
        await store.addContact(contact("a@x.com", { company: "x;=1+1;y" }), [email()]);
        await store.addNewsletter(news("n@x.com"), [email()]);
        const [first, second] = await store.claimOutbox({ now: T0 });
        await store.markFailed(first.id, "SMTP 421, try later", T0 + 60_000);
        await store.markDelivered(second.id, T0);

        const printed = async (opts: { type?: string; format: string }) => {
          const out: string[] = [];
          const log = vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
          try {
            await printSubmissions(commandContext(place.root), opts, place.env);
          } finally {
            log.mockRestore();
          }
          return out.join("\n");
        };
        const json = JSON.parse(await printed({ format: "json" }));
        expect(json.contact).toEqual([
          {
            id: 1,
            first_name: "Ana",
            last_name: "Souza",
            email: "a@x.com",
            company: "x;=1+1;y",
            message: "Olá",
            locale: "pt",
            created_at: at(0),
            suspect: 0,
            delivery: "failing",
            delivery_attempts: 1,
            delivery_error: "SMTP 421, try later",
          },
        ]);
        expect(json.newsletter).toEqual([
          {
            id: 1,
            email: "n@x.com",
            locale: "pt",
            created_at: at(0),
            suspect: 0,
            confirmed_at: at(0),
            ...BOUNCED_NOT,
            delivery: "delivered",
            delivery_attempts: 1,
            delivery_error: null,
          },
        ]);
        const csv = (await printed({ type: "contact", format: "csv" })).split("\n");
        expect(csv[0]).toBe(
          "id,first_name,last_name,email,company,message,locale,created_at,suspect," +
            "delivery,delivery_attempts,delivery_error",
        );
        expect(csv[1]).toBe(`1,Ana,Souza,a@x.com,"x;'=1+1;y",Olá,pt,${at(0)},0,failing,1,"SMTP 421, try later"`);
        const both = (await printed({ format: "csv" })).split("\n");
        expect(both.slice(1).map((line) => line.split(",").slice(0, 2).concat(line.split(",").slice(10, 12)))).toEqual([
          ["newsletter", "1", "delivered", "1"],
          ["contact", "1", "failing", "1"],
        ]);
      },
    );

    it("queues the configured notifications with each submission the endpoints accept", async () => {
      const place = await backend.fresh();
      const site: SiteConfig = { ...SITE, submissions: { ...place.settings, rateLimitPerMinute: 100 } };
      // The stores of a server are chosen by the environment; D1 and Blobs are given, as the worker and the Netlify
      // Function do.
      const api = createApiHandlers({
        site,
        root: place.root,
        messages: MESSAGES,
        now: () => T0,
        env: place.env,
        store: backend.command ? undefined : open(place),
        outbox: { contact: ["email", "webhook"] },
      });
      opened.push(api);
      const post = (path: string, body: unknown) =>
        api.handlers[path](
          new Request(`http://localhost${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(body),
          }),
        );
      expect(
        (await post("/api/contact", { firstName: "Ana", lastName: "Souza", email: "Ana@X.com", message: "Olá" }))
          .status,
      ).toBe(200);
      expect((await post("/api/newsletter", { email: "n@x.com" })).status).toBe(200);
      const store = open(place);
      const lead = (await store.list("contact"))[0].id;
      const queued = await store.claimOutbox({ now: T0 });
      expect(queued.map((r) => [r.kind, r.submission_type, r.submission_id])).toEqual([
        ["email", "contact", lead],
        ["webhook", "contact", lead],
      ]);
      expect(queued[0].payload).toEqual({
        type: "contact",
        firstName: "Ana",
        lastName: "Souza",
        email: "Ana@X.com",
        company: null,
        message: "Olá",
        locale: "pt",
        createdAt: at(0),
        suspect: false,
      });
      expect((await store.list("newsletter"))[0].delivery).toBe("none");
    });

    // SQL stores shared by several processes keep each hit as a row of rate_limit_hits (Blobs keeps slots).
    it.skipIf(!backend.shared || !backend.sql)(
      "takes back a released hit, and sweeps the hits that left the window, other clients' included",
      async () => {
        const { place, store } = await fresh();
        const limiter = store.rateLimiter!("test", 2, 60_000);
        const rows = async (client: string) =>
          Number(
            (
              await place.query(
                `SELECT count(*) AS n FROM rate_limit_hits WHERE bucket = 'test' AND client = '${client}'`,
              )
            )[0].n,
          );
        expect(await limiter.hit("203.0.113.1", T0)).toEqual({ allowed: true, retryAfter: 0 });
        expect(await limiter.hit("203.0.113.1", T0 + 1_000)).toEqual({ allowed: true, retryAfter: 0 });
        expect(await limiter.hit("203.0.113.1", T0 + 30_000)).toEqual({ allowed: false, retryAfter: 30 });
        expect(await limiter.check("203.0.113.1", T0 + 30_000)).toEqual({ allowed: false, retryAfter: 30 });
        // Refused requests are not counted: two rows, not three.
        expect(await rows("203.0.113.1")).toBe(2);
        await limiter.release("203.0.113.1", T0 + 1_000);
        expect(await limiter.check("203.0.113.1", T0 + 30_000)).toEqual({ allowed: true, retryAfter: 0 });
        expect(await limiter.hit("203.0.113.2", T0 + 30_000)).toEqual({ allowed: true, retryAfter: 0 });
        // Another bucket counts apart.
        expect(await store.rateLimiter!("other", 1, 60_000).hit("203.0.113.1", T0 + 30_000)).toEqual({
          allowed: true,
          retryAfter: 0,
        });
        // The oldest hit leaves the window, and the one released is gone for good.
        expect(await limiter.hit("203.0.113.1", T0 + 60_000)).toEqual({ allowed: true, retryAfter: 0 });
        expect(await limiter.hit("203.0.113.1", T0 + 60_001)).toEqual({ allowed: true, retryAfter: 0 });
        expect(await limiter.hit("203.0.113.1", T0 + 60_002)).toEqual({ allowed: false, retryAfter: 60 });
        // A client seen once leaves no row once a later request, by anyone, comes a window after the last sweep
        // (at T0 + 60 s: each process sweeps once per window); of the others, only what is still in the window stays.
        await limiter.hit("203.0.113.3", T0 + 120_000);
        expect(await rows("203.0.113.2")).toBe(0);
        expect(await rows("203.0.113.1")).toBe(1);
      },
    );

    if (backend.shared) {
      it("holds the rate limit across two handler instances sharing the database", async () => {
        const place = await backend.fresh();
        const site: SiteConfig = {
          ...SITE,
          submissions: { ...submissionSettings(SITE, process.env), rateLimitPerMinute: 3 },
        };
        let clock = T0;
        // Opened as `sitegen start` opens it (from the environment) where it can be; D1 and Blobs, as their workers do.
        const instances = [0, 1].map(() =>
          createApiHandlers({
            site,
            root: ROOT,
            messages: MESSAGES,
            now: () => clock,
            env: place.env,
            store: backend.command ? undefined : open(place),
          }),
        );
        opened.push(...instances);
        await Promise.all(instances.map((api) => api.ready()));
        const post = async (i: number, client: string, body: Record<string, unknown>) => {
          const path = "firstName" in body ? "/api/contact" : "/api/newsletter";
          const request = new Request(`http://localhost${path}`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json",
              "x-sitegen-remote-address": client,
            },
            body: JSON.stringify(body),
          });
          const response = await instances[i % 2].handlers[path](request);
          return { status: response.status, retryAfter: response.headers.get("retry-after") };
        };
        const ok = (n: number) => ({ email: `v${n}@x.com` });

        // Accepted submissions: three per minute, whichever instance and form.
        expect((await post(0, "198.51.100.1", ok(1))).status).toBe(200);
        expect(
          (await post(1, "198.51.100.1", { firstName: "A", lastName: "B", email: "c@x.com", message: "m" })).status,
        ).toBe(200);
        expect((await post(0, "198.51.100.1", ok(2))).status).toBe(200);
        expect(await post(1, "198.51.100.1", ok(3))).toEqual({ status: 429, retryAfter: "60" });
        expect((await post(0, "198.51.100.1", ok(4))).status).toBe(429);
        expect((await post(1, "198.51.100.2", ok(5))).status).toBe(200);

        // At once, split across both instances: exactly three get through.
        const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i, "198.51.100.3", ok(10 + i))));
        expect(burst.filter((r) => r.status === 200)).toHaveLength(3);
        expect(burst.filter((r) => r.status === 429)).toHaveLength(7);

        // Refused posts: their own cap, ten times larger, also shared.
        for (let i = 0; i < 30; i++)
          expect((await post(i, "198.51.100.4", { email: `bad${i}` })).status, String(i)).toBe(422);
        expect((await post(0, "198.51.100.4", { email: "bad" })).status).toBe(429);
        expect((await post(1, "198.51.100.4", ok(40))).status).toBe(429);

        clock += 60_000;
        expect((await post(1, "198.51.100.1", ok(6))).status).toBe(200);
        expect((await post(0, "198.51.100.4", ok(41))).status).toBe(200);
        expect(await count(place, "newsletter")).toBe(8);
      });
    } else {
      it("keeps the rate limit in memory: one process owns the file", async () => {
        const { store } = await fresh();
        expect(store.rateLimiter).toBeUndefined();
      });
    }
  });
}

describe("SQLite migrations", () => {
  it("after the D1 store arrived, are SQL statements alone: D1 runs no carry-over step", () => {
    const later = SQLITE_MIGRATIONS.filter((m) => m.version > LAST_MIGRATION_WITH_CARRY_OVER);
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((m) => m.steps.some((step) => typeof step !== "string")).map((m) => m.version)).toEqual([]);
    expect(
      SQLITE_MIGRATIONS.filter((m) => m.version <= LAST_MIGRATION_WITH_CARRY_OVER).some((m) =>
        m.steps.some((s) => typeof s !== "string"),
      ),
    ).toBe(true);
  });
});

describe("SQLite files of the layout before migrations", () => {
  const keepEarliestCaseVariant =
    "keep the earliest of two subscriptions that only Unicode case told apart (SQLite's NOCASE folds ASCII only)";
  it(keepEarliestCaseVariant, async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-sqlite-"));
    mkdirSync(join(dir, "data"));
    const file = join(dir, "data", "submissions.db");
    const db = openSqlite(file);
    db.exec(SQLITE_LAYOUT_BEFORE_MIGRATIONS);
    const insert = db.prepare("INSERT INTO newsletter (email, locale, created_at, suspect) VALUES (?, ?, ?, ?)");
    insert.run("ÉLODIE@x.com", "pt", at(0), 1);
    insert.run("élodie@x.com", "en", at(1000), 0);
    insert.run("other@x.com", "pt", at(2000), 0);
    db.close();
    const store = new SqliteSubmissionStore(file);
    try {
      expect((await store.list("newsletter")).map((r) => [r.id, r.email, r.locale, r.suspect])).toEqual([
        [1, "ÉLODIE@x.com", "pt", 0],
        [3, "other@x.com", "pt", 0],
      ]);
      expect(await store.addNewsletter(news("Élodie@X.com"))).toBe("exists");
    } finally {
      await store.close();
    }
  });
});
