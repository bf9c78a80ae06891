import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReadAhead } from "../../src/generator/build/read-ahead.ts";
import { FileWriter } from "../../src/generator/build/file-writer.ts";
import { countWords, createMarkdown } from "../../src/generator/markdown.ts";
import { parseEntry } from "../../src/generator/entry-file.ts";
import type { CollectionDefinition } from "../../src/generator/site-definition.ts";

const SITE = "https://www.example.com.br";
const BODIES: Record<string, string> = {
  "content/pt/insights/governanca.md": "## Por que a LGPD já pede isso?\n\nTexto com [link externo](https://anpd.gov.br/) e [interno](https://www.example.com.br/contact), nota[^1].\n\n| Lei | Ano |\n|---|---|\n| LGPD | 2018 |\n\n[^1]: PL 2338/2023.\n",
  "content/en/insights/raw.md": "# Title\n\n<script>alert(1)</script> and *emphasis*, `code`.\n\n> quoted\n\n1. one\n2. two\n",
  "content/en/insights/plain.md": "Just a paragraph.\n\nAnd another one, with **bold** text.\n",
};

/** Files as a project holds them: Markdown with front matter, YAML entries (with a Markdown body, or a body field), a draft, an image, a broken one. */
const FILES: Record<string, string> = {
  "content/pt/insights/governanca.md": `---\ntitle: "Governança de IA"\ndate: 2026-11-20\ntags: [governance, regulation]\n---\n\n${BODIES["content/pt/insights/governanca.md"]}`,
  "content/en/insights/raw.md": `---\ntitle: Raw\ndate: 2026-11-21\n---\n${BODIES["content/en/insights/raw.md"]}`,
  "content/en/insights/draft.md": `---\ntitle: Draft\ndraft: true\n---\nNot yet.\n`,
  "content/en/insights/picture.md": `---\ntitle: Picture\n---\n![A chart](chart.png)\n`,
  "content/en/notes/yaml-body.yaml": `title: A note\nbody: |\n  Some *Markdown* here.\n`,
  "content/en/bench/field.yaml": `title: Bench\nbody: "Text, not Markdown: a field."\n`,
  "content/en/insights/broken.md": `---\ntitle: [unclosed\n---\nBody.\n`,
};
const BODY_FIELD = new Set(["content/en/bench/field.yaml"]);

describe("entries read and bodies rendered ahead on the writing thread", () => {
  const root = mkdtempSync(join(tmpdir(), "sitegen-read-ahead-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let writer: FileWriter | undefined;
  afterEach(async () => {
    await writer?.abandon();
    writer = undefined;
  });
  const waitFor = async (ready: () => boolean) => {
    for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const render = createMarkdown(SITE);

  it("reads each file as this thread would, and renders each Markdown body without an image that is not a draft", async () => {
    writer = new FileWriter(true);
    const ahead = new ReadAhead(writer, root, SITE, false);
    const files = Object.keys(FILES).map((file) => ({ file, bodyField: BODY_FIELD.has(file) }));
    ahead.willRead(files);
    await waitFor(() => ahead.doneThere.entries === files.length && ahead.doneThere.bodies === 3);
    expect(ahead.doneThere).toEqual({ entries: files.length, bodies: 3 });
    for (const { file, bodyField } of files) {
      const read = ahead.entry(file);
      if (file.endsWith("broken.md")) {
        // What the thread could not parse is read here, which reports the error.
        expect(read).toBeUndefined();
        continue;
      }
      const text = readFileSync(join(root, file), "utf8");
      const here = parseEntry(file, text, { name: "any", schema: bodyField ? { body: { type: "text" } } : {} } as unknown as CollectionDefinition);
      const { size, mtimeMs } = statSync(join(root, file));
      expect(read).toEqual({ ...here, hash: createHash("sha1").update(text).digest("hex"), size, mtimeMs, words: countWords(here.body) });
    }
    expect(ahead.take("content/pt/insights/governanca.md")).toBe(render(BODIES["content/pt/insights/governanca.md"]));
    expect(ahead.take("content/en/insights/raw.md")).toContain("&lt;script&gt;");
    expect(ahead.take("content/en/notes/yaml-body.yaml")).toBe(render("Some *Markdown* here.\n"));
    // Taken once: asked again, it is this thread's to render. Drafts, images and body fields are never rendered there.
    expect(ahead.take("content/pt/insights/governanca.md")).toBeUndefined();
    for (const file of ["content/en/insights/draft.md", "content/en/insights/picture.md", "content/en/bench/field.yaml"]) expect(ahead.take(file)).toBeUndefined();
    ahead.stop();
  });

  it("renders a body this thread read, as this thread would; what was never offered is rendered here", async () => {
    writer = new FileWriter(true);
    const ahead = new ReadAhead(writer, root, SITE, false);
    for (const [file, markdown] of Object.entries(BODIES)) ahead.offer(file, markdown);
    await waitFor(() => ahead.doneThere.bodies === 3);
    for (const [file, markdown] of Object.entries(BODIES)) expect(ahead.take(file)).toBe(render(markdown));
    expect(ahead.take("content/pt/insights/never-offered.md")).toBeUndefined();
    ahead.stop();
  });

  it("leaves a file to this thread when this one asks first, or once stopped", async () => {
    writer = new FileWriter(true);
    const ahead = new ReadAhead(writer, root, SITE, false);
    const files = Object.keys(FILES).map((file) => ({ file, bodyField: BODY_FIELD.has(file) }));
    // Asked for at once, the first file is this thread's (the other reads from the last), or awaited if begun there.
    ahead.willRead(files);
    const first = ahead.entry(files[0].file);
    if (first !== undefined) expect(first.hash).toBe(createHash("sha1").update(FILES[files[0].file]).digest("hex"));
    ahead.stop();
    expect(ahead.entry(files[1].file)).toBeUndefined();
    expect(ahead.take("content/en/insights/raw.md")).toBeUndefined();
  });
});
