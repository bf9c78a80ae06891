import { afterEach, describe, expect, it } from "vitest";
import { BodiesAhead } from "../../src/generator/build/bodies-ahead.ts";
import { FileWriter } from "../../src/generator/build/file-writer.ts";
import { createMarkdown } from "../../src/generator/markdown.ts";

const SITE = "https://www.example.com.br";
const BODIES: Record<string, string> = {
  "content/pt/insights/governanca.md": "## Por que a LGPD já pede isso?\n\nTexto com [link externo](https://anpd.gov.br/) e [interno](https://www.example.com.br/contact), nota[^1].\n\n| Lei | Ano |\n|---|---|\n| LGPD | 2018 |\n\n[^1]: PL 2338/2023.\n",
  "content/en/insights/raw.md": "# Title\n\n<script>alert(1)</script> and *emphasis*, `code`.\n\n> quoted\n\n1. one\n2. two\n",
  "content/en/insights/plain.md": "Just a paragraph.\n\nAnd another one, with **bold** text.\n",
};

describe("Markdown bodies rendered ahead on the writing thread", () => {
  let writer: FileWriter | undefined;
  afterEach(async () => {
    await writer?.abandon();
    writer = undefined;
  });

  const waitFor = async (ready: () => boolean) => {
    for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it("gives each body's HTML as this thread would render it, once; what was never offered is rendered here", async () => {
    writer = new FileWriter(true);
    const ahead = new BodiesAhead(writer, SITE);
    for (const [file, markdown] of Object.entries(BODIES)) ahead.offer(file, markdown);
    await waitFor(() => ahead.renderedThere === 3);
    expect(ahead.renderedThere).toBe(3);
    const render = createMarkdown(SITE);
    for (const [file, markdown] of Object.entries(BODIES)) {
      const html = ahead.take(file);
      expect(html).toBe(render(markdown));
      // Taken once: asked again, it is this thread's to render.
      expect(ahead.take(file)).toBeUndefined();
    }
    expect(ahead.take("content/pt/insights/never-offered.md")).toBeUndefined();
    expect(render(BODIES["content/en/insights/raw.md"])).toContain("&lt;script&gt;");
    ahead.stop();
  });

  it("leaves a body to this thread when this one asks first, or once stopped", async () => {
    writer = new FileWriter(true);
    const ahead = new BodiesAhead(writer, SITE);
    ahead.offer("content/en/insights/plain.md", BODIES["content/en/insights/plain.md"]);
    // Asked for at once: either the thread has not begun it (rendered here: undefined), or it is awaited.
    const first = ahead.take("content/en/insights/plain.md");
    expect(first === undefined || first === createMarkdown(SITE)(BODIES["content/en/insights/plain.md"])).toBe(true);
    ahead.offer("content/en/insights/raw.md", BODIES["content/en/insights/raw.md"]);
    await waitFor(() => ahead.renderedThere >= 1 + (first === undefined ? 0 : 1));
    ahead.stop();
    expect(ahead.take("content/en/insights/raw.md")).toBeUndefined();
  });
});
