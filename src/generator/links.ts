/**
 * The build's link check: every `href`, `src` and `srcset` of the rendered pages that points into the site must
 * name a file of the output (a page, an asset, an image, a feed, public/), an endpoint of the site, or, after `#`,
 * an `id` of the page it leads to. Each page's HTML is scanned once, as it goes by on its way to the output,
 * with one regular expression over those attributes: nothing is read back from disk, and no page's HTML is kept.
 */
import { readFileSync, realpathSync } from "node:fs";
import { relative } from "node:path";
import type { LocaleContent } from "./content.ts";
import { sitegenError, type SitegenError } from "./errors.ts";
import type { PlannedPage } from "./pipeline/plan-pages.ts";
import { PROJECT_FILES } from "./project.ts";
import type { RenderedPage } from "./pipeline/render-pages.ts";

/** A link of a page that leads nowhere, as the build state keeps it (a kept page's are checked again). */
export interface BrokenLink {
  link: string;
  /** Where it was written: a Markdown entry's file, a text key's file, or src/…:line:column. */
  source?: string;
  /** The page it leads to exists, without that `#id`. */
  fragment?: boolean;
}

export interface LinkCheckInput {
  /** Every file the output will hold, relative to it ("index.html", "de/about.html", "assets/site.css"). */
  files: Iterable<string>;
  /** The site's address: a link to it is checked as a link into the site. */
  siteUrl: string;
  /**
   * Paths answered by something other than a file of the output: the endpoints (site.yaml's `endpoints`, when
   * the site has an endpoints module) and site.yaml's `servedElsewhere`. A link to one, or under one, is fine.
   */
  endpoints: string[];
}

/**
 * Where a page links, read from its HTML as React and Markdown write attributes (after a space, in double
 * quotes, a quote inside escaped); `id` attributes are what a fragment can point at.
 */
const ATTRIBUTES = [" href", " src", " srcset", " id"] as const;

/**
 * Each `name="value"` of those attributes in a page's HTML. It goes from one `="` to the next rather than
 * testing every space of the text for an attribute's name, which took several times longer on long pages.
 */
function* attributesOf(html: string): Generator<[name: string, value: string]> {
  for (let at = html.indexOf('="'); at !== -1;) {
    const end = html.indexOf('"', at + 2);
    if (end === -1) return;
    const name = ATTRIBUTES.find((n) => html.startsWith(n, at - n.length));
    if (name) yield [name.slice(1), html.slice(at + 2, end)];
    at = html.indexOf('="', end + 1);
  }
}
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

const decode = (value: string) =>
  value.includes("&")
    ? value
        .replace(/&quot;/g, '"')
        .replace(/&#x27;|&#39;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&")
    : value;

const decodeSafely = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

type Verdict = "ok" | "missing" | "fragment" | { file: string; id: string };

/** A page, as the report names it: its address, route and file, or its file alone (not-found and error pages). */
const pageName = (page: PlannedPage) =>
  page.route ? `${page.path} (route "${page.route.id}", ${page.file})` : page.file;

export interface LinkReportInput {
  /** The pages kept from the previous output, with the broken links their build found (checked again). */
  kept: { page: PlannedPage; broken?: BrokenLink[] }[];
  /** Each locale's text, for the key a broken link was written in. */
  contents: LocaleContent[];
  root: string;
  /** The files the site's code was compiled from (absolute): a link written in one of them is found there. */
  sources: string[];
  strict: boolean;
}

export class LinkCheck {
  /** Milliseconds spent scanning pages and checking their links. */
  ms = 0;
  private readonly files: Set<string>;
  private readonly siteUrl: string;
  private readonly endpoints: string[];
  /** Each rendered page's ids, space-separated and padded: `" intro team "`. */
  private readonly ids = new Map<string, string>();
  /** Links to another page's `#id`, checked once every page is scanned. */
  private readonly fragments: { from: string; link: string; file: string; id: string }[] = [];
  /** Each rendered page, with its broken links. */
  private readonly pages = new Map<string, { page: PlannedPage; broken: BrokenLink[] }>();
  /**
   * What each link seen so far resolved to, unless that depends on its page (`#id`, a relative link): by its text
   * in the HTML, with the link decoded. Both are copies: V8 keeps a string's whole page alive through a slice of it.
   */
  private readonly seen = new Map<string, { text: string; verdict: Verdict }>();

  constructor(input: LinkCheckInput) {
    this.files = new Set(input.files);
    this.siteUrl = input.siteUrl.replace(/\/+$/, "");
    this.endpoints = input.endpoints.filter((e) => e.startsWith("/"));
  }

  /** Each rendered page passed on as it comes, its links checked on the way. */
  *scan(pages: Iterable<RenderedPage>): Generator<RenderedPage> {
    for (const rendered of pages) {
      const started = performance.now();
      this.scanPage(rendered.page, rendered.html);
      this.ms += performance.now() - started;
      yield rendered;
    }
  }

  /** The broken links of a page this build rendered (complete once report() has run), for its build record. */
  brokenOn(file: string): BrokenLink[] | undefined {
    return this.pages.get(file)?.broken;
  }

  /**
   * Every broken link of the output: the rendered pages', and those found before on the pages kept (checked
   * again: the page they lead to may be there now), each with where it was written when that can be told.
   * A warning, or undefined when there is none; with --strict, the build fails here.
   */
  report(input: LinkReportInput): SitegenError | undefined {
    const started = performance.now();
    for (const { from, link, file, id } of this.fragments) {
      const ids = this.ids.get(file);
      if (ids !== undefined && !ids.includes(` ${id} `)) this.pages.get(from)!.broken.push({ link, fragment: true });
    }
    const all = [...this.pages.values()];
    for (const { page, broken } of input.kept) {
      const still = (broken ?? []).filter(({ link, fragment }) => {
        const verdict = this.resolve(link, page.path, "");
        if (typeof verdict !== "object") return verdict !== "ok";
        const ids = this.ids.get(verdict.file);
        return ids === undefined ? fragment === true : !ids.includes(` ${verdict.id} `);
      });
      all.push({ page, broken: still });
    }
    const sources = new Sources(input);
    const groups = new Map<string, { link: BrokenLink; pages: PlannedPage[] }>();
    for (const { page, broken } of all) {
      for (const link of broken) {
        link.source ??= sources.of(link.link, page);
        const key = `${link.link}\u0000${link.source ?? ""}\u0000${link.fragment === true}`;
        if (!groups.has(key)) groups.set(key, { link, pages: [] });
        groups.get(key)!.pages.push(page);
      }
    }
    this.ms += performance.now() - started;
    if (groups.size === 0) return undefined;
    const list = [...groups.values()].map(({ link, pages }) => {
      const why = link.fragment ? ` (no id "${link.link.slice(link.link.indexOf("#") + 1)}" there)` : "";
      const where = link.source ? `, written in ${link.source}` : "";
      const more = pages.length > 3 ? ` and ${pages.length - 3} more` : "";
      return `  ${link.link}${why}${where}: on ${pages.slice(0, 3).map(pageName).join(", ")}${more}`;
    });
    const error = sitegenError("BrokenLinks", { count: groups.size, list: list.join("\n") });
    if (input.strict) throw error;
    return error;
  }

  private scanPage(page: PlannedPage, html: string): void {
    const found: string[] = [];
    const links: string[] = [];
    for (const [name, value] of attributesOf(html)) {
      if (name === "id") found.push(value);
      else if (name !== "srcset") links.push(value);
      else for (const candidate of value.split(",")) links.push(candidate.trim().split(/\s+/)[0]);
    }
    const ids = ` ${found.map(decode).join(" ")} `;
    this.ids.set(page.file, ids);
    const broken: BrokenLink[] = [];
    for (const raw of links) {
      const { text, verdict } = this.seen.get(raw) ?? this.check(raw, page.path, ids);
      if (verdict === "ok" || broken.some((b) => b.link === text)) continue;
      if (typeof verdict === "object") this.fragments.push({ from: page.file, link: text, ...verdict });
      else broken.push({ link: text, ...(verdict === "fragment" && { fragment: true }) });
    }
    this.pages.set(page.file, { page, broken });
  }

  private check(raw: string, from: string, ids: string): { text: string; verdict: Verdict } {
    const key = Buffer.from(raw).toString();
    const text = raw.includes("&") ? Buffer.from(decode(raw)).toString() : key;
    const result = { text, verdict: this.resolve(text, from, ids) };
    if (raw.startsWith("/") || EXTERNAL.test(raw)) this.seen.set(key, result);
    return result;
  }

  /**
   * Whether a link leads somewhere: "ok", "missing", "fragment" (the page is there, not the id), or the
   * page and id to look for once every page is scanned.
   */
  private resolve(link: string, from: string, ids: string): Verdict {
    if (link === "" || link === "#") return "ok";
    if (link === this.siteUrl || link.startsWith(`${this.siteUrl}/`)) link = link.slice(this.siteUrl.length) || "/";
    else if (EXTERNAL.test(link)) return "ok";
    const hash = link.indexOf("#");
    const id = hash === -1 ? "" : (decodeSafely(link.slice(hash + 1)) ?? link.slice(hash + 1));
    if (hash === 0) return id === "top" || ids.includes(` ${id} `) ? "ok" : "fragment";
    if (!link.startsWith("/")) link = new URL(link, `http://site${from}`).pathname;
    const path = decodeSafely(link.split(/[?#]/)[0]);
    if (path === undefined) return "missing";
    if (this.endpoints.some((e) => path === e || path.startsWith(e === "/" ? e : `${e}/`))) return "ok";
    const base = path.slice(1);
    const candidates = path.endsWith("/") ? [`${base}index.html`] : [base, `${base}.html`, `${base}/index.html`];
    const file = candidates.find((f) => this.files.has(f));
    if (file === undefined) return "missing";
    return !id || id === "top" || !file.endsWith(".html") ? "ok" : { file, id };
  }
}

/**
 * Where a broken link was written: a text key of the page's locale, the site's code (an attribute first, then any
 * quoted string), or the Markdown of the page's entry. Each link is looked for once per locale; an entry's body is
 * rendered to look in it only until the link was missing from a few, as a link on every page is a component's.
 */
class Sources {
  private code?: { file: string; text: string }[];
  private readonly found = new Map<string, string | undefined>();
  private readonly notInEntries = new Map<string, number>();
  private body?: { file: string; html: string };

  constructor(private readonly input: LinkReportInput) {}

  of(link: string, page: PlannedPage): string | undefined {
    const key = `${page.locale}\u0000${link}`;
    if (!this.found.has(key)) this.found.set(key, this.inText(link, page.locale) ?? this.inCode(link));
    const found = this.found.get(key);
    if (found || !page.entry || (this.notInEntries.get(link) ?? 0) >= 8) return found;
    // A page's broken links are looked for one after another: its body is rendered once for them.
    if (this.body?.file !== page.file) this.body = { file: page.file, html: page.entry.html };
    const body = this.body.html;
    if (body.includes(`"${link}"`) || body.includes(`"${link.replace(/&/g, "&amp;")}"`)) return page.entry.file;
    this.notInEntries.set(link, (this.notInEntries.get(link) ?? 0) + 1);
    return undefined;
  }

  private inText(link: string, locale: string): string | undefined {
    const text = this.input.contents.find((c) => c.locale === locale);
    const quoted = [`"${link}"`, `'${link}'`, `(${link})`];
    for (const [key, value] of text?.dictionary ?? []) {
      if (value === link || quoted.some((q) => value.includes(q))) return `${text!.sources.get(key)} (${key})`;
    }
    return undefined;
  }

  private inCode(link: string): string | undefined {
    if (!this.code) {
      const root = realpathSync(this.input.root); // as the compilers name their inputs
      this.code = this.input.sources
        .filter((file) => /\.[cm]?[jt]sx?$/.test(file) && !file.includes("/node_modules/"))
        .map((file) => ({ file: relative(root, file), text: readFileSync(file, "utf8") }))
        // The route table's paths are where pages are, not links.
        .filter(({ file }) => !file.startsWith("..") && file !== PROJECT_FILES.routes);
    }
    const literal = `["'\`]${link.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]`;
    for (const pattern of [new RegExp(`(?:href|src)[=:]\\s*\\{?\\s*(?=${literal})`), new RegExp(`(?=${literal})`)]) {
      for (const { file, text } of this.code) {
        const match = pattern.exec(text);
        if (!match) continue;
        const lines = text.slice(0, match.index + match[0].length + 1).split("\n");
        return `${file}:${lines.length}:${lines[lines.length - 1].length}`;
      }
    }
    return undefined;
  }
}
