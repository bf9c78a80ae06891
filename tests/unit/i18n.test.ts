import { describe, expect, it } from "vitest";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTranslator } from "../../src/generator/i18n.ts";
import { compareLocales, loadLocaleContent } from "../../src/generator/content.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { parseYamlFile } from "../../src/generator/yaml-file.ts";
import { parse as parseWithYamlPackage } from "yaml";
import fg from "fast-glob";
import { readFileSync } from "node:fs";

const root = join(import.meta.dirname, "../..");
const site = loadSiteConfig(root);

describe("t()", () => {
  it("returns the text, fills variables, and shows the key itself when it is missing (spec §8)", () => {
    const missing: string[] = [];
    const { t, has } = createTranslator("en", new Map([["hero.title", "Hello"], ["labels.explore", "Explore {name}"]]), (l, k) => missing.push(`${l}:${k}`));
    expect(t("hero.title")).toBe("Hello");
    expect(t("labels.explore", { name: "Retail" })).toBe("Explore Retail");
    expect(t("hero.nothing")).toBe("hero.nothing");
    expect(has("hero.nothing")).toBe(false);
    expect(missing).toEqual(["en:hero.nothing"]);
  });

  it("counts numbered items until the first gap", () => {
    const { count } = createTranslator("pt", new Map([
      ["s.service1.title", "a"], ["s.service2.title", "b"], ["s.service4.title", "d"], ["s.benefit1", "x"],
    ]));
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
    for (const c of [pt, en]) for (const text of c.dictionary.values()) expect(text).not.toMatch(/\{(brand|city|email|legalName)\}/);
    expect(en.dictionary.get("meta.home.title")).toContain(site.brand);
  });

  it("carries the spec's exact messages (§8) in both languages", () => {
    expect(en.dictionary.get("newsletter.emptyEmail")).toBe("Please enter your email address");
    expect(pt.dictionary.get("newsletter.emptyEmail")).toBe("Por favor, insira um email válido.");
    expect(en.dictionary.get("newsletter.failure")).toBe("Failed to subscribe. Please try again.");
    expect(pt.dictionary.get("newsletter.failure")).toBe("Falha ao inscrever. Tente novamente.");
    expect(en.dictionary.get("contactForm.successMessage")).toBe("Your message has been sent. We'll get back to you soon!");
    expect(pt.dictionary.get("contactForm.successTitle")).toBe("Mensagem Enviada!");
    expect(en.dictionary.get("error.title")).toBe("Unexpected Application Error!");
    expect(pt.dictionary.get("error.title")).toBe("Unexpected Application Error!");
  });
});

describe("content errors", () => {
  it("name the file, line and column of broken YAML", () => {
    expect(() => parseYamlFile("content/pt/home.yaml", "hero:\n  title: ok\n  cta: [unclosed\n")).toThrowError(/content\/pt\/home\.yaml:\d+:\d+/);
  });

  it("say what is wrong, at the right line and column", () => {
    expect(() => parseYamlFile("content/en/home.yaml", 'hero:\n  title: "unclosed\n  cta: Talk to us\n')).toThrowError('content/en/home.yaml:4:1: Missing closing "quote');
    // Then the lines in question, with a caret under the spot.
    expect(() => parseYamlFile("content/en/home.yaml", "hero:\n  title: A\n  title: B\n")).toThrowError("content/en/home.yaml:3:3: Map keys must be unique\n      title: A\n      title: B\n      ^");
    expect(() => parseYamlFile("content/en/home.yaml", "hero:\n\ttitle: A\n")).toThrowError(/content\/en\/home\.yaml:2:1: Tabs are not allowed/);
    expect(() => parseYamlFile("content/en/home.yaml", "hero:\n  title: Hello: world\n")).toThrowError(/content\/en\/home\.yaml:2:\d+: Nested mappings/);
  });

  it("read dates, yes/no and numbers as YAML 1.2's core schema does: dates and words stay text", () => {
    expect(parseYamlFile("x.yaml", "date: 2026-11-22\nanswer: yes\nzip: 01310-100\ncount: 12\nempty: ~\n")).toEqual({ date: "2026-11-22", answer: "yes", zip: "01310-100", count: 12, empty: null });
  });

  it("give every content file the value the yaml package gives it", () => {
    const files = fg.sync("content/**/*.yaml", { cwd: root });
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(join(root, file), "utf8");
      expect(parseYamlFile(file, text), file).toEqual(parseWithYamlPackage(text));
    }
  });

  it("name both files when two define the same key", () => {
    const dir = mkdtempSync(join(tmpdir(), "sitegen-content-"));
    mkdirSync(join(dir, "content", "pt"), { recursive: true });
    writeFileSync(join(dir, "content", "pt", "a.yaml"), "hero:\n  title: A\n");
    writeFileSync(join(dir, "content", "pt", "b.yaml"), "hero:\n  title: B\n");
    expect(() => loadLocaleContent(dir, "pt", site)).toThrowError(/hero\.title.*a\.yaml.*b\.yaml/);
  });
});
