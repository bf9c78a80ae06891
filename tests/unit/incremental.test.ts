import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { buildSite, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { parseHtml, projectCopy, treeHashes } from "../helpers.ts";

/**
 * `sitegen build` into a folder it built before keeps the pages whose inputs did not change. Whatever the
 * edit, the output must be byte for byte what a cold build of the same sources writes: the test makes
 * each edit to a copy of the site with a few hundred pages, builds it incrementally and cold, and compares
 * both folders whole (pages, listing pages, feeds, sitemap, assets).
 */
const TAGS = ["governance", "strategy", "operations", "mlops"];
const GENERATED = 60;

let project: string;
let work: string;
let out: string;
let cold: string;

const article = (
  locale: string,
  i: number,
  title = `${locale === "pt" ? "Artigo de teste" : "Test article"} ${i}`,
  body = `${locale === "pt" ? "Texto do artigo" : "Text of the article"} ${i}.`,
) =>
  [
    "---",
    `title: "${title}"`,
    `description: "${locale === "pt" ? "Resumo" : "Summary"} ${i}."`,
    `date: 2025-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 27) + 1).padStart(2, "0")}`,
    "author: cto",
    `tags: [${TAGS[i % TAGS.length]}, ${TAGS[(i + 1) % TAGS.length]}]`,
    "---",
    "",
    body,
    "",
  ].join("\n");
const articleFile = (locale: string, i: number) => join(project, "content", locale, "insights", `generated-${i}.md`);

/** Builds into `out` (incremental) and into `cold` (from nothing); both folders must hold the same bytes. */
async function buildBoth(options: { precompress?: boolean | "fast"; drafts?: boolean } = {}): Promise<BuildResult> {
  const incremental = await buildSite({ root: project, outDir: out, ...options });
  rmSync(cold, { recursive: true, force: true });
  await buildSite({ root: project, outDir: cold, incremental: false, ...options });
  expect(treeHashes(out)).toEqual(treeHashes(cold));
  return incremental;
}

const read = (file: string) => readFileSync(join(out, file), "utf8");

beforeAll(async () => {
  project = projectCopy();
  work = mkdtempSync(join(tmpdir(), "sitegen-incremental-"));
  out = join(work, "dist");
  cold = join(work, "cold");
  for (const locale of ["pt", "en"])
    for (let i = 0; i < GENERATED; i++) writeFileSync(articleFile(locale, i), article(locale, i));
  const first = await buildSite({ root: project, outDir: out });
  expect(first.rendered).toBe(first.pages.length);
}, 180_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("incremental build", () => {
  it("renders nothing when nothing changed, and keeps every file", async () => {
    const result = await buildBoth();
    expect(result.pages.length).toBeGreaterThan(2 * GENERATED);
    expect(result.rendered).toBe(0);
  }, 120_000);

  it("renders only the article whose text changed", async () => {
    // One of the newest articles, so that the feeds carry its text too.
    expect(read("insights/rss.xml")).toContain("Texto do artigo 23.");
    writeFileSync(articleFile("pt", 23), article("pt", 23, undefined, "Um parágrafo reescrito, com outra conclusão."));
    const result = await buildBoth();
    expect(result.rendered).toBe(1);
    expect(read("insights/generated-23.html")).toContain("Um parágrafo reescrito, com outra conclusão.");
    expect(read("insights/rss.xml")).toContain("Um parágrafo reescrito");
  }, 120_000);

  const rendersOlderArticleOnly =
    "renders only an older article's page when its text is edited, though it shows related articles and its " +
    "neighbours";
  it(
    rendersOlderArticleOnly,
    async () => {
      // Older than the feeds' newest, and as many words: its fields and reading time, which its collection's
      // other pages show, stay as they were, so only its own page changes.
      expect(read("en/insights/rss.xml")).not.toContain("Text of the article 12.");
      writeFileSync(articleFile("en", 12), article("en", 12, undefined, "Text of the paper 12."));
      const result = await buildBoth();
      expect(result.rendered).toBe(1);
      expect(read("en/insights/generated-12.html")).toContain("Text of the paper 12.");
    },
    120_000,
  );

  it("renders the pages that show an article's card when its reading time changes", async () => {
    writeFileSync(
      articleFile("en", 12),
      article("en", 12, undefined, Array.from({ length: 900 }, (_, i) => `word${i}`).join(" ")),
    );
    const result = await buildBoth();
    expect(result.rendered).toBeGreaterThan(1);
    expect(read("en/insights/generated-12.html")).toContain("word899");
  }, 120_000);

  it("re-renders the listing, the feeds and the neighbours' links when a title changes", async () => {
    const before = read("insights/generated-8.html");
    writeFileSync(articleFile("pt", 8), article("pt", 8, "Um título novo para o artigo oito"));
    const result = await buildBoth();
    expect(result.rendered).toBeGreaterThan(1);
    expect(read("insights/generated-8.html")).not.toBe(before);
    const listings = readdirSync(join(out, "insights", "page"))
      .map((f) => read(`insights/page/${f}`))
      .concat(read("insights.html"));
    expect(listings.some((html) => html.includes("Um título novo para o artigo oito"))).toBe(true);
    expect(
      read("insights/atom.xml") +
        read("insights/rss.xml") +
        readdirSync(join(out, "insights"))
          .filter((f) => f.startsWith("generated-") && f !== "generated-8.html")
          .map((f) => read(`insights/${f}`))
          .join(""),
    ).toContain("Um título novo para o artigo oito");
  }, 120_000);

  const sitemapKeptUntilDates =
    "keeps the sitemap while the addresses and dates stay, and writes it again when an article's date changes";
  it(
    sitemapKeptUntilDates,
    async () => {
      const sitemap = statSync(join(out, "sitemap.xml"));
      writeFileSync(articleFile("en", 30), article("en", 30, undefined, "A new paragraph, same date."));
      await buildBoth();
      expect(statSync(join(out, "sitemap.xml")).mtimeMs).toBe(sitemap.mtimeMs);
      const url = /<url><loc>[^<]*\/en\/insights\/generated-30<\/loc><lastmod>([^<]+)<\/lastmod>/;
      expect(read("sitemap.xml").match(url)?.[1]).toMatch(/^2025-07-04/);
      writeFileSync(
        articleFile("en", 30),
        article("en", 30, undefined, "A new paragraph, same date.").replace(
          /^date: .*$/m,
          "date: 2025-07-09\nupdated: 2026-02-01",
        ),
      );
      await buildBoth();
      expect(read("sitemap.xml").match(url)?.[1]).toMatch(/^2026-02-01/);
    },
    120_000,
  );

  it("renders everything again when a text key changes", async () => {
    const file = join(project, "content", "en", "insights.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("previous: Previous article", "previous: Earlier article"));
    const result = await buildBoth();
    expect(result.rendered).toBe(result.pages.length);
    expect(read("en/insights/generated-5.html")).toContain("Earlier article");
  }, 120_000);

  it("adds a new article everywhere, and removes a deleted one from the pages, the sitemap and the feeds", async () => {
    writeFileSync(articleFile("en", 100), article("en", 100, "A brand new article", "Brand new text."));
    expect(read("en/insights/rss.xml")).toContain("/en/insights/generated-11<");
    rmSync(articleFile("en", 11));
    await buildBoth();
    expect(existsSync(join(out, "en/insights/generated-100.html"))).toBe(true);
    expect(read("sitemap.xml")).toContain("/en/insights/generated-100<");
    expect(existsSync(join(out, "en/insights/generated-11.html"))).toBe(false);
    expect(read("sitemap.xml")).not.toContain("/en/insights/generated-11<");
    expect(read("en/insights/rss.xml")).not.toContain("/en/insights/generated-11<");
    // The Portuguese page that was its translation no longer links to it.
    expect(read("insights/generated-11.html")).not.toContain('/en/insights/generated-11"');
  }, 120_000);

  it("renders again the translation of an article that leaves its pair, whose own file did not change", async () => {
    expect(read("insights/generated-14.html")).toContain('/en/insights/generated-14"');
    writeFileSync(
      articleFile("en", 14),
      article("en", 14).replace(/^tags: (.*)$/m, "tags: $1\ntranslationKey: generated-fourteen-alone"),
    );
    const result = await buildBoth();
    expect(read("insights/generated-14.html")).not.toContain('/en/insights/generated-14"');
    expect(result.rendered).toBeLessThan(result.pages.length / 2);
  }, 120_000);

  const followsTagChanges =
    "follows an article's tags: the page of a tag it leaves goes when no other article has it, and comes back with it";
  it(
    followsTagChanges,
    async () => {
      const file = join(project, "content", "en", "insights", "ai-governance.md");
      const original = readFileSync(file, "utf8");
      // The only English article on regulation.
      expect(read("en/insights/tags/regulation.html")).toContain('href="/en/insights/ai-governance"');
      writeFileSync(file, original.replace("tags: [governance, regulation]", "tags: [governance, generative-ai]"));
      const result = await buildBoth();
      expect(result.rendered).toBeLessThan(result.pages.length);
      expect(existsSync(join(out, "en/insights/tags/regulation.html"))).toBe(false);
      expect(read("en/insights/tags/generative-ai.html")).toContain('href="/en/insights/ai-governance"');
      expect(read("en/insights/tags.html")).not.toContain('href="/en/insights/tags/regulation"');
      const alternates = parseHtml(read("insights/tags/regulation.html")).querySelectorAll('link[rel="alternate"]');
      expect(alternates.map((link) => link.getAttribute("hreflang"))).not.toContain("en");
      expect(alternates.map((link) => link.getAttribute("hreflang"))).toContain("pt-BR");
      expect(read("sitemap.xml")).not.toContain("/en/insights/tags/regulation<");
      writeFileSync(file, original);
      await buildBoth();
      expect(read("en/insights/tags/regulation.html")).toContain('href="/en/insights/ai-governance"');
      expect(read("sitemap.xml")).toContain("/en/insights/tags/regulation<");
    },
    180_000,
  );

  const keepsCompressedTwins =
    "keeps the compressed twins of unchanged pages, as sitegen serve builds (drafts, twins compressed fast)";
  it(
    keepsCompressedTwins,
    async () => {
      await buildSite({ root: project, outDir: out, precompress: "fast", drafts: true });
      writeFileSync(articleFile("pt", 23), article("pt", 23, undefined, "Mais uma versão do texto."));
      const result = await buildBoth({ precompress: "fast", drafts: true });
      expect(result.rendered).toBe(1);
      expect(existsSync(join(out, "insights/generated-22.html.br"))).toBe(true);
      // The edited page's and the feed's twins were made again, and open to what the files hold now.
      for (const file of ["insights/generated-23.html", "insights/rss.xml"]) {
        expect(brotliDecompressSync(readFileSync(join(out, `${file}.br`))).toString()).toBe(read(file));
        expect(gunzipSync(readFileSync(join(out, `${file}.gz`))).toString()).toBe(read(file));
      }
      expect(read("insights/generated-23.html")).toContain("Mais uma versão do texto.");
    },
    300_000,
  );

  const keepsArticleWithImage =
    "keeps an article with an image in its body as it is, its image files included, when another article changes";
  it(
    keepsArticleWithImage,
    async () => {
      const withImage = (text: string) =>
        article(
          "en",
          120,
          "An article with a chart",
          `${text}\n\n![A chart of the pilots](../../images/insights/ai-governance.webp)\n`,
        );
      writeFileSync(articleFile("en", 120), withImage("Before the chart."));
      await buildBoth();
      expect(read("en/insights/generated-120.html")).toMatch(/<picture>[^]*alt="A chart of the pilots"/);
      writeFileSync(articleFile("en", 7), article("en", 7, undefined, "Another article's text, changed."));
      const result = await buildBoth();
      expect(result.rendered).toBe(1);
      expect(read("en/insights/generated-120.html")).toMatch(/<picture>[^]*alt="A chart of the pilots"/);
    },
    300_000,
  );

  it("renders every page again when a source image changes, since pages name its files by their bytes", async () => {
    const cover = join(project, "content", "images", "insights", "ai-governance.webp");
    const before = read("en/insights/ai-governance.html");
    copyFileSync(join(project, "content", "images", "insights", "ai-agents-back-office.webp"), cover);
    const result = await buildBoth();
    expect(result.rendered).toBe(result.pages.length);
    expect(read("en/insights/ai-governance.html")).not.toBe(before);
  }, 300_000);

  it("starts cold on a new day, since a page may show the date (the footer's year)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date(2026, 11, 31, 12));
      await buildSite({ root: project, outDir: out });
      vi.setSystemTime(new Date(2027, 0, 1, 12));
      const result = await buildBoth();
      expect(result.rendered).toBe(result.pages.length);
      expect(read("index.html")).toContain("2027");
    } finally {
      vi.useRealTimers();
    }
  }, 300_000);
});
