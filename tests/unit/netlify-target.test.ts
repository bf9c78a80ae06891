/**
 * `sitegen build --target netlify`, run for real: the site built into a project copy, then served by
 * Netlify's local runtime (`@netlify/dev`, in-process, on 127.0.0.1), which runs the generated function
 * in a worker thread as Netlify does and stores into its local Netlify Blobs server. The forms are posted
 * as the islands post them (JSON) and as a browser without JavaScript does (form-encoded, answered with a
 * 303), the rows are read back from the Blobs store, a post from another site is refused, and everything
 * is stopped. Then the same function with DATABASE_URL set stores into a throwaway PostgreSQL cluster.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { BlobsSubmissionStore } from "../../src/api/blobs-store.ts";
import { openStore } from "../../src/api/stores.ts";
import { main } from "../../src/generator/cli.ts";
import { FUNCTIONS_DIR, FUNCTION_NAME } from "../../src/generator/targets/netlify.ts";
import { projectCopy } from "../helpers.ts";
import { startNetlifyDev, type RunningNetlify } from "../netlify-dev.ts";
import { startPgCluster, type PgCluster } from "../pg-cluster.ts";

let project: string;
/** The runtime the posts go to. */
let netlify: RunningNetlify;
const started: RunningNetlify[] = [];
const printed: string[] = [];

/** The CLI as a developer runs it in the project folder; what it printed is kept. */
async function sitegen(...args: string[]): Promise<number> {
  const log = vi.spyOn(console, "log").mockImplementation((...a) => void printed.push(a.join(" ")));
  try {
    return await main(["node", "sitegen", ...args], project);
  } finally {
    log.mockRestore();
  }
}

beforeAll(async () => {
  project = projectCopy();
  expect(await sitegen("build", "--target", "netlify", "--out", join(project, "dist"))).toBe(0);
  netlify = await startNetlifyDev(project);
  started.push(netlify);
}, 120_000);

afterAll(async () => {
  // Stopping twice is harmless: tests stop what they started, this covers a failure before.
  for (const runtime of started) await runtime.stop();
});

const post = (path: string, init: { body: string; headers: Record<string, string> }) =>
  fetch(`${netlify.url}${path}`, { method: "POST", redirect: "manual", ...init });
/** A post from another loopback address (Linux routes all of 127.0.0.0/8 to lo), as another visitor. */
function sendFrom(
  localAddress: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { hostname, port } = new URL(netlify.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: "POST", headers, localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
/** What a page of the site sends, as Chromium does: same-origin fetch metadata and the page's origin. */
const fromOwnPage = () => ({ origin: netlify.url, "sec-fetch-site": "same-origin" });
const json = (body: unknown) => ({
  body: JSON.stringify(body),
  headers: { ...fromOwnPage(), "content-type": "application/json", accept: "application/json" },
});
const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { ...fromOwnPage(), "content-type": "application/x-www-form-urlencoded" },
});

describe("sitegen build --target netlify", () => {
  const writesNetlifyToml =
    "writes netlify.toml publishing dist/ with the functions folder, one v2 function, and leaves dist/ a static " +
    "folder";
  it(writesNetlifyToml, () => {
    const toml = readFileSync(join(project, "netlify.toml"), "utf8");
    expect(toml).toContain('command = "npx --no sitegen build --target netlify"');
    expect(toml).toContain('publish = "dist"');
    expect(toml).toContain(`directory = "${FUNCTIONS_DIR}"`);
    const fn = readFileSync(join(project, FUNCTIONS_DIR, FUNCTION_NAME, `${FUNCTION_NAME}.mjs`), "utf8");
    expect(fn).toContain("export default (request, context) =>");
    expect(fn).toContain(
      'export const config = { path: ["/api/newsletter","/api/contact","/api/detect-language",' +
        '"/api/newsletter/unsubscribe","/api/newsletter/issues"] };',
    );
    // The function carries its packages: no SQLite, whose native module Netlify could not load.
    const bundle = readFileSync(join(project, FUNCTIONS_DIR, FUNCTION_NAME, "endpoints.cjs"), "utf8");
    expect(bundle).not.toContain("better-sqlite3");
    expect(bundle).toMatch(/require\("pg-native"\)/);
    expect(existsSync(join(project, "dist", "_sitegen"))).toBe(false);
    expect(existsSync(join(project, "dist", "_headers"))).toBe(true);
    expect(printed.join("\n")).toContain(
      `Netlify: ${FUNCTIONS_DIR}/${FUNCTION_NAME} answers /api/newsletter, /api/contact, /api/detect-language, ` +
        "/api/newsletter/unsubscribe, /api/newsletter/issues, " +
        `${FUNCTIONS_DIR}/sitegen-deliver sends due notifications on the schedule "*/5 * * * *"; ` +
        "netlify.toml publishes dist.",
    );
  });

  it("serves the pages with the headers of _headers", async () => {
    const page = await fetch(`${netlify.url}/en/about`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html lang="en"');
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  const storesInBlobs =
    "stores a newsletter signup and a contact message sent as JSON and as plain forms, in the Blobs store";
  it(storesInBlobs, async () => {
    let response = await post(
      "/api/newsletter",
      json({ email: "Ana@Example.com", locale: "en", website: "", startedAt: 0 }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      ok: true,
      title: "Success!",
      message: "Thank you for subscribing to our newsletter!",
    });
    // The same address in another case is the same subscriber: answered alike, stored once.
    response = await post("/api/newsletter", form({ email: "ana@example.COM", locale: "pt" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/forms/newsletter-success");

    const message = {
      firstName: "João",
      lastName: "Araújo",
      email: "joao@empresa.com.br",
      company: "Empresa Ltda",
      message: "Queremos automatizar o atendimento.",
      locale: "pt",
    };
    response = await post("/api/contact", json({ ...message, website: "", startedAt: 0 }));
    expect(response.status).toBe(200);
    expect((await response.json()).ok).toBe(true);
    response = await post(
      "/api/contact",
      form({ ...message, company: "", locale: "en", message: "No JavaScript here." }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/forms/contact-success");

    // Read back from the runtime's Blobs store, through the same store the function used.
    const store = new BlobsSubmissionStore();
    expect((await store.list("newsletter")).map((r) => [r.email, r.locale, r.suspect])).toEqual([
      ["Ana@Example.com", "en", 0],
    ]);
    expect(
      (await store.list("contact")).map((r) => [r.first_name, r.last_name, r.email, r.company, r.message, r.locale]),
    ).toEqual([
      ["João", "Araújo", "joao@empresa.com.br", "Empresa Ltda", "Queremos automatizar o atendimento.", "pt"],
      ["João", "Araújo", "joao@empresa.com.br", null, "No JavaScript here.", "en"],
    ]);
    // No notifier set in the environment and no double opt-in for this site: signups are final and nothing
    // is queued (netlify-delivery.test.ts sets them).
    const [signup] = await store.list("newsletter");
    expect([signup.confirmed_at, signup.delivery]).toEqual([signup.created_at, "none"]);
    expect((await store.list("contact")).map((r) => r.delivery)).toEqual(["none", "none"]);
    expect(await store.claimOutbox({ now: Date.now() + 86_400_000 })).toEqual([]);
  });

  it("answers invalid posts in the visitor's language and refuses posts from another site", async () => {
    let response = await post("/api/newsletter", json({ email: "not-an-address", locale: "pt" }));
    expect(response.status).toBe(422);
    expect((await response.json()).ok).toBe(false);

    const crossSite = { origin: "https://attacker.example", "sec-fetch-site": "cross-site" };
    response = await post("/api/newsletter", {
      body: JSON.stringify({ email: "victim@example.com", locale: "en" }),
      headers: { ...crossSite, "content-type": "application/json", accept: "application/json" },
    });
    expect(response.status).toBe(403);
    response = await post("/api/contact", {
      body: new URLSearchParams({
        firstName: "A",
        lastName: "B",
        email: "victim@example.com",
        message: "spam",
      }).toString(),
      headers: { ...crossSite, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/forms/error?reason=cross-site");
    expect((await new BlobsSubmissionStore().findByEmail("victim@example.com")).contact).toEqual([]);

    response = await fetch(`${netlify.url}/api/contact`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  const rateLimitInBlobs =
    "counts the rate limit in the Blobs store, across function instances, per visitor address from the context";
  it(rateLimitInBlobs, async () => {
    // Netlify's local runtime runs each request in a new worker, so a count kept in memory would start at
    // zero every time. Each post also claims another address in the headers a client can set: the limit
    // counts by context.ip (the socket's address, here 127.0.0.2) all the same.
    const limit = 5;
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    // The window is a fixed minute: if one ends during the loop, the next admits `limit` more, never more.
    for (let i = 0; i < 2 * limit + 1 && !statuses.includes(429); i++) {
      const reply = await sendFrom(
        "127.0.0.2",
        "/api/newsletter",
        JSON.stringify({ email: `visitor${i}@example.com`, locale: "en" }),
        {
          ...fromOwnPage(),
          "content-type": "application/json",
          accept: "application/json",
          "x-sitegen-remote-address": `203.0.113.${i}`,
          "x-forwarded-for": `198.51.100.${i}`,
        },
      );
      statuses.push(reply.status);
      retryAfter ??= reply.headers["retry-after"] as string | undefined;
    }
    const accepted = statuses.filter((status) => status === 200).length;
    expect(statuses.at(-1)).toBe(429);
    expect(accepted).toBeGreaterThanOrEqual(limit);
    expect(accepted).toBeLessThanOrEqual(2 * limit);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Only what was accepted is stored; another visitor is not held back.
    const stored = (await new BlobsSubmissionStore().list("newsletter")).filter((r) => r.email.startsWith("visitor"));
    expect(stored).toHaveLength(accepted);
    const other = await sendFrom(
      "127.0.0.3",
      "/api/newsletter",
      JSON.stringify({ email: "someone-else@example.com" }),
      { ...fromOwnPage(), "content-type": "application/json", accept: "application/json" },
    );
    expect(other.status).toBe(200);
  });

  it("stops: the site's address and the local Blobs server's answer nothing afterwards", async () => {
    const context = JSON.parse(Buffer.from(process.env.NETLIFY_BLOBS_CONTEXT ?? "", "base64").toString("utf8")) as {
      edgeURL: string;
    };
    const blobsUrl = context.edgeURL.replace("localhost", "127.0.0.1");
    expect((await fetch(blobsUrl)).status).toBeLessThan(500);
    await netlify.stop();
    await expect(fetch(netlify.url)).rejects.toThrow();
    await expect(fetch(blobsUrl)).rejects.toThrow();
    // The runtime gives back the environment it set.
    expect(process.env.NETLIFY_BLOBS_CONTEXT).toBeUndefined();
  });
});

describe("sitegen build --target netlify with DATABASE_URL", () => {
  let cluster: PgCluster | undefined;
  const previous = process.env.DATABASE_URL;

  afterAll(async () => {
    await netlify.stop();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    cluster?.stop();
  });

  it("stores into PostgreSQL instead of Blobs, through the pg bundled into the function", async () => {
    cluster = await startPgCluster();
    const url = await cluster.createDatabase();
    // As a variable of the site's environment: the runtime's workers start with the process's environment.
    process.env.DATABASE_URL = url;
    netlify = await startNetlifyDev(project);
    started.push(netlify);
    const response = await post(
      "/api/contact",
      json({
        firstName: "Bia",
        lastName: "Lima",
        email: "bia@empresa.com.br",
        message: "Por PostgreSQL.",
        locale: "pt",
      }),
    );
    expect(response.status).toBe(200);
    const store = openStore({}, { DATABASE_URL: url }, project);
    try {
      expect((await store.list("contact")).map((r) => [r.first_name, r.email, r.message])).toEqual([
        ["Bia", "bia@empresa.com.br", "Por PostgreSQL."],
      ]);
    } finally {
      await store.close();
    }
    expect((await new BlobsSubmissionStore().findByEmail("bia@empresa.com.br")).contact).toEqual([]);
  }, 120_000);
});
