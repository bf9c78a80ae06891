/**
 * `sitegen build --target netlify`, run for real: the site built into a project copy, then served by
 * Netlify's local runtime (`@netlify/dev`, in-process, on 127.0.0.1), which runs the generated function
 * in a worker thread as Netlify does and stores into its local Netlify Blobs server. The forms are posted
 * as the islands post them (JSON) and as a browser without JavaScript does (form-encoded, answered with a
 * 303), the rows are read back from the Blobs store, a post from another site is refused, and everything
 * is stopped.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BlobsSubmissionStore } from "../../src/api/blobs-store.ts";
import { main } from "../../src/generator/cli.ts";
import { FUNCTIONS_DIR, FUNCTION_NAME } from "../../src/generator/targets/netlify.ts";
import { projectCopy } from "../helpers.ts";
import { startNetlifyDev, type RunningNetlify } from "../netlify-dev.ts";

let project: string;
let netlify: RunningNetlify;
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
}, 120_000);

afterAll(async () => {
  // Stopping twice is harmless: the last test stops it itself, this covers a failure before.
  await netlify?.stop();
});

const post = (path: string, init: { body: string; headers: Record<string, string> }) => fetch(`${netlify.url}${path}`, { method: "POST", redirect: "manual", ...init });
/** What a page of the site sends, as Chromium does: same-origin fetch metadata and the page's origin. */
const fromOwnPage = () => ({ origin: netlify.url, "sec-fetch-site": "same-origin" });
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { ...fromOwnPage(), "content-type": "application/json", accept: "application/json" } });
const form = (fields: Record<string, string>) => ({ body: new URLSearchParams(fields).toString(), headers: { ...fromOwnPage(), "content-type": "application/x-www-form-urlencoded" } });

describe("sitegen build --target netlify", () => {
  it("writes netlify.toml publishing dist/ with the functions folder, one v2 function, and leaves dist/ a static folder", () => {
    const toml = readFileSync(join(project, "netlify.toml"), "utf8");
    expect(toml).toContain('command = "npx sitegen build --target netlify"');
    expect(toml).toContain('publish = "dist"');
    expect(toml).toContain(`directory = "${FUNCTIONS_DIR}"`);
    const fn = readFileSync(join(project, FUNCTIONS_DIR, FUNCTION_NAME, `${FUNCTION_NAME}.mjs`), "utf8");
    expect(fn).toContain("export default (request, context) =>");
    expect(fn).toContain('export const config = { path: ["/api/newsletter","/api/contact","/api/detect-language"] };');
    // The function carries its packages: no SQLite, whose native module Netlify could not load.
    const bundle = readFileSync(join(project, FUNCTIONS_DIR, FUNCTION_NAME, "endpoints.cjs"), "utf8");
    expect(bundle).not.toContain("better-sqlite3");
    expect(bundle).toMatch(/require\("pg-native"\)/);
    expect(existsSync(join(project, "dist", "_sitegen"))).toBe(false);
    expect(existsSync(join(project, "dist", "_headers"))).toBe(true);
    expect(printed.join("\n")).toContain(`Netlify: ${FUNCTIONS_DIR}/${FUNCTION_NAME} answers /api/newsletter, /api/contact, /api/detect-language; netlify.toml publishes dist.`);
  });

  it("serves the pages with the headers of _headers", async () => {
    const page = await fetch(`${netlify.url}/en/about`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html lang="en"');
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("stores a newsletter signup and a contact message sent as JSON and as plain forms, in the Blobs store", async () => {
    let response = await post("/api/newsletter", json({ email: "Ana@Example.com", locale: "en", website: "", startedAt: 0 }));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ ok: true, title: "Success!", message: "Thank you for subscribing to our newsletter!" });
    // The same address in another case is the same subscriber: answered alike, stored once.
    response = await post("/api/newsletter", form({ email: "ana@example.COM", locale: "pt" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/forms/newsletter-success");

    const message = { firstName: "João", lastName: "Araújo", email: "joao@empresa.com.br", company: "Empresa Ltda", message: "Queremos automatizar o atendimento.", locale: "pt" };
    response = await post("/api/contact", json({ ...message, website: "", startedAt: 0 }));
    expect(response.status).toBe(200);
    expect((await response.json()).ok).toBe(true);
    response = await post("/api/contact", form({ ...message, company: "", locale: "en", message: "No JavaScript here." }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/forms/contact-success");

    // Read back from the runtime's Blobs store, through the same store the function used.
    const store = new BlobsSubmissionStore();
    expect((await store.list("newsletter")).map((r) => [r.email, r.locale, r.suspect])).toEqual([["Ana@Example.com", "en", 0]]);
    expect((await store.list("contact")).map((r) => [r.first_name, r.last_name, r.email, r.company, r.message, r.locale])).toEqual([
      ["João", "Araújo", "joao@empresa.com.br", "Empresa Ltda", "Queremos automatizar o atendimento.", "pt"],
      ["João", "Araújo", "joao@empresa.com.br", null, "No JavaScript here.", "en"],
    ]);
  });

  it("answers invalid posts in the visitor's language and refuses posts from another site", async () => {
    let response = await post("/api/newsletter", json({ email: "not-an-address", locale: "pt" }));
    expect(response.status).toBe(422);
    expect((await response.json()).ok).toBe(false);

    const crossSite = { origin: "https://attacker.example", "sec-fetch-site": "cross-site" };
    response = await post("/api/newsletter", { body: JSON.stringify({ email: "victim@example.com", locale: "en" }), headers: { ...crossSite, "content-type": "application/json", accept: "application/json" } });
    expect(response.status).toBe(403);
    response = await post("/api/contact", {
      body: new URLSearchParams({ firstName: "A", lastName: "B", email: "victim@example.com", message: "spam" }).toString(),
      headers: { ...crossSite, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/forms/error?reason=cross-site");
    expect((await new BlobsSubmissionStore().findByEmail("victim@example.com")).contact).toEqual([]);

    response = await fetch(`${netlify.url}/api/contact`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("stops: the site's address and the local Blobs server's answer nothing afterwards", async () => {
    const context = JSON.parse(Buffer.from(process.env.NETLIFY_BLOBS_CONTEXT ?? "", "base64").toString("utf8")) as { edgeURL: string };
    const blobsUrl = context.edgeURL.replace("localhost", "127.0.0.1");
    expect((await fetch(blobsUrl)).status).toBeLessThan(500);
    await netlify.stop();
    await expect(fetch(netlify.url)).rejects.toThrow();
    await expect(fetch(blobsUrl)).rejects.toThrow();
    // The runtime gives back the environment it set.
    expect(process.env.NETLIFY_BLOBS_CONTEXT).toBeUndefined();
  });
});
