import { afterEach, describe, it } from "vitest";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { watchTree, type TreeWatcher } from "../../src/server/watch-tree.ts";

/** What `sitegen serve` watches under src/ and content/: every kind of save, in any folder, old or new. */
describe("watchTree", () => {
  let watcher: TreeWatcher | undefined;
  afterEach(() => watcher?.close());

  /** Watches a fresh tree; `saw(path)` resolves once an event names that path, failing after a few seconds. */
  const watched = () => {
    const root = mkdtempSync(join(tmpdir(), "sitegen-watch-tree-"));
    mkdirSync(join(root, "en"));
    writeFileSync(join(root, "en", "common.yaml"), "a: 1\n");
    const seen: string[] = [];
    const waiting: { path: string; resolve(): void }[] = [];
    watcher = watchTree(root, (path) => {
      seen.push(path);
      for (const w of waiting.filter((w) => w.path === path)) w.resolve();
    });
    const saw = (path: string) =>
      new Promise<void>((resolve, reject) => {
        if (seen.includes(path)) return resolve();
        const timer = setTimeout(() => reject(new Error(`no event for ${path}; saw ${JSON.stringify(seen)}`)), 5_000);
        waiting.push({ path, resolve: () => (clearTimeout(timer), resolve()) });
      });
    return { root, saw, clear: () => seen.splice(0) };
  };

  const seesRenamedSaves =
    "sees every save that renames a new file over the old one, not only the first, and plain writes after them";
  it(seesRenamedSaves, async () => {
    const { root, saw, clear } = watched();
    const file = join(root, "en", "common.yaml");
    for (let i = 0; i < 3; i++) {
      clear();
      writeFileSync(`${file}.tmp`, `a: ${i}\n`);
      renameSync(`${file}.tmp`, file);
      await saw(file);
    }
    clear();
    writeFileSync(file, "a: plain\n");
    await saw(file);
  });

  it("watches a folder made after it started, and one moved in with its files", async () => {
    const { root, saw } = watched();
    const made = join(root, "insights");
    mkdirSync(made);
    await saw(made);
    writeFileSync(join(made, "post.md"), "# Post\n");
    await saw(join(made, "post.md"));

    const outside = mkdtempSync(join(root, "..", "sitegen-moved-"));
    mkdirSync(join(outside, "pt"));
    writeFileSync(join(outside, "pt", "common.yaml"), "a: 1\n");
    renameSync(join(outside, "pt"), join(root, "pt"));
    await saw(join(root, "pt"));
    writeFileSync(join(root, "pt", "common.yaml"), "a: 2\n");
    await saw(join(root, "pt", "common.yaml"));
    rmSync(outside, { recursive: true });
  });

  it("sees a folder removed, and the same name made again", async () => {
    const { root, saw, clear } = watched();
    const folder = join(root, "en");
    rmSync(folder, { recursive: true });
    await saw(folder);
    clear();
    mkdirSync(folder);
    await saw(folder);
    writeFileSync(join(folder, "common.yaml"), "a: 3\n");
    await saw(join(folder, "common.yaml"));
  });
});
