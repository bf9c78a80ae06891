/**
 * `sitegen init` as a new user meets it: a site written into a folder outside the checkout, sitegen installed
 * into it from the tarball `npm pack` makes of the checkout, then built and type-checked with the installed
 * copy, through the site's own npm scripts.
 *
 * The install runs offline (the machines that run the tests reach no registry for every package, and a fresh
 * install from the registry would take minutes and compile better-sqlite3): the site's node_modules is first
 * given hard links of the checkout's installed copies of what the site and sitegen depend on, so npm finds
 * every dependency in place and installs only sitegen itself, from the tarball, as it would for a user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { starterLocales } from "../../starter/init.ts";
import { ROOT, parseHtml } from "../helpers.ts";

const work = mkdtempSync(join(tmpdir(), "sitegen-starter-"));
const site = join(work, "bike-shop");
const dist = join(site, "dist");
let initOutput = "";

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const page = (file: string) => parseHtml(readFileSync(join(dist, file), "utf8"));

/** Runs a command in `cwd`, failing the test with its output when it fails. */
function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  expect(result.status, `${command} ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** The installed folder of package `name` as Node would find it from `from` (a package folder, or the checkout). */
function installedPackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", name, "package.json"))) return join(dir, "node_modules", name);
    if (dir === ROOT || dir === dirname(dir)) return undefined;
  }
}

/** Hard links (a copy where links cannot be made) of the checkout's copies of `names` and their dependencies. */
function provide(names: string[]): void {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    const dir = installedPackage(name, from);
    if (!dir || found.has(dir)) return;
    found.add(dir);
    const pkg = readJson(join(dir, "package.json"));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies }))
      visit(dep, dir);
  };
  for (const name of names) visit(name, ROOT);
  const modules = join(ROOT, "node_modules");
  // A package nested in another's node_modules comes with that one.
  for (const dir of [...found].filter((d) => !relative(modules, d).includes("node_modules"))) {
    const target = join(site, "node_modules", relative(modules, dir));
    mkdirSync(dirname(target), { recursive: true });
    try {
      execFileSync("cp", ["-al", dir, target]);
    } catch {
      cpSync(dir, target, { recursive: true, verbatimSymlinks: true });
    }
  }
}

beforeAll(() => {
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], ROOT)) as [
    { filename: string },
  ];
  const tarball = join(work, packed.filename);
  const args = ["init", site, "--locales", "pt-BR,en,es", "--sitegen", tarball];
  initOutput = run(process.execPath, [join(ROOT, "bin", "sitegen.js"), ...args], work);
  const sitePkg = readJson(join(site, "package.json"));
  const needed = [...Object.keys(sitePkg.dependencies), ...Object.keys(sitePkg.devDependencies)];
  provide([
    ...needed.filter((name) => name !== "sitegen"),
    ...Object.keys(readJson(join(ROOT, "package.json")).dependencies),
  ]);
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], site);
  run("npm", ["run", "build"], site);
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("sitegen init", () => {
  it("writes the starter with the locales asked for, and says which text to translate", () => {
    expect(initOutput).toContain(`Wrote a new site into ${site}, in pt-BR, en, es.`);
    expect(initOutput).toContain("content/es/ holds the English text: translate it.");
    const config = readFileSync(join(site, "content", "site.yaml"), "utf8");
    expect(config).toContain('  - code: pt\n    lang: pt-BR\n    ogLocale: pt_BR\n    prefix: ""\n');
    expect(config).toContain('  - code: es\n    lang: es\n    ogLocale: es_ES\n    prefix: "/es"\n');
    expect(readFileSync(join(site, "content", "pt", "text.yaml"), "utf8")).toContain("Sua bicicleta pronta para rodar");
    expect(readdirSync(join(site, "content", "es", "services")).sort()).toEqual(["full-service.md", "tire-change.md"]);
    expect(readJson(join(site, "package.json")).scripts).toMatchObject({
      dev: "sitegen serve",
      build: "sitegen build",
      start: "sitegen start",
    });
    expect(readFileSync(join(site, ".gitignore"), "utf8")).toContain("node_modules/");
  });

  it("holds no placeholder and nothing of the site this repository ships", () => {
    const files = readdirSync(site, { recursive: true })
      .map(String)
      .filter((f) => !f.startsWith("node_modules") && !f.startsWith("dist") && !f.endsWith(".svg"))
      .filter((f) => lstatSync(join(site, f)).isFile());
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const text = readFileSync(join(site, file), "utf8");
      expect(text, file).not.toMatch(/\{\{\w+\}\}|lorem|ipsum|vetor|consultoria|consultancy/i);
      expect(text, file).not.toMatch(/TODO|FIXME|XXX/);
    }
  });

  it("installs sitegen from the tarball as a package of its own, with its CLI as the bin", () => {
    const installed = join(site, "node_modules", "sitegen");
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    // Beside its node_modules/.cache, where the CLI is compiled on its first run.
    expect(readdirSync(installed).sort()).toEqual([
      "README.md",
      "bin",
      "node_modules",
      "package.json",
      "src",
      "starter",
      "types",
    ]);
    expect(existsSync(join(site, "node_modules", ".bin", "sitegen"))).toBe(true);
  });

  it("type-checks its pages against the installed package's types", () => {
    run("npm", ["run", "typecheck"], site);
  });
});

describe("the starter site, built with the installed sitegen", () => {
  it("writes every page in every locale, with its text", () => {
    const files = readdirSync(dist, { recursive: true }).map(String);
    for (const file of [
      "index.html",
      "services.html",
      "services/revisao-completa.html",
      "services/troca-de-pneu.html",
      "en.html",
      "en/services/full-service.html",
      "es/services/tire-change.html",
      "404.html",
      "en/404.html",
      "sitemap.xml",
    ])
      expect(files, file).toContain(file);
    const home = page("index.html");
    expect(home.querySelector("html")!.getAttribute("lang")).toBe("pt-BR");
    expect(home.querySelector("title")!.textContent).toBe("Pedal & Co.: oficina de bicicletas");
    expect(home.querySelector("h1")!.textContent).toBe("Sua bicicleta pronta para rodar");
    expect(home.querySelectorAll("main li a").map((a) => a.getAttribute("href"))).toEqual([
      "/services/revisao-completa",
      "/services/troca-de-pneu",
    ]);
    const entry = page("en/services/full-service.html");
    expect(entry.querySelector("h1")!.textContent).toBe("Full service");
    expect(entry.querySelector("main p")!.textContent).toMatch(/^We take the whole bike apart/);
    expect(page("es.html").querySelector("html")!.getAttribute("lang")).toBe("es");
  });

  it("links each page to its translations with hreflang", () => {
    const alternates = page("services/revisao-completa.html")
      .querySelectorAll('link[rel="alternate"]')
      .map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]);
    expect(alternates).toEqual(
      expect.arrayContaining([
        ["pt-BR", "https://www.example.com/services/revisao-completa"],
        ["en", "https://www.example.com/en/services/full-service"],
        ["es", "https://www.example.com/es/services/full-service"],
        ["x-default", "https://www.example.com/services/revisao-completa"],
      ]),
    );
    const languages = page("en.html").querySelectorAll("header a[hreflang]");
    expect(languages.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["português (Brasil)", "/"],
      ["English", "/en"],
      ["español", "/es"],
    ]);
  });

  it("lists every page of every locale in its sitemap", () => {
    const locs = parseHtml(readFileSync(join(dist, "sitemap.xml"), "utf8"))
      .querySelectorAll("loc")
      .map((l) => l.textContent)
      .sort();
    expect(locs).toEqual(
      [
        "/",
        "/services",
        "/services/revisao-completa",
        "/services/troca-de-pneu",
        ...["en", "es"].flatMap((l) => [
          `/${l}`,
          `/${l}/services`,
          `/${l}/services/full-service`,
          `/${l}/services/tire-change`,
        ]),
      ]
        .map((path) => `https://www.example.com${path}`)
        .sort(),
    );
  });
});

describe("starterLocales (--locales)", () => {
  it("gives each locale a code, its Open Graph locale and a prefix, and the starter's text closest to it", () => {
    expect(starterLocales("pt-BR,pt-PT,en-GB")).toEqual([
      { code: "pt-br", lang: "pt-BR", ogLocale: "pt_BR", prefix: "", text: "pt-BR", copied: false },
      { code: "pt-pt", lang: "pt-PT", ogLocale: "pt_PT", prefix: "/pt-pt", text: "en", copied: true },
      { code: "en", lang: "en-GB", ogLocale: "en_GB", prefix: "/en", text: "en", copied: false },
    ]);
    expect(() => starterLocales("pt-BR,en,pt-BR")).toThrow("Name each locale once.");
    expect(() => starterLocales("pt-BR,not a tag")).toThrow("Give language tags separated by commas");
  });
});
