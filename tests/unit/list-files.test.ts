import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listFiles } from "../../src/generator/list-files.ts";

describe("listFiles", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-list-"));
  for (const file of ["src/islands/b.tsx", "src/islands/a.ts", "src/islands/notes.md", "src/islands/.hidden.ts", "src/islands/runtime/main.ts", "src/islands/.cache/x.ts"]) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "");
  }
  mkdirSync(join(root, "src/islands/folder.ts")); // a folder whose name looks like a file

  it("lists the files of one folder with the given endings, sorted, relative to the root", () => {
    expect(listFiles(root, "src/islands", [".ts", ".tsx"])).toEqual(["src/islands/a.ts", "src/islands/b.tsx"]);
  });

  it("goes into subfolders when asked, still skipping hidden files and folders", () => {
    expect(listFiles(root, "src/islands", [".ts"], true)).toEqual(["src/islands/a.ts", "src/islands/runtime/main.ts"]);
  });

  it("finds nothing in a folder that does not exist", () => {
    expect(listFiles(root, "content/fr", [".yaml"])).toEqual([]);
  });
});
