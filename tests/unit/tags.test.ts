import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { jsonLdGraph, parseHtml, projectCopy } from "../helpers.ts";

/**
 * The tag pages of the Insights articles: a listing per tag in each language that has articles with it
 * (the route list.groupBy), the page of all tags, and the articles' tags linking to them. What a page
 * should list is read from the articles' own front matter, so the test follows the content.
 */
const SITE = "https://www.vetorai.com.br";
const LOCALES = { pt: "", en: "/en" } as const;
type Locale = keyof typeof LOCALES;
let out: string;

const front = (file: string) =>
  parseYaml(readFileSync(file, "utf8").split(/^---$/m)[1]) as { date: string; tags: string[]; translationKey?: string };
/** Each article of a locale: its address, date and tags, from content/. */
const articles = (locale: Locale) =>
  readdirSync(`content/${locale}/insights`).map((name) => ({
    path: `${LOCALES[locale]}/insights/${name.replace(/\.md$/, "")}`,
    ...front(`content/${locale}/insights/${name}`),
  }));
const labels = (locale: Locale) =>
  (parseYaml(readFileSync(`content/${locale}/tags.yaml`, "utf8")) as { tags: Record<string, string> }).tags;
const TAG_IDS = Object.keys(labels("pt"));

const pageIn = (dist: string, path: string) => parseHtml(readFileSync(join(dist, `${path.slice(1)}.html`), "utf8"));
const page = (path: string) => pageIn(out, path);
const exists = (dist: string, path: string) =>
  existsSync(join(dist, path === "/" ? "index.html" : `${path.slice(1)}.html`));
const crumbs = (doc: ReturnType<typeof page>) =>
  doc
    .querySelectorAll("main nav.breadcrumbs li")
    .map((li) => [li.textContent.trim(), li.querySelector("a")?.getAttribute("href")]);
const hreflang = (doc: ReturnType<typeof page>) =>
  doc
    .querySelectorAll('link[rel="alternate"][hreflang]')
    .map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`);
const cards = (doc: ReturnType<typeof page>) =>
  doc.querySelectorAll("main .post h3 a").map((a) => a.getAttribute("href"));

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-tags-")), "dist");
  await buildSite({ root: projectCopy(), outDir: out });
});

describe("a tag's page", () => {
  it.each(Object.keys(LOCALES) as Locale[])(
    "exists in %s for every tag its articles carry, listing exactly those articles, newest first",
    (locale) => {
      // Each tag's listing, or "no page" where no article of this language carries the tag.
      const expected = TAG_IDS.map((id) => {
        const tagged = articles(locale)
          .filter((a) => a.tags.includes(id))
          .sort((a, b) => b.date.localeCompare(a.date));
        return [id, tagged.length > 0 ? tagged.map((a) => a.path) : "no page"];
      });
      const built = TAG_IDS.map((id) => {
        const path = `${LOCALES[locale]}/insights/tags/${id}`;
        return [id, exists(out, path) ? cards(page(path)) : "no page"];
      });
      expect(built).toEqual(expected);
      expect(expected.filter(([, listing]) => listing !== "no page").length).toBeGreaterThan(1);
    },
  );

  it("is titled, described and headed by the tag's label in its language", () => {
    const pt = page("/insights/tags/governance");
    expect(pt.querySelector("title")!.textContent).toBe("Insights: Governança de IA | Vetor AI");
    expect(pt.querySelector("h1")!.textContent).toBe("Governança de IA");
    expect(pt.querySelector('meta[name="description"]')!.getAttribute("content")).toBe(
      "Artigos da Vetor AI sobre o tema “Governança de IA”: análises práticas para executivos " +
        "sobre estratégia, governança e execução de IA nas empresas brasileiras.",
    );
    const en = page("/en/insights/tags/data-platforms");
    expect(en.querySelector("title")!.textContent).toBe("Insights: Data platforms | Vetor AI");
    expect(en.querySelector("h1")!.textContent).toBe("Data platforms");
    expect(en.querySelector('meta[name="description"]')!.getAttribute("content")).toContain("“Data platforms”");
  });

  it("has the trail Home › Insights › Topics › tag, every crumb link a page of the site", () => {
    expect(crumbs(page("/insights/tags/governance"))).toEqual([
      ["Início", "/"],
      ["Insights", "/insights"],
      ["Temas", "/insights/tags"],
      ["Governança de IA", undefined],
    ]);
    expect(crumbs(page("/en/insights/tags/governance"))).toEqual([
      ["Home", "/en"],
      ["Insights", "/en/insights"],
      ["Topics", "/en/insights/tags"],
      ["AI governance", undefined],
    ]);
    const links = crumbs(page("/en/insights/tags/governance")).flatMap(([, href]) => (href ? [href] : []));
    expect(links.map((href) => [href, exists(out, href)])).toEqual(links.map((href) => [href, true]));
  });

  it("pairs the two languages in hreflang and the switcher, and says it is a CollectionPage", () => {
    const expected = [
      `pt-BR ${SITE}/insights/tags/governance`,
      `en ${SITE}/en/insights/tags/governance`,
      `x-default ${SITE}/insights/tags/governance`,
    ];
    expect(hreflang(page("/insights/tags/governance"))).toEqual(expected);
    expect(hreflang(page("/en/insights/tags/governance"))).toEqual(expected);
    expect(page("/insights/tags/governance").querySelector("a.lang-switch")!.getAttribute("href")).toBe(
      "/en/insights/tags/governance",
    );
    expect(
      jsonLdGraph(page("/en/insights/tags/governance")).find((n) => n["@type"] === "CollectionPage"),
    ).toMatchObject({ url: `${SITE}/en/insights/tags/governance`, name: "Insights: AI governance | Vetor AI" });
  });

  it("is in the sitemap with the tags' page, each with its pair", () => {
    const urls = parseHtml(readFileSync(join(out, "sitemap.xml"), "utf8")).querySelectorAll("url");
    const tagged = (locale: Locale) =>
      TAG_IDS.filter((id) => articles(locale).some((a) => a.tags.includes(id))).map(
        (id) => `${SITE}${LOCALES[locale]}/insights/tags/${id}`,
      );
    const expected = [...tagged("pt"), ...tagged("en"), `${SITE}/insights/tags`, `${SITE}/en/insights/tags`];
    expect(
      urls
        .map((u) => u.querySelector("loc")!.textContent)
        .filter((loc) => loc.includes("/insights/tags"))
        .sort(),
    ).toEqual(expected.sort());
    const governance = urls.find((u) => u.querySelector("loc")!.textContent === `${SITE}/en/insights/tags/governance`)!;
    expect(
      governance.querySelectorAll("xhtml\\:link").map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`),
    ).toEqual([
      `pt-BR ${SITE}/insights/tags/governance`,
      `en ${SITE}/en/insights/tags/governance`,
      `x-default ${SITE}/insights/tags/governance`,
    ]);
  });
});

describe("the tags' page", () => {
  it.each(Object.keys(LOCALES) as Locale[])(
    "lists in %s every tag, by label, linked to its page with its number of articles",
    (locale) => {
      const doc = page(`${LOCALES[locale]}/insights/tags`);
      const items = doc.querySelectorAll("main .topic-list li");
      const used = TAG_IDS.filter((id) => articles(locale).some((a) => a.tags.includes(id)));
      expect(items).toHaveLength(used.length);
      const shown = items.map((li) => li.querySelector("a")!.textContent);
      expect(shown).toEqual([...shown].sort((a, b) => a.localeCompare(b, locale === "pt" ? "pt-BR" : "en")));
      for (const li of items) {
        const href = li.querySelector("a")!.getAttribute("href")!;
        const count = cards(page(href)).length;
        expect(li.querySelector("span")!.textContent).toBe(
          locale === "pt"
            ? `${count} ${count === 1 ? "artigo" : "artigos"}`
            : `${count} ${count === 1 ? "article" : "articles"}`,
        );
        expect(page(href).querySelector("h1")!.textContent).toBe(li.querySelector("a")!.textContent);
      }
      expect(doc.querySelector("title")!.textContent).toBe(
        locale === "pt" ? "Insights por tema | Vetor AI" : "Insights by topic | Vetor AI",
      );
      expect(crumbs(doc).map(([label]) => label)).toEqual(
        locale === "pt" ? ["Início", "Insights", "Temas"] : ["Home", "Insights", "Topics"],
      );
    },
  );
});

describe("links to the tags", () => {
  it.each(Object.keys(LOCALES) as Locale[])(
    "from every article in %s: each of its tags, by label, to that tag's page in the same language",
    (locale) => {
      const targets: string[] = [];
      for (const article of articles(locale)) {
        const links = page(article.path).querySelectorAll(".article-tags .tag-list a");
        expect(links.map((a) => a.getAttribute("href"))).toEqual(
          article.tags.map((id) => `${LOCALES[locale]}/insights/tags/${id}`),
        );
        expect(links.map((a) => a.textContent)).toEqual(article.tags.map((id) => labels(locale)[id]));
        targets.push(...links.map((a) => a.getAttribute("href")!));
      }
      expect(targets.length).toBeGreaterThan(0);
      expect(targets.filter((href) => !exists(out, href))).toEqual([]);
    },
  );

  it("from the listing: a row of every tag, each to a page that exists", () => {
    const links = page("/en/insights").querySelectorAll("main .listing-tags a");
    expect(links.map((a) => a.textContent).sort()).toEqual(TAG_IDS.map((id) => labels("en")[id]).sort());
    expect(links.map((a) => a.getAttribute("href")!).filter((href) => !exists(out, href))).toEqual([]);
  });
});

describe("tags as authors meet them", () => {
  it("give a tag one language has no article with no page there, and paginate a tag of many articles", async () => {
    const project = projectCopy();
    // Regulation: no English article any more, and fourteen Portuguese ones (two pages of twelve).
    const english = join(project, "content", "en", "insights", "ai-governance.md");
    writeFileSync(
      english,
      readFileSync(english, "utf8").replace("tags: [governance, regulation]", "tags: [governance]"),
    );
    for (let i = 1; i <= 13; i++) {
      writeFileSync(
        join(project, "content", "pt", "insights", `nota-${i}.md`),
        `---\ntitle: Nota ${i}\ndescription: Uma nota curta.\ndate: 2025-01-${String(i).padStart(2, "0")}\n` +
          `author: cto\ntags: [regulation]\n---\n\nTexto da nota ${i}.\n`,
      );
    }
    const dist = join(mkdtempSync(join(tmpdir(), "sitegen-tags-")), "dist");
    await buildSite({ root: project, outDir: dist });
    expect(exists(dist, "/en/insights/tags/regulation")).toBe(false);
    expect(
      pageIn(dist, "/en/insights/tags")
        .querySelectorAll(".topic-list a")
        .map((a) => a.getAttribute("href")),
    ).not.toContain("/en/insights/tags/regulation");
    expect(
      pageIn(dist, "/en/insights/ai-governance")
        .querySelectorAll(".tag-list a")
        .map((a) => a.textContent),
    ).toEqual(["AI governance"]);

    const first = pageIn(dist, "/insights/tags/regulation");
    const second = pageIn(dist, "/insights/tags/regulation/page/2");
    expect(cards(first)).toHaveLength(12);
    expect(cards(second)).toEqual(["/insights/nota-2", "/insights/nota-1"]);
    expect(hreflang(first)).toEqual([
      `pt-BR ${SITE}/insights/tags/regulation`,
      `x-default ${SITE}/insights/tags/regulation`,
    ]);
    // The switcher goes where English has something to show: the list of its tags.
    expect(first.querySelector("a.lang-switch")!.getAttribute("href")).toBe("/en/insights/tags");
    expect(second.querySelector("a.lang-switch")!.getAttribute("href")).toBe("/en/insights/tags");
    expect(second.querySelector("title")!.textContent).toBe("Insights: Regulação (Página 2) | Vetor AI");
    expect(crumbs(second)).toEqual([
      ["Início", "/"],
      ["Insights", "/insights"],
      ["Temas", "/insights/tags"],
      ["Regulação", "/insights/tags/regulation"],
      ["Página 2", undefined],
    ]);
    expect(second.querySelector(".pagination a[rel=prev]")!.getAttribute("href")).toBe("/insights/tags/regulation");
    const sitemap = readFileSync(join(dist, "sitemap.xml"), "utf8");
    expect(sitemap).toContain(`<loc>${SITE}/insights/tags/regulation/page/2</loc>`);
    expect(sitemap).not.toContain(`${SITE}/en/insights/tags/regulation`);
  });

  it("fail on a tag id that cannot be an address, naming the file and the field", async () => {
    const project = projectCopy();
    const labelsFile = join(project, "content", "en", "tags.yaml");
    writeFileSync(labelsFile, `${readFileSync(labelsFile, "utf8")}  Data_Strategy: Data strategy\n`);
    const file = join(project, "content", "en", "insights", "ai-ready-data.md");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^tags: .*$/m, "tags: [strategy, Data_Strategy]"));
    await expect(
      buildSite({ root: project, outDir: join(mkdtempSync(join(tmpdir(), "sitegen-tags-")), "dist") }),
    ).rejects.toThrowError(
      'content/en/insights/ai-ready-data.md, `tags`: "Data_Strategy" cannot be the address of its page ' +
        '(route "insights.tag" makes one for each value): use lower-case letters, digits and hyphens only.',
    );
  });
});
