import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERRORS, type ErrorName } from "../../src/generator/error-catalogue.ts";
import { formatError, SitegenError } from "../../src/generator/errors.ts";
import { buildSite } from "../../src/generator/pipeline/build.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { compileEndpoints, loadBuiltEndpoints, loadEndpoints } from "../../src/generator/endpoints.ts";
import { readServerBundle, serverBundleFiles } from "../../src/generator/server-bundle.ts";
import { startPort } from "../../src/server/start.ts";
import { cloudflareTarget } from "../../src/generator/targets/cloudflare.ts";
import { netlifyTarget } from "../../src/generator/targets/netlify.ts";
import { commandContext } from "../../src/generator/site-commands.ts";
import { printSubmissions } from "../../src/api/commands/list.ts";
import { deleteSubject, exportSubject } from "../../src/api/commands/subject-rights.ts";
import { nextIssues, previewNewsletter } from "../../src/api/commands/newsletter.ts";
import { sendThroughSite } from "../../src/api/commands/newsletter-remote.ts";
import { initSite, starterLocales } from "../../starter/init.ts";
import { ROOT, fixtureCopy, projectCopy } from "../helpers.ts";

/**
 * Every entry of the error catalogue, triggered the way a developer would meet it, with its text checked:
 * name, title, the message naming the place, and the hint. The last test fails when an entry has none here.
 */
const triggered = new Set<ErrorName>();

async function caught(action: () => unknown): Promise<SitegenError> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(SitegenError);
    return error as SitegenError;
  }
  throw new Error("no error was thrown");
}

async function expectError(
  name: ErrorName,
  action: () => unknown,
  message: RegExp | string,
  hint: RegExp | string = /\S/,
) {
  const error = await caught(action);
  expect(error.name).toBe(name);
  expect(error.title).toBe(ERRORS[name].title);
  if (typeof message === "string") expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  if (typeof hint === "string") expect(error.hint).toBe(hint);
  else expect(error.hint).toMatch(hint);
  expect(formatError(error)).toContain(`${name}: ${ERRORS[name].title}\n  `);
  triggered.add(name);
  return error;
}

const out = () => join(mkdtempSync(join(tmpdir(), "sitegen-err-")), "dist");
const edit = (root: string, file: string, change: (text: string) => string) =>
  writeFileSync(join(root, file), change(readFileSync(join(root, file), "utf8")));

describe("site configuration", () => {
  it("ConfigMissing, ConfigInvalid and SiteUrlInvalid name the file, the field or the option", async () => {
    const empty = mkdtempSync(join(tmpdir(), "sitegen-empty-"));
    await expectError(
      "ConfigMissing",
      () => loadSiteConfig(empty),
      `${join(empty, "content", "site.yaml")} does not exist: ` +
        "sitegen reads the site's address, locales and endpoints from it.",
      /docs\/guide\.md/,
    );
    const project = projectCopy();
    edit(project, "content/site.yaml", (t) => t.replace("    prefix: /en", '    prefix: ""'));
    await expectError(
      "ConfigInvalid",
      () => loadSiteConfig(project),
      'content/site.yaml, `locales`: exactly one locale must have prefix "" (the default); 2 do.',
      /exactly one has prefix ""/,
    );
    edit(project, "content/site.yaml", (t) => t.replace("  - code: en", "  - code: en/x"));
    await expectError(
      "ConfigInvalid",
      () => loadSiteConfig(project),
      /`locales\[1\]\.code`: "en\/x" must be letters, digits and hyphens/,
    );
    await expectError(
      "SiteUrlInvalid",
      () => loadSiteConfig(ROOT, { siteUrl: "ftp://example.com" }),
      '"ftp://example.com" (from --site-url) is not an absolute http or https URL.',
      "Set --site-url to an address of the form https://www.example.com",
    );
  });
});

describe("content", () => {
  it("YamlSyntaxError, ContentMissing, ContentInvalid and ContentDuplicateKey name the file and the key", async () => {
    const project = projectCopy();
    const site = loadSiteConfig(ROOT);
    edit(project, "content/en/forms.yaml", (t) => `${t}\nbroken: [unclosed\n`);
    await expectError(
      "YamlSyntaxError",
      () => loadLocaleContent(project, "en", site),
      /^content\/en\/forms\.yaml:\d+:\d+: /,
    );
    await expectError(
      "ContentMissing",
      () => loadLocaleContent(project, "es", site),
      'content/es holds no YAML file, but content/site.yaml lists the locale "es".',
      /Create content\/es\//,
    );
    writeFileSync(join(project, "content", "pt", "list.yaml"), "footer:\n  offices:\n    - São Paulo\n");
    await expectError(
      "ContentInvalid",
      () => loadLocaleContent(project, "pt", site),
      'content/pt/list.yaml, "footer.offices": holds a list, where text was expected.',
      /numbered keys/,
    );
    writeFileSync(join(project, "content", "pt", "list.yaml"), "nav:\n  home: Início de novo\n");
    await expectError(
      "ContentDuplicateKey",
      () => loadLocaleContent(project, "pt", site),
      'The key "nav.home" is defined in content/pt/common.yaml and again in content/pt/list.yaml.',
    );
  });
});

describe("site code", () => {
  it("SiteDefinitionMissing and SiteDefinitionInvalid point at src/pages/routes.ts", async () => {
    const project = projectCopy();
    rmSync(join(project, "src", "pages", "routes.ts"));
    await expectError(
      "SiteDefinitionMissing",
      () => buildSite({ root: project, outDir: out() }),
      "src/pages/routes.ts does not exist: it tells sitegen which pages the site has.",
      /defineSite/,
    );
    writeFileSync(join(project, "src", "pages", "routes.ts"), "export default { routes: [] };\n");
    await expectError(
      "SiteDefinitionInvalid",
      () => buildSite({ root: project, outDir: out() }),
      /^src\/pages\/routes\.ts: its default export must be defineSite/,
    );
  });

  it("PagesDependencyMissing names the package the pages need and the command that installs it", async () => {
    const site = fixtureCopy();
    rmSync(join(site, "node_modules", "react"));
    await expectError(
      "PagesDependencyMissing",
      () => buildSite({ root: site, outDir: out() }),
      `src/pages/routes.ts (or a module it imports) requires "react", which is not installed in ${site}.`,
      `Run \`npm install react react-dom\` in ${site}: the pages render with the site's own packages.`,
    );
  });

  it("InitFolderNotEmpty names the folder and what it holds", async () => {
    const folder = mkdtempSync(join(tmpdir(), "sitegen-init-"));
    for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"]) writeFileSync(join(folder, name), "");
    await expectError(
      "InitFolderNotEmpty",
      () => initSite(folder, { locales: starterLocales("en") }),
      `${folder} already holds a.txt, b.txt, c.txt, …: sitegen init writes a new site into a new or empty folder only.`,
      "Name a folder that does not exist yet (sitegen init my-site), or empty this one first.",
    );
  });

  it("EntryInvalid names the file, the field and the line that writes it", async () => {
    const project = projectCopy();
    writeFileSync(join(project, "content", "pt", "insights", "sem-cabecalho.md"), "# Sem front matter\n");
    await expectError(
      "EntryInvalid",
      () => buildSite({ root: project, outDir: out() }),
      "content/pt/insights/sem-cabecalho.md, `(front matter)`: " +
        "the file must start with front matter between two lines of ---.",
      /between two lines of ---/,
    );
    writeFileSync(
      join(project, "content", "pt", "insights", "sem-cabecalho.md"),
      "---\ntitle: X\ndescription: Y\ndate: 2026-01-01\nauthor: cto\ntags: [strategy]\nsubtitle: Z\n---\nTexto.\n",
    );
    await expectError(
      "EntryInvalid",
      () => buildSite({ root: project, outDir: out() }),
      new RegExp(
        /^content\/pt\/insights\/sem-cabecalho\.md:7:1, `subtitle`: /.source +
          /is not a field of this collection \(its fields: title, description/.source,
      ),
      /src\/pages\/routes\.ts lists the collection's fields/,
    );
  });

  it("EntryInvalid names every problem of every invalid entry in one build, each with its file and line", async () => {
    const project = projectCopy();
    writeFileSync(
      join(project, "content", "en", "insights", "broken.md"),
      '---\ndescription: "No title."\ndate: 2026-13-45\nauthor: nobody\n' +
        "tags: [governance, unknowntag, other]\n---\nBody.\n",
    );
    writeFileSync(
      join(project, "content", "pt", "insights", "quebrado.md"),
      '---\ntitle: "Quebrado"\ndescription: "Sem data."\nauthor: cto\ntags: [governance]\n---\nTexto.\n',
    );
    const error = await caught(() => buildSite({ root: project, outDir: out() }));
    expect(error.name).toBe("EntryInvalid");
    expect(error.message.split("\n")).toEqual([
      "content/pt/insights/quebrado.md, `date`: is required and missing.",
      "content/en/insights/broken.md, `title`: is required and missing.",
      'content/en/insights/broken.md:3:1, `date`: must be a date written YYYY-MM-DD, not "2026-13-45".',
      'content/en/insights/broken.md:4:1, `author`: "nobody" is not one of ceo, cto.',
      expect.stringMatching(
        /^content\/en\/insights\/broken\.md:5:1, `tags`: "unknowntag", "other" are not among governance, regulation, /,
      ),
    ]);
    expect(error.hint).toMatch(/^Fix each field named above/);
    // As the CLI prints it: every problem on a line of its own, under the error's name.
    expect(formatError(error)).toMatch(
      new RegExp(
        /^EntryInvalid: Invalid entry\n {2}content\/pt\/insights\/quebrado\.md, `date`[^\n]*\n/.source +
          / {2}content\/en\/insights\/broken\.md, `title`/.source,
      ),
    );
  });

  const yamlSyntaxErrorLines =
    "YamlSyntaxError in an article's front matter numbers its lines as the file does, in the place and in the excerpt";
  it(yamlSyntaxErrorLines, async () => {
    const project = projectCopy();
    writeFileSync(
      join(project, "content", "pt", "insights", "aspas-abertas.md"),
      '---\ndescription: "Resumo."\ntitle: "Sem fim\n---\nTexto.\n',
    );
    const error = await expectError(
      "YamlSyntaxError",
      () => buildSite({ root: project, outDir: out() }),
      /^content\/pt\/insights\/aspas-abertas\.md:3:\d+: /,
    );
    // The excerpt shows the file's own lines under their numbers: the opening ---, then the fields.
    expect(formatError(error)).toMatch(/ 1 \| ---\n\s+2 \| description: "Resumo\."\n\s+3 \| title: "Sem fim/);
  });

  it("a file whose YAML cannot be read is listed with the other invalid entries of the build", async () => {
    const project = projectCopy();
    writeFileSync(
      join(project, "content", "pt", "insights", "aspas-abertas.md"),
      '---\ndescription: "Resumo."\ntitle: "Sem fim\n---\nTexto.\n',
    );
    writeFileSync(
      join(project, "content", "en", "insights", "undated.md"),
      '---\ntitle: "Undated"\ndescription: "No date."\nauthor: cto\ntags: [governance]\n---\nBody.\n',
    );
    const error = await caught(() => buildSite({ root: project, outDir: out() }));
    expect(error.name).toBe("EntryInvalid");
    expect(error.message.split("\n")).toEqual([
      expect.stringMatching(
        /^content\/pt\/insights\/aspas-abertas\.md:3:\d+, `\(YAML\)`: cannot be read as YAML: .+\.$/,
      ),
      "content/en/insights/undated.md, `date`: is required and missing.",
    ]);
    expect(error.hint).toMatch(
      /^Fix each file and field named above \(where the YAML cannot be read, check the indentation/,
    );
  });

  const imageErrorsNamePlace =
    "ImageMissing, ImageNotLocal, ImageUnsupported and ImageUnreadable name the file and the field or line that uses " +
    "the image";
  it(imageErrorsNamePlace, async () => {
    const project = projectCopy();
    const article = "content/pt/insights/governanca-de-ia.md";
    const original = readFileSync(join(project, article), "utf8");
    const withCover = (cover: string) =>
      writeFileSync(join(project, article), original.replace(/^cover: .*$/m, `cover: ${cover}`));
    withCover("./capa.jpg");
    await expectError(
      "ImageMissing",
      () => buildSite({ root: project, outDir: out() }),
      `${article}, \`cover\`: the image "./capa.jpg" (content/pt/insights/capa.jpg) does not exist.`,
      /relative to the file that uses it/,
    );
    writeFileSync(join(project, article), original);
    edit(project, "content/site.yaml", (t) => t.replace(/^socialImage: .*$/m, "socialImage: images/cartao.png"));
    await expectError(
      "ImageMissing",
      () => buildSite({ root: project, outDir: out() }),
      'content/site.yaml, `socialImage`: the image "images/cartao.png" (content/images/cartao.png) does not exist.',
    );
    edit(project, "content/site.yaml", (t) => t.replace(/^socialImage: .*$/m, "socialImage: images/social-card.webp"));
    // In the Markdown: the line of the image, front matter counted.
    writeFileSync(
      join(project, article),
      original.replace("\n\nA alternativa é", "\n\nVeja o quadro:\n![Quadro](./quadro.png)\n\nA alternativa é"),
    );
    const line = readFileSync(join(project, article), "utf8").split("\n").indexOf("![Quadro](./quadro.png)") + 1;
    expect(line).toBeGreaterThan(10);
    await expectError(
      "ImageMissing",
      () => buildSite({ root: project, outDir: out() }),
      `${article}:${line}: the image "./quadro.png" (content/pt/insights/quadro.png) does not exist.`,
    );
    writeFileSync(
      join(project, article),
      original.replace("\n\nA alternativa é", "\n\n![Logo](https://cdn.example.com/logo.png)\n\nA alternativa é"),
    );
    await expectError(
      "ImageNotLocal",
      () => buildSite({ root: project, outDir: out() }),
      new RegExp(
        /^content\/pt\/insights\/governanca-de-ia\.md:\d+: "https:\/\/cdn\.example\.com\/logo\.png" /.source +
          /is an address on the web, not a file of the project\.$/.source,
      ),
      /Content-Security-Policy/,
    );
    withCover("../../../../etc/hostname");
    await expectError(
      "ImageNotLocal",
      () => buildSite({ root: project, outDir: out() }),
      /`cover`: "..\/..\/..\/..\/etc\/hostname" is outside the project folder/,
    );
    copyFileSync(join(ROOT, "tests/fixtures/images/animation.gif"), join(project, "content/pt/insights/animacao.gif"));
    withCover("./animacao.gif");
    await expectError(
      "ImageUnsupported",
      () => buildSite({ root: project, outDir: out() }),
      `${article}, \`cover\`: "./animacao.gif" is a GIF file; the image pipeline reads JPEG, PNG, WebP and AVIF.`,
      /Convert the image to JPEG/,
    );
    writeFileSync(join(project, "content/pt/insights/capa.jpg"), "not a picture");
    withCover("./capa.jpg");
    await expectError(
      "ImageUnreadable",
      () => buildSite({ root: project, outDir: out() }),
      /^content\/pt\/insights\/governanca-de-ia\.md, `cover`: "\.\/capa\.jpg" could not be decoded: /,
      /damaged/,
    );
  });

  it("DuplicatePagePath names both pages", async () => {
    const project = projectCopy();
    edit(project, "src/pages/routes.ts", (t) =>
      t.replace('{ id: "contact", path: "/contact"', '{ id: "contact", path: "/about"'),
    );
    await expectError(
      "DuplicatePagePath",
      () => buildSite({ root: project, outDir: out() }),
      '/about is the address of both route "about" and route "contact".',
    );
  });

  it("PageCompileError, IslandCompileError, StylesMissing and CssError name file, line and column", async () => {
    const project = projectCopy();
    edit(project, "src/pages/about.tsx", (t) =>
      t.replace("export default function AboutPage() {", "export default function AboutPage() {\n  const = 1;"),
    );
    await expectError(
      "PageCompileError",
      () => buildSite({ root: project, outDir: out() }),
      /^src\/pages\/about\.tsx:\d+:\d+: /,
    );
    edit(project, "src/pages/about.tsx", (t) => t.replace("\n  const = 1;", ""));
    edit(project, "src/islands/newsletter.tsx", (t) => `${t}\nexport const broken = ;\n`);
    await expectError(
      "IslandCompileError",
      () => buildSite({ root: project, outDir: out() }),
      /^src\/islands\/newsletter\.tsx:\d+:\d+: /,
    );
    edit(project, "src/islands/newsletter.tsx", (t) => t.replace("\nexport const broken = ;\n", ""));
    const css = readFileSync(join(project, "src", "styles", "main.css"), "utf8");
    writeFileSync(join(project, "src", "styles", "main.css"), `${css}\n:::broken { color: red; }\n`);
    await expectError(
      "CssError",
      () => buildSite({ root: project, outDir: out() }),
      `src/styles/main.css:${css.split("\n").length + 1}:4: Invalid token in pseudo element: Colon`,
    );
    rmSync(join(project, "src", "styles", "main.css"));
    await expectError(
      "StylesMissing",
      () => buildSite({ root: project, outDir: out() }),
      "src/styles/main.css does not exist.",
      /@import/,
    );
  });

  it("StyleAssetMissing and FontSubsetFailed name the stylesheet and the url() it names", async () => {
    const project = projectCopy();
    edit(project, "src/styles/base.css", (t) => `${t}\n.hero { background: url("./images/grid.svg"); }\n`);
    await expectError(
      "StyleAssetMissing",
      () => buildSite({ root: project, outDir: out() }),
      'src/styles/main.css (or a file it @imports) names url("./images/grid.svg"), and there is no such file.',
      /read from src\/styles\//,
    );
    edit(project, "src/styles/base.css", (t) => t.replace('\n.hero { background: url("./images/grid.svg"); }\n', ""));
    writeFileSync(join(project, "src", "styles", "broken.woff2"), "not a font");
    edit(
      project,
      "src/styles/fonts.css",
      (t) =>
        `${t}\n@font-face { font-family: "Broken"; src: url("./broken.woff2") format("woff2"); ` +
        "unicode-range: U+0041-005A; }\n",
    );
    await expectError(
      "FontSubsetFailed",
      () => buildSite({ root: project, outDir: out() }),
      new RegExp(
        /^The font url\("\.\/broken\.woff2"\) of an @font-face rule in src\/styles\/main\.css /.source +
          /\(or a file it @imports\) could not be cut to its unicode-range: /.source,
      ),
      /WOFF2, WOFF, TrueType or OpenType/,
    );
  });

  it("PageRenderError names the page, its address and locale, and the component's source file and line", async () => {
    const project = projectCopy();
    edit(project, "src/pages/contact.tsx", (t) =>
      t.replace(
        "export default function ContactPage() {",
        'export default function ContactPage() {\n  if (usePage().locale === "en") throw new Error("no phone number");',
      ),
    );
    const line = readFileSync(join(project, "src/pages/contact.tsx"), "utf8")
      .split("\n")
      .indexOf('  if (usePage().locale === "en") throw new Error("no phone number");');
    expect(line).toBeGreaterThan(0);
    // The stack names the page's source file and the line that threw, not the compiled bundle.
    await expectError(
      "PageRenderError",
      () => buildSite({ root: project, outDir: out() }),
      new RegExp(
        '^Rendering route "contact" at /en/contact \\(en\\) failed: no phone number\n' +
          `\\s+at ContactPage \\(src/pages/contact\\.tsx:${line + 1}:\\d+\\)`,
      ),
    );
  });

  it("MissingTranslations lists each key with --strict", async () => {
    const project = projectCopy();
    edit(project, "content/en/common.yaml", (t) => t.replace(/^  tagline: .*\n/m, ""));
    await expectError(
      "MissingTranslations",
      () => buildSite({ root: project, outDir: out(), strict: true }),
      new RegExp(
        /^1 text key\(s\) are missing.*\n\s+en\s+footer\.tagline\s+/.source +
          /\(defined only in content\/pt\/common\.yaml; shown raw on \/en, /.source,
      ),
    );
  });

  const noPagesNamesRoutes =
    "NoPages names src/pages/routes.ts when no route gives a page, with --strict (a warning otherwise: " +
    "tests/unit/empty-site.test.ts)";
  it(noPagesNamesRoutes, async () => {
    const project = fixtureCopy();
    edit(project, "src/pages/routes.ts", (t) => t.replace(/routes: \[[\s\S]*?\],/, "routes: [],"));
    await expectError(
      "NoPages",
      () => buildSite({ root: project, outDir: out(), strict: true }),
      "src/pages/routes.ts gives no page an address of its own in any locale " +
        "(no route, or only entries marked `draft: true`): the build writes only the not-found, error and unlisted " +
        "pages, and no sitemap.xml (robots.txt names none).",
      new RegExp(
        /^Add a route to `routes` in src\/pages\/routes\.ts, or publish an entry /.source +
          /\(sitegen serve builds drafts, sitegen build never does\)/.source,
      ),
    );
  });

  it("EntryTranslationMissing and CollectionEmptyInLocale name the collection, the entry and the locale", async () => {
    const project = fixtureCopy();
    edit(project, "content/site.yaml", (t) =>
      t.replace(
        '    prefix: ""\n',
        '    prefix: ""\n  - code: en\n    lang: en\n    ogLocale: en_GB\n    prefix: /en\n',
      ),
    );
    cpSync(join(project, "content", "fr"), join(project, "content", "en"), { recursive: true });
    edit(project, "src/pages/routes.ts", (t) =>
      t.replace(
        "  ],\n",
        '  ],\n  collections: [{ name: "notes", schema: { title: { type: "text", required: true } } }],\n',
      ),
    );
    for (const [locale, slug] of [
      ["fr", "plomb"],
      ["fr", "verre"],
      ["en", "verre"],
    ]) {
      mkdirSync(join(project, "content", locale, "notes"), { recursive: true });
      writeFileSync(join(project, "content", locale, "notes", `${slug}.yaml`), `title: ${slug}\n`);
    }
    await expectError(
      "EntryTranslationMissing",
      () => buildSite({ root: project, outDir: out(), strict: true }),
      'en lacks the entry "plomb" of the collection "notes" (content/fr/notes/plomb.yaml has it).',
      /^Add each entry's file in the locale named \(content\/en\/notes\/ for the first\)/,
    );
    rmSync(join(project, "content", "en", "notes"), { recursive: true });
    await expectError(
      "CollectionEmptyInLocale",
      () => buildSite({ root: project, outDir: out(), strict: true }),
      'en has no entry of the collection "notes" (content/en/notes/ holds none; fr has 2): its listings in en are ' +
        "empty.",
      /^Add the translated entries to content\/en\/notes\/, each with the same file name/,
    );
  });

  it("BrokenLinks names each link, where it was written and the pages it is on, with --strict", async () => {
    const project = fixtureCopy();
    edit(project, "src/pages/pages.tsx", (t) =>
      t.replace('<p>{t("home.body")}</p>', '<p>{t("home.body")}</p>\n      <a href="/cardapio">Carte</a>'),
    );
    await expectError(
      "BrokenLinks",
      () => buildSite({ root: project, outDir: out(), strict: true }),
      "1 link(s) lead to no page or file of the output, on the pages named:\n" +
        '  /cardapio, written in src/pages/pages.tsx:44:15: on / (route "home", index.html)',
      /^Fix each link where it was written: .*A warning, unless --strict makes it fail the build\.$/,
    );
  });

  it("OutputWriteFailed names the file and says what to do", async () => {
    // A file where the output's folder should be: its parent cannot be created.
    const parent = mkdtempSync(join(tmpdir(), "sitegen-err-"));
    writeFileSync(join(parent, "file"), "");
    await expectError(
      "OutputWriteFailed",
      () => buildSite({ root: ROOT, outDir: join(parent, "file", "dist") }),
      new RegExp(`^Writing ${join(parent, "file")} failed: .*\\(EEXIST|ENOTDIR\\)`),
      /writable/,
    );
  });

  it("ApiModuleInvalid names src/api/index.ts", async () => {
    const project = projectCopy();
    writeFileSync(join(project, "src", "api", "index.ts"), "export const handlers = {};\n");
    await expectError(
      "ApiModuleInvalid",
      () => loadEndpoints(project, loadSiteConfig(project), {}),
      "src/api/index.ts: it does not export a function createApiHandlers.",
    );
  });

  it("ConfigInvalid names a setting of the endpoints that cannot work, as the site's own code reads it", async () => {
    const project = projectCopy();
    edit(project, "content/site.yaml", (t) => t.replace("retentionDays: 730", "retentionDays: 0"));
    const problem =
      "content/site.yaml, `submissions.retentionDays`: 0 is not a positive number of days " +
      "(leave it out to keep submissions until they are deleted).";
    await expectError(
      "ConfigInvalid",
      () => loadEndpoints(project, loadSiteConfig(project), {}),
      problem,
      /^Fix `submissions\.retentionDays` in content\/site\.yaml/,
    );
  });

  it("NetlifyFunctionInvalid and NetlifyConfigExists name src/api/netlify.ts and netlify.toml", async () => {
    const project = projectCopy();
    const target = () =>
      netlifyTarget({
        root: project,
        outDir: out(),
        site: loadSiteConfig(project),
        dictionaries: {},
        apiCode: undefined,
      });
    writeFileSync(join(project, "src", "api", "netlify.ts"), "export function createNetlifyFunction( {\n");
    await expectError(
      "NetlifyFunctionInvalid",
      target,
      /^src\/api\/netlify\.ts: Expected/,
      /exports createNetlifyFunction/,
    );
    rmSync(join(project, "src", "api", "netlify.ts"));
    await expectError(
      "NetlifyFunctionInvalid",
      target,
      "src/api/netlify.ts: it does not exist, and the Netlify Function is made from it.",
    );
    // A netlify.toml of the developer's own is never overwritten, from the CLI either.
    writeFileSync(join(project, "netlify.toml"), '[build]\n  publish = "public"\n');
    await expectError(
      "NetlifyConfigExists",
      target,
      `${join(project, "netlify.toml")} exists and was not written by sitegen build --target netlify, ` +
        "so it is left as it is.",
      /delete the file/,
    );
    const cli = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--target", "netlify"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(`NetlifyConfigExists: ${ERRORS.NetlifyConfigExists.title}`);
    // Asked before building: nothing was built in vain.
    expect(existsSync(join(project, "dist"))).toBe(false);
    expect(readFileSync(join(project, "netlify.toml"), "utf8")).toBe('[build]\n  publish = "public"\n');
  });
});

describe("sitegen build --target cloudflare", () => {
  const workerErrorsNameModule =
    "WorkerModuleMissing and WorkerBundleInvalid name src/api/cloudflare.ts, and what in it cannot run in workerd";
  it(workerErrorsNameModule, async () => {
    const project = projectCopy();
    const target = () =>
      cloudflareTarget({
        root: project,
        outDir: join(project, "dist"),
        site: loadSiteConfig(project),
        dictionaries: {},
        apiCode: undefined,
      });
    writeFileSync(
      join(project, "src", "api", "cloudflare.ts"),
      // A Node module by its bare name: the bundle leaves only node: names for workerd to provide.
      'import { readFileSync } from "fs";\n' +
        'export const createPagesWorker = () => ({ fetch: () => new Response(readFileSync("x", "utf8")) });\n',
    );
    await expectError(
      "WorkerBundleInvalid",
      target,
      /^src\/api\/cloudflare\.ts: src\/api\/cloudflare\.ts:1: Could not resolve "fs"/,
      /node: modules by their node: names/,
    );
    rmSync(join(project, "src", "api", "cloudflare.ts"));
    await expectError(
      "WorkerModuleMissing",
      target,
      /^src\/api\/cloudflare\.ts does not exist: sitegen build --target cloudflare bundles it/,
      /createPagesWorker/,
    );
  });
});

describe("sitegen build --target cloudflare and netlify with double opt-in", () => {
  const confirmationLinkOffSite =
    "NotificationSettingsInvalid when the confirmation link is no path of the site, which the host could route to " +
    "the endpoints";
  it(confirmationLinkOffSite, async () => {
    const project = projectCopy();
    const loaded = loadSiteConfig(project);
    const site = {
      ...loaded,
      submissions: { ...(loaded.submissions as object), doubleOptIn: true },
      endpoints: { ...loaded.endpoints, newsletterConfirm: "https://forms.example.com/confirm" },
    };
    const problem =
      "submissions.doubleOptIn is on, but endpoints.newsletterConfirm in content/site.yaml is no path of this site " +
      "(such as /api/newsletter/confirm): the confirmation link could not reach the endpoints.";
    const hint = /^Fix `endpoints\.newsletterConfirm` in content\/site\.yaml/;
    // The routes are the site's to say (src/api/index.ts exports them): the targets ask its compiled module.
    const apiCode = await compileEndpoints(project);
    await expectError(
      "NotificationSettingsInvalid",
      () => cloudflareTarget({ root: project, outDir: join(project, "dist"), site, dictionaries: {}, apiCode }),
      problem,
      hint,
    );
    await expectError(
      "NotificationSettingsInvalid",
      () => netlifyTarget({ root: project, outDir: join(project, "dist"), site, dictionaries: {}, apiCode }),
      problem,
      hint,
    );
  });
});

/** An output folder holding only what `sitegen start` reads (no pages needed to reach its errors). */
function startableDist(): string {
  const dist = out();
  const site = loadSiteConfig(ROOT);
  // As the build writes an endpoints module (endpoints.ts): a function of the require that finds its packages.
  const apiCode = "module.exports = () => ({ createApiHandlers: () => ({ handlers: {}, close() {} }) });\n";
  for (const { file, data } of serverBundleFiles({ site, dictionaries: {}, apiCode })) {
    mkdirSync(dirname(join(dist, file)), { recursive: true });
    writeFileSync(join(dist, file), data);
  }
  return dist;
}

describe("commands", () => {
  it("PortInUse names the port, the command and the next port to try, for serve and for start", () => {
    const busy = createServer();
    return new Promise<void>((done) => {
      busy.listen(0, "127.0.0.1", async () => {
        const port = (busy.address() as { port: number }).port;
        const project = projectCopy();
        const served = spawnSync(
          process.execPath,
          [
            join(ROOT, "bin", "sitegen.js"),
            "serve",
            "--no-watch",
            "--host",
            "127.0.0.1",
            "--port",
            String(port),
            "--out",
            out(),
          ],
          { cwd: project, encoding: "utf8", timeout: 60_000 },
        );
        const started = spawnSync(
          process.execPath,
          [join(ROOT, "bin", "sitegen.js"), "start", "--host", "127.0.0.1", "--out", startableDist()],
          { cwd: project, encoding: "utf8", timeout: 60_000, env: { ...process.env, PORT: String(port) } },
        );
        busy.close();
        expect(served.status).toBe(1);
        expect(served.stderr).toContain(
          `PortInUse: ${ERRORS.PortInUse.title}\n  Port ${port} on 127.0.0.1 is already in use.\n  ` +
            `hint: Stop the other server, or pick another port: sitegen serve --port ${port + 1}`,
        );
        expect(started.status).toBe(1);
        expect(started.stderr).toContain(
          `PortInUse: ${ERRORS.PortInUse.title}\n  Port ${port} on 127.0.0.1 is already in use.\n  ` +
            `hint: Stop the other server, or pick another port: sitegen start --port ${port + 1}`,
        );
        triggered.add("PortInUse");
        done();
      });
    });
  });

  it("PortInvalid names PORT and its value", async () => {
    await expectError(
      "PortInvalid",
      () => startPort(undefined, { PORT: "http" }),
      'PORT="http" is not a port: sitegen start listens on the port --port names, else PORT, else 4321.',
      /whole number from 0 to 65535/,
    );
    await expectError("PortInvalid", () => startPort(undefined, { PORT: "70000" }), /^PORT="70000" is not a port/);
  });

  it("DistMissing and DistNotSitegenBuild say to run sitegen build first, from the CLI too", async () => {
    const missing = out();
    await expectError(
      "DistMissing",
      () => readServerBundle(missing),
      `${missing} does not exist: ` +
        "sitegen start serves a site that sitegen build has already built, and builds nothing itself.",
      /Run sitegen build first/,
    );
    const cli = spawnSync(
      process.execPath,
      [join(ROOT, "bin", "sitegen.js"), "start", "--host", "127.0.0.1", "--port", "0", "--out", missing],
      { cwd: mkdtempSync(join(tmpdir(), "sitegen-err-")), encoding: "utf8", timeout: 60_000 },
    );
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(`DistMissing: ${ERRORS.DistMissing.title}\n  ${missing} does not exist`);
    expect(cli.stderr).toContain("hint: Run sitegen build first (npx --no sitegen build)");

    // A folder of pages from elsewhere (another generator, or a sitegen from before start existed).
    const foreign = out();
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, "index.html"), "<!doctype html><title>x</title>");
    await expectError(
      "DistNotSitegenBuild",
      () => readServerBundle(foreign),
      `${foreign} is not an output this sitegen can serve: it has no _sitegen/site.json.`,
      /npx --no sitegen build/,
    );
    const other = startableDist();
    writeFileSync(join(other, "_sitegen", "site.json"), JSON.stringify({ format: 99 }));
    await expectError(
      "DistNotSitegenBuild",
      () => readServerBundle(other),
      /_sitegen\/site\.json is in format 99, and this sitegen reads format 1\.$/,
    );
  });

  it("ApiDependencyMissing names the package the built endpoints need and how to install it", async () => {
    const dist = startableDist();
    const file = join(dist, "_sitegen", "api.cjs");
    writeFileSync(
      file,
      // As the build writes it (endpoints.ts): a function of the require that finds its packages.
      "module.exports = (require) => {\n" +
        '  require("sitegen-no-such-package");\n' +
        "  return { createApiHandlers: () => ({ handlers: {}, close() {} }) };\n" +
        "};\n",
    );
    const root = mkdtempSync(join(tmpdir(), "sitegen-err-"));
    await expectError(
      "ApiDependencyMissing",
      () => loadBuiltEndpoints(file, root, loadSiteConfig(ROOT), {}),
      `${file} requires "sitegen-no-such-package", which is installed neither beside it nor in ${root}.`,
      `Install the production dependencies where sitegen start runs (npm ci --omit=dev in ${root}); ` +
        `"sitegen-no-such-package" must be in package.json's dependencies, not devDependencies.`,
    );
    // A module of another shape (written by hand, or by another version of sitegen) is refused, not run.
    writeFileSync(file, "exports.createApiHandlers = () => ({ handlers: {}, close() {} });\n");
    await expectError(
      "ApiModuleInvalid",
      () => loadBuiltEndpoints(file, root, loadSiteConfig(ROOT), {}),
      `${file}: it was not written by this sitegen: build again.`,
      /createApiHandlers/,
    );
  });

  it("SourcesMissing: a command that reads a collection, run where only the built output is", async () => {
    const folder = dirname(startableDist());
    await expectError(
      "SourcesMissing",
      () => commandContext(folder).entries("insights"),
      `${folder} holds only a built output, and the entries of the collection "insights" are read from the ` +
        "sources (content/ and src/pages/).",
      "Run the command in the project folder, the one holding content/site.yaml, where the site is built.",
    );
  });

  it("DatedFileNameInvalid, OptionValueInvalid: an introduction without its day, a bad --since", async () => {
    const root = mkdtempSync(join(tmpdir(), "sitegen-err-"));
    mkdirSync(join(root, "content", "pt", "newsletter"), { recursive: true });
    writeFileSync(join(root, "content", "pt", "newsletter", "boas-vindas.md"), "Olá.\n");
    const article = { locale: "pt", slug: "a", key: "a", data: { title: "A", date: "2026-11-20" }, images: {} };
    const context = { ...commandContext(ROOT), root, entries: async () => [{ ...article, url: "https://x.test/a" }] };
    await expectError(
      "DatedFileNameInvalid",
      () => nextIssues(context, undefined),
      "content/pt/newsletter/boas-vindas.md: the name of a newsletter introduction starts with the day it is for " +
        "(YYYY-MM-DD).",
      "Rename it, for example to content/pt/newsletter/2026-11-30.md.",
    );
    await expectError(
      "OptionValueInvalid",
      () => previewNewsletter(context, { since: "2026-02-30" }),
      '--since 2026-02-30: "2026-02-30" is not a day written YYYY-MM-DD.',
      "Use --since 2026-11-01.",
    );
  });

  it("OptionValueInvalid and DatabaseUnreadable name the option or the file", async () => {
    const context = commandContext(ROOT);
    await expectError(
      "OptionValueInvalid",
      () => printSubmissions(context, { format: "xml" }),
      '--format xml: "xml" is not an output format.',
      "Use --format csv or --format json.",
    );
    await expectError(
      "OptionValueInvalid",
      () => printSubmissions(context, { type: "orders", format: "csv" }),
      '--type orders: "orders" is not a submission type.',
      "Use --type newsletter or --type contact, or leave it out for both.",
    );
    const dir = mkdtempSync(join(tmpdir(), "sitegen-db-"));
    const database = join(dir, "submissions.db");
    mkdirSync(database);
    const previous = process.env.SUBMISSIONS_DB;
    process.env.SUBMISSIONS_DB = database;
    try {
      await expectError(
        "DatabaseUnreadable",
        () => printSubmissions(context, { format: "csv" }),
        new RegExp(`^Could not open ${database}: `),
        /SUBMISSIONS_DB/,
      );
    } finally {
      if (previous === undefined) delete process.env.SUBMISSIONS_DB;
      else process.env.SUBMISSIONS_DB = previous;
    }
  });
});

describe("notifications and data-subject commands", () => {
  it("NotificationSettingsInvalid names the setting, never a password or a webhook's address", async () => {
    const project = projectCopy();
    const saved = {
      SMTP_URL: process.env.SMTP_URL,
      NOTIFY_WEBHOOK_URL: process.env.NOTIFY_WEBHOOK_URL,
      NOTIFY_EMAIL_TO: process.env.NOTIFY_EMAIL_TO,
    };
    const restore = () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    };
    try {
      process.env.SMTP_URL = "http://leads:s3cret@mail.example.com";
      const error = await expectError(
        "NotificationSettingsInvalid",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        "SMTP_URL is http://leads:***@mail.example.com/: " +
          "it must be smtp://user:password@host:port, or smtps:// for TLS.",
        /^Set SMTP_URL in the environment/,
      );
      expect(formatError(error)).not.toContain("s3cret");
      process.env.SMTP_URL = "smtp://leads:s3cret@mail.example.com:587";
      process.env.NOTIFY_EMAIL_TO = "firm@example.com, not an address";
      await expectError(
        "NotificationSettingsInvalid",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        'NOTIFY_EMAIL_TO holds "not an address", which is not an e-mail address.',
      );
      delete process.env.SMTP_URL;
      delete process.env.NOTIFY_EMAIL_TO;
      process.env.NOTIFY_WEBHOOK_URL = "hooks.slack.com/services/T000/B000/XXXX";
      const hidden = await expectError(
        "NotificationSettingsInvalid",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        /^NOTIFY_WEBHOOK_URL is not an http:\/\/ or https:\/\/ address/,
      );
      expect(formatError(hidden)).not.toContain("XXXX");
      delete process.env.NOTIFY_WEBHOOK_URL;
      process.env.SMTP_URL = "smtp://leads:s3cret@mail.example.com:587";
      edit(project, "content/site.yaml", (t) => t.replace(/^  from: .*$/m, "  from: nobody"));
      await expectError(
        "NotificationSettingsInvalid",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        'SMTP_URL is set, but notifications.from in site.yaml ("nobody") is no sender address.',
        /^Fix `notifications\.from` in content\/site\.yaml/,
      );
    } finally {
      restore();
    }
  });

  const doubleOptInNeedsSecret =
    "DoubleOptInSecretMissing stops a server whose site asks for double opt-in without SUBMISSIONS_SECRET";
  it(doubleOptInNeedsSecret, async () => {
    const project = projectCopy();
    edit(project, "content/site.yaml", (t) => t.replace("doubleOptIn: false", "doubleOptIn: true"));
    const saved = { SUBMISSIONS_SECRET: process.env.SUBMISSIONS_SECRET, SMTP_URL: process.env.SMTP_URL };
    try {
      delete process.env.SUBMISSIONS_SECRET;
      process.env.SMTP_URL = "smtp://leads:s3cret@mail.example.com:587";
      await expectError(
        "DoubleOptInSecretMissing",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        "submissions.doubleOptIn is on in site.yaml, but SUBMISSIONS_SECRET is not set: " +
          "the confirmation links cannot be signed.",
        /^Set SUBMISSIONS_SECRET in the environment to a long random value/,
      );
      process.env.SUBMISSIONS_SECRET = "short";
      await expectError(
        "DoubleOptInSecretMissing",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        /SUBMISSIONS_SECRET has 5 characters, fewer than the 32/,
      );
      // From the CLI, before the server listens.
      const dist = out();
      const site = loadSiteConfig(project);
      for (const { file, data } of serverBundleFiles({
        site,
        dictionaries: {},
        apiCode: await compileEndpoints(ROOT),
      })) {
        mkdirSync(dirname(join(dist, file)), { recursive: true });
        writeFileSync(join(dist, file), data);
      }
      const cli = spawnSync(
        process.execPath,
        [join(ROOT, "bin", "sitegen.js"), "start", "--host", "127.0.0.1", "--port", "0", "--out", dist],
        {
          cwd: mkdtempSync(join(tmpdir(), "sitegen-err-")),
          encoding: "utf8",
          timeout: 60_000,
          env: {
            ...process.env,
            SUBMISSIONS_SECRET: "",
            SMTP_URL: "smtp://a:b@127.0.0.1:1",
            SUBMISSIONS_DB: join(mkdtempSync(join(tmpdir(), "sitegen-db-")), "s.db"),
          },
        },
      );
      expect(cli.status).toBe(1);
      expect(cli.stderr).toContain(
        `DoubleOptInSecretMissing: ${ERRORS.DoubleOptInSecretMissing.title}\n  ` +
          "submissions.doubleOptIn is on in site.yaml, but SUBMISSIONS_SECRET is not set",
      );
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("EmailOptionInvalid names the command and the value given to --email", async () => {
    const context = commandContext(ROOT);
    await expectError(
      "EmailOptionInvalid",
      () => exportSubject(context, undefined),
      "sitegen submissions export needs the address of the person whose data it prints: --email was not given.",
      "Give the address as the person wrote it in the form (any case): " +
        "sitegen submissions export --email ana@example.com",
    );
    await expectError(
      "EmailOptionInvalid",
      () => deleteSubject(context, "ana at example"),
      '--email ana at example: "ana at example" is not an e-mail address.',
      /sitegen submissions delete --email/,
    );
    const cli = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "submissions", "delete"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(
      `EmailOptionInvalid: ${ERRORS.EmailOptionInvalid.title}\n  ` +
        "sitegen submissions delete needs the address of the person whose data it erases",
    );
  });
});

describe("the deployed site's issues endpoint", () => {
  it("SiteRequestFailed names the request and what the site answered", async () => {
    const context = commandContext(ROOT);
    const env = { SUBMISSIONS_SECRET: "a-test-secret-of-more-than-thirty-two-characters" };
    const refusing = async () => new Response('{"ok":false,"error":"not signed"}', { status: 401 });
    await expectError(
      "SiteRequestFailed",
      () => sendThroughSite(context, { site: "https://deployed.example.com" }, { env, fetch: refusing }),
      "GET https://deployed.example.com/api/newsletter/issues: it answered 401: not signed " +
        "(is SUBMISSIONS_SECRET here the site's?).",
      /signing secret is not the site's/,
    );
  });
});

describe("the submissions database", () => {
  it("DatabaseUrlInvalid and DatabaseUnreachable name the database, never its password", async () => {
    const context = commandContext(ROOT);
    const mysql = { DATABASE_URL: "mysql://leads:s3cret@db.example.com/leads" };
    await expectError(
      "DatabaseUrlInvalid",
      () => printSubmissions(context, { format: "csv" }, mysql),
      "DATABASE_URL is mysql://leads:***@db.example.com/leads: it must start with postgres:// or postgresql://.",
      /postgres:\/\/user:password@host:5432\/database/,
    );
    await expectError(
      "DatabaseUrlInvalid",
      () => printSubmissions(context, { format: "csv" }, { DATABASE_URL: "leads:s3cret@db" }),
      "DATABASE_URL is leads:***@db: it must start with postgres:// or postgresql://.",
    );
    await expectError(
      "DatabaseUrlInvalid",
      () => printSubmissions(context, { format: "csv" }, { DATABASE_URL: "host=db password=s3cret" }),
      /^DATABASE_URL is not a URL \(it is not shown here/,
    );
    // sitegen serve refuses it before listening, with the same entry.
    const project = projectCopy();
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = mysql.DATABASE_URL;
    try {
      const error = await expectError(
        "DatabaseUrlInvalid",
        () => loadEndpoints(project, loadSiteConfig(project), {}),
        /mysql:\/\/leads:\*\*\*@/,
      );
      expect(formatError(error)).not.toContain("s3cret");
    } finally {
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }

    // A port where nothing listens.
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => done(port));
      });
    });
    const error = await expectError(
      "DatabaseUnreachable",
      () =>
        printSubmissions(
          context,
          { format: "csv" },
          { DATABASE_URL: `postgres://leads:s3cret@127.0.0.1:${port}/leads` },
        ),
      new RegExp(
        `^Could not connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/leads: ` +
          ".*ECONNREFUSED[^]*because DATABASE_URL is set",
      ),
      /unset DATABASE_URL/,
    );
    expect(formatError(error)).not.toContain("s3cret");
  });
});

afterAll(() => {
  // Every catalogued error has a test above that triggers it.
  expect(Object.keys(ERRORS).filter((name) => !triggered.has(name as ErrorName))).toEqual([]);
});
