import { describe, expect, it } from "vitest";
import { planPages } from "../../src/generator/pipeline/plan-pages.ts";
import { ReadLog, renderPages } from "../../src/generator/pipeline/render-pages.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { ROOT, sitePlan } from "../helpers.ts";

/**
 * Memory stays flat with the number of pages because no stage holds every page's HTML: render-pages hands
 * out one page at a time, as write-output asks for the next, and notes what each page read.
 */
describe("rendering, one page at a time", () => {
  it("renders a page only when the next one is asked for", async () => {
    const { site, config, collections, locales } = await sitePlan();
    const dictionaries = Object.fromEntries(locales.map((l) => [l, loadLocaleContent(ROOT, l, config).dictionary]));
    const plan = planPages({ definition: site, site: config, collections });
    let renders = 0;
    const bundle = { site, hash: "", file: "", render: () => `<!doctype html><p>${++renders}</p>` };
    const assets = { stylesheet: "/site.css", fonts: [], scripts: [], preloads: [], islands: {} };
    const pages = renderPages({
      plan,
      pages: plan.pages,
      bundle,
      site: config,
      dictionaries,
      assets,
      collections,
      images: { byKey: {} },
      log: new ReadLog(),
    });
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
    const plan = planPages({ definition: site, site: config, collections });
    const log = new ReadLog();
    const article = plan.pages.find((p) => p.entry)!;
    const bundle = {
      site,
      hash: "",
      render: (
        _head: unknown,
        page: { collection(name: string): unknown[]; href(id: string): string; entry?: { html: string } },
      ) => `${page.collection(article.entry!.collection).length} ${page.href("home")} ${page.entry!.html.length}`,
    };
    const assets = { stylesheet: "/site.css", fonts: [], scripts: [], preloads: [], islands: {} };
    const [rendered] = renderPages({
      plan,
      pages: [article],
      bundle: bundle as never,
      site: config,
      dictionaries,
      assets,
      collections,
      images: { byKey: {} },
      log,
    });
    const reads = rendered.reads.map((i) => log.names[i]);
    expect(reads).toEqual(
      expect.arrayContaining([`collection:${article.entry!.collection}:${article.locale}`, "route:home"]),
    );
    expect(reads.filter((read) => read.startsWith("collection:"))).toHaveLength(1);
  });
});
