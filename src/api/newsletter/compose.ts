/**
 * What the next issue of the newsletter holds, per locale: the articles (the `insights` collection) dated
 * on or after a day and not in an issue already sent, newest first, and the optional introduction written
 * for it, content/<locale>/newsletter/<YYYY-MM-DD>.md (the newest dated on or after that day).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import type { PublishedEntry } from "../../generator/plugin.ts";
import type { IssueRecord } from "../store.ts";

/** The collection the issues are made of. */
export const ARTICLES = "insights";
/** Where each locale's introductions are: content/<locale>/newsletter/. */
export const INTRO_FOLDER = "newsletter";

export interface IssueArticle {
  /** What pairs the article's translations: the same in every locale. */
  key: string;
  title: string;
  excerpt: string;
  /** The day it was published, YYYY-MM-DD. */
  date: string;
  url: string;
  cover?: { url: string; width: number; height: number; alt: string };
}

export interface IssueIntro {
  /** Relative to the project folder. */
  file: string;
  /** The file's text, which the plain-text part shows as it is. */
  markdown: string;
  html: string;
}

export interface IssueContent {
  locale: string;
  articles: IssueArticle[];
  intro?: IssueIntro;
}

/** The articles of `locale` dated on or after `since` (every one without it), leaving out `sent`; newest first. */
export function newArticles(
  entries: PublishedEntry[],
  locale: string,
  since: string | undefined,
  sent: ReadonlySet<string> = new Set(),
): IssueArticle[] {
  return entries
    .filter((e) => e.locale === locale && e.url && !sent.has(e.key))
    .map((e): IssueArticle => {
      const cover = e.images.cover;
      return {
        key: e.key,
        title: String(e.data.title),
        excerpt: String(e.data.description ?? ""),
        date: String(e.data.date).slice(0, 10),
        url: e.url!,
        ...(cover ? { cover: { ...cover, alt: typeof e.data.coverAlt === "string" ? e.data.coverAlt : "" } } : {}),
      };
    })
    .filter((a) => since === undefined || a.date >= since)
    .sort((a, b) => (a.date === b.date ? a.title.localeCompare(b.title) : a.date < b.date ? 1 : -1));
}

const DATED = /^(\d{4}-\d{2}-\d{2})[^/]*\.md$/;

/** A Markdown file whose name does not start with its date (DatedFileNameInvalid). */
export class IntroNameError extends Error {
  constructor(readonly file: string) {
    super(`${file}: the name of an introduction starts with the day it is for (YYYY-MM-DD).`);
    this.name = "IntroNameError";
  }
}

/**
 * The newest introduction of `locale` dated on or after `since` (any without it), leaving out the files of
 * `used` (those of issues already sent); undefined when there is none. Its Markdown is rendered without raw
 * HTML, so the file's text is escaped.
 */
export function readIntro(
  root: string,
  locale: string,
  since: string | undefined,
  used: ReadonlySet<string> = new Set(),
): IssueIntro | undefined {
  const folder = `content/${locale}/${INTRO_FOLDER}`;
  if (!existsSync(join(root, folder))) return undefined;
  const names = readdirSync(join(root, folder))
    .filter((name) => name.endsWith(".md"))
    .sort();
  for (const name of names) if (!DATED.test(name)) throw new IntroNameError(`${folder}/${name}`);
  const chosen = names
    .filter((name) => !used.has(`${folder}/${name}`) && (since === undefined || name.slice(0, 10) >= since))
    .at(-1);
  if (!chosen) return undefined;
  const file = `${folder}/${chosen}`;
  const markdown = readFileSync(join(root, file), "utf8").trim();
  return { file, markdown, html: new MarkdownIt({ html: false, linkify: false }).render(markdown) };
}

/** What a locale's issues sent so far leave for the next: from which day, the articles and introductions used. */
export interface IssueHistory {
  since: string | undefined;
  sent: ReadonlySet<string>;
  used: ReadonlySet<string>;
}

/**
 * What a locale's issues so far (as sitegen newsletter send recorded them) leave for its next one; it starts
 * at `since` when that is given.
 */
export function historyOf(records: IssueRecord[], since: string | undefined) {
  return (locale: string): IssueHistory => {
    const mine = records.filter((r) => r.locale === locale);
    return {
      since: since ?? mine.at(-1)?.day,
      sent: new Set(mine.flatMap((r) => r.articles)),
      used: new Set(mine.flatMap((r) => (r.intro ? [r.intro] : []))),
    };
  };
}

/** Each locale's next issue; a locale without a new article has none. */
export function composeIssues(
  root: string,
  entries: PublishedEntry[],
  locales: readonly string[],
  history: (locale: string) => IssueHistory,
): IssueContent[] {
  return locales.flatMap((locale) => {
    const { since, sent, used } = history(locale);
    const articles = newArticles(entries, locale, since, sent);
    if (articles.length === 0) return [];
    const intro = readIntro(root, locale, since, used);
    return [{ locale, articles, ...(intro ? { intro } : {}) }];
  });
}
