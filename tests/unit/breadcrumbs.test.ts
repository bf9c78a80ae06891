import { describe, expect, it } from "vitest";
import { breadcrumbsFor, crumbLabels } from "../../src/generator/breadcrumbs.ts";
import { createTranslator } from "../../src/generator/i18n.ts";

// Every route's full path, in every locale, → its id; labels are keyed by route id.
const ROUTE_IDS = new Map([
  ["/", "home"],
  ["/en", "home"],
  ["/es", "home"],
  ["/services", "services"],
  ["/en/services", "services"],
  ["/es/services", "services"],
  ["/services/advisory", "services.advisory"],
  ["/en/services/advisory", "services.advisory"],
  ["/industries", "industries"],
  ["/industries/financial-services", "industries.financial-services"],
]);
const pt = crumbLabels(
  createTranslator(
    "pt",
    new Map([
      ["breadcrumbs.home", "Início"],
      ["breadcrumbs.services", "Serviços"],
      ["breadcrumbs.services.advisory", "Consultoria em IA"],
      ["breadcrumbs.industries", "Setores"],
      ["breadcrumbs.industries.financial-services", "Serviços financeiros"],
    ]),
  ),
  ROUTE_IDS,
);
const LOCALES = [
  { code: "pt", prefix: "" },
  { code: "en", prefix: "/en" },
];
const THREE = [...LOCALES, { code: "es", prefix: "/es" }];
const en = crumbLabels(
  createTranslator(
    "en",
    new Map([
      ["breadcrumbs.home", "Home"],
      ["breadcrumbs.services", "Services"],
      ["breadcrumbs.services.advisory", "AI Advisory"],
    ]),
  ),
  ROUTE_IDS,
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
    // The not-found page's trail (its island knows no page list) shows every segment of the address asked for.
    const island = { home: "Home", of: () => undefined };
    expect(breadcrumbsFor("/en/case-studies/acme", island, LOCALES)).toEqual([
      { label: "Home", href: "/en" },
      { label: "Case-studies", href: "/en/case-studies" },
      { label: "Acme" },
    ]);
  });

  it("leave out a segment at which the site has no page, and Home when it has no home page", () => {
    expect(breadcrumbsFor("/en/case-studies/acme", en, LOCALES)).toEqual([
      { label: "Home", href: "/en" },
      { label: "Acme" },
    ]);
    const noHome = crumbLabels(createTranslator("pt", new Map()), new Map([["/notes", "notes"]]));
    expect(breadcrumbsFor("/notes/vitrail", noHome, LOCALES)).toEqual([
      { label: "Notes", href: "/notes" },
      { label: "Vitrail" },
    ]);
    // Unless another server answers there (site.yaml's servedElsewhere).
    const elsewhere = crumbLabels(createTranslator("pt", new Map()), new Map(), ["/"]);
    expect(breadcrumbsFor("/notes/vitrail", elsewhere, LOCALES)).toEqual([
      { label: "breadcrumbs.home", href: "/" },
      { label: "Notes", href: "/notes" },
      { label: "Vitrail" },
    ]);
  });

  it("follow every locale's prefix, and name the last crumb by the page's own title when given", () => {
    const es = crumbLabels(
      createTranslator(
        "es",
        new Map([
          ["breadcrumbs.home", "Inicio"],
          ["breadcrumbs.services", "Servicios"],
        ]),
      ),
      ROUTE_IDS,
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

  it("label translated paths by their route's id, and a segment no route answers by the segment", () => {
    const ids = new Map([
      ["/", "home"],
      ["/en", "home"],
      ["/sobre", "about"],
      ["/en/about", "about"],
      ["/sobre/equipe", "about.team"],
      ["/en/about/team", "about.team"],
    ]);
    const text = (locale: string, about: string, team: string) =>
      crumbLabels(
        createTranslator(
          locale,
          new Map([
            ["breadcrumbs.home", locale === "pt" ? "Início" : "Home"],
            ["breadcrumbs.about", about],
            ["breadcrumbs.about.team", team],
          ]),
        ),
        ids,
      );
    expect(breadcrumbsFor("/sobre/equipe", text("pt", "Sobre nós", "Equipe"), LOCALES)).toEqual([
      { label: "Início", href: "/" },
      { label: "Sobre nós", href: "/sobre" },
      { label: "Equipe" },
    ]);
    expect(breadcrumbsFor("/en/about/team", text("en", "About us", "Team"), LOCALES)).toEqual([
      { label: "Home", href: "/en" },
      { label: "About us", href: "/en/about" },
      { label: "Team" },
    ]);
    // "/en/sobre" is no route's address in English: its segment is not looked up as a key.
    expect(breadcrumbsFor("/en/sobre", text("en", "About us", "Team"), LOCALES).at(-1)).toEqual({ label: "Sobre" });
  });
});
