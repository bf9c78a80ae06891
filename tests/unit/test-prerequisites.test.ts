import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "test-prerequisites.mjs");
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A machine made of one folder: PATH is only that folder, so the real java and apt-get are out of sight,
 * and what it holds (a java, an apt-get that records its calls) decides what the script sees.
 */
function machine(has: { java?: boolean; aptGet?: "works" | "fails"; postgres?: boolean } = {}) {
  const bin = mkdtempSync(join(tmpdir(), "sitegen-prereq-"));
  folders.push(bin);
  const log = join(bin, "apt-get.log");
  const executable = (name: string, text: string) => {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  };
  if (has.java) executable("java", "#!/bin/sh\n");
  // Debian's PostgreSQL versions, as /usr/lib/postgresql holds them: there unless the test says otherwise.
  const postgres = join(bin, "postgresql");
  if (has.postgres !== false) {
    mkdirSync(join(postgres, "15", "bin"), { recursive: true });
    executable(join("postgresql", "15", "bin", "initdb"), "#!/bin/sh\n");
  }
  const chromium = join(bin, "chromium");
  executable("chromium", "#!/bin/sh\n");
  if (has.aptGet) {
    // Records each call; "install" puts a java where the script will look, as Debian's package would.
    executable(
      "apt-get",
      `#!${process.execPath}
const { appendFileSync, mkdirSync, writeFileSync } = require("node:fs");
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, frontend: process.env.DEBIAN_FRONTEND }) + "\\n");
if (args[0] === "install") {
  if (${JSON.stringify(has.aptGet)} === "fails") process.exit(100);
  writeFileSync(${JSON.stringify(join(bin, "java"))}, "#!/bin/sh\\n", { mode: 0o755 });
  if (args.includes("postgresql")) {
    mkdirSync(${JSON.stringify(join(postgres, "15", "bin"))}, { recursive: true });
    writeFileSync(${JSON.stringify(join(postgres, "15", "bin", "initdb"))}, "#!/bin/sh\\n", { mode: 0o755 });
  }
}
`,
    );
  }
  return {
    bin,
    chromium,
    aptCalls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line))
        : [],
    /** Runs the script on this machine; an environment value of undefined leaves that variable unset. */
    run(env: Record<string, string | undefined>) {
      const full: Record<string, string | undefined> = {
        PATH: bin,
        CHROMIUM_PATH: chromium,
        PREREQUISITES_POSTGRES_DIR: postgres,
        ...env,
      };
      for (const key of Object.keys(full)) if (full[key] === undefined) delete full[key];
      const child = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8", env: full });
      return { status: child.status, stdout: child.stdout, lines: child.stderr.split("\n").filter(Boolean) };
    },
  };
}

describe("the test prerequisites script (the first step of npm test)", () => {
  it("is the first thing npm test runs", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.test.split(" && ")[0]).toBe("node scripts/test-prerequisites.mjs");
  });

  it("says nothing and exits 0 when Chromium and java are there", () => {
    const m = machine({ java: true, aptGet: "works" });
    expect(m.run({ PREREQUISITES_UID: "0" })).toEqual({ status: 0, stdout: "", lines: [] });
    expect(m.aptCalls()).toEqual([]);
  });

  it("stops a non-root user with one line giving the command to run, and installs nothing", () => {
    const m = machine({ aptGet: "works" });
    const out = m.run({ PREREQUISITES_UID: "1000" });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual([
      "test prerequisites: missing java (for the W3C HTML checker); " +
        "run: sudo apt-get update && sudo apt-get install -y default-jre-headless",
    ]);
    expect(m.aptCalls()).toEqual([]);
  });

  it("stops root too when there is no apt-get", () => {
    const m = machine();
    const out = m.run({ PREREQUISITES_UID: "0" });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual([
      "test prerequisites: missing java (for the W3C HTML checker) and no apt-get to install them: " +
        "install it (on Debian: sudo apt-get update && sudo apt-get install -y default-jre-headless)",
    ]);
  });

  const defaultChromium =
    "looks for Debian's /usr/bin/chromium when CHROMIUM_PATH is not set, and asks for both packages in one line";
  it(defaultChromium, () => {
    const m = machine({ aptGet: "works" });
    const out = m.run({ PREREQUISITES_UID: "1000", CHROMIUM_PATH: undefined });
    // Whether this machine has Debian's Chromium decides which line is right; java is missing either way.
    const packages = existsSync("/usr/bin/chromium") ? "default-jre-headless" : "chromium default-jre-headless";
    const what = existsSync("/usr/bin/chromium")
      ? "java (for the W3C HTML checker)"
      : "/usr/bin/chromium (for the browser tests) and java (for the W3C HTML checker)";
    expect(out.status).toBe(1);
    expect(out.lines).toEqual([
      `test prerequisites: missing ${what}; run: sudo apt-get update && sudo apt-get install -y ${packages}`,
    ]);
  });

  it("stops at a CHROMIUM_PATH that names no file, since Debian's package would not put Chromium there", () => {
    const m = machine({ aptGet: "works" });
    const out = m.run({ PREREQUISITES_UID: "0", CHROMIUM_PATH: join(m.bin, "no-such-chromium") });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual([
      `test prerequisites: CHROMIUM_PATH is "${join(m.bin, "no-such-chromium")}", which is not an executable file: ` +
        "point it at a Chromium, or unset it to use Debian's /usr/bin/chromium (sudo apt-get install -y chromium)",
    ]);
    expect(m.aptCalls()).toEqual([]);
  });

  it("as root, installs what is missing with apt-get (update first, non-interactive) after saying what and why", () => {
    const m = machine({ aptGet: "works" });
    const out = m.run({ PREREQUISITES_UID: "0" });
    expect(out.lines).toEqual([
      "test prerequisites: installing default-jre-headless with apt-get, " +
        "because java (for the W3C HTML checker) is missing",
    ]);
    expect(m.aptCalls()).toEqual([
      { args: ["update", "-q"], frontend: "noninteractive" },
      { args: ["install", "-y", "-q", "default-jre-headless"], frontend: "noninteractive" },
    ]);
    expect(out.status).toBe(0);
  });

  it("as root, installs PostgreSQL's server when no initdb of Debian's is there, for the store tests", () => {
    const m = machine({ java: true, aptGet: "works", postgres: false });
    const out = m.run({ PREREQUISITES_UID: "0" });
    expect(out.lines).toEqual([
      "test prerequisites: installing postgresql with apt-get, " +
        "because PostgreSQL's server (for the store tests) is missing",
    ]);
    expect(m.aptCalls()).toEqual([
      { args: ["update", "-q"], frontend: "noninteractive" },
      { args: ["install", "-y", "-q", "postgresql"], frontend: "noninteractive" },
    ]);
    expect(out.status).toBe(0);
  });

  it("fails with the command to retry when apt-get fails", () => {
    const m = machine({ aptGet: "fails" });
    const out = m.run({ PREREQUISITES_UID: "0" });
    expect(out.status).toBe(1);
    expect(out.lines.at(-1)).toBe(
      "test prerequisites: apt-get install failed (exit code 100); " +
        "run it yourself: apt-get update && apt-get install -y default-jre-headless",
    );
  });
});
