/**
 * `sitegen init <folder>`: writes a new site from the starter beside this file. starter/site/ is copied as it
 * is (its `gitignore` renamed `.gitignore`, which npm would leave out of the package), and starter/text/<lang>/
 * into content/<code>/ for each locale asked for; content/site.yaml gets the locales and package.json the
 * site's name and where sitegen is installed from.
 */
import { type Command, InvalidArgumentError } from "commander";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sitegenError } from "../src/generator/errors.ts";

/** The languages the starter's text is written in; any other locale starts with a copy of the English. */
const WRITTEN = ["pt-BR", "en"];

export interface StarterLocale {
  code: string;
  lang: string;
  ogLocale: string;
  prefix: string;
  /** The folder of starter/text/ its text is copied from. */
  text: string;
  /** Whether that text is the English one, to be translated. */
  copied: boolean;
}

/** `--locales pt-BR,en,es`: the first is the default (no prefix); each code is the language, unless two share it. */
export function starterLocales(list: string): StarterLocale[] {
  let tags: string[];
  try {
    tags = list.split(",").map((tag) => Intl.getCanonicalLocales(tag.trim())[0]);
  } catch {
    throw new InvalidArgumentError("Give language tags separated by commas, such as pt-BR,en,es.");
  }
  if (new Set(tags).size !== tags.length) throw new InvalidArgumentError("Name each locale once.");
  const language = (tag: string) => new Intl.Locale(tag).language;
  return tags.map((lang, i) => {
    const code = tags.filter((t) => language(t) === language(lang)).length > 1 ? lang.toLowerCase() : language(lang);
    const { language: l, region } = new Intl.Locale(lang).maximize();
    const written = WRITTEN.find((w) => w === lang || w === language(lang) || w === `${l}-${region}`);
    const ogLocale = region ? `${l}_${region}` : l;
    return { code, lang, ogLocale, prefix: i === 0 ? "" : `/${code}`, text: written ?? "en", copied: !written };
  });
}

/** sitegen's own folder: the nearest package.json named "sitegen" above this module (or its compiled copy). */
function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "sitegen")
      return dir;
  }
  throw new Error("sitegen init: the sitegen package holding starter/ was not found above this module.");
}

export interface InitOptions {
  locales: StarterLocale[];
  /** What the site's package.json installs sitegen from: a folder or a tarball (default: this sitegen's folder). */
  sitegen?: string;
}

/** Writes the starter into `folder` (new, or empty); returns its absolute path. */
export function initSite(folder: string, options: InitOptions): string {
  const dir = resolve(folder);
  const found = existsSync(dir) ? readdirSync(dir).sort() : [];
  if (found.length) {
    throw sitegenError("InitFolderNotEmpty", {
      dir,
      found: found.slice(0, 3).join(", ") + (found.length > 3 ? ", …" : ""),
    });
  }
  const root = packageRoot();
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, "starter", "site"), dir, { recursive: true });
  renameSync(join(dir, "gitignore"), join(dir, ".gitignore"));
  for (const locale of options.locales)
    cpSync(join(root, "starter", "text", locale.text), join(dir, "content", locale.code), { recursive: true });

  const items = options.locales.map((l) =>
    [`  - code: ${l.code}`, `    lang: ${l.lang}`, `    ogLocale: ${l.ogLocale}`, `    prefix: "${l.prefix}"`].join(
      "\n",
    ),
  );
  const config = join(dir, "content", "site.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("{{locales}}", items.join("\n")));

  const pkgFile = join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { name: string; devDependencies: Record<string, string> };
  pkg.name =
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || pkg.name;
  pkg.devDependencies.sitegen = `file:${relative(dir, options.sitegen ? resolve(options.sitegen) : root)}`;
  writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

export function addInitCommand(program: Command): void {
  program
    .command("init")
    .description("Write a small working site (pages, text per locale, a collection) into a new or empty folder.")
    .argument("<folder>", "where to write the site")
    .option("--locales <list>", "language tags, the default first (default: pt-BR,en)", starterLocales)
    .option("--sitegen <path>", "a folder or tarball the site's package.json installs sitegen from (default: this one)")
    .action((folder: string, flags: { locales?: StarterLocale[]; sitegen?: string }) => {
      const opts = { ...flags, locales: flags.locales ?? starterLocales("pt-BR,en") };
      const dir = initSite(folder, opts);
      console.log(`Wrote a new site into ${dir}, in ${opts.locales.map((l) => l.lang).join(", ")}.`);
      for (const l of opts.locales.filter((l) => l.copied))
        console.log(`content/${l.code}/ holds the English text: translate it.`);
      const path = relative(process.cwd(), dir);
      console.log(`Next: cd ${path.startsWith("..") ? dir : path} && npm install && npm run dev`);
    });
}
