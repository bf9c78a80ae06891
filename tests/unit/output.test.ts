import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { StagedOutput } from "../../src/generator/output.ts";

/**
 * The staged output folder: files go to a sibling folder, and the output folder changes only on commit.
 * Files that need compressing go through the output thread; the same must hold without it (one core).
 */
describe.each([
  ["with the output thread", "1"],
  ["without it", "0"],
])("staged output %s", (_, thread) => {
  const previous = process.env.SITEGEN_OUTPUT_THREAD;
  afterEach(() => {
    if (previous === undefined) delete process.env.SITEGEN_OUTPUT_THREAD;
    else process.env.SITEGEN_OUTPUT_THREAD = previous;
  });
  const fresh = () => {
    process.env.SITEGEN_OUTPUT_THREAD = thread;
    const parent = mkdtempSync(join(tmpdir(), "sitegen-output-"));
    return { parent, target: join(parent, "dist") };
  };

  it("writes files, compresses them, writes twins only when asked, and swaps the folder in on commit", async () => {
    const { parent, target } = fresh();
    mkdirSync(target);
    writeFileSync(join(target, "old.html"), "previous build");
    const out = new StagedOutput(target);
    const page = "<!doctype html><title>Sobre</title><p>Transformação com IA, do piloto à produção.</p>".repeat(20);
    const [made, plain, asset] = await Promise.all([
      out.emit("pt/sobre.html", page, { br: 6, gz: true, twins: true }),
      out.emit("robots.txt", "User-agent: *\n"),
      out.emit("assets/site.css", new TextEncoder().encode("body{color:#123}"), { br: 10 }),
    ]);
    // Nothing shows in the output folder before the commit.
    expect(readdirSync(target)).toEqual(["old.html"]);
    await out.commit();
    expect(readdirSync(target).sort()).toEqual(["assets", "pt", "robots.txt"]);
    expect(readFileSync(join(target, "pt/sobre.html"), "utf8")).toBe(page);
    expect(brotliDecompressSync(made.br!).toString("utf8")).toBe(page);
    expect(brotliDecompressSync(readFileSync(join(target, "pt/sobre.html.br"))).toString("utf8")).toBe(page);
    expect(gunzipSync(readFileSync(join(target, "pt/sobre.html.gz"))).toString("utf8")).toBe(page);
    expect(plain).toEqual({ br: undefined, gz: undefined });
    expect(brotliDecompressSync(asset.br!).toString("utf8")).toBe("body{color:#123}");
    expect(existsSync(join(target, "assets/site.css.br"))).toBe(false);
    expect(out.files).toBe(5);
    // The folder beside it is gone: only dist and the old tree being deleted in the background remain.
    expect(readdirSync(parent).filter((f) => f.includes("building"))).toEqual([]);
  });

  it("uses a copy it is given instead of compressing again", async () => {
    const { target } = fresh();
    const out = new StagedOutput(target);
    const given = new Uint8Array([1, 2, 3]);
    const made = await out.emit("index.html", "<p>Olá</p>", { br: given, twins: true });
    await out.commit();
    expect(made.br).toBeUndefined();
    expect([...readFileSync(join(target, "index.html.br"))]).toEqual([1, 2, 3]);
  });

  it("fails the commit when a file cannot be written, and leaves the output folder as it was", async () => {
    const { target } = fresh();
    mkdirSync(target);
    writeFileSync(join(target, "index.html"), "previous build");
    const out = new StagedOutput(target);
    await out.emit("about", "<p>a file</p>", { br: 6 });
    // "about" is a file, so nothing can be written under it.
    await out.emit("about/team.html", "<p>team</p>", { br: 6 });
    await expect(out.commit()).rejects.toThrow(/EEXIST|ENOTDIR/);
    expect(readdirSync(target)).toEqual(["index.html"]);
    expect(readFileSync(join(target, "index.html"), "utf8")).toBe("previous build");
    await out.discard();
  });
});
