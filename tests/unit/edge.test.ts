import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEdgeApi } from "../../src/api/edge.ts";
import { createMailer } from "../../src/api/notify/email.ts";
import { openStore } from "../../src/api/stores.ts";
import type { SubmissionStore } from "../../src/api/store.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent, plainDictionaries } from "../../src/generator/content.ts";
import { ROOT } from "../helpers.ts";
import { startWebhook, type WebhookReceiver } from "../notify-sinks.ts";

/**
 * The endpoints as the Cloudflare worker and the Netlify Function run them (src/api/edge.ts), in-process
 * over SQLite: the visitor's answer does not wait for the delivery, which goes on in what the host keeps
 * alive (waitUntil); settings that cannot work make every endpoint answer 503, and the log says why
 * without the password. The same module runs for real in cloudflare-delivery and netlify-delivery.
 */
const SITE = loadSiteConfig(ROOT);
const MESSAGES = plainDictionaries({
  pt: loadLocaleContent(ROOT, "pt", SITE).dictionary,
  en: loadLocaleContent(ROOT, "en", SITE).dictionary,
});
let hook: WebhookReceiver;
let store: SubmissionStore;

beforeAll(async () => {
  hook = await startWebhook();
  store = openStore({ database: join(mkdtempSync(join(tmpdir(), "sitegen-edge-")), "submissions.db") }, {}, ROOT);
});

afterAll(async () => {
  await hook.close();
  await store.close();
});

const contact = () =>
  new Request("http://localhost/api/contact", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "x-sitegen-remote-address": "203.0.113.20",
    },
    body: JSON.stringify({
      firstName: "Ana",
      lastName: "Souza",
      email: "ana@cliente.example.com",
      message: "Olá!",
      locale: "pt",
    }),
  });

describe("the endpoints on an edge host", () => {
  it("answers the visitor before the webhook does, and delivers in the background the host keeps alive", async () => {
    const api = createEdgeApi({ site: SITE, messages: MESSAGES, createMailer });
    hook.delayMs = 300;
    const background: Promise<unknown>[] = [];
    const response = await api.handle(contact(), {
      store,
      env: { NOTIFY_WEBHOOK_URL: hook.url },
      waitUntil: (promise) => background.push(promise),
    });
    expect(response!.status).toBe(200);
    expect(background).toHaveLength(1);
    expect(hook.bodies).toEqual([]);
    await Promise.all(background);
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]).toMatchObject({ event: "contact", submission: { firstName: "Ana", message: "Olá!" } });
    const [row] = await store.list("contact");
    expect([row.delivery, row.delivery_attempts]).toEqual(["delivered", 1]);
    // A path that is no endpoint is left to the host's static files.
    expect(await api.handle(new Request("http://localhost/about"), { store, env: {} })).toBeUndefined();
  });

  const storesNothingMisconfigured =
    "stores nothing while a setting cannot work, answering as when the database is down, and logs why without the " +
    "password";
  it(storesNothingMisconfigured, async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const api = createEdgeApi({ site: SITE, messages: MESSAGES, createMailer });
      const env = { SMTP_URL: "http://leads:s3cret@mail.example.com/" };
      const json = await api.handle(contact(), { store, env });
      expect(json!.status).toBe(503);
      expect(await json!.json()).toEqual({ ok: false, message: MESSAGES.pt["contactForm.failure"] });
      const form = await api.handle(
        new Request("http://localhost/api/newsletter", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-sitegen-remote-address": "203.0.113.21" },
          body: "email=leitor%40exemplo.com.br&locale=en",
        }),
        { store, env },
      );
      expect([form!.status, form!.headers.get("location")]).toEqual([303, "/en/forms/error?reason=unavailable"]);
      expect((await api.handle(new Request("http://localhost/api/detect-language"), { store, env }))!.status).toBe(200);
      const logged = error.mock.calls.map((call) => call.map(String).join(" ")).join("\n");
      expect(logged).toContain(
        "sitegen: the form endpoints cannot run: SMTP_URL is http://leads:***@mail.example.com/",
      );
      expect(logged.match(/cannot run/g)).toHaveLength(1);
      expect(logged).not.toContain("s3cret");
      expect((await store.list("contact")).length).toBe(1);
      expect(await store.list("newsletter")).toEqual([]);
    } finally {
      error.mockRestore();
    }
  });
});
