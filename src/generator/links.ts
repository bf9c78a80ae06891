/**
 * The build's link check: every `href`, `src` and `srcset` of the rendered pages that points into the site must
 * name a file of the output (a page, an asset, an image, a feed, public/), an endpoint of the site, or, after `#`,
 * an `id` of the page it leads to. Each page's HTML is scanned once, as it goes by on its way to the output,
 * with one regular expression over those attributes: nothing is read back from disk, and no page's HTML is kept.
 */
import { readFileSync } from "node:fs";
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
  /** The endpoints' paths (site.yaml's `endpoints`), when the site has an endpoints module. */
  endpoints: string[];
}

/** Where a page links, read from its HTML; `id` attributes are what a fragment can point at. */
const ATTRIBUTE = /\s(href|src|srcset|id)=(?:"([^"]*)"|'([^']*)')/g;
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

/** A copy of the string that holds none of the page it was cut from (V8 keeps a slice's whole source alive). */
const copy = (value: string) => Buffer.from(value).toString();

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
    const groups = new Map<string, { link: BrokenLink; pages: string[] }>();
    for (const { page, broken } of all) {
      for (const link of broken) {
        link.source ??= sources.of(link.link, page);
        const key = `${link.link}\u0000${link.source ?? ""}\u0000${link.fragment === true}`;
        if (!groups.has(key)) groups.set(key, { link, pages: [] });
        groups.get(key)!.pages.push(pageName(page));
      }
    }
    this.ms += performance.now() - started;
    if (groups.size === 0) return undefined;
    const list = [...groups.values()].map(({ link, pages }) => {
      const why = link.fragment ? ` (no id "${link.link.slice(link.link.indexOf("#") + 1)}" there)` : "";
      const where = link.source ? `, written in ${link.source}` : "";
      const more = pages.length > 3 ? ` and ${pages.length - 3} more` : "";
      return `  ${link.link}${why}${where}: on ${pages.slice(0, 3).join(", ")}${more}`;
    });
    const error = sitegenError("BrokenLinks", { count: groups.size, list: list.join("\n") });
    if (input.strict) throw error;
    return error;
  }

  private scanPage(page: PlannedPage, html: string): void {
    const found: string[] = [];
    const links = new Set<string>();
    for (const [, name, double, single] of html.matchAll(ATTRIBUTE)) {
      const value = double ?? single;
      if (name === "id") found.push(value);
      else if (name !== "srcset") links.add(value);
      else for (const candidate of value.split(",")) links.add(candidate.trim().split(/\s+/)[0]);
    }
    const ids = ` ${found.map(decode).join(" ")} `;
    this.ids.set(page.file, ids);
    const broken: BrokenLink[] = [];
    for (const raw of links) {
      const link = decode(raw);
      const verdict = this.resolve(link, page.path, ids);
      if (verdict === "ok") continue;
      if (typeof verdict === "object") this.fragments.push({ from: page.file, link: copy(link), ...verdict });
      else broken.push({ link: copy(link), ...(verdict === "fragment" && { fragment: true }) });
    }
    this.pages.set(page.file, { page, broken });
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
    if (this.endpoints.some((e) => path === e || path.startsWith(`${e}/`))) return "ok";
    const base = path.slice(1);
    const candidates = path.endsWith("/") ? [`${base}index.html`] : [base, `${base}.html`, `${base}/index.html`];
    const file = candidates.find((f) => this.files.has(f));
    if (file === undefined) return "missing";
    return !id || id === "top" || !file.endsWith(".html") ? "ok" : { file, id };
  }
}

/** Where a broken link was written: the entry's Markdown, a text key of the page's locale, or the site's code. */
class Sources {
  private code?: { file: string; text: string }[];

  constructor(private readonly input: LinkReportInput) {}

  of(link: string, page: PlannedPage): string | undefined {
    const escaped = link.replace(/&/g, "&amp;");
    const body = page.entry?.html;
    if (body && (body.includes(`"${link}"`) || body.includes(`"${escaped}"`))) return page.entry!.file;
    const text = this.input.contents.find((c) => c.locale === page.locale);
    for (const [key, value] of text?.dictionary ?? []) {
      if (value.includes(link)) return `${text!.sources.get(key)} (${key})`;
    }
    this.code ??= this.input.sources
      .filter((file) => /\.[cm]?[jt]sx?$/.test(file) && !file.includes("/node_modules/"))
      .map((file) => ({ file: relative(this.input.root, file), text: readFileSync(file, "utf8") }))
      // The route table's paths are where pages are, not links.
      .filter(({ file }) => !file.startsWith("..") && file !== PROJECT_FILES.routes);
    const quoted = new RegExp(`["'\`]${link.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]`);
    for (const { file, text } of this.code) {
      const at = quoted.exec(text)?.index;
      if (at === undefined) continue;
      const before = text.slice(0, at + 1).split("\n");
      return `${file}:${before.length}:${before[before.length - 1].length}`;
    }
    return undefined;
  }
}
