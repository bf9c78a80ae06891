import { describe, expect, it } from "vitest";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTranslator } from "../../src/generator/i18n.ts";
import { compareLocales, loadLocaleContent } from "../../src/generator/content.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { parseYaml } from "../../src/generator/yaml.ts";
import type { SitegenError } from "../../src/generator/errors.ts";
import { ROUTED_SECTORS } from "../../src/pages/sections.ts";

const root = join(import.meta.dirname, "../..");
const site = loadSiteConfig(root);

describe("t()", () => {
  it("returns the text, fills variables, and shows the key itself when it is missing (spec §8)", () => {
    const missing: string[] = [];
    const { t, has } = createTranslator(
      "en",
      new Map([
        ["hero.title", "Hello"],
        ["labels.explore", "Explore {name}"],
      ]),
      (l, k) => missing.push(`${l}:${k}`),
    );
    expect(t("hero.title")).toBe("Hello");
    expect(t("labels.explore", { name: "Retail" })).toBe("Explore Retail");
    expect(t("hero.nothing")).toBe("hero.nothing");
    expect(has("hero.nothing")).toBe(false);
    expect(missing).toEqual(["en:hero.nothing"]);
  });

  it("counts numbered items until the first gap", () => {
    const { count } = createTranslator(
      "pt",
      new Map([
        ["s.service1.title", "a"],
        ["s.service2.title", "b"],
        ["s.service4.title", "d"],
        ["s.benefit1", "x"],
      ]),
    );
    expect(count("s", "service")).toBe(2);
    expect(count("s", "benefit")).toBe(1);
    expect(count("s", "none")).toBe(0);
  });
});

describe("content of this site", () => {
  const pt = loadLocaleContent(root, "pt", site);
  const en = loadLocaleContent(root, "en", site);

  it("has the same keys in both languages", () => {
    expect(compareLocales([pt, en])).toEqual({});
  });

  it("writes the brand only in site.yaml: copy refers to it as {brand}, which is filled in", () => {
    for (const c of [pt, en])
      for (const text of c.dictionary.values()) expect(text).not.toMatch(/\{(brand|city|email|legalName)\}/);
    expect(en.dictionary.get("meta.home.title")).toContain(site.brand);
  });

  it("gives each action one label per language: every call to contact reads as the navigation's (issue 19)", () => {
    for (const c of [pt, en]) {
      expect([c.dictionary.get("hero.cta"), c.dictionary.get("cta.button")]).toEqual([
        c.dictionary.get("nav.contact"),
        c.dictionary.get("nav.contact"),
      ]);
    }
    expect(en.dictionary.get("nav.contact")).toBe("Contact Us");
  });

  const noInternalWords =
    "keeps the firm's internal words out of the copy: no phase numbers, no 'agnostic', 'equipe' rather than 'time' " +
    "in Portuguese (issue 19)";
  it(noInternalWords, () => {
    const text = (c: typeof pt) => [...c.dictionary.values()].join("\n");
    for (const c of [pt, en]) expect(text(c)).not.toMatch(/\b(fase|phase) 2\b|\bagn[oó]stic/i);
    expect(text(pt)).not.toMatch(/\btimes?\b/i);
    expect(text(pt)).not.toMatch(/assertiv/i);
  });

  const expectedBusinessTerms =
    "uses the terms a Brazilian business reader and an English one expect, not the ones the copy review flagged " +
    "(issue 40)";
  it(expectedBusinessTerms, () => {
    const articles = (dir: string) =>
      readdirSync(join(root, dir))
        .map((f) => readFileSync(join(root, dir, f), "utf8"))
        .join("\n");
    const ptText = [...pt.dictionary.values()].join("\n") + articles("content/pt/insights");
    const enText = [...en.dictionary.values()].join("\n") + articles("content/en/insights");
    for (const flagged of [
      /ordens? de grandeza/i,
      /\bpilha\b/i,
      /passagens claras/i,
      /sistemas de registro/i,
      /modelos de fundação/i,
      /\bMediriam|Serviriam|Lembrariam\b/,
    ]) {
      expect(ptText).not.toMatch(flagged);
    }
    for (const flagged of [
      /orders? of magnitude/i,
      /\blicences?\b/i,
      /consumer units/i,
      /bill copies/i,
      /put to use/i,
      /stop, adjust or go on/i,
      /\bWould (measure|remember)\b/,
    ]) {
      expect(enText).not.toMatch(flagged);
    }
    // One label per page: the trail, the navigation and the heading name the contact page alike, and a sector's
    // crumb is its name.
    for (const c of [pt, en]) {
      expect(c.dictionary.get("breadcrumbs.contact")).toBe(c.dictionary.get("nav.contact"));
      expect(c.dictionary.get("contact.heading")).toBe(c.dictionary.get("nav.contact"));
      for (const [slug, key] of Object.entries(ROUTED_SECTORS))
        expect(c.dictionary.get(`breadcrumbs.industries.${slug}`)).toBe(c.dictionary.get(`industries.${key}.name`));
    }
    // A figure never breaks from its currency or its unit at the end of a line.
    expect(pt.dictionary.get("advisors.advisor2.bio")).toContain("US$\u00a036\u00a0milhões");
    expect(pt.dictionary.get("leadership.ceo.bio")).toContain("US$\u00a025\u00a0milhões");
  });

  it("carries the spec's exact messages (§8) in both languages", () => {
    expect(en.dictionary.get("newsletter.emptyEmail")).toBe("Please enter your email address");
    expect(pt.dictionary.get("newsletter.emptyEmail")).toBe("Por favor, insira um email válido.");
    expect(en.dictionary.get("newsletter.failure")).toBe("Failed to subscribe. Please try again.");
    expect(pt.dictionary.get("newsletter.failure")).toBe("Falha ao inscrever. Tente novamente.");
    expect(en.dictionary.get("contactForm.successMessage")).toBe(
      "Your message has been sent. We'll get back to you soon!",
    );
    expect(pt.dictionary.get("contactForm.successTitle")).toBe("Mensagem Enviada!");
    expect(en.dictionary.get("error.title")).toBe("Unexpected Application Error!");
    expect(pt.dictionary.get("error.title")).toBe("Unexpected Application Error!");
  });
});

describe("content errors", () => {
  it("name the file, line and column of broken YAML, the reason, and the lines with a caret under the spot", () => {
    const error = (text: string) => {
      try {
        parseYaml("content/en/home.yaml", text);
      } catch (e) {
        return e as SitegenError;
      }
      throw new Error("parsed");
    };
    const duplicate = error("hero:\n  title: A\n  title: B\n");
    expect(duplicate.name).toBe("YamlSyntaxError");
    expect(duplicate.message).toBe(
      "content/en/home.yaml:3:3: duplicated mapping key\n 1 | hero:\n 2 |   title: A\n 3 |   title: B\n-------^",
    );
    expect(duplicate.hint).toMatch(/indentation/);
    expect(error("hero:\n\ttitle: A\n").message).toMatch(
      /^content\/en\/home\.yaml:2:1: tab characters must not be used in indentation/,
    );
    expect(error("hero:\n  title: Hello: world\n").message).toMatch(
      /^content\/en\/home\.yaml:2:15: bad indentation of a mapping entry/,
    );
    expect(error('hero:\n  title: "unclosed\n  cta: Talk to us\n').message).toMatch(/^content\/en\/home\.yaml:3:3: /);
  });

  it("read dates, yes/no and numbers as YAML 1.2's core schema does: dates and words stay text", () => {
    expect(parseYaml("x.yaml", "date: 2026-11-22\nanswer: yes\nzip: 01310-100\ncount: 12\nempty: ~\n")).toEqual({
      date: "2026-11-22",
      answer: "yes",
      zip: "01310-100",
      count: 12,
      empty: null,
    });
  });

  it("name both files when two define the same key", () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-content-"));
    mkdirSync(join(dir, "content", "pt"), { recursive: true });
    writeFileSync(join(dir, "content", "pt", "a.yaml"), "hero:\n  title: A\n");
    writeFileSync(join(dir, "content", "pt", "b.yaml"), "hero:\n  title: B\n");
    expect(() => loadLocaleContent(dir, "pt", site)).toThrowError(
      'The key "hero.title" is defined in content/pt/a.yaml and again in content/pt/b.yaml.',
    );
  });
});
