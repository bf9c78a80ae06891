import { describe, expect, it } from "vitest";
import { breadcrumbsFor } from "../../src/generator/breadcrumbs.ts";
import { createTranslator } from "../../src/generator/i18n.ts";

const pt = createTranslator(
  "pt",
  new Map([
    ["breadcrumbs.home", "Início"],
    ["breadcrumbs.services", "Serviços"],
    ["breadcrumbs.advisory", "Consultoria em IA"],
    ["breadcrumbs.industries", "Setores"],
    ["breadcrumbs.financial-services", "Serviços financeiros"],
  ]),
);
const LOCALES = [
  { code: "pt", prefix: "" },
  { code: "en", prefix: "/en" },
];
const THREE = [...LOCALES, { code: "es", prefix: "/es" }];
const en = createTranslator(
  "en",
  new Map([
    ["breadcrumbs.home", "Home"],
    ["breadcrumbs.services", "Services"],
    ["breadcrumbs.advisory", "AI Advisory"],
  ]),
);

describe("breadcrumbs (spec §2)", () => {
  it("are empty on both home pages", () => {
    expect(breadcrumbsFor("/", pt, LOCALES)).toEqual([]);
    expect(breadcrumbsFor("/en", en, LOCALES)).toEqual([]);
    expect(breadcrumbsFor("/en/", en, LOCALES)).toEqual([]);
  });

  it("start with Home and add one crumb per segment with known labels", () => {
    expect(breadcrumbsFor("/services/advisory", pt, LOCALES)).toEqual([
      { label: "Início", href: "/" },
      { label: "Serviços", href: "/services" },
      { label: "Consultoria em IA" },
    ]);
    expect(breadcrumbsFor("/en/services/advisory", en, LOCALES)).toEqual([
      { label: "Home", href: "/en" },
      { label: "Services", href: "/en/services" },
      { label: "AI Advisory" },
    ]);
  });

  it("capitalise unknown segments, and the last crumb is never a link", () => {
    const crumbs = breadcrumbsFor("/industries/manufacturing", pt, LOCALES);
    expect(crumbs.at(-1)).toEqual({ label: "Manufacturing" });
    expect(crumbs[1]).toEqual({ label: "Setores", href: "/industries" });
    expect(breadcrumbsFor("/en/case-studies/acme", en, LOCALES)).toEqual([
      { label: "Home", href: "/en" },
      { label: "Case-studies", href: "/en/case-studies" },
      { label: "Acme" },
    ]);
  });

  it("follow every locale's prefix, and name the last crumb by the page's own title when given", () => {
    const es = createTranslator(
      "es",
      new Map([
        ["breadcrumbs.home", "Inicio"],
        ["breadcrumbs.services", "Servicios"],
      ]),
    );
    expect(breadcrumbsFor("/es/services/advisory", es, THREE)).toEqual([
      { label: "Inicio", href: "/es" },
      { label: "Servicios", href: "/es/services" },
      { label: "Advisory" },
    ]);
    expect(breadcrumbsFor("/es", es, THREE)).toEqual([]);
    // "/espanol" is not under the "/es" prefix: a default-locale page.
    expect(breadcrumbsFor("/espanol", pt, THREE)).toEqual([{ label: "Início", href: "/" }, { label: "Espanol" }]);
    expect(breadcrumbsFor("/insights/governanca-de-ia", pt, THREE, "Governança de IA").at(-1)).toEqual({
      label: "Governança de IA",
    });
  });

  it("decode percent-encoded unknown segments for display", () => {
    expect(breadcrumbsFor("/s%C3%A3o-paulo", pt, LOCALES).at(-1)).toEqual({ label: "São-paulo" });
  });
});
