import { describe, expect, it } from "vitest";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { outputFileForPath, planPages, specialPageFile } from "../../src/generator/pipeline/plan-pages.ts";
import { localeOfPath, localizedPath, switchPrefix, unprefixedPath } from "../../src/generator/locales.ts";
import { SitegenError } from "../../src/generator/errors.ts";
import type { CollectionEntry, RouteDefinition, SiteDefinition } from "../../src/generator/site-definition.ts";
import { ROOT, sitePlan } from "../helpers.ts";

const config = loadSiteConfig(ROOT);
const { site, collections } = await sitePlan();
const plan = planPages({ definition: site, site: config, collections });
const fixed = <R extends { id: string }>(routes: R[]) => routes.filter((r) => !r.id.includes(":"));

// Spec §2's screen list, Portuguese paths; the /en prefix applies to each.
const SPEC_PATHS = [
  "/",
  "/about",
  "/services",
  "/services/advisory",
  "/services/implementation",
  "/services/managed",
  "/technologies",
  "/industries",
  "/industries/financial-services",
  "/industries/energy",
  "/industries/retail",
  "/industries/agriculture",
  "/industries/education",
  "/industries/professional",
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
  "/cookie-policy",
];

describe("the site's page plan", () => {
  const hasEveryScreen =
    "has the 18 screens of spec §2, the Insights listing and its tags, the results page, each under /en too, " +
    "and one route per article";
  it(hasEveryScreen, () => {
    expect(
      fixed(plan.routes)
        .map((r) => r.paths.pt)
        .sort(),
    ).toEqual([...SPEC_PATHS, "/insights", "/insights/tags", "/results"].sort());
    for (const r of fixed(plan.routes)) expect(r.paths.en).toBe(r.paths.pt === "/" ? "/en" : `/en${r.paths.pt}`);
    const articles = plan.routes.filter((r) => r.id.startsWith("insights.article:"));
    expect(articles.find((r) => r.id === "insights.article:ai-governance")!.paths).toEqual({
      pt: "/insights/governanca-de-ia",
      en: "/en/insights/ai-governance",
    });
  });

  it("gives manufacturing and healthcare no page (spec §2)", () => {
    const paths = plan.pages.map((p) => p.path);
    expect(paths).not.toContain("/industries/manufacturing");
    expect(paths).not.toContain("/en/industries/healthcare");
  });

  it("adds per locale the not-found and error pages and the form results, none of them indexed", () => {
    const special = plan.pages.filter((p) => p.kind !== "route").map((p) => `${p.kind} ${p.file}`);
    expect(special).toEqual([
      "not-found 404.html",
      "error 500.html",
      "unlisted forms/newsletter-success.html",
      "unlisted forms/contact-success.html",
      "unlisted forms/error.html",
      "unlisted forms/newsletter-pending.html",
      "unlisted forms/newsletter-confirmed.html",
      "unlisted forms/newsletter-confirm-failed.html",
      "unlisted forms/newsletter-unsubscribed.html",
      "unlisted forms/newsletter-unsubscribe-failed.html",
      "not-found en/404.html",
      "error en/500.html",
      "unlisted en/forms/newsletter-success.html",
      "unlisted en/forms/contact-success.html",
      "unlisted en/forms/error.html",
      "unlisted en/forms/newsletter-pending.html",
      "unlisted en/forms/newsletter-confirmed.html",
      "unlisted en/forms/newsletter-confirm-failed.html",
      "unlisted en/forms/newsletter-unsubscribed.html",
      "unlisted en/forms/newsletter-unsubscribe-failed.html",
    ]);
    expect(plan.pages.filter((p) => p.kind !== "route").every((p) => p.route === undefined)).toBe(true);
  });

  it("follows a third locale of site.yaml, and translated slugs", () => {
    const three = {
      ...config,
      locales: [...config.locales, { code: "es", lang: "es", ogLocale: "es_ES", prefix: "/es" }],
    };
    const withSlugs = {
      ...site,
      routes: site.routes.map((r) =>
        r.id === "about" ? { ...r, path: { pt: "/sobre", en: "/about", es: "/acerca" } } : r,
      ),
    };
    const planned = planPages({ definition: withSlugs, site: three, collections });
    // Articles and tag pages exist where a language has articles: content/es has none.
    const notArticles = (pages: typeof plan.pages) => pages.filter((p) => !p.entry && !p.listing?.group).length;
    expect(notArticles(planned.pages)).toBe(notArticles(plan.pages) * 1.5);
    expect(planned.routes.find((r) => r.id === "about")!.paths).toEqual({
      pt: "/sobre",
      en: "/en/about",
      es: "/es/acerca",
    });
    expect(planned.pages.map((p) => p.file)).toContain("es/404.html");
    expect(planned.pages.map((p) => p.file)).toContain("es.html");
  });

  it("refuses two pages at one address", () => {
    const clash = { ...site, routes: [...site.routes, { ...site.routes[1], id: "about-again" }] };
    expect(() => planPages({ definition: clash, site: config, collections })).toThrowError(SitegenError);
    expect(() => planPages({ definition: clash, site: config, collections })).toThrowError(
      /\/about is the address of both route "about" and route "about-again"/,
    );
  });
});

describe("a listing grouped by a field (list.groupBy)", () => {
  const Page = () => null;
  // Newest first, as the build's collections come.
  const note = (locale: string, slug: string, date: string, data: Record<string, unknown>) =>
    ({
      collection: "notes",
      locale,
      slug,
      key: slug,
      file: `content/${locale}/notes/${slug}.md`,
      data: { date, ...data },
      html: "",
      readingMinutes: 1,
      hash: slug,
      size: 0,
      mtimeMs: 0,
    }) as CollectionEntry;
  const notes = {
    pt: [
      note("pt", "a", "2026-03-01", { tags: ["x", "y"], kind: "guide" }),
      note("pt", "b", "2026-02-01", { tags: ["x"] }),
      note("pt", "c", "2026-01-01", { tags: ["x"], kind: "guide" }),
    ],
    en: [note("en", "a", "2026-03-01", { tags: ["x"] })],
  };
  const topic = (
    list: Partial<NonNullable<RouteDefinition["list"]>> = {},
    path: RouteDefinition["path"] = "/notes/topics/:group",
  ): SiteDefinition => ({
    document: Page,
    routes: [
      { id: "notes.topics", path: "/notes/topics", page: Page },
      {
        id: "notes.topic",
        path,
        page: Page,
        schemaType: "CollectionPage",
        list: { collection: "notes", pageSize: 2, groupBy: "tags", indexRoute: "notes.topics", ...list },
      },
    ],
    collections: [
      {
        name: "notes",
        schema: { date: { type: "date" }, tags: { type: "references", to: "tags" }, kind: { type: "text" } },
      },
    ],
  });
  const grouped = planPages({ definition: topic(), site: config, collections: { notes } });
  const route = (id: string) => grouped.routes.find((r) => r.id === id);
  const listing = (file: string) => grouped.byFile.get(file)?.listing;
  const thrown = (plan: () => unknown) => {
    try {
      plan();
    } catch (error) {
      return error as SitegenError;
    }
    return undefined;
  };

  it("makes one paginated listing per value, newest first, one route per group and page pairing the locales", () => {
    expect(grouped.routes.map((r) => r.id)).toEqual([
      "notes.topics",
      "notes.topic:x",
      "notes.topic:x.page2",
      "notes.topic:y",
    ]);
    expect(route("notes.topic:x")).toMatchObject({
      paths: { pt: "/notes/topics/x", en: "/en/notes/topics/x" },
      params: { group: "x" },
      schemaType: "CollectionPage",
    });
    expect(listing("notes/topics/x.html")).toMatchObject({
      page: 1,
      pages: 2,
      basePath: "/notes/topics/x",
      group: { value: "x", labelKey: "tags.x" },
    });
    expect(listing("notes/topics/x.html")!.entries.map((e) => e.slug)).toEqual(["a", "b"]);
    expect(listing("notes/topics/x/page/2.html")!.entries.map((e) => e.slug)).toEqual(["c"]);
    expect(listing("en/notes/topics/x.html")).toMatchObject({ page: 1, pages: 1 });
    expect(listing("en/notes/topics/x.html")!.entries.map((e) => `${e.locale} ${e.slug}`)).toEqual(["en a"]);
    expect(grouped.byFile.get("notes/topics/y.html")!.meta).toEqual({
      title: "meta.notes.topic.title",
      description: "meta.notes.topic.description",
    });
  });

  const emptyLocaleGroup =
    "gives a locale without entries in a group no page: its switcher leads to the index, or to the group's first page";
  it(emptyLocaleGroup, () => {
    expect(route("notes.topic:y")!.paths).toEqual({ pt: "/notes/topics/y" });
    expect(grouped.byFile.has("en/notes/topics/y.html")).toBe(false);
    expect(route("notes.topic:y")!.fallback).toEqual({ pt: "/notes/topics", en: "/en/notes/topics" });
    expect(route("notes.topic:x.page2")!.paths).toEqual({ pt: "/notes/topics/x/page/2" });
    expect(route("notes.topic:x.page2")!.fallback).toEqual({ pt: "/notes/topics/x", en: "/en/notes/topics/x" });
    expect(grouped.pages.filter((p) => p.listing?.group).every((p) => p.listing!.entries.length > 0)).toBe(true);
  });

  it("groups by a text field too, its value as the label; entries without the field are in no group", () => {
    const byKind = planPages({ definition: topic({ groupBy: "kind" }), site: config, collections: { notes } });
    expect(byKind.routes.map((r) => `${r.id} ${Object.keys(r.paths).join(",")}`)).toEqual([
      "notes.topics pt,en",
      "notes.topic:guide pt",
    ]);
    expect(byKind.byFile.get("notes/topics/guide.html")!.listing).toMatchObject({
      group: { value: "guide", labelKey: undefined },
    });
    expect(byKind.byFile.get("notes/topics/guide.html")!.listing!.entries.map((e) => e.slug)).toEqual(["a", "c"]);
  });

  it.each([
    [
      "a path without :group",
      topic({}, { pt: "/notes/topics/:group", en: "/notes/topics" }),
      'route "notes.topic" groups its listing by "tags", so its path must hold ":group" where each value goes, ' +
        'and "/en/notes/topics" does not.',
    ],
    [
      "a collection the site does not define",
      topic({ collection: "missing" }),
      'route "notes.topic" shows the collection "missing", which `collections` does not define.',
    ],
    [
      "a field the collection does not have",
      topic({ groupBy: "topic" }),
      'route "notes.topic" groups the collection "notes" by "topic", ' +
        "which is not one of its fields (date, tags, kind).",
    ],
    [
      "an index route that does not exist",
      topic({ indexRoute: "notes.all" }),
      'route "notes.topic" names "notes.all" as its indexRoute, and no route has that id.',
    ],
  ])("refuses %s, as an invalid route table", (_what, definition, problem) => {
    const error = thrown(() => planPages({ definition, site: config, collections: { notes } }));
    expect(error).toBeInstanceOf(SitegenError);
    expect(error!.name).toBe("SiteDefinitionInvalid");
    expect(error!.message).toBe(`src/pages/routes.ts: ${problem}`);
  });

  it.each([
    [
      "a value that is not an address segment",
      ["x", "Data_Platforms"],
      '`tags`: "Data_Platforms" cannot be the address of its page (route "notes.topic" makes one for each value): ' +
        "use lower-case letters, digits and hyphens only.",
    ],
    ["a value with a slash", ["../x"], '`tags`: "../x" cannot be the address of its page'],
    [
      "a value that is not text",
      [3],
      '`tags`: must be text or a list of texts: route "notes.topic" makes a page for each value.',
    ],
  ])("refuses %s, naming the entry's file and the field", (_what, tags, message) => {
    const bad = { ...notes, en: [note("en", "z", "2026-04-01", { tags })] };
    const error = thrown(() => planPages({ definition: topic(), site: config, collections: { notes: bad } }));
    expect(error!.name).toBe("EntryInvalid");
    expect(error!.message).toContain(`content/en/notes/z.md, ${message}`);
  });
});

describe("locale paths", () => {
  const locales = [
    { code: "pt", prefix: "" },
    { code: "en", prefix: "/en" },
    { code: "es", prefix: "/es" },
  ];
  it.each([
    ["/", "pt"],
    ["/about", "pt"],
    ["/en", "en"],
    ["/en/", "en"],
    ["/en/services/advisory", "en"],
    ["/es/x", "es"],
    ["/english", "pt"],
    ["/enterprise/x", "pt"],
    ["/industries/en", "pt"],
  ])("%s is %s", (path, locale) => {
    expect(localeOfPath(path, locales).code).toBe(locale);
  });

  it("add, swap and remove prefixes", () => {
    expect(localizedPath("/", locales[1])).toBe("/en");
    expect(localizedPath("/about", locales[0])).toBe("/about");
    expect(unprefixedPath("/en/about", locales)).toBe("/about");
    expect(unprefixedPath("/es", locales)).toBe("/");
    expect(switchPrefix("/en/missing/page", locales[0], locales)).toBe("/missing/page");
    expect(switchPrefix("/nao-existe", locales[2], locales)).toBe("/es/nao-existe");
  });

  it("write flat files, so hosts answer extensionless addresses without a redirect", () => {
    expect(outputFileForPath("/")).toBe("index.html");
    expect(outputFileForPath("/en")).toBe("en.html");
    expect(outputFileForPath("/en/services/advisory")).toBe("en/services/advisory.html");
    expect(specialPageFile("", "404")).toBe("404.html");
    expect(specialPageFile("/en", "500")).toBe("en/500.html");
  });
});
