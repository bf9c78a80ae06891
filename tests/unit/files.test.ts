import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { filesBelow, filesIn, filesUnder } from "../../src/generator/files.ts";

/** The listings a build reads its entries, text, images and public files from, and its output folder by. */
describe("listing a project's files", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-files-"));
  const put = (file: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), file);
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  put("content/pt/insights/b-second.md");
  put("content/pt/insights/a-first.yaml");
  put("content/pt/insights/notes.txt");
  put("content/pt/insights/.hidden.md");
  put("content/pt/insights/drafts/nested.md");
  put("content/pt/insights/UPPER.MD");
  put("elsewhere/linked.md");
  symlinkSync(join(root, "elsewhere/linked.md"), join(root, "content/pt/insights/c-linked.md"));
  symlinkSync(join(root, "nowhere.md"), join(root, "content/pt/insights/d-broken.md"));
  put("generated/en/one.yaml");
  symlinkSync(join(root, "generated/en"), join(root, "content/en-linked"));
  put("content/pt/images/Cover.JPG");
  put("content/pt/images/diagram.svg");
  put("content/pt/.cache/skip.png");
  symlinkSync(join(root, "content"), join(root, "content/pt/images/loop"));

  const listsFolderFiles =
    "lists a folder's files of the given extensions, sorted, links followed, dot files and subfolders left out";
  it(listsFolderFiles, () => {
    expect(filesIn(root, "content/pt/insights", ["md", "yaml", "yml"])).toEqual([
      "content/pt/insights/a-first.yaml",
      "content/pt/insights/b-second.md",
      "content/pt/insights/c-linked.md",
    ]);
  });

  it("reads a folder that is a link, and gives nothing for a folder that is not there", () => {
    expect(filesIn(root, "content/en-linked", ["yaml"])).toEqual(["content/en-linked/one.yaml"]);
    expect(filesIn(root, "content/de/insights", ["md"])).toEqual([]);
    expect(filesBelow(root, "public")).toEqual([]);
  });

  it("lists every file below a folder, of extensions in any case, walking a folder reached through a link once", () => {
    const images = filesBelow(root, "content", ["jpg", "png", "svg"]);
    expect(images).toEqual(["content/pt/images/Cover.JPG", "content/pt/images/diagram.svg"]);
    expect(filesBelow(root, "content")).toContain("content/pt/insights/drafts/nested.md");
    expect(filesBelow(root, "content")).toContain("content/en-linked/one.yaml");
    expect(filesBelow(root, "content").filter((file) => file.includes(".cache") || file.includes(".hidden"))).toEqual(
      [],
    );
  });

  it("lists an output folder whole, dot files included", () => {
    const out = join(root, "out");
    mkdirSync(join(out, "en", "insights"), { recursive: true });
    for (const file of [".well-known", "index.html", "en/insights/x.html", "en/insights/x.html.br"])
      writeFileSync(join(out, file), "");
    expect(filesUnder(out).sort()).toEqual([
      ".well-known",
      "en/insights/x.html",
      "en/insights/x.html.br",
      "index.html",
    ]);
  });
});
