import { beforeAll, describe, expect, it, vi } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { previewNewsletter } from "../../src/api/commands/newsletter.ts";
import { newArticles, readIntro } from "../../src/api/newsletter/compose.ts";
import { formatDay } from "../../src/api/newsletter/issue-mail.tsx";
import { commandContext } from "../../src/generator/site-commands.ts";
import type { PublishedEntry } from "../../src/generator/plugin.ts";
import { projectCopy } from "../helpers.ts";

/** Runs the preview and returns what it printed. */
async function preview(root: string, opts: { since?: string; out: string }, now: Date): Promise<string> {
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  try {
    await previewNewsletter(commandContext(root), opts, now);
  } finally {
    log.mockRestore();
  }
  return lines.join("\n");
}

const NOW = new Date("2026-11-29T12:00:00Z");

describe("sitegen newsletter preview, on the site's own articles", () => {
  let root: string;
  let out: string;
  let printed: string;
  beforeAll(async () => {
    root = projectCopy();
    // An introduction for the issue, with markup the Markdown must not let through, and an older one.
    mkdirSync(join(root, "content", "pt", "newsletter"));
    writeFileSync(join(root, "content", "pt", "newsletter", "2026-10-01.md"), "Uma introdução antiga.\n");
    writeFileSync(
      join(root, "content", "pt", "newsletter", "2026-11-28.md"),
      "Nesta edição, **governança de IA**. <script>alert(1)</script>\n",
    );
    out = join(mkdtempSync(join(tmpdir(), "sitegen-news-")), "issue");
    printed = await preview(root, { since: "2026-11-01", out }, NOW);
  });

  it("writes each language's issue as HTML and plain text, and prints where", () => {
    for (const locale of ["pt", "en"]) {
      expect(printed).toContain(join(out, `${locale}.html`));
      expect(printed).toContain(join(out, `${locale}.txt`));
    }
    expect(printed).toContain('pt: 1 article since 2026-11-01, introduction content/pt/newsletter/2026-11-28.md: "');
    expect(printed).toContain('en: 1 article since 2026-11-01: "Vetor AI Insights · November 29, 2026"');
  });

  it("the HTML names the new article with its link, date, excerpt and cover, in the locale's words", () => {
    const html = readFileSync(join(out, "pt.html"), "utf8");
    expect(html).toContain('<html dir="ltr" lang="pt-BR">');
    expect(html).toContain("<title>Insights da Vetor AI · 29 de novembro de 2026</title>");
    expect(html).toContain("Novos insights da Vetor AI</h1>");
    expect(html).toMatch(/<a href="https:\/\/www\.vetorai\.com\.br\/insights\/governanca-de-ia"[^>]*>PL 2338 e LGPD/);
    expect(html).toContain("Publicado em 22 de novembro de 2026");
    expect(html).toContain("O projeto de marco legal da IA, em tramitação no Congresso");
    // The cover: a JPEG on the site, drawn 552 px wide at its own proportions, decoration beside its title.
    const img = html.match(/<img [^>]*>/g) ?? [];
    expect(img).toHaveLength(1);
    expect(img[0]).toMatch(/ src="https:\/\/www\.vetorai\.com\.br\/assets\/img\/ai-governance-\d+\.[0-9a-f]+\.jpg"/);
    expect(img[0]).toContain(' width="552"');
    expect(img[0]).toMatch(/ height="\d+"/);
    expect(img[0]).toContain(' alt=""');
    // Only the articles since the day: an older one is not in it.
    expect(html).not.toContain("/insights/dados-prontos-para-ia");
    // No tracking and nothing but inline styles.
    expect(html).not.toMatch(/<script|<style|<link /);
  });

  it("the introduction is the newest written since the day, its Markdown rendered and its markup escaped", () => {
    const html = readFileSync(join(out, "pt.html"), "utf8");
    expect(html).toContain(
      "<p>Nesta edição, <strong>governança de IA</strong>. &lt;script&gt;alert(1)&lt;/script&gt;</p>",
    );
    expect(html).not.toContain("Uma introdução antiga");
    expect(readFileSync(join(out, "en.html"), "utf8")).not.toContain("Nesta edição");
  });

  it("the plain-text part holds the same content, each link written out", () => {
    expect(readFileSync(join(out, "en.txt"), "utf8")).toBe(
      [
        "Vetor AI",
        "",
        "New insights from Vetor AI",
        "",
        "Our latest articles:",
        "",
        "Preparing for PL 2338: one AI governance framework that also serves the LGPD",
        "Published on November 22, 2026",
        "Brazil's proposed AI law takes a risk-based approach that would sit alongside the data protection duties " +
          "companies already have. We show how an AI inventory, risk classification and impact assessments can " +
          "meet both without duplicating the paperwork.",
        "https://www.vetorai.com.br/en/insights/ai-governance",
        "",
        "--",
        "You receive this email because you subscribed to the Vetor AI newsletter at https://www.vetorai.com.br.",
        "",
      ].join("\n"),
    );
    expect(readFileSync(join(out, "pt.txt"), "utf8")).toContain(
      "Nesta edição, **governança de IA**. <script>alert(1)</script>\n\nNossos artigos mais recentes:",
    );
  });

  it("shows a cover from the built output when dist/ holds it, and from siteUrl otherwise", async () => {
    // The preview above, made with no built output: the cover on the site.
    const cover = / src="(https:\/\/www\.vetorai\.com\.br\/[^"]+)"/.exec(
      readFileSync(join(out, "pt.html"), "utf8"),
    )?.[1];
    expect(cover).toMatch(/\/assets\/img\/ai-governance-\d+\.[0-9a-f]+\.jpg$/);
    const path = new URL(cover!).pathname;
    const built = join(root, "dist", ...path.split("/").filter(Boolean));
    mkdirSync(dirname(built), { recursive: true });
    writeFileSync(built, "a JPEG as the build writes it");
    const local = join(mkdtempSync(join(tmpdir(), "sitegen-news-")), "issue");
    await preview(root, { since: "2026-11-01", out: local }, NOW);
    const img = readFileSync(join(local, "pt.html"), "utf8").match(/<img [^>]*>/g) ?? [];
    expect(img).toHaveLength(1);
    expect(img[0]).toContain(` src="${pathToFileURL(built).href}"`);
    expect(img[0]).toContain(' width="552"');
    // The plain text links the article on the site, as the sent issue does.
    expect(readFileSync(join(local, "pt.txt"), "utf8")).toContain(
      "https://www.vetorai.com.br/insights/governanca-de-ia",
    );
  });

  it("says so and writes nothing when no article is new", async () => {
    const none = join(mkdtempSync(join(tmpdir(), "sitegen-news-")), "issue");
    const said = await preview(root, { since: "2026-12-01", out: none }, NOW);
    expect(said).toBe(
      "pt: no article published since 2026-12-01; nothing written.\n" +
        "en: no article published since 2026-12-01; nothing written.",
    );
    expect(existsSync(none)).toBe(false);
  });
});

describe("an issue's articles and introduction", () => {
  const entry = (locale: string, key: string, date: string, extra: Partial<PublishedEntry> = {}): PublishedEntry => ({
    locale,
    slug: key,
    key,
    data: { title: `T ${key}`, description: `D ${key}`, date },
    url: `https://example.com/${locale}/${key}`,
    images: {},
    ...extra,
  });

  it("takes the locale's articles dated on or after the day, newest first, leaving out those already sent", () => {
    const entries = [
      entry("pt", "a", "2026-11-01"),
      entry("pt", "b", "2026-11-20"),
      entry("pt", "c", "2026-10-31"),
      entry("en", "d", "2026-11-25"),
      entry("pt", "e", "2026-11-10"),
      entry("pt", "unrouted", "2026-11-26", { url: undefined }),
    ];
    expect(newArticles(entries, "pt", "2026-11-01").map((a) => a.key)).toEqual(["b", "e", "a"]);
    expect(newArticles(entries, "pt", "2026-11-01", new Set(["e"])).map((a) => a.key)).toEqual(["b", "a"]);
    expect(newArticles(entries, "pt", undefined).map((a) => a.key)).toEqual(["b", "e", "a", "c"]);
  });

  it("gives the cover its alt text when the article has one", () => {
    const cover = { url: "https://example.com/c.jpg", width: 800, height: 400 };
    const [article] = newArticles(
      [
        entry("en", "a", "2026-11-01", {
          images: { cover },
          data: { title: "T", date: "2026-11-01", coverAlt: "A chart" },
        }),
      ],
      "en",
      undefined,
    );
    expect(article.cover).toEqual({ ...cover, alt: "A chart" });
  });

  it("an introduction's file name must start with its day", () => {
    const root = mkdtempSync(join(tmpdir(), "sitegen-news-"));
    mkdirSync(join(root, "content", "en", "newsletter"), { recursive: true });
    writeFileSync(join(root, "content", "en", "newsletter", "2026-11-02-launch.md"), "Launch.\n");
    expect(readIntro(root, "en", "2026-11-01")?.file).toBe("content/en/newsletter/2026-11-02-launch.md");
    expect(readIntro(root, "en", "2026-11-03")).toBeUndefined();
    expect(readIntro(root, "pt", undefined)).toBeUndefined();
    writeFileSync(join(root, "content", "en", "newsletter", "intro.md"), "No date.\n");
    expect(() => readIntro(root, "en", undefined)).toThrow("content/en/newsletter/intro.md");
  });

  it("writes a day as each language does", () => {
    expect(formatDay("2026-03-05", "pt-BR")).toBe("5 de março de 2026");
    expect(formatDay("2026-03-05", "en")).toBe("March 5, 2026");
  });
});
