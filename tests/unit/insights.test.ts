import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { jsonLdGraph, parseHtml, projectCopy } from "../helpers.ts";

/** Issue 17: the Insights articles, their listing, feeds and head, built from content/<locale>/insights/. */
const SITE = "https://www.vetorai.com.br";
const abs = (p: string) => SITE + p;
let out: string;
const read = (file: string) => readFileSync(join(out, file), "utf8");
const page = (file: string) => parseHtml(read(file));
const ARTICLES = { pt: readdirSync("content/pt/insights").length, en: readdirSync("content/en/insights").length };

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-insights-")), "dist");
  await buildSite({ root: projectCopy(), outDir: out });
});

describe("the listing", () => {
  it.each([
    ["insights.html", "pt"],
    ["en/insights.html", "en"],
  ] as const)("%s lists every article, newest first, each linked", (file, locale) => {
    const cards = page(file).querySelectorAll("main .post");
    expect(cards).toHaveLength(ARTICLES[locale]);
    const dates = cards.map((c) => c.querySelector("time")!.getAttribute("datetime")!);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const card of cards)
      expect(card.querySelector("h3 a")!.getAttribute("href")).toMatch(
        locale === "en" ? /^\/en\/insights\/[a-z0-9-]+$/ : /^\/insights\/[a-z0-9-]+$/,
      );
  });

  it("is what the navigation and the footer lead to, and the home page shows the three newest, linked", () => {
    const home = page("index.html");
    expect(
      home
        .querySelectorAll(".nav-list a")
        .find((a) => a.textContent === "Insights")!
        .getAttribute("href"),
    ).toBe("/insights");
    expect(
      home
        .querySelectorAll(".site-footer a")
        .find((a) => a.textContent === "Insights")!
        .getAttribute("href"),
    ).toBe("/insights");
    const newest = page("insights.html")
      .querySelectorAll("main .post h3 a")
      .slice(0, 3)
      .map((a) => a.getAttribute("href"));
    expect(home.querySelectorAll("#insights .post h3 a").map((a) => a.getAttribute("href"))).toEqual(newest);
    expect(page("en.html").querySelector("#insights .arrow-link")!.getAttribute("href")).toBe("/en/insights");
  });

  it("is the section the menu marks on the listing (the page itself) and on an article (within it)", () => {
    const insightsLink = (file: string) =>
      page(file)
        .querySelectorAll(".nav-list a")
        .find((a) => a.getAttribute("href") === (file.startsWith("en/") ? "/en/insights" : "/insights"))!;
    expect(insightsLink("insights.html").getAttribute("aria-current")).toBe("page");
    for (const file of ["insights/governanca-de-ia.html", "en/insights/ai-governance.html"]) {
      expect(insightsLink(file).getAttribute("aria-current"), file).toBeUndefined();
      expect(insightsLink(file).classList.contains("is-active"), file).toBe(true);
    }
    expect(insightsLink("about.html").classList.contains("is-active")).toBe(false);
  });
});

describe("an article", () => {
  const pt = () => page("insights/governanca-de-ia.html");
  const en = () => page("en/insights/ai-governance.html");

  const articleHeader =
    "has breadcrumbs Home › Insights › title, the author at the top, its date in the page's language " +
    "and reading time";
  it(articleHeader, () => {
    const doc = pt();
    expect(doc.querySelectorAll("nav.breadcrumbs li").map((li) => li.textContent)).toEqual([
      "Início",
      "Insights",
      "PL 2338 e LGPD: uma só estrutura de governança de IA para atender às duas",
    ]);
    expect(doc.querySelector(".article-meta")!.textContent).toMatch(/^22 de novembro de 2026 · \d+ min de leitura$/);
    expect(en().querySelector(".article-meta")!.textContent).toMatch(/^November 22, 2026 · \d+ min read$/);
    // The byline sits in the article's header, before the text: name (linked to the leadership) and role.
    const byline = doc.querySelector("article header .byline")!;
    expect(byline.querySelector(".byline-name")!.textContent).toBe("Por Carolina Mendes Vasconcelos");
    expect(byline.querySelector(".byline-role")!.textContent).toBe("Cofundadora e CEO");
    expect(byline.querySelector("a")!.getAttribute("href")).toBe("/about#leadership");
  });

  it("ends with the newsletter, and a closing call naming the line of service its subject belongs to", () => {
    const doc = en();
    const form = doc.querySelector(".article-newsletter form")!;
    expect(form.querySelector("input[type=email]")!.getAttribute("id")).toBe("article-newsletter-email");
    expect(doc.querySelector(".site-footer input[type=email]")!.getAttribute("id")).toBe("newsletter-email");
    const band = doc.querySelector(".cta-band")!;
    expect(band.querySelector("p")!.textContent).toContain("This topic is part of our AI Advisory work.");
    expect(band.querySelector('a[href="/en/services/advisory"]')!.textContent).toBe("AI Advisory");
  });

  it("links related articles (shared tags) and the previous and next ones", () => {
    const doc = page("en/insights/generative-ai-pilots.html");
    const related = doc.querySelectorAll("#related-title + ul h3 a").map((a) => a.getAttribute("href"));
    expect(related.length).toBeGreaterThan(0);
    for (const href of related) {
      const tags = page(`${href!.slice(1)}.html`)
        .querySelectorAll(".tag-list li")
        .map((li) => li.textContent);
      expect(
        tags.some((tag) =>
          doc
            .querySelectorAll(".tag-list li")
            .map((li) => li.textContent)
            .includes(tag),
        ),
        href!,
      ).toBe(true);
    }
    const sequence = doc
      .querySelectorAll(".article-sequence a")
      .map((a) => `${a.getAttribute("rel") ?? ""} ${a.getAttribute("href")}`);
    expect(sequence).toEqual([
      "prev /en/insights/ai-agents-back-office",
      "next /en/insights/ai-governance",
      " /en/insights",
    ]);
  });

  it("pairs translated slugs in hreflang and in the language switcher", () => {
    const links = (doc: ReturnType<typeof pt>) =>
      doc
        .querySelectorAll('link[rel="alternate"][hreflang]')
        .map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`);
    const expected = [
      `pt-BR ${abs("/insights/governanca-de-ia")}`,
      `en ${abs("/en/insights/ai-governance")}`,
      `x-default ${abs("/insights/governanca-de-ia")}`,
    ];
    expect(links(pt())).toEqual(expected);
    expect(links(en())).toEqual(expected);
    expect(pt().querySelector("a.lang-switch")!.getAttribute("href")).toBe("/en/insights/ai-governance");
    // Same file name in both folders: paired by it.
    expect(page("insights/mlops-llmops.html").querySelector("a.lang-switch")!.getAttribute("href")).toBe(
      "/en/insights/mlops-llmops",
    );
  });

  it("says it is an article: og:type, published time, and a BlogPosting in JSON-LD", () => {
    const doc = en();
    expect(doc.querySelector('meta[property="og:type"]')!.getAttribute("content")).toBe("article");
    expect(doc.querySelector('meta[property="article:published_time"]')!.getAttribute("content")).toBe("2026-11-22");
    const post = jsonLdGraph(doc).find((n) => n["@type"] === "BlogPosting")!;
    expect(post).toMatchObject({
      headline: "Preparing for PL 2338: one AI governance framework that also serves the LGPD",
      datePublished: "2026-11-22",
      dateModified: "2026-11-22",
      author: {
        "@type": "Person",
        name: "Carolina Mendes Vasconcelos",
        jobTitle: "Co-founder and CEO",
        url: abs("/en/about"),
      },
      publisher: { "@id": `${SITE}/#organization` },
      inLanguage: "en",
    });
    expect(post.description).toBe(doc.querySelector('meta[name="description"]')!.getAttribute("content"));
    expect(page("about.html").querySelector('meta[property="og:type"]')!.getAttribute("content")).toBe("website");
  });

  const rendersMarkdown =
    "renders Markdown: headings with ids that link to themselves, tables, footnotes, rel=noopener on other sites' " +
    "links";
  it(rendersMarkdown, () => {
    const body = pt().querySelector(".article-prose")!;
    const h2 = body.querySelector("h2")!;
    expect(h2.id).toBe("onde-estamos");
    expect(h2.querySelector("a.header-anchor")!.getAttribute("href")).toBe("#onde-estamos");
    expect(body.querySelectorAll("table th").length).toBeGreaterThan(2);
    // A table sits in a frame that scrolls on a phone, takes keyboard focus and has a name, announced by a hint.
    const frame = body.querySelector("table")!.parentNode!;
    expect([
      frame.getAttribute("class"),
      frame.getAttribute("role"),
      frame.getAttribute("tabindex"),
      frame.getAttribute("aria-label"),
    ]).toEqual(["table-wrap", "region", "0", "Tabela 1"]);
    expect(frame.previousElementSibling!.classList.contains("table-hint")).toBe(true);
    const note = body.querySelector("sup.footnote-ref a")!;
    expect(body.querySelector(note.getAttribute("href")!)).not.toBeNull();
    const external = body.querySelectorAll("a").filter((a) => a.getAttribute("href")!.startsWith("https://"));
    expect(external.length).toBeGreaterThan(0);
    for (const a of external) expect(a.getAttribute("rel")).toBe("noopener");
  });
});

describe("feeds and the sitemap", () => {
  const writesFeeds =
    "write RSS 2.0 and Atom per locale with every article (up to 20), full URLs, announced in every page's head";
  it(writesFeeds, () => {
    for (const [dir, locale] of [
      ["insights", "pt"],
      ["en/insights", "en"],
    ] as const) {
      const rss = parseHtml(read(`${dir}/rss.xml`));
      const items = rss.querySelectorAll("item");
      expect(items).toHaveLength(Math.min(20, ARTICLES[locale]));
      for (const item of items)
        expect(item.querySelector("guid")!.textContent).toMatch(new RegExp(`^${SITE}/${dir}/[a-z0-9-]+$`));
      const atom = parseHtml(read(`${dir}/atom.xml`));
      expect(atom.querySelectorAll("entry")).toHaveLength(items.length);
      expect(atom.querySelector("feed > id")!.textContent).toBe(`${SITE}/${dir}`);
    }
    for (const file of ["about.html", "en/contact.html", "insights/governanca-de-ia.html"]) {
      const feeds = page(file)
        .querySelectorAll('link[rel="alternate"][type]')
        .map((l) => `${l.getAttribute("type")} ${l.getAttribute("href")}`);
      const dir = file.startsWith("en/") ? "/en/insights" : "/insights";
      expect(feeds).toEqual([`application/rss+xml ${dir}/rss.xml`, `application/atom+xml ${dir}/atom.xml`]);
    }
  });

  it("list every article with its date as lastmod", () => {
    const urls = parseHtml(read("sitemap.xml")).querySelectorAll("url");
    const article = urls.find((u) => u.querySelector("loc")!.textContent === abs("/en/insights/ai-governance"))!;
    expect(article.querySelector("lastmod")!.textContent).toMatch(/^2026-11-22/);
    expect(
      urls.filter((u) => /\/insights\/(?!tags(\/|$))[a-z]/.test(u.querySelector("loc")!.textContent)),
    ).toHaveLength(ARTICLES.pt + ARTICLES.en);
  });
});

describe("collections, as an author meets them", () => {
  it("build an article in one language only, with no alternate to a page that does not exist", async () => {
    const project = projectCopy();
    writeFileSync(
      join(project, "content", "pt", "insights", "so-em-portugues.md"),
      "---\ntitle: Só em português\ndescription: Um artigo sem tradução.\ndate: 2026-11-23\nauthor: cto\n" +
        "tags: [strategy]\n---\n\nTexto com <script>alert(1)</script> e um [link](javascript:alert(1)).\n",
    );
    const dist = join(mkdtempSync(join(tmpdir(), "sitegen-insights-")), "dist");
    await buildSite({ root: project, outDir: dist });
    const doc = parseHtml(readFileSync(join(dist, "insights", "so-em-portugues.html"), "utf8"));
    const self = `${SITE}/insights/so-em-portugues`;
    expect(
      doc
        .querySelectorAll('link[rel="alternate"][hreflang]')
        .map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`),
    ).toEqual([`pt-BR ${self}`, `x-default ${self}`]);
    // The switcher leads to the other language's listing.
    expect(doc.querySelector("a.lang-switch")!.getAttribute("href")).toBe("/en/insights");
    // Raw HTML is text; a javascript: link is no link.
    const body = doc.querySelector(".article-prose")!;
    expect(body.querySelector("script")).toBeNull();
    expect(body.textContent).toContain("<script>alert(1)</script>");
    expect(body.querySelectorAll("a").map((a) => a.getAttribute("href"))).not.toContain("javascript:alert(1)");
  });

  it("build drafts only when asked (sitegen serve), never by default (sitegen build)", async () => {
    const project = projectCopy();
    writeFileSync(
      join(project, "content", "en", "insights", "draft.md"),
      "---\ntitle: Not yet\ndescription: A draft.\ndate: 2026-11-24\nauthor: ceo\ntags: [strategy]\n" +
        "draft: true\n---\n\nSoon.\n",
    );
    const built = join(mkdtempSync(join(tmpdir(), "sitegen-insights-")), "dist");
    await buildSite({ root: project, outDir: built });
    expect(readdirSync(join(built, "en", "insights"))).not.toContain("draft.html");
    const served = join(mkdtempSync(join(tmpdir(), "sitegen-insights-")), "dist");
    await buildSite({ root: project, outDir: served, drafts: true });
    expect(readdirSync(join(served, "en", "insights"))).toContain("draft.html");
  });

  it("paginate a listing twelve a page, with YAML entries too", async () => {
    const project = projectCopy();
    for (let i = 1; i <= 6; i++) {
      writeFileSync(
        join(project, "content", "en", "insights", `note-${i}.yaml`),
        `title: Note ${i}\ndescription: A short note.\ndate: 2025-01-0${i}\nauthor: cto\n` +
          `tags: [mlops]\nbody: "Text of note ${i}."\n`,
      );
    }
    const dist = join(mkdtempSync(join(tmpdir(), "sitegen-insights-")), "dist");
    await buildSite({ root: project, outDir: dist });
    const first = parseHtml(readFileSync(join(dist, "en", "insights.html"), "utf8"));
    const second = parseHtml(readFileSync(join(dist, "en", "insights", "page", "2.html"), "utf8"));
    expect(first.querySelectorAll("main .post")).toHaveLength(12);
    expect(second.querySelectorAll("main .post")).toHaveLength(ARTICLES.en + 6 - 12);
    expect(first.querySelector(".pagination a[rel=next]")!.getAttribute("href")).toBe("/en/insights/page/2");
    expect(second.querySelector(".pagination a[rel=prev]")!.getAttribute("href")).toBe("/en/insights");
    expect(second.querySelector("title")!.textContent).toBe("Insights (Page 2) | Vetor AI");
    expect(second.querySelectorAll("nav.breadcrumbs li").map((li) => li.textContent)).toEqual([
      "Home",
      "Insights",
      "Page 2",
    ]);
    expect(
      parseHtml(readFileSync(join(dist, "en", "insights", "note-3.html"), "utf8"))
        .querySelector(".article-prose")!
        .textContent.trim(),
    ).toBe("Text of note 3.");
    // Portuguese has one page: no page 2, and page 2's hreflang names English only.
    expect(readdirSync(join(dist, "insights"))).not.toContain("page");
    expect(second.querySelectorAll('link[rel="alternate"][hreflang]').map((l) => l.getAttribute("hreflang"))).toEqual([
      "en",
      "x-default",
    ]);
  });

  it.each([
    // A field that is there is named by its line; a missing one by the file alone.
    ["a missing title", (t: string) => t.replace(/^title: .*\n/m, ""), ", `title`: is required and missing."],
    [
      "a bad date",
      (t: string) => t.replace(/^date: .*$/m, "date: 2026-13-40"),
      ':5:1, `date`: must be a date written YYYY-MM-DD, not "2026-13-40".',
    ],
    [
      "an unknown author",
      (t: string) => t.replace(/^author: .*$/m, "author: ghost"),
      ':6:1, `author`: "ghost" is not one of ceo, cto.',
    ],
    [
      "an unknown tag",
      (t: string) => t.replace(/^tags: .*$/m, "tags: [governance, blockchain]"),
      ':7:1, `tags`: "blockchain" is not one of governance, regulation, generative-ai, agents, operations, ' +
        "data-platforms, strategy, mlops, financial-services.",
    ],
  ])("fail on %s, naming the file, the line and the field", async (_what, change, message) => {
    const project = projectCopy();
    const file = join(project, "content", "en", "insights", "ai-ready-data.md");
    writeFileSync(file, change(readFileSync(file, "utf8")));
    await expect(
      buildSite({ root: project, outDir: join(mkdtempSync(join(tmpdir(), "sitegen-insights-")), "dist") }),
    ).rejects.toThrowError(`content/en/insights/ai-ready-data.md${message}`);
  });
});
