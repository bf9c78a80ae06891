import { describe, expect, it } from "vitest";
import { breadcrumbsFor } from "../../src/generator/breadcrumbs.ts";
import { createTranslator } from "../../src/generator/i18n.ts";

const pt = createTranslator("pt", new Map([
  ["breadcrumbs.home", "Início"], ["breadcrumbs.services", "Serviços"], ["breadcrumbs.advisory", "Consultoria em IA"],
  ["breadcrumbs.industries", "Setores"], ["breadcrumbs.financial-services", "Serviços financeiros"],
]));
const en = createTranslator("en", new Map([["breadcrumbs.home", "Home"], ["breadcrumbs.services", "Services"], ["breadcrumbs.advisory", "AI Advisory"]]));

describe("breadcrumbs (spec §2)", () => {
  it("are empty on both home pages", () => {
    expect(breadcrumbsFor("/", pt)).toEqual([]);
    expect(breadcrumbsFor("/en", en)).toEqual([]);
    expect(breadcrumbsFor("/en/", en)).toEqual([]);
  });

  it("start with Home and add one crumb per segment with known labels", () => {
    expect(breadcrumbsFor("/services/advisory", pt)).toEqual([
      { label: "Início", href: "/" },
      { label: "Serviços", href: "/services" },
      { label: "Consultoria em IA" },
    ]);
    expect(breadcrumbsFor("/en/services/advisory", en)).toEqual([
      { label: "Home", href: "/en" },
      { label: "Services", href: "/en/services" },
      { label: "AI Advisory" },
    ]);
  });

  it("capitalise unknown segments, and the last crumb is never a link", () => {
    const crumbs = breadcrumbsFor("/industries/manufacturing", pt);
    expect(crumbs.at(-1)).toEqual({ label: "Manufacturing" });
    expect(crumbs[1]).toEqual({ label: "Setores", href: "/industries" });
    expect(breadcrumbsFor("/en/case-studies/acme", en)).toEqual([
      { label: "Home", href: "/en" },
      { label: "Case-studies", href: "/en/case-studies" },
      { label: "Acme" },
    ]);
  });

  it("decode percent-encoded unknown segments for display", () => {
    expect(breadcrumbsFor("/s%C3%A3o-paulo", pt).at(-1)).toEqual({ label: "São-paulo" });
  });
});
