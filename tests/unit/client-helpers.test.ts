import { describe, expect, it, vi } from "vitest";
import { cachedQuery, clearQueryCache, retryDelay } from "../../src/islands/runtime/query.ts";
import { languageOfPath, pathInLanguage } from "../../src/islands/runtime/language.ts";
import { localeOfPath, switchPrefix } from "../../src/generator/locales.ts";
import { languageFromBrowser } from "../../src/islands/language-detection.ts";
import { renderToString } from "react-dom/server";
import { createElement } from "react";
import { usePage } from "../../src/components/page-context.tsx";

describe("data cache (spec §7, §9)", () => {
  it("waits min(1000 * 2^n, 30000) ms between retries", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("retries a failing query 3 times, then gives up", async () => {
    clearQueryCache();
    const waits: number[] = [];
    const fetcher = vi.fn(async () => {
      throw new Error("down");
    });
    await expect(cachedQuery("down", fetcher, { sleep: async (ms) => void waits.push(ms) })).rejects.toThrow("down");
    expect(fetcher).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it("keeps a result for 5 minutes", async () => {
    clearQueryCache();
    let clock = 0;
    let calls = 0;
    const fetcher = async () => ++calls;
    const opts = { now: () => clock, sleep: async () => {} };
    expect(await cachedQuery("k", fetcher, opts)).toBe(1);
    clock = 4 * 60 * 1000;
    expect(await cachedQuery("k", fetcher, opts)).toBe(1);
    clock = 5 * 60 * 1000 + 1;
    expect(await cachedQuery("k", fetcher, opts)).toBe(2);
  });
});

describe("language (spec §4)", () => {
  it("comes from the path", () => {
    const locales = [
      { code: "pt", prefix: "" },
      { code: "en", prefix: "/en" },
      { code: "es", prefix: "/es" },
    ];
    const prefixes = { pt: "", en: "/en", es: "/es" };
    expect(languageOfPath("/en", prefixes)).toBe("en");
    expect(languageOfPath("/en/about", prefixes)).toBe("en");
    expect(languageOfPath("/es/about", prefixes)).toBe("es");
    expect(languageOfPath("/", prefixes)).toBe("pt");
    expect(languageOfPath("/english", prefixes)).toBe("pt");
    expect(pathInLanguage("/en/no-such-page", "pt", prefixes)).toBe("/no-such-page");
    expect(pathInLanguage("/no-such-page", "es", prefixes)).toBe("/es/no-such-page");
    expect(pathInLanguage("/es", "en", prefixes)).toBe("/en");
    // The same answers as the generator's rules, which the runtime repeats in a few lines of its own.
    for (const path of ["/", "/en", "/en/about", "/es", "/es/x/y", "/english", "/about/en", "/enx/es"]) {
      expect(languageOfPath(path, prefixes), path).toBe(localeOfPath(path, locales).code);
      for (const target of locales)
        expect(pathInLanguage(path, target.code, prefixes), `${path} → ${target.code}`).toBe(
          switchPrefix(path, target, locales),
        );
    }
  });

  it("from browser languages is pt when any starts with pt or contains br, otherwise en", () => {
    expect(languageFromBrowser(["en-US", "pt-BR"])).toBe("pt");
    expect(languageFromBrowser(["pt"])).toBe("pt");
    expect(languageFromBrowser(["es-BR"])).toBe("pt");
    expect(languageFromBrowser(["en-GB", "fr"])).toBe("en");
    expect(languageFromBrowser([])).toBe("en");
  });

  it("falls back to English and says so when detection fails", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(languageFromBrowser(undefined)).toBe("en");
    expect(warn).toHaveBeenCalledWith("Language detection failed, defaulting to English");
    warn.mockRestore();
  });

  it("accessor used outside its provider throws an error", () => {
    function Probe() {
      return createElement("p", null, usePage().t("nav.home"));
    }
    expect(() => renderToString(createElement(Probe))).toThrowError(/outside the document shell/);
  });
});
