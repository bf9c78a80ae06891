import { describe, expect, it } from "vitest";
import { planPages } from "../../src/generator/build/plan-pages.ts";
import { ReadLog, renderPages } from "../../src/generator/build/render-pages.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { fillShared, SHARED_PLACEHOLDER } from "../../src/generator/html/shared-markup.ts";
import { minifyHtml } from "../../src/generator/html/minify-html.ts";
import { ROOT, sitePlan } from "../helpers.ts";

/**
 * Memory stays flat with the number of pages because no stage holds every page's HTML: render-pages hands
 * out one page at a time, as write-output asks for the next, and notes what each page read.
 */
describe("rendering, one page at a time", () => {
  it("renders a page only when the next one is asked for", async () => {
    const { site, config, collections, locales } = await sitePlan();
    const dictionaries = Object.fromEntries(locales.map((l) => [l, loadLocaleContent(ROOT, l, config).dictionary]));
    const plan = planPages(site, config, collections);
    let renders = 0;
    const bundle = { site, hash: "", file: "", render: () => `<!doctype html><p>${++renders}</p>` };
    const assets = { stylesheet: "/site.css", fonts: [], scripts: [], preloads: [], islands: {} };
    const pages = renderPages(plan, plan.pages, bundle, config, dictionaries, assets, collections, { byKey: {} }, new ReadLog());
    expect(renders).toBe(0);
    expect(pages.next().value.html).toBe("<!doctype html><p>1</p>");
    expect(renders).toBe(1);
    expect(pages.next().value.html).toBe("<!doctype html><p>2</p>");
    expect(renders).toBe(2);
    expect([...pages]).toHaveLength(plan.pages.length - 2);
  });

  it("notes what a page read beyond its plan: a collection, a route's addresses", async () => {
    const { site, config, collections, locales } = await sitePlan();
    const dictionaries = Object.fromEntries(locales.map((l) => [l, loadLocaleContent(ROOT, l, config).dictionary]));
    const plan = planPages(site, config, collections);
    const log = new ReadLog();
    const article = plan.pages.find((p) => p.entry)!;
    const bundle = {
      site,
      hash: "",
      render: (_head: unknown, page: { collection(name: string): unknown[]; href(id: string): string; entry?: { html: string } }) => `${page.collection(article.entry!.collection).length} ${page.href("home")} ${page.entry!.html.length}`,
    };
    const assets = { stylesheet: "/site.css", fonts: [], scripts: [], preloads: [], islands: {} };
    const [rendered] = renderPages(plan, [article], bundle as never, config, dictionaries, assets, collections, { byKey: {} }, log);
    expect(rendered.reads).toEqual(expect.arrayContaining([`collection:${article.entry!.collection}:${article.locale}`, "route:home"]));
    expect(rendered.reads.filter((read) => read.startsWith("collection:"))).toHaveLength(1);
  });

  it("leaves the shared parts to the minifier, except a part that does not begin and end with a tag", async () => {
    const { site, config, collections, locales } = await sitePlan();
    const dictionaries = Object.fromEntries(locales.map((l) => [l, loadLocaleContent(ROOT, l, config).dictionary]));
    const plan = planPages(site, config, collections);
    const at = (i: number) => `${SHARED_PLACEHOLDER.open}${i}${SHARED_PLACEHOLDER.close}`;
    const bundle = {
      site,
      hash: "",
      file: "",
      render: (_head: unknown, page: { shared(id: string, render: () => string): number }) =>
        `<!doctype html><p>Before  ${at(page.shared("tail", () => "  tail of a sentence"))}</p>${at(page.shared("footer", () => "<footer>\n  Footer</footer>"))}`,
    };
    const assets = { stylesheet: "/site.css", fonts: [], scripts: [], preloads: [], islands: {} };
    // Two pages of one locale: the parts are made once per locale.
    const pages = plan.pages.filter((p) => p.locale === plan.pages[0].locale).slice(0, 2);
    const [first, second] = renderPages(plan, pages, bundle as never, config, dictionaries, assets, collections, { byKey: {} }, new ReadLog());
    for (const rendered of [first, second]) {
      expect(rendered.html).toBe(`<!doctype html><p>Before    tail of a sentence</p>${at(1)}`);
      expect(rendered.shared).toEqual(["  tail of a sentence", "<footer>\n  Footer</footer>"]);
      // The runs of white space on both sides of the text part collapse into one, as in the page rendered whole.
      expect(minifyHtml(rendered.html, rendered.shared)).toBe("<!doctype html><p>Before tail of a sentence</p><footer> Footer</footer>");
      expect(minifyHtml(rendered.html, rendered.shared)).toBe(minifyHtml(fillShared(rendered.html, rendered.shared)));
    }
  });
});
