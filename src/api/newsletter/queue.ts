/**
 * Queuing an issue that is recorded: one outbox row per confirmed subscriber of its locale, each with the
 * subscriber's own unsubscribe link, under a key (issue and subscriber) that the store keeps unique, so
 * queuing again after a cut run adds nothing. Shared by `sitegen newsletter send` (commands/newsletter-send.ts)
 * and the site's issues endpoint (newsletter-issues.ts); web-standard, so it runs on every host.
 */
import { localeFromField, type ApiLocale } from "../http.ts";
import type { IssuePayload } from "../notify/deliverers.ts";
import type { IssueProgress, IssueRecord, IssueStore, NewsletterRow } from "../store.ts";
import { unsubscribeLink, type UnsubscribeTokens } from "../unsubscribe.ts";

/** Where an issue's parts hold each subscriber's unsubscribe link until their copy is queued. */
export const UNSUBSCRIBE_PLACEHOLDER = "https://unsubscribe.invalid/sitegen";
/** The outbox kind of a copy (notify/deliverers.ts), and the first part of its key. */
export const ISSUE_KIND = "issue";
export const issueKeyPrefix = (issue: number) => `${ISSUE_KIND}:${issue}:`;

export const EMPTY_PROGRESS: IssueProgress = { total: 0, delivered: 0, failing: 0, pending: 0, refused: 0 };

export interface CopySetup {
  siteUrl: string;
  /** The unsubscribe endpoint's path and signer (endpoints.ts unsubscribeSetup). */
  links: { path: string; tokens: UnsubscribeTokens };
  /** newsletter.unsubscribeEmail, when set. */
  unsubscribeEmail?: string;
}

/** The subscribers an issue goes to: confirmed, and not refused for good by their mail server. */
export function readersOf(rows: NewsletterRow[], locale: string): NewsletterRow[] {
  return rows.filter((r) => r.confirmed_at !== null && !r.bounced_at && r.locale === locale);
}

/** Queues `record`'s copies for `readers` not queued yet, then marks it queued: how many were added. */
export async function queueIssue(
  store: IssueStore,
  record: IssueRecord,
  readers: NewsletterRow[],
  setup: CopySetup,
  now: () => number,
): Promise<number> {
  let queued = 0;
  for (const reader of readers) {
    const locale: ApiLocale = localeFromField(reader.locale) ?? "pt";
    const link = await unsubscribeLink(setup.siteUrl, setup.links.path, setup.links.tokens, {
      email: reader.email,
      locale,
    });
    const payload: IssuePayload = {
      ...{ issue: record.id, to: reader.email, subject: record.subject, unsubscribe: link },
      ...(setup.unsubscribeEmail ? { unsubscribeEmail: setup.unsubscribeEmail } : {}),
      ...{
        html: record.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link),
        text: record.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link),
      },
    };
    const key = `${issueKeyPrefix(record.id)}${reader.id}`;
    if (await store.queueOnce(key, reader.id, { kind: ISSUE_KIND, payload }, now())) queued++;
  }
  await store.markIssueQueued(record.id, now());
  return queued;
}

/** The copies of `records`, summed. */
export async function progressOf(store: IssueStore, records: IssueRecord[]): Promise<IssueProgress> {
  const sum = { ...EMPTY_PROGRESS };
  for (const record of records) {
    const p = await store.issueProgress(issueKeyPrefix(record.id));
    for (const k of Object.keys(sum) as (keyof IssueProgress)[]) sum[k] += p[k];
  }
  return sum;
}
