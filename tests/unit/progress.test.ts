import { describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import {
  NO_PROGRESS,
  terminalProgress,
  type Progress,
  type ProgressStream,
} from "../../src/generator/pipeline/progress.ts";
import { projectCopy } from "../helpers.ts";

/** A terminal that keeps what is written to it, and a clock the test moves. */
function terminal(columns = 80) {
  const written: string[] = [];
  let now = 0;
  const stream: ProgressStream = { isTTY: true, columns, write: (text: string) => written.push(text) };
  return { stream, written, clock: { now: () => now, at: (ms: number) => (now = ms) } };
}

const ERASE = "\r\x1b[2K";

describe("a build's progress on a terminal", () => {
  it("stays silent for a short build, then shows the stage and its count on one line, rewritten in place", () => {
    const { stream, written, clock } = terminal();
    const progress = terminalProgress(stream, { delayMs: 400, everyMs: 100, now: clock.now });
    clock.at(100);
    progress.step("Reading entries", 500, 20_000);
    expect(written).toEqual([]);
    clock.at(450);
    progress.step("Rendering pages", 4_000, 20_000);
    expect(written).toEqual([`${ERASE}Rendering pages 4,000 of 20,000 (20 %)`]);
    // Within the interval, a step is not written again...
    clock.at(500);
    progress.step("Rendering pages", 4_500, 20_000);
    expect(written).toHaveLength(1);
    // ...except a stage's last, so that the line never stays short of its total.
    progress.step("Rendering pages", 20_000, 20_000);
    expect(written.at(-1)).toBe(`${ERASE}Rendering pages 20,000 of 20,000 (100 %)`);
    progress.clear();
    expect(written.at(-1)).toBe(ERASE);
    // Once cleared, clearing again writes nothing.
    progress.clear();
    expect(written.filter((w) => w === ERASE)).toHaveLength(1);
  });

  it("never writes a line wider than the terminal, which would wrap and leave a line behind", () => {
    const { stream, written, clock } = terminal(20);
    const progress = terminalProgress(stream, { delayMs: 0, now: clock.now });
    progress.step("Rendering pages", 1_234, 5_678);
    // One column is left free: a line that fills the last one wraps on some terminals.
    expect(written[0]).toBe(`${ERASE}Rendering pages 1,2`);
  });

  it("takes a terminal that does not tell its width as 80 columns wide", () => {
    const { stream, written, clock } = terminal(0);
    const progress = terminalProgress(stream, { delayMs: 0, now: clock.now });
    progress.step("Reading entries", 7, 10);
    expect(written).toEqual([`${ERASE}Reading entries 7 of 10 (70 %)`]);
  });

  it("writes nothing where the output is not a terminal (a CI log, a pipe)", () => {
    const written: string[] = [];
    const progress = terminalProgress({ isTTY: false, write: (text: string) => written.push(text) }, { delayMs: 0 });
    expect(progress).toBe(NO_PROGRESS);
    progress.step("Rendering pages", 1, 2);
    progress.clear();
    expect(written).toEqual([]);
  });
});

describe("what a build reports", () => {
  it("counts every entry read, every source image and every page rendered, each stage up to its total", async () => {
    const steps: [string, number, number][] = [];
    const recorder: Progress = { step: (stage, done, total) => void steps.push([stage, done, total]), clear() {} };
    const root = projectCopy();
    const out = join(mkdtempSync(join(tmpdir(), "sitegen-progress-")), "dist");
    const result = await buildSite({ root, outDir: out, progress: recorder });
    const stage = (name: string) => steps.filter(([s]) => s === name);
    const last = (name: string) => stage(name).at(-1)!;

    const entryFiles = ["pt", "en"].reduce(
      (sum, locale) => sum + readdirSync(join(root, "content", locale, "insights")).length,
      0,
    );
    expect(last("Reading entries")).toEqual(["Reading entries", entryFiles, entryFiles]);
    expect(stage("Reading entries").map(([, done]) => done)).toEqual(
      Array.from({ length: entryFiles }, (_, i) => i + 1),
    );
    expect(last("Making images")[1]).toBe(last("Making images")[2]);
    expect(last("Making images")[2]).toBe(result.images.count);
    expect(result.rendered).toBe(result.pages.length);
    expect(last("Rendering pages")).toEqual(["Rendering pages", result.rendered, result.rendered]);
    // The stages come in the build's order.
    const order = [...new Set(steps.map(([s]) => s))];
    expect(order).toEqual(["Reading entries", "Making images", "Rendering pages"]);
  });
});
