import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, fixtureCopy, parseHtml } from "../helpers.ts";

/**
 * The second site (tests/fixtures/minimal-site) in two languages whose paths differ: /atelier in French,
 * /en/workshop in English. Breadcrumb labels are keyed by route id, so each locale holds the same keys and
 * no translation is reported missing; a key only one locale holds is reported when a page shows it.
 */
let project = "";
const out = join(mkdtempSync(join(tmpdir(), "sitegen-translated-")), "dist");
const build = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--out", out, ...args], {
    cwd: project,
    encoding: "utf8",
  });
const trail = (file: string) =>
  parseHtml(readFileSync(join(out, file), "utf8"))
    .querySelectorAll(".trail li")
    .map((li) => [li.textContent, li.querySelector("a")?.getAttribute("href") ?? "current"]);

const ENGLISH = `meta:
  home:
    title: Atelier Lumière, stained glass made to order
    description: A stained-glass workshop in Lyon that restores and makes windows for churches and homes.
  workshop:
    title: The workshop
    description: Who we are, how we work the glass, and where to find us in Lyon.
    glass:
      title: The glass
      description: The glass we use and where it comes from.
  not-found:
    title: Page not found
    description: This address leads to no page of the workshop.
  error:
    title: Unexpected error
    description: Something went wrong; try again in a moment.
breadcrumbs:
  home: Home
  workshop: The workshop
  workshop.glass: The glass
home:
  heading: Handmade stained glass, in Lyon
  body: "{brand} restores old stained glass and makes new windows, piece by piece."
workshop:
  heading: The workshop
  body: Three glassmakers, one kiln, and a lot of patience.
notFound:
  heading: This page does not exist
`;

beforeAll(() => {
  project = fixtureCopy();
  const site = join(project, "content", "site.yaml");
  writeFileSync(
    site,
    readFileSync(site, "utf8").replace(
      '    prefix: ""\n',
      '    prefix: ""\n  - code: en\n    lang: en\n    ogLocale: en_GB\n    prefix: /en\n',
    ),
  );
  const routes = join(project, "src", "pages", "routes.ts");
  writeFileSync(
    routes,
    readFileSync(routes, "utf8").replace(
      '{ id: "workshop", path: "/atelier", page: Workshop, schemaType: "AboutPage" },',
      '{ id: "workshop", path: { fr: "/atelier", en: "/workshop" }, page: Workshop },\n' +
        '    { id: "workshop.glass", path: { fr: "/atelier/verre", en: "/workshop/glass" }, page: Workshop },',
    ),
  );
  const french = join(project, "content", "fr", "text.yaml");
  writeFileSync(
    french,
    readFileSync(french, "utf8")
      .replace("  workshop: L'atelier\n", "  workshop: L'atelier\n  workshop.glass: Le verre\n")
      .replace(
        "  not-found:",
        "    glass:\n      title: Le verre\n      description: Le verre que nous utilisons.\n  not-found:",
      ) + "# A key no page shows, in French only.\nfooter:\n  hours: Du mardi au samedi\n",
  );
  mkdirSync(join(project, "content", "en"));
  writeFileSync(join(project, "content", "en", "text.yaml"), ENGLISH);
});

describe("a site whose paths differ by language", () => {
  it("labels each trail by route, in each language, with no missing translation", () => {
    const built = build("--strict");
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^Built 10 pages \(fr 5, en 5\) into /);
    expect(built.stdout).not.toMatch(/missing translation/);
    expect(trail("atelier/verre.html")).toEqual([
      ["Accueil", "/"],
      ["L'atelier", "/atelier"],
      ["Le verre", "current"],
    ]);
    expect(trail("en/workshop/glass.html")).toEqual([
      ["Home", "/en"],
      ["The workshop", "/en/workshop"],
      ["The glass", "current"],
    ]);
    expect(trail("en/workshop.html")).toEqual([
      ["Home", "/en"],
      ["The workshop", "current"],
    ]);
  });

  it("reports a key that a page shows raw, and not one that no page shows", () => {
    const english = join(project, "content", "en", "text.yaml");
    writeFileSync(english, ENGLISH.replace(/^  body: Three glassmakers.*\n/m, ""));
    const built = build();
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/warning: 1 missing translation/);
    expect(built.stdout).toContain(
      "en    workshop.body  (defined only in content/fr/text.yaml; shown raw on /en/workshop, /en/workshop/glass)",
    );
    expect(built.stdout).not.toMatch(/footer\.hours/);
    expect(parseHtml(readFileSync(join(out, "en/workshop.html"), "utf8")).querySelector("main p")!.textContent).toBe(
      "workshop.body",
    );
  });
});
