#!/usr/bin/env node
/**
 * `npm run screenshots`: every built page, in every language, at a phone, a tablet and a desktop width, as
 * full-page PNGs in screenshots/ (not committed), for a person to review the layout. It builds and serves
 * the site with `sitegen serve` on a free loopback port, drives Debian's Chromium (never a downloaded
 * browser), and stops the server when done.
 *
 *   npm run screenshots                        # every page at 375, 768 and 1440 px
 *   npm run screenshots -- --widths 360,1920   # other widths
 *   npm run screenshots -- --only contact      # pages whose address contains "contact"
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import fg from "fast-glob";
import { chromium } from "playwright-core";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "screenshots");
// Its own output folder and database, so a developer's dist/ and stored submissions are never touched.
const DIST = join(ROOT, "node_modules", ".cache", "sitegen", "screenshots-dist");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}
const widths = option("widths", "375,768,1440").split(",").map(Number);
const only = option("only", "");

/** Starts `sitegen serve` on a port the system picks; resolves with its address once it listens. */
function startServer() {
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin", "sitegen.js"), "serve", "--no-watch", "--host", "127.0.0.1", "--port", "0", "--out", DIST],
    {
      cwd: ROOT,
      env: { ...process.env, SUBMISSIONS_DB: join(ROOT, "node_modules", ".cache", "sitegen", "screenshots.db") },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const url = output.match(/Serving .* at (http:\/\/\S+?)\/?(\s|$)/)?.[1];
      if (url) resolve({ child, url });
    });
    child.on("exit", (code) => reject(new Error(`sitegen serve exited with ${code} before it listened:\n${output}`)));
  });
}

/** A built file's address as a visitor asks for it; a not-found page is shown for an address that does not exist. */
function addressOf(file) {
  const path = `/${file.replace(/\.html$/, "").replace(/(^|\/)index$/, "")}`;
  if (path.endsWith("/404")) return `${path.slice(0, -4)}/this-page-does-not-exist`;
  return path;
}

/** screenshots/<language>-<page>-<width>.png, e.g. en-contact-375.png, pt-home-1440.png. */
function nameOf(address, defaultPrefix, prefixes) {
  const match = prefixes.find((p) => address === p || address.startsWith(`${p}/`));
  const lang = match ? match.slice(1) : defaultPrefix;
  const rest = (match ? address.slice(match.length) : address).replace(/^\//, "").replaceAll("/", "_");
  return `${lang}-${rest || "home"}`;
}

const { child, url } = await startServer();
// Whatever happens below, even an error thrown where no try can catch it, the server goes with this process.
process.on("exit", () => child.kill("SIGTERM"));
let failed = false;
try {
  const prefixes = fg
    .sync("*.html", { cwd: DIST })
    .map((f) => `/${f.replace(/\.html$/, "")}`)
    .filter((p) => /^\/[a-z]{2}$/.test(p));
  const files = fg.sync("**/*.html", { cwd: DIST }).sort();
  const pages = files.map((file) => ({ file, address: addressOf(file) })).filter((p) => p.address.includes(only));
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  for (const width of widths) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
    // Consent decided and the language stored: no banner over the page, no redirect of the home page.
    await context.addInitScript((prefixList) => {
      localStorage.setItem("cookie-consent", JSON.stringify({ consent: false, timestamp: Date.now(), revision: 1 }));
      localStorage.setItem(
        "cookie-preferences",
        JSON.stringify({ essential: true, analytics: false, marketing: false, functional: false }),
      );
      const prefix = prefixList.find((p) => location.pathname === p || location.pathname.startsWith(`${p}/`));
      localStorage.setItem("language", prefix ? prefix.slice(1) : "pt");
    }, prefixes);
    const page = await context.newPage();
    for (const { file, address } of pages) {
      const response = await page.goto(url + address, { waitUntil: "load" });
      if (response?.status() === 404 && !address.endsWith("/this-page-does-not-exist")) {
        // A page the server keeps for its own use (the error page): shown from its file, at its address.
        await page.route(url + address, (route) =>
          route.fulfill({ path: join(DIST, file), contentType: "text/html; charset=utf-8" }),
        );
        await page.goto(url + address, { waitUntil: "load" });
      }
      // Covers further down load lazily, as a visitor scrolls to them; a full-page picture must show them too.
      await page.evaluate(() => {
        const lazy = [...document.images].filter((img) => img.loading === "lazy");
        for (const img of lazy) img.loading = "eager";
        const shown = Promise.all(lazy.map((img) => img.decode().catch(() => undefined)));
        return Promise.race([shown, new Promise((done) => setTimeout(done, 10_000))]);
      });
      await page.screenshot({ path: join(OUT, `${nameOf(address, "pt", prefixes)}-${width}.png`), fullPage: true });
    }
    await context.close();
    console.log(`${pages.length} pages at ${width} px`);
  }
  await browser.close();
  console.log(`Screenshots in ${relative(process.cwd(), OUT) || "."}/`);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  child.kill("SIGTERM");
}
process.exitCode = failed ? 1 : 0;
