import { beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite, type BuildResult } from "../../src/generator/pipeline/build.ts";
import { ROOT, jsonLdGraph, parseHtml, projectCopy, visibleText } from "../helpers.ts";

/**
 * Issue 40: the facts only the firm can give (docs/firm-facts.md) show once content/site.yaml or the
 * leaders' text gives them, and nowhere before; a case added to content/<locale>/cases/ shows on the results
 * page, on its own page, and on its sector's and service line's pages, and no case band shows without one.
 * The facts and the case below are a test's fixture, written into a copy of the site, never committed.
 */
const FACTS = {
  phone: "+55 11 3000-0000",
  streetAddress: "Rua Exemplo, 100, conj. 1",
  postalCode: "01000-000",
  taxId: "00.000.000/0001-00",
  bookingUrl: "https://agenda.example.com/vetor",
  sameAs: ["https://www.linkedin.com/company/example"],
};

const CASE = (lang: "pt" | "en") =>
  lang === "pt"
    ? `---
title: Análise de crédito em um banco médio
description: Um modelo de risco explicável levou a análise de propostas de dias para horas.
date: 2026-10-01
sector: financialServices
service: implementation
client: Banco de médio porte, com atuação nacional
challenge: A análise manual de propostas levava dias e variava entre analistas.
approach: Construímos um modelo de risco explicável, integrado ao fluxo de crédito, com revisão humana.
team: Quatro pessoas da Vetor AI e três do banco
duration: Cinco meses
result1Value: "38%"
result1Label: menos tempo de análise por proposta
result1Context: Medido nos três meses após a entrada em produção, contra os seis anteriores.
translationKey: credit-case
---

Texto do case.
`
    : `---
title: Credit analysis at a mid-sized bank
description: An explainable risk model took proposal review from days to hours.
date: 2026-10-01
sector: financialServices
service: implementation
client: Mid-sized bank operating nationwide
challenge: Manual review of proposals took days and varied between analysts.
approach: We built an explainable risk model, integrated into the credit workflow, with human review.
team: Four people from Vetor AI and three from the bank
duration: Five months
result1Value: "38%"
result1Label: less review time per proposal
result1Context: Measured over the three months after go-live, against the six before.
translationKey: credit-case
---

Case text.
`;

let withFacts: string;
let plain: string;
let plainResult: BuildResult;
const page = (out: string, file: string) => parseHtml(readFileSync(join(out, file), "utf8"));

beforeAll(async () => {
  const project = projectCopy();
  const site = join(project, "content", "site.yaml");
  let yaml = readFileSync(site, "utf8");
  for (const [key, value] of Object.entries(FACTS))
    yaml = yaml.replace(new RegExp(`^${key}: .*$`, "m"), `${key}: ${JSON.stringify(value)}`);
  writeFileSync(site, yaml);
  mkdirSync(join(project, "content", "images", "people"), { recursive: true });
  copyFileSync(
    join(ROOT, "tests", "fixtures", "images", "portrait.jpg"),
    join(project, "content", "images", "people", "ceo.jpg"),
  );
  for (const lang of ["pt", "en"] as const) {
    const about = join(project, "content", lang, "about.yaml");
    writeFileSync(
      about,
      readFileSync(about, "utf8").replace(
        "  ceo:\n",
        "  ceo:\n    photo: ../images/people/ceo.jpg\n    previously: Empresa Exemplo, Banco Exemplo\n" +
          "    profile: https://www.linkedin.com/in/example\n",
      ),
    );
    mkdirSync(join(project, "content", lang, "cases"), { recursive: true });
    writeFileSync(
      join(project, "content", lang, "cases", lang === "pt" ? "credito-banco-medio.md" : "credit-mid-sized-bank.md"),
      CASE(lang),
    );
  }
  withFacts = join(mkdtempSync(join(tmpdir(), "sitegen-facts-")), "dist");
  await buildSite({ root: project, outDir: withFacts });
  plain = join(mkdtempSync(join(tmpdir(), "sitegen-no-facts-")), "dist");
  plainResult = await buildSite({ root: projectCopy(), outDir: plain });
}, 240_000);

describe("the firm's facts, once site.yaml and the leaders' text give them", () => {
  const contactDetailsShown =
    "show on /contact: phone, street address and CEP, legal name and CNPJ, a booking button, and the privacy note";
  it(contactDetailsShown, () => {
    const doc = page(withFacts, "contact.html");
    const details = doc.querySelector(".details")!;
    expect(details.querySelector('a[href="tel:+551130000000"]')!.textContent).toBe(FACTS.phone);
    expect(visibleText(details.querySelector("address")!)).toBe(
      "Rua Exemplo, 100, conj. 1 São Paulo, SP, Brasil CEP 01000-000",
    );
    expect(visibleText(details)).toContain("Vetor AI Consultoria em Tecnologia Ltda. CNPJ 00.000.000/0001-00");
    expect(doc.querySelector(`.page-hero a[href="${FACTS.bookingUrl}"]`)!.textContent).toBe("Agende uma conversa");
    expect(doc.querySelector(".privacy-note a")!.getAttribute("href")).toBe("/privacy-policy");
  });

  it("show in the footer of every page and in the Organization's JSON-LD", () => {
    for (const file of ["index.html", "en/about.html"]) {
      const doc = page(withFacts, file);
      const footer = visibleText(doc.querySelector(".site-footer")!);
      expect(footer).toContain(FACTS.streetAddress);
      expect(footer).toContain(`CNPJ${file.startsWith("en") ? " (tax ID)" : ""} ${FACTS.taxId}`);
      // Joined by a no-break space: a narrow footer never leaves "CNPJ" at a line's end without its number.
      expect(doc.querySelector(".footer-company")!.textContent).toContain(`\u00a0${FACTS.taxId}`);
      expect(doc.querySelector(`.site-footer a[href="${FACTS.bookingUrl}"]`)).not.toBeNull();
      expect(doc.querySelector(`.site-footer a[href="${FACTS.sameAs[0]}"]`)!.textContent).toBe("linkedin.com");
      const org = jsonLdGraph(doc).find((n) => n["@type"] === "Organization")!;
      expect([org.telephone, org.taxID, org.address.streetAddress, org.address.postalCode, org.sameAs]).toEqual([
        FACTS.phone,
        FACTS.taxId,
        FACTS.streetAddress,
        FACTS.postalCode,
        FACTS.sameAs,
      ]);
    }
  });

  it("give a leader a portrait, former employers and a profile link on /about", () => {
    const ceo = page(withFacts, "about.html").querySelectorAll(".person")[0];
    expect(ceo.querySelector("picture img")!.getAttribute("alt")).toBe("Carolina Mendes Vasconcelos");
    expect(ceo.querySelector(".monogram")).toBeNull();
    expect(visibleText(ceo.querySelector(".previously")!)).toBe("Experiência anterior: Empresa Exemplo, Banco Exemplo");
    expect(ceo.querySelector(".profile a")!.getAttribute("href")).toBe("https://www.linkedin.com/in/example");
  });
});

describe("a case added to the cases collection", () => {
  it("is listed on the results page, linked to its own page in each language", () => {
    const pt = page(withFacts, "results.html");
    expect(pt.querySelector("#cases .case-card a")!.getAttribute("href")).toBe("/results/credito-banco-medio");
    const card = visibleText(pt.querySelector("#cases .case-card")!);
    expect(card).toContain("Banco de médio porte, com atuação nacional");
    expect(card).toContain("Um modelo de risco explicável levou a análise de propostas de dias para horas.");
    expect(card).toContain("38% menos tempo de análise por proposta");
    expect(page(withFacts, "en/results.html").querySelector("#cases .case-card a")!.getAttribute("href")).toBe(
      "/en/results/credit-mid-sized-bank",
    );
  });

  const casePageDetails =
    "has a page with the client described, its sector and service line linked, the team, the duration and each " +
    "result with what was measured";
  it(casePageDetails, () => {
    const doc = page(withFacts, "results/credito-banco-medio.html");
    expect(doc.querySelector("h1")!.textContent).toBe("Análise de crédito em um banco médio");
    const facts = visibleText(doc.querySelector(".case-facts")!);
    for (const fact of [
      "Banco de médio porte, com atuação nacional",
      "Quatro pessoas da Vetor AI e três do banco",
      "Cinco meses",
    ])
      expect(facts).toContain(fact);
    expect(doc.querySelector('.case-facts a[href="/industries/financial-services"]')).not.toBeNull();
    expect(doc.querySelector('.case-facts a[href="/services/implementation"]')).not.toBeNull();
    expect(doc.querySelectorAll("#measured li p").map((p) => visibleText(p))).toEqual([
      "38%",
      "menos tempo de análise por proposta",
      "Medido nos três meses após a entrada em produção, contra os seis anteriores.",
    ]);
    // The case's own text, under a heading: not a paragraph left alone after the band of results.
    expect(visibleText(doc.querySelector("#story h2")!)).toBe("O projeto em detalhe");
    expect(visibleText(doc.querySelector("#story .case-story")!)).toBe("Texto do case.");
    expect(doc.querySelector('link[rel="alternate"][hreflang="en"]')!.getAttribute("href")).toMatch(
      /\/en\/results\/credit-mid-sized-bank$/,
    );
    expect(doc.querySelectorAll(".breadcrumbs li").map((li) => visibleText(li))).toEqual([
      "Início",
      "Resultados",
      "Análise de crédito em um banco médio",
    ]);
  });

  it("shows on its sector's page and its service line's page, and on no other sector or line", () => {
    expect(page(withFacts, "industries/financial-services.html").querySelector("#cases .case-card")).not.toBeNull();
    expect(page(withFacts, "en/services/implementation.html").querySelector("#cases .case-card")).not.toBeNull();
    expect(page(withFacts, "industries/energy.html").querySelector("#cases")).toBeNull();
    expect(page(withFacts, "services/advisory.html").querySelector("#cases")).toBeNull();
  });
});

describe("the site as committed, before the firm gives its facts", () => {
  it("shows no phone, street address, CNPJ, booking link or profile anywhere, and no empty fact", () => {
    const files = plainResult.pages.map((p) => p.file);
    expect(files.length).toBeGreaterThan(80);
    for (const file of files) {
      const doc = page(plain, file);
      expect(doc.querySelector('a[href^="tel:"]'), file).toBeNull();
      // An article may speak of a supplier's CNPJ: the firm's own would be in the footer.
      expect(visibleText(doc.querySelector(".site-footer")!), file).not.toMatch(/CNPJ|CEP \d|linkedin/i);
      const org = jsonLdGraph(doc).find((n) => n["@type"] === "Organization")!;
      expect(Object.keys(org), file).not.toEqual(expect.arrayContaining(["telephone"]));
      expect(org).not.toHaveProperty("taxID");
    }
    expect(visibleText(page(plain, "contact.html").querySelector(".details")!)).not.toMatch(/Telefone/);
  });

  it("publishes no case, shows no band of cases, and still has a results page of typical results", () => {
    for (const lang of ["pt", "en"])
      expect(
        existsSync(join(ROOT, "content", lang, "cases")) ? readdirSync(join(ROOT, "content", lang, "cases")) : [],
      ).toEqual([]);
    for (const p of plainResult.pages) expect(page(plain, p.file).querySelector("#cases"), p.file).toBeNull();
    const results = page(plain, "results.html");
    expect(results.querySelectorAll("#typical figure.outcome").length).toBe(12);
  });
});
