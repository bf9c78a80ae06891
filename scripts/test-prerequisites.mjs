#!/usr/bin/env node
// The first step of `npm test`: make sure the two programs the tests need from outside npm are here,
// before any test runs, so a fresh machine either gets them or is told in one line what to run.
//   - Chromium: the browser tests drive Debian's chromium at /usr/bin/chromium, or CHROMIUM_PATH
//     (playwright.config.ts reads the same variable; Playwright never downloads a browser here).
//   - java: the W3C Nu HTML Checker (vnu-jar, tests/unit/gates.test.ts) is a Java program found on PATH.
//   - PostgreSQL's server: the store tests start a throwaway cluster with Debian's initdb, which lives under
//     /usr/lib/postgresql/<version>/bin, off PATH (a psql client alone does not count).
// When something is missing and we run as root with apt-get, it installs Debian's packages; otherwise it
// stops with the command to run. Plain JavaScript with no dependencies, so it runs before anything else.
//
// Test hook: PREREQUISITES_UID, when set, is used instead of the real user id, so the unit test can take
// the non-root and root paths whoever runs it (tests/unit/test-prerequisites.test.ts), and
// PREREQUISITES_POSTGRES_DIR, when set, is where Debian's PostgreSQL versions are looked for instead of
// /usr/lib/postgresql. Nothing else reads them.
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { spawnSync } from "node:child_process";

const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const say = (line) => console.error(`test prerequisites: ${line}`);

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where `name` would be found on PATH, as the tests' execFileSync("java") will look for it. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const chromiumPath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;

const postgresDir = process.env.PREREQUISITES_POSTGRES_DIR ?? "/usr/lib/postgresql";

/** Whether some version of Debian's PostgreSQL server is installed (its initdb). */
function hasPostgres() {
  const versions = existsSync(postgresDir) ? readdirSync(postgresDir) : [];
  return versions.some((version) => isExecutableFile(join(postgresDir, version, "bin", "initdb")));
}

/** What is missing, each with the Debian package that provides it and why the tests need it. */
function missing() {
  const wanted = [];
  if (!isExecutableFile(chromiumPath)) wanted.push({ what: chromiumPath, pkg: "chromium", why: "the browser tests" });
  if (!onPath("java")) wanted.push({ what: "java", pkg: "default-jre-headless", why: "the W3C HTML checker" });
  if (!hasPostgres()) wanted.push({ what: "PostgreSQL's server", pkg: "postgresql", why: "the store tests" });
  return wanted;
}

const describe = (wanted) => wanted.map((w) => `${w.what} (for ${w.why})`).join(" and ");

let wanted = missing();
if (wanted.length === 0) process.exit(0);

// Debian's package installs /usr/bin/chromium, not whatever CHROMIUM_PATH names: installing would not help.
if (process.env.CHROMIUM_PATH !== undefined && wanted.some((w) => w.pkg === "chromium")) {
  say(
    `CHROMIUM_PATH is ${JSON.stringify(chromiumPath)}, which is not an executable file: ` +
      `point it at a Chromium, or unset it to use Debian's ${DEFAULT_CHROMIUM} (sudo apt-get install -y chromium)`,
  );
  process.exit(1);
}

const packages = wanted.map((w) => w.pkg);
const uid = process.env.PREREQUISITES_UID !== undefined ? Number(process.env.PREREQUISITES_UID) : process.getuid?.();
const aptGet = onPath("apt-get");

if (uid !== 0 || !aptGet) {
  const command = `sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`;
  say(
    aptGet
      ? `missing ${describe(wanted)}; run: ${command}`
      : `missing ${describe(wanted)} and no apt-get to install them: ` +
          `install ${packages.length > 1 ? "them" : "it"} (on Debian: ${command})`,
  );
  process.exit(1);
}

say(
  `installing ${packages.join(" ")} with apt-get, ` +
    `because ${describe(wanted)} ${wanted.length > 1 ? "are" : "is"} missing`,
);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [
  ["update", "-q"],
  ["install", "-y", "-q", ...packages],
]) {
  const run = spawnSync(aptGet, args, { stdio: "inherit", env });
  if (run.status !== 0) {
    say(
      `apt-get ${args[0]} failed (${run.error?.message ?? `exit code ${run.status}`}); ` +
        `run it yourself: apt-get update && apt-get install -y ${packages.join(" ")}`,
    );
    process.exit(1);
  }
}
wanted = missing();
if (wanted.length > 0) {
  say(`still missing ${describe(wanted)} after apt-get installed ${packages.join(" ")}`);
  process.exit(1);
}
