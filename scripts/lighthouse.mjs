#!/usr/bin/env node
/**
 * `npm run lighthouse`: Lighthouse on a phone (its default mobile emulation and throttling) for one page of
 * each kind in every language, or the pages asked for. It builds the site with precompressed copies, serves
 * it with `sitegen start` on a free loopback port (as a production host would, compressed), runs the
 * Lighthouse CLI with Debian's Chromium for each page, prints the four scores per page, writes every report
 * and a summary to lighthouse/ (not committed), and stops the server.
 *
 *   npm run lighthouse                                   # one page of each kind, every language
 *   npm run lighthouse -- --all                          # every page
 *   npm run lighthouse -- --pages /contact,/en/insights  # these addresses
 *   npm run lighthouse -- --reports /tmp/lh              # the reports there instead of lighthouse/
 *
 * The not-found and error pages are left out: they are served only as answers with an error status, which
 * Lighthouse refuses to test.
 *
 * It exits 1 when a page scores below the site's targets: 100 for accessibility, best practices and SEO,
 * 95 for performance. The performance score depends on how busy the machine is; the other three do not.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fg from "fast-glob";
import { load as loadYaml } from "js-yaml";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
// Its own output folder and database, so a developer's dist/ and stored submissions are never touched.
const CACHE = join(ROOT, "node_modules", ".cache", "sitegen");
const DIST = join(CACHE, "lighthouse-dist");
const LIGHTHOUSE = join(ROOT, "node_modules", "lighthouse", "cli", "index.js");
const TARGETS = { performance: 0.95, accessibility: 1, "best-practices": 1, seo: 1 };

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** A built file's address as a visitor asks for it. */
const addressOf = (file) => `/${file.replace(/\.html$/, "").replace(/(^|\/)index$/, "")}`;

/**
 * One page per kind and language: within a language, /insights/a and /insights/b are one kind (the last
 * segment of an address of two or more segments is a wildcard), /about and /contact two.
 */
function onePerKind(addresses) {
  const seen = new Set();
  return addresses.filter((address) => {
    const locale = localeOf(address);
    const parts = address.slice(locale.prefix.length).split("/").filter(Boolean);
    const kind = `${locale.code}:${parts.length > 1 ? `${parts.slice(0, -1).join("/")}/*` : parts.join("/")}`;
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
}

function build() {
  const result = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "sitegen.js"), "build", "--precompress", "--out", DIST],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0) throw new Error(`sitegen build failed (exit ${result.status})`);
}

/** `sitegen start` on a port the system picks; resolves with its address once it logs "listening". */
function startServer() {
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin", "sitegen.js"), "start", "--host", "127.0.0.1", "--port", "0", "--out", DIST],
    {
      cwd: ROOT,
      env: { ...process.env, SUBMISSIONS_DB: join(CACHE, "lighthouse.db") },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
      const url = output.match(/"event":"listening","url":"(http:\/\/[^"]+?)\/?"/)?.[1];
      if (url) resolve({ child, url });
    });
    child.on("exit", (code) => reject(new Error(`sitegen start exited with ${code} before it listened:\n${output}`)));
  });
}

const { locales } = loadYaml(readFileSync(join(ROOT, "content", "site.yaml"), "utf8"));

/** The locale of the page at `address`: the one whose prefix it starts with, else the unprefixed one. */
function localeOf(address) {
  const prefixed = locales.find((l) => l.prefix && (address === l.prefix || address.startsWith(`${l.prefix}/`)));
  return prefixed ?? locales.find((l) => !l.prefix) ?? locales[0];
}

/**
 * Runs the Lighthouse CLI on one address; resolves with its report. `lang` is sent as Accept-Language: a
 * browser asking for another language would be taken from the home page to its own (the language island).
 */
let running;
function lighthouse(url, lang, reportFile) {
  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        LIGHTHOUSE,
        url,
        `--chrome-path=${chromePath}`,
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        "--output=json",
        `--output-path=${reportFile}`,
        "--quiet",
        `--extra-headers=${JSON.stringify({ "Accept-Language": lang })}`,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    running = child;
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    // A hung run ends the whole command rather than waiting for ever.
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`Lighthouse failed on ${url} (exit ${code}):\n${stderr}`));
      resolve(JSON.parse(readFileSync(reportFile, "utf8")));
    });
  });
}

build();
const files = fg
  .sync("**/*.html", { cwd: DIST, ignore: ["_sitegen/**", "**/forms/**", "**/404.html", "**/500.html"] })
  .sort();
const addresses = files.map(addressOf);
const asked = option("pages");
const OUT = option("reports") ?? join(ROOT, "lighthouse");
const pages = asked ? asked.split(",") : process.argv.includes("--all") ? addresses : onePerKind(addresses);

const { child, url } = await startServer();
// Whatever happens below, the server goes with this process, stopped by a signal included.
process.on("exit", () => {
  child.kill("SIGTERM");
  running?.kill("SIGTERM");
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const summary = [];
let belowTarget = false;
for (const [i, address] of pages.entries()) {
  const name = address.replace(/^\//, "").replaceAll("/", "_") || "home";
  const report = await lighthouse(`${url}${address}`, localeOf(address).lang, join(OUT, `${name}.json`));
  if (report.runtimeError) throw new Error(`Lighthouse could not test ${address}: ${report.runtimeError.message}`);
  const scores = Object.fromEntries(Object.keys(TARGETS).map((id) => [id, report.categories[id]?.score ?? null]));
  const failing = Object.entries(TARGETS)
    .filter(([id, min]) => scores[id] === null || scores[id] < min)
    .map(([id]) => id);
  if (failing.length) belowTarget = true;
  summary.push({ address, scores, failing });
  const shown = Object.values(scores)
    .map((s) => String(Math.round((s ?? 0) * 100)).padStart(4))
    .join("");
  const below = failing.length ? `  below target: ${failing.join(", ")}` : "";
  console.log(`${String(i + 1).padStart(3)}/${pages.length} ${shown}  ${address}${below}`);
}
writeFileSync(join(OUT, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\nperformance, accessibility, best practices, SEO per page; reports in ${OUT}`);
process.exitCode = belowTarget ? 1 : 0;
