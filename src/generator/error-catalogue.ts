/**
 * Every failure sitegen reports to a developer, in one place: a name (what to search for), a title (the
 * kind of failure), a message (what happened, and where: file:line:column, page and route, or option)
 * and a hint (what to do about it). Code throws them by name with sitegenError(name, params), as Astro
 * does with its errors-data.ts; tests/unit/errors.test.ts triggers each one.
 */

import type { EmptyCollection, MissingEntry } from "./entry-translations.ts";

/** How an error names its place in a file. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

export function placeOf(place: Place): string {
  return place.line ? `${place.file}:${place.line}:${place.column ?? 1}` : place.file;
}

/** One problem of an entry: where, which field, what is wrong. */
export type EntryProblem = Place & { field: string; problem: string };

/** The field an entry's problem names when the file's YAML cannot be read at all. */
export const YAML_FIELD = "(YAML)";

/** One problem of an entry as EntryInvalid writes it: its place, the field, what is wrong. */
export const entryProblemLine = (p: EntryProblem) => `${placeOf(p)}, \`${p.field}\`: ${p.problem}`;

/** A catalogue entry; a hint that names no parameter is written as plain text. */
type Words<P> = (p: P) => string;
const entry = <P>(title: string, message: Words<P>, hint: string | Words<P>) => {
  return { title, message, hint: typeof hint === "string" ? () => hint : hint };
};

export const ERRORS = {
  ConfigMissing: entry<{ file: string }>(
    "No site configuration",
    (p) => `${p.file} does not exist: sitegen reads the site's address, locales and endpoints from it.`,
    "Run sitegen in the project folder (the one holding content/site.yaml), or create content/site.yaml: see " +
      "sitegen's guide (docs/guide.md, content/site.yaml).",
  ),
  ConfigInvalid: entry<{ file: string; field: string; problem: string }>(
    "Invalid site configuration",
    (p) => `${p.file}, \`${p.field}\`: ${p.problem}`,
    (p) =>
      p.field.startsWith("locales")
        ? 'Each item of `locales` has `code`, `lang`, `ogLocale` and `prefix`; exactly one has prefix "" (the ' +
          'default locale), every other prefix is "/" and a word ("/de"), and codes and prefixes are unique.'
        : `Fix \`${p.field}\` in content/site.yaml (sitegen's guide, docs/guide.md, describes its settings).`,
  ),
  SiteUrlInvalid: entry<{ value: string; option: string }>(
    "Invalid site address",
    (p) => `"${p.value}" (from ${p.option}) is not an absolute http or https URL.`,
    (p) => `Set ${p.option} to an address of the form https://www.example.com`,
  ),
  YamlSyntaxError: entry<Place & { reason: string; excerpt: string }>(
    "YAML syntax error",
    (p) => `${placeOf(p)}: ${p.reason}${p.excerpt ? `\n${p.excerpt}` : ""}`,
    "Fix the YAML at that line and column: check the indentation, and quote text that contains ': ' or starts " +
      "with '{', '[', '*' or '&'.",
  ),
  ContentMissing: entry<{ dir: string; locale: string }>(
    "No content for a locale",
    (p) => `${p.dir} holds no YAML file, but content/site.yaml lists the locale "${p.locale}".`,
    (p) =>
      `Create ${p.dir}/ with the text of that locale (copy the default locale's folder and translate it), or ` +
      `remove "${p.locale}" from \`locales\`.`,
  ),
  ContentInvalid: entry<{ file: string; key: string; problem: string }>(
    "Invalid content file",
    (p) => `${p.file}${p.key ? `, "${p.key}"` : ""}: ${p.problem}`,
    "Content files map keys to text; nest mappings for groups, use numbered keys (item1, item2, ...) instead of " +
      "lists, and quote empty values.",
  ),
  DatedFileNameInvalid: entry<{ file: string; purpose: string; example: string }>(
    "A file's name lacks its date",
    (p) => `${p.file}: the name of ${p.purpose} starts with the day it is for (YYYY-MM-DD).`,
    (p) => `Rename it, for example to ${p.example}.`,
  ),
  ContentDuplicateKey: entry<{ key: string; first: string; second: string }>(
    "Text key defined twice",
    (p) => `The key "${p.key}" is defined in ${p.first} and again in ${p.second}.`,
    "Keep each key in one file of the locale's folder.",
  ),
  SiteDefinitionMissing: entry<{ file: string }>(
    "No route table",
    (p) => `${p.file} does not exist: it tells sitegen which pages the site has.`,
    "Create src/pages/routes.ts exporting `default defineSite({ document, routes, notFound, error })` (see " +
      "src/generator/site-definition.ts).",
  ),
  SiteDefinitionInvalid: entry<{ file: string; problem: string }>(
    "Invalid route table",
    (p) => `${p.file}: ${p.problem}`,
    "See src/generator/site-definition.ts for what a route and a special page hold.",
  ),
  InitFolderNotEmpty: entry<{ dir: string; found: string }>(
    "Folder not empty",
    (p) => `${p.dir} already holds ${p.found}: sitegen init writes a new site into a new or empty folder only.`,
    "Name a folder that does not exist yet (sitegen init my-site), or empty this one first.",
  ),
  PagesDependencyMissing: entry<{ module: string; root: string; install: string }>(
    "A package the pages need is not installed",
    (p) => `src/pages/routes.ts (or a module it imports) requires "${p.module}", which is not installed in ${p.root}.`,
    (p) => `Run \`npm install ${p.install}\` in ${p.root}: the pages render with the site's own packages.`,
  ),
  EntryInvalid: entry<EntryProblem & { others?: string[]; syntax?: boolean }>(
    "Invalid entry",
    // Every problem found, one per line: the first, then the others (entry-file.ts' entryInvalid).
    (p) => [entryProblemLine(p), ...(p.others ?? [])].join("\n"),
    (p) =>
      p.others?.length
        ? `Fix each ${p.syntax ? "file and field" : "field"} named above` +
          (p.syntax
            ? " (where the YAML cannot be read, check the indentation at that line, and quote text that contains ': ')"
            : " in its file's front matter") +
          "; src/pages/routes.ts lists the collection's fields and what each must hold."
        : p.field === "(front matter)"
          ? "Start the file with its fields between two lines of --- (title, description, date...), then the text " +
            "in Markdown."
          : `Fix \`${p.field}\` in the front matter; src/pages/routes.ts lists the collection's fields and what ` +
            `each must hold.`,
  ),
  ImageMissing: entry<{ place: string; image: string; resolved: string }>(
    "Image not found",
    (p) => `${p.place}: the image "${p.image}" (${p.resolved}) does not exist.`,
    "Write the image's path relative to the file that uses it (./photo.jpg for a file beside it; " +
      "../../images/photo.webp from a collection's entry to content/images/, where the images every locale shares " +
      "live), or add the file there.",
  ),
  ImageNotLocal: entry<{ place: string; image: string; problem: string }>(
    "Image is not a file of the project",
    (p) => `${p.place}: "${p.image}" ${p.problem}`,
    "Put the image in the project (beside the content, or under content/images/) and write its path relative to " +
      "the file that uses it: the pages load images only from the site itself (its Content-Security-Policy allows " +
      "no other origin).",
  ),
  ImageUnsupported: entry<{ place: string; image: string; format: string }>(
    "Unsupported image format",
    (p) => `${p.place}: "${p.image}" is a ${p.format} file; the image pipeline reads JPEG, PNG, WebP and AVIF.`,
    "Convert the image to JPEG (photographs) or PNG (drawings, screenshots), for example with an image editor's " +
      "export; the build makes the AVIF and WebP files itself.",
  ),
  ImageUnreadable: entry<{ place: string; image: string; text: string }>(
    "Image cannot be read",
    (p) => `${p.place}: "${p.image}" could not be decoded: ${p.text}`,
    "The file is damaged or not the image its name says: open it in an image viewer, and export it again as " +
      "JPEG or PNG.",
  ),
  DuplicatePagePath: entry<{ path: string; first: string; second: string }>(
    "Two pages at one address",
    (p) => `${p.path} is the address of both ${p.first} and ${p.second}.`,
    "Give one of them another path (or another slug) in src/pages/routes.ts or in the collection.",
  ),
  PageCompileError: entry<Place & { text: string }>(
    "Page code does not compile",
    (p) => `${placeOf(p)}: ${p.text}`,
    "Fix the TypeScript or JSX at that position (npm run typecheck shows every error).",
  ),
  IslandCompileError: entry<Place & { text: string }>(
    "Island code does not compile",
    (p) => `${placeOf(p)}: ${p.text}`,
    "Fix the TypeScript or JSX at that position (npm run typecheck shows every error).",
  ),
  StylesMissing: entry<{ file: string }>(
    "No stylesheet",
    (p) => `${p.file} does not exist.`,
    "Create src/styles/main.css; it may @import the other files of src/styles/.",
  ),
  CssError: entry<Place & { text: string }>(
    "CSS error",
    (p) => `${placeOf(p)}: ${p.text}`,
    "Fix the CSS at that position.",
  ),
  StyleAssetMissing: entry<{ file: string; url: string }>(
    "A file the stylesheet names does not exist",
    (p) => `${p.file} (or a file it @imports) names url("${p.url}"), and there is no such file.`,
    "url() paths are read from src/styles/, where main.css lives: fix the path, or add the file.",
  ),
  FontSubsetFailed: entry<{ file: string; url: string; text: string }>(
    "A font could not be subset",
    (p) =>
      `The font url("${p.url}") of an @font-face rule in ${p.file} (or a file it @imports) could not be cut to ` +
      `its unicode-range: ${p.text}`,
    "Check that the file is a WOFF2, WOFF, TrueType or OpenType font, and that a font-weight range is declared " +
      "only for a variable font with a weight axis.",
  ),
  PageRenderError: entry<{ page: string; path: string; locale: string; text: string; stack: string }>(
    "A page failed to render",
    (p) => `Rendering ${p.page} at ${p.path} (${p.locale}) failed: ${p.text}${p.stack ? `\n${p.stack}` : ""}`,
    "The first lines above point at the component that threw; fix it, or the content it reads.",
  ),
  MissingTranslations: entry<{ count: number; list: string }>(
    "Missing translations",
    (p) => `${p.count} text key(s) are missing, and --strict does not ship pages that show raw keys:\n${p.list}`,
    "Add each key to the locale's folder in content/, or build without --strict to ship the keys themselves as " +
      "the text.",
  ),
  NoPages: entry<{ file: string }>(
    "No page to publish",
    (p) =>
      `${p.file} gives no page an address of its own in any locale (no route, or only entries marked \`draft: ` +
      `true\`): the build writes only the not-found, error and unlisted pages, and no sitemap.xml (robots.txt ` +
      `names none).`,
    (p) =>
      `Add a route to \`routes\` in ${p.file}, or publish an entry (sitegen serve builds drafts, sitegen build ` +
      `never does). A warning, unless --strict makes it fail the build.`,
  ),
  OutputWriteFailed: entry<{ file: string; code: string; reason: string }>(
    "Cannot write the output",
    (p) =>
      `Writing ${p.file} failed: ${p.reason}${p.code ? ` (${p.code})` : ""}. The previous output was left as it was.`,
    (p) =>
      p.code === "ENOSPC" || p.code === "EDQUOT"
        ? "The disk is full: free some space (or build elsewhere with --out <dir>) and build again."
        : p.code === "EACCES" || p.code === "EPERM" || p.code === "EROFS"
          ? "sitegen may not write there: check the folder's permissions, or choose another with --out <dir>."
          : "Check that the --out folder's parent exists and is writable, then build again.",
  ),
  PortInUse: entry<{ port: number; host: string; command: string }>(
    "Port in use",
    (p) => `Port ${p.port} on ${p.host} is already in use.`,
    (p) => `Stop the other server, or pick another port: sitegen ${p.command} --port ${p.port + 1}`,
  ),
  PortInvalid: entry<{ value: string; source: string }>(
    "Invalid port",
    (p) =>
      `${p.source}="${p.value}" is not a port: sitegen start listens on the port --port names, else PORT, else 4321.`,
    (p) => `Set ${p.source} to a whole number from 0 to 65535 (container platforms set PORT themselves), or unset it.`,
  ),
  DistMissing: entry<{ dir: string }>(
    "No built site to serve",
    (p) =>
      `${p.dir} does not exist: sitegen start serves a site that sitegen build has already built, and builds ` +
      `nothing itself.`,
    "Run sitegen build first (npx --no sitegen build), or point --out at the folder a build wrote.",
  ),
  DistNotSitegenBuild: entry<{ dir: string; problem: string }>(
    "Not a sitegen build",
    (p) => `${p.dir} is not an output this sitegen can serve: ${p.problem}`,
    "Build it again with this version of sitegen (npx --no sitegen build): the build of a site with endpoints " +
      "writes _sitegen/ with the locales, the endpoints' settings and text, and the compiled endpoints that " +
      "sitegen start needs; for a site without endpoints, run sitegen start in the project folder (it reads " +
      "content/site.yaml), or serve the folder with any static server.",
  ),
  ApiModuleInvalid: entry<{ file: string; problem: string }>(
    "Invalid endpoints module",
    (p) => `${p.file}: ${p.problem}`,
    "src/api/index.ts exports createApiHandlers({ site, root, messages }) returning { handlers, close } (see " +
      "docs/extending.md).",
  ),
  ApiDependencyMissing: entry<{ file: string; module: string; root: string }>(
    "A package the endpoints need is not installed",
    (p) => `${p.file} requires "${p.module}", which is installed neither beside it nor in ${p.root}.`,
    (p) =>
      `Install the production dependencies where sitegen start runs (npm ci --omit=dev in ${p.root}); ` +
      `"${p.module}" must be in package.json's dependencies, not devDependencies.`,
  ),
  SourcesMissing: entry<{ root: string; collection: string }>(
    "The command needs the project's sources",
    (p) =>
      `${p.root} holds only a built output, and the entries of the collection "${p.collection}" are read from ` +
      "the sources (content/ and src/pages/).",
    "Run the command in the project folder, the one holding content/site.yaml, where the site is built.",
  ),
  WorkerModuleMissing: entry<{ file: string }>(
    "No Cloudflare worker module",
    (p) =>
      `${p.file} does not exist: sitegen build --target cloudflare bundles it as the Pages worker that runs the ` +
      `site's endpoints.`,
    (p) =>
      `Create ${p.file} exporting createPagesWorker({ site, messages, headers }), which returns { fetch(request, ` +
      `env) }, or build without --target cloudflare.`,
  ),
  WorkerBundleInvalid: entry<{ file: string; problem: string }>(
    "The Cloudflare worker cannot be bundled",
    (p) => `${p.file}: ${p.problem}`,
    "The worker runs in Cloudflare's runtime (workerd with its nodejs_compat flag): import only code that runs " +
      "there (web-standard code, and node: modules by their node: names), and export createPagesWorker from it.",
  ),
  NetlifyFunctionInvalid: entry<{ file: string; problem: string }>(
    "Cannot make the Netlify Function",
    (p) => `${p.file}: ${p.problem}`,
    "sitegen build --target netlify bundles src/api/netlify.ts, which exports createNetlifyFunction({ site, " +
      "messages }) returning { handle } (see src/api/netlify.ts).",
  ),
  NetlifyConfigExists: entry<{ file: string }>(
    "A netlify.toml sitegen did not write",
    (p) => `${p.file} exists and was not written by sitegen build --target netlify, so it is left as it is.`,
    "Move your settings elsewhere or delete the file, then build again: sitegen writes netlify.toml on each " +
      "Netlify build, with the build command, the publish folder and the functions folder.",
  ),
  OptionValueInvalid: entry<{
    option: string;
    value: string;
    valid: readonly string[];
    meaning: string;
    omitted?: string;
  }>(
    "Unknown option value",
    (p) => `--${p.option} ${p.value}: "${p.value}" is not ${p.meaning}.`,
    (p) => {
      const uses = p.valid.map((v) => `--${p.option} ${v}`).join(" or ");
      return `Use ${uses}${p.omitted ? `, or leave it out ${p.omitted}` : ""}.`;
    },
  ),
  EmailOptionInvalid: entry<{ command: string; value: string; action: string }>(
    "Missing or invalid --email",
    (p) =>
      p.value === ""
        ? `sitegen ${p.command} needs the address of the person whose data it ${p.action}: --email was not given.`
        : `--email ${p.value}: "${p.value}" is not an e-mail address.`,
    (p) =>
      `Give the address as the person wrote it in the form (any case): sitegen ${p.command} --email ana@example.com`,
  ),
  DatabaseUnreadable: entry<{ file: string; reason: string; setting: string }>(
    "Cannot read the database",
    (p) => `Could not open ${p.file}: ${p.reason}`,
    (p) => `Check the file's permissions, and that it is the SQLite database the endpoints write (${p.setting}).`,
  ),
  DatabaseUrlInvalid: entry<{ problem: string; setting: string }>(
    "Invalid DATABASE_URL",
    (p) => p.problem,
    (p) =>
      "Set DATABASE_URL to postgres://user:password@host:5432/database (add ?sslmode=require for most managed " +
      "databases; percent-encode special characters in the password), " +
      `or unset it to use the SQLite file of ${p.setting} instead.`,
  ),
  DatabaseUnreachable: entry<{ target: string; detail: string }>(
    "Cannot reach the database",
    (p) => `${p.detail}\nThe data is stored in PostgreSQL because DATABASE_URL is set.`,
    "Check that the PostgreSQL server is running and reachable from here (host, port, firewall), and that " +
      "DATABASE_URL's user, password and database name are right; or unset DATABASE_URL to use the SQLite file " +
      "instead.",
  ),
  NotificationSettingsInvalid: entry<{ variable: string; problem: string }>(
    "Invalid notification settings",
    (p) => p.problem,
    (p) =>
      p.variable.includes(".")
        ? `Fix \`${p.variable}\` in content/site.yaml.`
        : `Set ${p.variable} in the environment as the notifications need it ` +
          "(SMTP_URL=smtp://user:password@host:587, NOTIFY_EMAIL_TO=a@example.com,b@example.com, " +
          "NOTIFY_WEBHOOK_URL=https://...), or unset it to send no such notification.",
  ),
  DoubleOptInSecretMissing: entry<{ variable: string; setting?: string; problem: string }>(
    "No secret for the signed links",
    (p) => p.problem,
    (p) =>
      `Set ${p.variable} in the environment to a long random value (for example the output of: ` +
      `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"), the same on every ` +
      "instance, and keep it out of the repository; " +
      (p.setting ? `or set ${p.setting} to false in content/site.yaml.` : "or unset it, and no link is signed."),
  ),
  EntryTranslationMissing: entry<MissingEntry & { others: MissingEntry[] }>(
    "Entry missing in a locale",
    (p) =>
      [p, ...p.others]
        .map((m) => `${m.locale} lacks the entry "${m.key}" of the collection "${m.collection}" (${m.file} has it).`)
        .join("\n"),
    (p) =>
      `Add each entry's file in the locale named (content/${p.locale}/${p.collection}/ for the first), with the ` +
      "same file name or the same translationKey as the file that has it: until then its page exists only in the " +
      "other locales. A warning, unless --strict makes it fail the build.",
  ),
  CollectionEmptyInLocale: entry<EmptyCollection & { others: EmptyCollection[] }>(
    "Collection empty in a locale",
    (p) =>
      [p, ...p.others]
        .map(
          (e) =>
            `${e.locale} has no entry of the collection "${e.collection}" (${e.dir}/ holds none; ${e.other} has ` +
            `${e.count}): its listings in ${e.locale} are empty.`,
        )
        .join("\n"),
    (p) =>
      `Add the translated entries to ${p.dir}/, each with the same file name or the same translationKey as the ` +
      "original. A warning, unless --strict makes it fail the build.",
  ),
  SiteRequestFailed: entry<{ url: string; method: string; problem: string }>(
    "The site's endpoint refused the request",
    (p) => `${p.method} ${p.url}: ${p.problem}.`,
    "Check the --site address and that the site runs the current build. A 401 means the request's signing " +
      "secret is not the site's, or this machine's clock is more than 5 minutes off; a 404, that the site " +
      "does not answer that address (its secret is not set, or its build is older).",
  ),
  BrokenLinks: entry<{ count: number; list: string }>(
    "Broken links",
    (p) => `${p.count} link(s) lead to no page or file of the output, on the pages named:\n${p.list}`,
    "Fix each link where it was written: a page's address as src/pages/routes.ts gives it, with its locale's " +
      "prefix (or page.href(routeId), which names a route by its id), a file of public/, or an `id` of the page. " +
      "A warning, unless --strict makes it fail the build.",
  ),
} as const;

export type ErrorName = keyof typeof ERRORS;
export type ErrorParams<N extends ErrorName> = Parameters<(typeof ERRORS)[N]["message"]>[0];
