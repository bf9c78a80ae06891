import { describe, expect, it, beforeAll } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..", "..");
const PROBE = join(ROOT, "node_modules", ".cache", "sitegen-tests", "esbuild-service-probe.mjs");

/**
 * The probe runs in a process of its own (the service's lifetime is per process): it bundles one line
 * through esbuildApi(), then reports what environment its esbuild service process was started with
 * (read from /proc) and whether its own GOGC was left as it was.
 */
const probeSource = `
import { readdirSync, readFileSync } from "node:fs";
import { declareOneShotBuild, esbuildApi } from ${JSON.stringify(join(ROOT, "src/generator/esbuild-service.ts"))};
if (process.argv[2] === "one-shot") declareOneShotBuild();
const result = await esbuildApi().build({ stdin: { contents: "export const answer = 42;" }, write: false, format: "esm" });
const services = readdirSync("/proc").filter((pid) => /^\\d+$/.test(pid)).filter((pid) => {
  try {
    const stat = readFileSync("/proc/" + pid + "/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid && readFileSync("/proc/" + pid + "/cmdline", "utf8").includes("--service");
  } catch {
    return false;
  }
});
const environ = readFileSync("/proc/" + services[0] + "/environ", "utf8").split("\\0");
console.log(JSON.stringify({
  services: services.length,
  code: result.outputFiles[0].text.trim(),
  serviceGogc: environ.find((v) => v.startsWith("GOGC="))?.slice(5) ?? null,
  ownGogc: process.env.GOGC ?? null,
}));
`;

function probe(lifetime: "one-shot" | "long-lived", env: NodeJS.ProcessEnv = {}) {
  const base = { ...process.env };
  delete base.GOGC;
  const child = spawnSync(process.execPath, [PROBE, lifetime], { cwd: ROOT, encoding: "utf8", env: { ...base, ...env } });
  expect(child.stderr).toBe("");
  return JSON.parse(child.stdout) as { services: number; code: string; serviceGogc: string | null; ownGogc: string | null };
}

describe.runIf(process.platform === "linux")("esbuild's service process", () => {
  beforeAll(async () => {
    mkdirSync(join(PROBE, ".."), { recursive: true });
    await build({ stdin: { contents: probeSource, resolveDir: ROOT, loader: "ts" }, outfile: PROBE, bundle: true, platform: "node", format: "esm", external: ["esbuild"], logLevel: "silent" });
  });

  it("runs without Go's garbage collector in a one-shot build, and leaves the build's own environment as it was", () => {
    const seen = probe("one-shot");
    expect(seen.services).toBe(1);
    expect(seen.code).toContain("const answer = 42;");
    expect(seen.serviceGogc).toBe("off");
    expect(seen.ownGogc).toBeNull();
  });

  it("keeps the collector in a long-lived process (sitegen serve, the tests)", () => {
    const seen = probe("long-lived");
    expect(seen.code).toContain("const answer = 42;");
    expect(seen.serviceGogc).toBeNull();
  });

  it("keeps a GOGC the user set", () => {
    const seen = probe("one-shot", { GOGC: "200" });
    expect(seen.serviceGogc).toBe("200");
    expect(seen.ownGogc).toBe("200");
  });
});
