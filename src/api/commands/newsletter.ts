/**
 * `sitegen newsletter preview`: the next issue of each locale (newsletter/compose.ts), rendered as the
 * subscribers would receive it (newsletter/issue-mail.tsx), written to a folder as <locale>.html and
 * <locale>.txt. Nothing is opened and nothing is sent. The covers that the built output (dist/) holds show
 * from it, so a preview made before the site is deployed shows its images; a sent issue links them on siteUrl.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { CommandContext } from "../../generator/plugin.ts";
import {
  ARTICLES,
  composeIssues,
  historyOf,
  IntroNameError,
  type IssueContent,
  type IssueHistory,
} from "../newsletter/compose.ts";
import { renderIssue, type RenderedIssue } from "../newsletter/issue-mail.tsx";
import { isIssueStore } from "../store.ts";
import type { Environment } from "../stores.ts";
import { withStore } from "./store.ts";

/** Where the preview is written when --out is not given, relative to the project folder. */
export const PREVIEW_FOLDER = ".data/newsletter-preview";

export interface PreviewOptions {
  since?: string;
  out?: string;
}

/** A --since value: a real day written YYYY-MM-DD. */
export function checkSince(context: CommandContext, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const day = new Date(`${value}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value))
    return value;
  throw context.error({
    name: "OptionValueInvalid",
    params: { option: "since", value, valid: ["2026-11-01"], meaning: "a day written YYYY-MM-DD" },
  });
}

/** The text of a `newsletterIssue` key in a locale, with its {issue.*} values filled in. */
export function issueText(context: CommandContext, locale: string) {
  const messages = context.messages()[locale];
  return (key: string, values: Record<string, string> = {}) =>
    (messages?.get(`newsletterIssue.${key}`) ?? `newsletterIssue.${key}`).replace(
      /\{issue\.(\w+)\}/g,
      (match, name: string) => values[name] ?? match,
    );
}

const NO_HISTORY = { sent: new Set<string>(), used: new Set<string>() };

/**
 * Each locale's next issue from the site's articles, as the CLI reports its failures: those since `since`
 * when it is a day, else as the issues sent so far leave them (`history`).
 */
export async function nextIssues(
  context: CommandContext,
  since: string | undefined | ((locale: string) => IssueHistory),
): Promise<IssueContent[]> {
  const site = context.site();
  const entries = await context.entries(ARTICLES);
  const history = typeof since === "function" ? since : () => ({ since, ...NO_HISTORY });
  try {
    return composeIssues(
      context.root,
      entries,
      site.locales.map((l) => l.code),
      history,
    );
  } catch (error) {
    if (!(error instanceof IntroNameError)) throw error;
    const example = `${error.file.slice(0, error.file.lastIndexOf("/") + 1)}2026-11-30.md`;
    throw context.error({
      name: "DatedFileNameInvalid",
      params: { file: error.file, purpose: "a newsletter introduction", example },
    });
  }
}

/** An issue rendered in its locale's words, dated `day` (YYYY-MM-DD). */
export function renderIn(
  context: CommandContext,
  issue: IssueContent,
  day: string,
  unsubscribeUrl?: string,
): Promise<RenderedIssue> {
  const site = context.site();
  const lang = site.locales.find((l) => l.code === issue.locale)?.lang ?? issue.locale;
  const brand = typeof site.brand === "string" ? site.brand : "";
  const text = issueText(context, issue.locale);
  return renderIssue({ issue, lang, date: day, text, brand, ...(unsubscribeUrl ? { unsubscribeUrl } : {}) });
}

/**
 * The issues with each cover on `siteUrl` that `outDir` holds given as that file's address (file:), for a
 * preview; any other cover keeps its address.
 */
export function withBuiltCovers(issues: IssueContent[], siteUrl: string, outDir: string): IssueContent[] {
  const site = new URL(siteUrl);
  const base = site.pathname.endsWith("/") ? site.pathname : `${site.pathname}/`;
  const root = resolve(outDir);
  const local = (address: string): string | undefined => {
    const url = new URL(address);
    if (url.origin !== site.origin || !url.pathname.startsWith(base)) return undefined;
    const file = resolve(root, decodeURIComponent(url.pathname.slice(base.length)));
    return file.startsWith(root + sep) && existsSync(file) ? pathToFileURL(file).href : undefined;
  };
  return issues.map((issue) => ({
    ...issue,
    articles: issue.articles.map((article) => {
      const file = article.cover && local(article.cover.url);
      return file ? { ...article, cover: { ...article.cover!, url: file } } : article;
    }),
  }));
}

export async function previewNewsletter(
  context: CommandContext,
  opts: PreviewOptions,
  now = new Date(),
  env: Environment = process.env,
): Promise<void> {
  const since = checkSince(context, opts.since);
  const folder = resolve(context.root, opts.out ?? PREVIEW_FOLDER);
  // The issues sent so far, when the store holds any: the next one starts where the last one stopped.
  const records = await withStore(
    context,
    env,
    async (store) => (isIssueStore(store) ? store.issues() : []),
    () => [],
  );
  const issues = withBuiltCovers(
    await nextIssues(context, historyOf(records, since)),
    context.site().siteUrl,
    context.output,
  );
  const when = since ? ` since ${since}` : records.length > 0 ? " since the last issue" : "";
  const day = now.toISOString().slice(0, 10);
  for (const locale of context.site().locales.map((l) => l.code)) {
    const issue = issues.find((i) => i.locale === locale);
    if (!issue) {
      console.log(`${locale}: no article published${when}; nothing written.`);
      continue;
    }
    const rendered = await renderIn(context, issue, day);
    mkdirSync(folder, { recursive: true });
    const files = [join(folder, `${locale}.html`), join(folder, `${locale}.txt`)];
    writeFileSync(files[0], rendered.html);
    writeFileSync(files[1], rendered.text);
    const count = issue.articles.length;
    const intro = issue.intro ? `, introduction ${issue.intro.file}` : "";
    console.log(`${locale}: ${count} article${count === 1 ? "" : "s"}${when}${intro}: "${rendered.subject}"`);
    for (const file of files) console.log(`  ${file}`);
  }
}
