import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { ROOT, parseHtml, projectCopy, visibleText } from "../helpers.ts";

/** Spec §9's marketing figures, word for word (the English text). */
const SPEC_FIGURES = {
  manufacturing: [
    "40% less downtime",
    "30% lower maintenance cost",
    "99.5% defect detection accuracy",
    "50% faster inspection",
    "25% less inventory",
    "20% higher throughput",
    "30% lower delivery costs",
    "35% fewer stockouts",
  ],
  healthcare: [
    "15% better diagnostic accuracy",
    "30% faster drug discovery",
    "95% imaging accuracy",
    "40% faster patient recruitment",
  ],
};

let out: string;
const page = (file: string) => parseHtml(readFileSync(join(out, file), "utf8"));
const text = (el: { textContent: string }) => el.textContent.replace(/\s+/g, " ").trim();

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "sitegen-proof-")), "dist");
  await buildSite({ root: projectCopy(), outDir: out });
});

describe("proof: outcomes with their context, the method, independence", () => {
  const resultsPageFigures =
    "shows every figure of the spec on the results page as a typical result: large, with the kind of project and " +
    "what was measured (en)";
  it(resultsPageFigures, () => {
    const doc = page("en/results.html");
    expect(text(doc.querySelector("#typical .section-intro")!)).toMatch(
      /typical result of one kind of project .* neither a promise nor one client's result/,
    );
    for (const [sector, figures] of Object.entries(SPEC_FIGURES)) {
      const outcomes = doc.querySelectorAll(`#${sector} figure.outcome`);
      expect(outcomes.map((f) => text(f.querySelector(".outcome-figure")!))).toEqual(figures);
      for (const f of outcomes) {
        expect(f.querySelector(".outcome-value")!.textContent).toMatch(/^\d+(\.\d)?%$/);
        expect(text(f.querySelector("figcaption")!)).toMatch(/^[A-Z][^.]+\. Measured: .{12,}\.$/);
      }
    }
    expect(text(doc.querySelector("#manufacturing figcaption")!)).toBe(
      "Predictive maintenance. Measured: unplanned downtime of lines and critical equipment.",
    );
  });

  const unroutedSectorFigures =
    "puts each unrouted sector's headline figures in its section of the industries page, noted as typical results " +
    "and linked to the rest";
  it(unroutedSectorFigures, () => {
    const doc = page("en/industries.html");
    expect(doc.querySelectorAll("#manufacturing .outcome-figure").map(text)).toEqual([
      SPEC_FIGURES.manufacturing[0],
      SPEC_FIGURES.manufacturing[2],
      SPEC_FIGURES.manufacturing[4],
    ]);
    expect(doc.querySelectorAll("#healthcare .outcome-figure").map(text)).toEqual([
      SPEC_FIGURES.healthcare[0],
      SPEC_FIGURES.healthcare[2],
    ]);
    for (const sector of Object.keys(SPEC_FIGURES)) {
      expect(text(doc.querySelector(`#${sector} .outcome-note`)!)).toMatch(
        /neither a promise nor one client's results/,
      );
      expect(doc.querySelector(`#${sector} a[href="/en/results#${sector}"]`)).not.toBeNull();
    }
  });

  const implementationLineResults =
    "shows the implementation line's typical results beside it, and none on a line whose projects they do not measure";
  it(implementationLineResults, () => {
    const doc = page("en/services/implementation.html");
    expect(doc.querySelectorAll("#outcomes .outcome-figure").map(text)).toEqual([
      SPEC_FIGURES.manufacturing[0],
      SPEC_FIGURES.manufacturing[2],
      SPEC_FIGURES.healthcare[2],
    ]);
    expect(doc.querySelector('#outcomes a[href="/en/results"]')).not.toBeNull();
    expect(page("en/services/advisory.html").querySelectorAll("#outcomes figure.outcome")).toHaveLength(0);
    // The line's outcomes are a designed block of numbered statements, not a bare list.
    expect(page("services/advisory.html").querySelectorAll("#outcomes .outcome-points li")).toHaveLength(4);
  });

  it("gives the same figures in Portuguese, with the decimal comma", () => {
    const doc = page("results.html");
    const values = (sector: string) => doc.querySelectorAll(`#${sector} .outcome-value`).map((v) => v.textContent);
    expect(values("manufacturing")).toEqual(SPEC_FIGURES.manufacturing.map((f) => f.split(" ")[0].replace(".", ",")));
    expect(values("healthcare")).toEqual(SPEC_FIGURES.healthcare.map((f) => f.split(" ")[0]));
    expect(text(doc.querySelector("#manufacturing figure.outcome")!)).toContain("40% menos tempo de parada");
  });

  it("draws a chart only beside the figures it can draw without guessing, hidden from assistive technology", () => {
    const doc = page("en/results.html");
    const charted = doc
      .querySelectorAll("#manufacturing figure.outcome")
      .map((f) => (f.querySelector("svg.outcome-chart") ? f.querySelector(".outcome-value")!.textContent : null));
    // "50% faster": a bar would have to choose between time and speed.
    expect(charted).toEqual(["40%", "30%", "99.5%", null, "25%", "20%", "30%", "35%"]);
    for (const svg of doc.querySelectorAll("svg.outcome-chart")) expect(svg.getAttribute("aria-hidden")).toBe("true");
    // 40% less: the bar after is 60% of the bar before.
    const [before, after] = doc
      .querySelector("#manufacturing svg.outcome-chart")!
      .querySelectorAll("rect")
      .map((r) => Number(r.getAttribute("width")));
    expect(after / before).toBeCloseTo(0.6, 5);
  });

  it("puts four outcomes on the home page, each naming its sector and linking to it", () => {
    for (const [file, prefix] of [
      ["index.html", ""],
      ["en.html", "/en"],
    ] as const) {
      const outcomes = page(file).querySelectorAll("#results figure.outcome");
      expect(outcomes).toHaveLength(4);
      expect(outcomes.map((f) => f.querySelector(".outcome-sector a")!.getAttribute("href"))).toEqual([
        `${prefix}/industries#manufacturing`,
        `${prefix}/industries#manufacturing`,
        `${prefix}/industries#healthcare`,
        `${prefix}/industries#healthcare`,
      ]);
    }
    expect(page("en.html").querySelectorAll("#results .outcome-figure").map(text)).toEqual([
      SPEC_FIGURES.manufacturing[0],
      SPEC_FIGURES.manufacturing[2],
      SPEC_FIGURES.healthcare[0],
      SPEC_FIGURES.healthcare[2],
    ]);
    expect(page("index.html").querySelector('#results a[href="/results"]')!.textContent).toBe(
      "Ver todos os resultados e como medimos",
    );
  });

  const sectorArticleLinks =
    "links every sector to the firm's articles on its subject, financial services first to the one on credit " +
    "decisions, quoting it word for word";
  it(sectorArticleLinks, () => {
    const articles = Object.fromEntries(
      ["pt", "en"].flatMap((lang) =>
        readdirSync(join(ROOT, "content", lang, "insights")).map((f) => [
          `${lang}/${f}`,
          readFileSync(join(ROOT, "content", lang, "insights", f), "utf8"),
        ]),
      ),
    );
    // Every article's quote is a sentence of its own body, word for word.
    for (const [file, source] of Object.entries(articles)) {
      const [, front, body] = source.split(/^---$/m);
      const quote = JSON.parse(front.match(/^pullQuote: (.*)$/m)![1]);
      expect(body, file).toContain(quote);
    }
    for (const file of [
      "industries/financial-services.html",
      "en/industries/energy.html",
      "industries/retail.html",
      "en/industries/agriculture.html",
      "industries/education.html",
      "en/industries/professional.html",
    ]) {
      const reading = page(file).querySelectorAll("#reading .reading-list a");
      expect(reading.length, file).toBeGreaterThan(0);
    }
    for (const sector of ["manufacturing", "healthcare"])
      expect(page("industries.html").querySelectorAll(`#${sector} .reading-list a`).length).toBeGreaterThan(0);
    const fs = page("en/industries/financial-services.html");
    expect(fs.querySelector("#reading .reading-list a")!.getAttribute("href")).toBe(
      "/en/insights/ai-in-credit-decisions",
    );
    const quote = text(fs.querySelector("#reading .pull-quote blockquote")!);
    expect(articles["en/ai-in-credit-decisions.md"].split(/^---$/m)[2]).toContain(quote);
    expect(fs.querySelector("#reading .pull-quote cite a")!.getAttribute("href")).toBe(
      "/en/insights/ai-in-credit-decisions",
    );
  });

  const engagementStages =
    "describes how an engagement runs, stage by stage, with a timeframe and deliverables, once: on the services " +
    "page, in both languages";
  it(engagementStages, () => {
    for (const file of ["services.html", "en/services.html"]) {
      const steps = page(file).querySelectorAll("#method .method-step");
      expect(steps.length, file).toBe(4);
      for (const step of steps) {
        expect(text(step.querySelector("h3")!).length).toBeGreaterThan(5);
        expect(text(step.querySelector(".method-duration")!)).toMatch(/\d|Contínua|Ongoing/);
        expect(step.querySelectorAll(".method-deliverables li").length).toBeGreaterThanOrEqual(2);
      }
    }
    expect(page("en/services.html").querySelectorAll("#method .method-duration").map(text)).toEqual([
      "Timeframe: 3 to 4 weeks",
      "Timeframe: 6 to 10 weeks",
      "Timeframe: 3 to 6 months",
      "Timeframe: Ongoing",
    ]);
    expect(page("services.html").querySelectorAll("#method h3").map(text)).toEqual([
      "Diagnóstico",
      "Prova de valor",
      "Implementação",
      "Operação e evolução",
    ]);
  });

  const vendorIndependence =
    "states independence from vendors once, on the technologies page, as what it gives the client, and shows no " +
    "client, logo, testimonial or certification";
  it(vendorIndependence, () => {
    for (const file of ["technologies.html", "en/technologies.html"])
      expect(page(file).querySelectorAll("#independence .benefit-list li")).toHaveLength(3);
    expect(text(page("en/technologies.html").querySelector("#independence .section-intro")!)).toBe(
      "Vetor AI resells no licenses and takes no commission from any technology vendor. " +
        "We are paid only for the work we do for you.",
    );
    for (const file of ["index.html", "en.html", "technologies.html", "about.html"])
      expect(visibleText(page(file).querySelector("main")!)).not.toMatch(
        /testimonial|depoimento|certifica|ISO \d|logo/i,
      );
  });

  const noRepeatedSection =
    "shows no section on two pages under two headings: each page's headings are its own, and its closing band speaks " +
    "of it";
  it(noRepeatedSection, () => {
    const headings = (file: string) => page(file).querySelectorAll("main h2").map(text);
    const files = [
      "index.html",
      "services.html",
      "technologies.html",
      "industries.html",
      "about.html",
      "results.html",
      "services/advisory.html",
      "industries/energy.html",
    ];
    const seen = new Map<string, string>();
    for (const file of files) {
      for (const heading of headings(file).filter(
        (h) => !["Visão geral", "Para ler sobre o setor", "Para ler sobre o tema", "Resultados"].includes(h),
      )) {
        expect(seen.get(heading), `${heading}: ${file}`).toBeUndefined();
        seen.set(heading, file);
      }
    }
    const closing = files.map((file) => text(page(file).querySelector("#cta-title")!));
    expect(new Set(closing).size).toBe(files.length);
    expect(text(page("industries/energy.html").querySelector("#cta-title")!)).toBe(
      "Vamos falar sobre IA na sua operação de energia?",
    );
  });

  const heroIllustrations =
    "draws each dark hero's illustration as decoration, hidden from assistive technology, and the quiet pages' on " +
    "the light band";
  it(heroIllustrations, () => {
    for (const file of ["index.html", "en/about.html", "industries.html", "results.html"]) {
      const svg = page(file).querySelector("main .hero svg.illustration, main .page-hero svg.illustration");
      expect(svg, file).not.toBeNull();
      expect([svg!.getAttribute("aria-hidden"), svg!.getAttribute("focusable")]).toEqual(["true", "false"]);
    }
    for (const file of ["404.html", "en/500.html", "forms/error.html"]) {
      const svg = page(file).querySelector("main .quiet-page svg.illustration-quiet");
      expect(svg, file).not.toBeNull();
      expect(svg!.getAttribute("aria-hidden")).toBe("true");
    }
  });
});
