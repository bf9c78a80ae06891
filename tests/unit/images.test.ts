import { beforeAll, describe, expect, it } from "vitest";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { HTMLElement } from "node-html-parser";
import { buildSite, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { processImages } from "../../src/generator/pipeline/images.ts";
import { jsonLdGraph, parseHtml, projectCopy, ROOT } from "../helpers.ts";

/**
 * Issue 17, images: covers, images in Markdown and portraits through the pipeline (AVIF and WebP at several
 * widths, hashed names, width and height, lazy loading, fetchpriority), Open Graph images and the cache.
 * The firm's people have no photos: tests/fixtures/images/portrait.jpg (a drawn pattern, no one's face)
 * proves the portrait path in a copy of the project.
 */
const SITE = "https://www.vetorai.com.br";
const FIXTURES = join(ROOT, "tests", "fixtures", "images");
const ARTICLES = {
  pt: readdirSync(join(ROOT, "content/pt/insights")),
  en: readdirSync(join(ROOT, "content/en/insights")),
};
// The alt text of the Markdown image: quotes, angle brackets and an ampersand, which must come out escaped.
const CHART_ALT = `Receita "por trimestre" <em> & custo`;
let root: string;
let out: string;
let result: BuildResult;
const page = (file: string) => parseHtml(readFileSync(join(out, file), "utf8"));
const fileOf = (src: string) => join(out, src.replace(/^https?:\/\/[^/]+/, "").slice(1));

beforeAll(async () => {
  root = projectCopy();
  // The CEO gets a photo in both languages (relative to about.yaml); the CTO keeps the monogram.
  mkdirSync(join(root, "content/images/people"), { recursive: true });
  copyFileSync(join(FIXTURES, "portrait.jpg"), join(root, "content/images/people/ceo.jpg"));
  for (const locale of ["pt", "en"]) {
    const file = join(root, `content/${locale}/about.yaml`);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(/^( {2}ceo:\n)/m, "$1    photo: ../images/people/ceo.jpg\n"),
    );
  }
  // An article with an image in its text, beside the Markdown file.
  copyFileSync(join(FIXTURES, "chart.png"), join(root, "content/pt/insights/receita.png"));
  writeFileSync(
    join(root, "content/pt/insights/com-grafico.md"),
    "---\ntitle: Um artigo com gráfico\ndescription: Um gráfico no texto.\ndate: 2020-01-01\nauthor: cto\n" +
      "tags: [strategy]\ncover: ./receita.png\n---\n\nO gráfico abaixo resume o trimestre.\n\n" +
      `![${CHART_ALT}](./receita.png "Receita e custo")\n`,
  );
  out = join(mkdtempSync(join(tmpdir(), "sitegen-images-")), "dist");
  result = await buildSite({ root, outDir: out });
}, 300_000);

/** A `<picture>`'s two sources and its `<img>`, checked against the files they name (read back with sharp). */
async function checkPicture(picture: HTMLElement) {
  const [avif, webp] = picture.querySelectorAll("source");
  expect(avif.getAttribute("type")).toBe("image/avif");
  expect(webp.getAttribute("type")).toBe("image/webp");
  const widths: number[][] = [];
  for (const [source, format, ext] of [
    [avif, "heif", "avif"],
    [webp, "webp", "webp"],
  ] as const) {
    expect(source.getAttribute("sizes")).toMatch(/\S/);
    const candidates = source
      .getAttribute("srcset")!
      .split(", ")
      .map((c) => c.split(" "));
    const seen: number[] = [];
    for (const [src, descriptor] of candidates) {
      expect(src).toMatch(new RegExp(`^/assets/img/[a-z0-9-]+-\\d+\\.[0-9a-f]{10}\\.${ext}$`));
      const meta = await sharp(fileOf(src)).metadata();
      expect(meta.format).toBe(format);
      expect(`${meta.width}w`).toBe(descriptor);
      expect(src).toContain(`-${meta.width}.`);
      seen.push(meta.width!);
    }
    widths.push(seen);
  }
  expect(widths[0]).toEqual(widths[1]);
  const img = picture.querySelector("img")!;
  const meta = await sharp(fileOf(img.getAttribute("src")!)).metadata();
  expect(meta.format).toBe("jpeg");
  expect([img.getAttribute("width"), img.getAttribute("height")]).toEqual([String(meta.width), String(meta.height)]);
  return { img, widths: widths[0] };
}

describe("article covers", () => {
  it.each([
    ...ARTICLES.pt.map((f) => `insights/${f.replace(/\.md$/, ".html")}`),
    ...ARTICLES.en.map((f) => `en/insights/${f.replace(/\.md$/, ".html")}`),
  ])("%s shows its cover above the fold: fetched first, never lazy, AVIF and WebP at several widths", async (file) => {
    const doc = page(file);
    const cover = doc.querySelector("header img.article-cover")!.parentNode as unknown as HTMLElement;
    expect(cover.tagName).toBe("PICTURE");
    const { img, widths } = await checkPicture(cover);
    expect(widths).toEqual([400, 800, 1200, 1600]);
    expect(img.getAttribute("fetchpriority")).toBe("high");
    expect(img.hasAttribute("loading")).toBe(false);
    expect(img.getAttribute("alt")).toBe("");
    // The one image fetched first; the others (related articles) wait until they near the viewport.
    expect(doc.querySelectorAll("img[fetchpriority]")).toHaveLength(1);
    for (const other of doc.querySelectorAll("main img:not([fetchpriority])"))
      expect(other.getAttribute("loading")).toBe("lazy");
  });

  const cardImageSizes =
    "shows on every card of the listings and the home page with the card's sizes (wider for a card leading its row): " +
    "the listing's first fetched first, every other lazily";
  it(cardImageSizes, async () => {
    for (const file of ["insights.html", "en/insights.html", "index.html", "en.html"]) {
      const cards = page(file).querySelectorAll("main .post");
      expect(cards.length).toBeGreaterThanOrEqual(3);
      const listing = file.includes("insights");
      for (const [i, card] of cards.entries()) {
        const picture = card.querySelector("picture")!;
        const { img } = await checkPicture(picture);
        const first = listing && i === 0;
        expect([img.getAttribute("loading"), img.getAttribute("decoding"), img.getAttribute("fetchpriority")]).toEqual(
          first ? [undefined, undefined, "high"] : ["lazy", "async", undefined],
        );
        // A first card that leads its row in three columns (a count that would leave one alone) has a wider cover.
        const leads = i === 0 && cards.length % 3 === 1;
        expect(picture.querySelector("source")!.getAttribute("sizes")).toBe(
          `(min-width: 64rem) ${leads ? "38rem" : "23rem"}, (min-width: 48rem) 50vw, 100vw`,
        );
      }
      // The home page's articles are far below the fold: nothing there is fetched first.
      expect(page(file).querySelectorAll("img[fetchpriority]")).toHaveLength(listing ? 1 : 0);
    }
  });

  const givesArticleOgImage =
    "gives each article a 1200×630 Open Graph image, in og:image and the BlogPosting's image, as full addresses";
  it(givesArticleOgImage, async () => {
    for (const file of [
      "insights/governanca-de-ia.html",
      "en/insights/ai-governance.html",
      "en/insights/mlops-llmops.html",
    ]) {
      const doc = page(file);
      const og = doc.querySelector('meta[property="og:image"]')!.getAttribute("content")!;
      expect(og).toMatch(new RegExp(`^${SITE}/assets/img/[a-z0-9-]+-og\\.[0-9a-f]{10}\\.jpg$`));
      expect(doc.querySelector('meta[property="og:image:width"]')!.getAttribute("content")).toBe("1200");
      expect(doc.querySelector('meta[property="og:image:height"]')!.getAttribute("content")).toBe("630");
      expect(doc.querySelector('meta[name="twitter:card"]')!.getAttribute("content")).toBe("summary_large_image");
      const meta = await sharp(fileOf(og)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
      expect(jsonLdGraph(doc).find((n) => n["@type"] === "BlogPosting")!.image).toBe(og);
    }
    // Both languages of an article share one cover, so one Open Graph file.
    const og = (file: string) => page(file).querySelector('meta[property="og:image"]')!.getAttribute("content");
    expect(og("insights/governanca-de-ia.html")).toBe(og("en/insights/ai-governance.html"));
  });

  const siteCardFallback =
    "gives every page without an image of its own the site's card (content/site.yaml's socialImage), 1200×630, of " +
    "which only that crop is written";
  it(siteCardFallback, async () => {
    const card = new RegExp(`^${SITE}/assets/img/social-card-og\\.[0-9a-f]{10}\\.jpg$`);
    for (const file of ["index.html", "en.html", "about.html", "en/services/advisory.html", "insights.html"]) {
      const doc = page(file);
      expect(doc.querySelector('meta[property="og:image"]')!.getAttribute("content")).toMatch(card);
      expect(doc.querySelector('meta[property="og:image:width"]')!.getAttribute("content")).toBe("1200");
      expect(doc.querySelector('meta[name="twitter:card"]')!.getAttribute("content")).toBe("summary_large_image");
    }
    const meta = await sharp(
      fileOf(page("index.html").querySelector('meta[property="og:image"]')!.getAttribute("content")!),
    ).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
    // No page shows the card as a picture: its AVIF and WebP widths are not in the output.
    expect(readdirSync(join(out, "assets/img")).filter((f) => f.startsWith("social-card-"))).toEqual([
      expect.stringMatching(/^social-card-og\./),
    ]);
  });
});

describe("an article without a cover", () => {
  const sharedSiteCard =
    "shows the site's card when shared, in og:image and the BlogPosting's image, and no cover on its page";
  it(
    sharedSiteCard,
    async () => {
      const project = projectCopy();
      const file = join(project, "content/en/insights/mlops-llmops.md");
      writeFileSync(file, readFileSync(file, "utf8").replace(/^cover(Alt)?: .*\n/gm, ""));
      const dist = join(mkdtempSync(join(tmpdir(), "sitegen-images-")), "dist");
      await buildSite({ root: project, outDir: dist });
      const doc = parseHtml(readFileSync(join(dist, "en/insights/mlops-llmops.html"), "utf8"));
      const og = doc.querySelector('meta[property="og:image"]')!.getAttribute("content")!;
      expect(og).toMatch(new RegExp(`^${SITE}/assets/img/social-card-og\\.[0-9a-f]{10}\\.jpg$`));
      expect(doc.querySelector('meta[property="og:image:height"]')!.getAttribute("content")).toBe("630");
      expect(jsonLdGraph(doc).find((n) => n["@type"] === "BlogPosting")!.image).toBe(og);
      expect(doc.querySelector("header picture")).toBeNull();
      // Its translation keeps its own cover.
      const pt = parseHtml(readFileSync(join(dist, "insights/mlops-llmops.html"), "utf8"));
      expect(pt.querySelector('meta[property="og:image"]')!.getAttribute("content")).toMatch(
        /\/assets\/img\/mlops-llmops-og\./,
      );
    },
    120_000,
  );
});

describe("an image in an article's Markdown", () => {
  const bodyImagePipeline =
    "goes through the pipeline: a picture in the text, its alt text and title escaped, loaded lazily at the column's " +
    "width";
  it(bodyImagePipeline, async () => {
    const html = readFileSync(join(out, "insights/com-grafico.html"), "utf8");
    expect(html).not.toContain("<em>");
    expect(html).not.toContain("sitegen-image");
    const picture = parseHtml(html).querySelector(".article-prose picture")!;
    const { img, widths } = await checkPicture(picture);
    // The chart is 960 pixels wide: nothing larger is made.
    expect(widths).toEqual([400, 800, 960]);
    expect(img.getAttribute("alt")).toBe(CHART_ALT);
    expect(img.getAttribute("title")).toBe("Receita e custo");
    expect([img.getAttribute("loading"), img.getAttribute("decoding")]).toEqual(["lazy", "async"]);
    expect(picture.querySelector("source")!.getAttribute("sizes")).toBe("(min-width: 64rem) 46rem, calc(100vw - 2rem)");
  });

  it("is in the feeds with full addresses, which a feed reader away from the site can load", () => {
    const rss = readFileSync(join(out, "insights/rss.xml"), "utf8");
    const item = rss.slice(rss.indexOf("<title><![CDATA[Um artigo com gráfico]]></title>"));
    expect(item).toMatch(new RegExp(`<img src="${SITE}/assets/img/receita-800\\.[0-9a-f]{10}\\.jpg"`));
    expect(item).toMatch(
      new RegExp(
        `srcset="${SITE}/assets/img/receita-400\\.[0-9a-f]{10}\\.avif 400w, ${SITE}/assets/img/receita-800\\.`,
      ),
    );
    expect(rss).not.toMatch(/(src|srcset)="\//);
  });
});

describe("leadership portraits", () => {
  it.each([["about.html"], ["en/about.html"]])(
    "%s shows the photo of a person who has one, and the monogram of one who has none",
    async (file) => {
      const people = page(file).querySelectorAll("#leadership .person");
      const ceo = people[0];
      const { img, widths } = await checkPicture(ceo.querySelector("picture")!);
      expect(img.getAttribute("alt")).toBe("Carolina Mendes Vasconcelos");
      expect(img.getAttribute("class")).toBe("portrait");
      expect(img.getAttribute("loading")).toBe("lazy");
      // A 600-pixel photo is never upscaled.
      expect(widths).toEqual([400, 600]);
      expect(ceo.querySelector(".monogram")).toBeNull();
      expect(people[1].querySelector("picture")).toBeNull();
      expect(people[1].querySelector(".monogram")!.textContent).toMatch(/^\p{Lu}{1,2}$/u);
    },
  );

  it("puts the author's portrait in an article's byline when there is one, the initials otherwise", () => {
    expect(
      page("insights/governanca-de-ia.html").querySelector("article header .byline img.portrait")!.getAttribute("alt"),
    ).toBe("");
    const cto = page("en/insights/ai-ready-data.html").querySelector("article header .byline")!;
    expect(cto.querySelector("picture")).toBeNull();
    expect(cto.querySelector(".monogram")!.textContent).toBe("RL");
  });
});

describe("the cache", () => {
  it("a second build encodes nothing: every image comes from the cache, as the same files", async () => {
    // The covers (one per article, shared by both languages), the chart, the portrait and the site's card.
    expect(result.images.count).toBe(new Set(readdirSync(join(ROOT, "content/images/insights"))).size + 3);
    const again = join(mkdtempSync(join(tmpdir(), "sitegen-images-")), "dist");
    const second = await buildSite({ root, outDir: again });
    expect(second.images).toEqual({ count: result.images.count, encoded: 0 });
    const files = (dir: string) => readdirSync(join(dir, "assets/img")).sort();
    expect(files(again)).toEqual(files(out));
    for (const file of files(out))
      expect(readFileSync(join(again, "assets/img", file)).equals(readFileSync(join(out, "assets/img", file)))).toBe(
        true,
      );
  }, 120_000);

  it("keeps an image's files between runs, keyed by its content, and reads them back instead of encoding", async () => {
    const root = mkdtempSync(join(tmpdir(), "sitegen-image-cache-"));
    mkdirSync(join(root, "content/xx"), { recursive: true });
    copyFileSync(join(FIXTURES, "portrait.jpg"), join(root, "content/xx/face.jpg"));
    const contents = [
      {
        locale: "xx",
        dictionary: new Map([["team.ana.photo", "face.jpg"]]),
        sources: new Map([["team.ana.photo", "content/xx/about.yaml"]]),
      },
    ];
    const input = { root, definitions: [], collections: {}, contents, imageKeys: ["team.*.photo"] };
    const first = await processImages(input);
    expect([first.count, first.encoded]).toEqual([1, 1]);
    const cache = join(root, "node_modules/.cache/sitegen/images");
    const [entry] = readdirSync(cache);
    const stamps = () => readdirSync(join(cache, entry)).map((f) => [f, statSync(join(cache, entry, f)).mtimeMs]);
    const written = stamps();
    expect(written.length).toBe(1 + first.files.length);

    const second = await processImages(input);
    expect([second.count, second.encoded]).toEqual([1, 0]);
    expect(stamps()).toEqual(written);
    expect(second.files).toEqual(first.files);
    expect(second.byKey.xx.get("team.ana.photo")).toEqual(first.byKey.xx.get("team.ana.photo"));

    // Another picture under the same name is another entry: never the old files.
    copyFileSync(join(FIXTURES, "chart.png"), join(root, "content/xx/face.jpg"));
    const changed = await processImages(input);
    expect(changed.encoded).toBe(1);
    expect(changed.byKey.xx.get("team.ana.photo")!.fallback.width).toBe(800);
    expect(readdirSync(cache)).toHaveLength(2);
    expect(existsSync(join(cache, entry, "manifest.json"))).toBe(true);
  });
});
