/**
 * The issues endpoint (endpoints.newsletterIssues): how `sitegen newsletter send --site <url>` sends an
 * issue where only the deployed site reaches the store (D1 on Cloudflare, Netlify Blobs), and the same on
 * `sitegen start` with SQLite or PostgreSQL. The CLI composes each locale's issue from the sources; this
 * endpoint only records and queues what it is given, and delivers through the host's own outbox:
 *
 * - GET: the issues recorded (without their parts), the confirmed subscribers per locale, and the copies'
 *   progress, from which the CLI picks the next issue's articles.
 * - POST `{"action":"queue","issues":[...],"ratePerMinute":60}`: records each issue not recorded yet (an
 *   issue of the same locale and articles is the same issue, so posting twice records it once), queues one
 *   copy per confirmed subscriber of its locale for every issue not fully queued (the copy's key, issue and
 *   subscriber, is unique: nothing is queued twice), and spaces the copies never tried at the rate.
 * - POST `{"action":"deliver"}`: one pass of the outbox, answered with the copies' progress and the
 *   addresses that failed or were refused in it.
 *
 * Every request is signed with SUBMISSIONS_SECRET (signed-requests.ts); any other gets 401 and changes
 * nothing. The parts are the CLI's rendering, sent as the mail's body and never shown on a page.
 */
import type { SiteConfig } from "../generator/config.ts";
import type { DeliveryReport } from "./delivery.ts";
import { jsonResponse, readBody } from "./http.ts";
import { ISSUE_KIND, queueIssue, readersOf, type CopySetup } from "./newsletter/queue.ts";
import type { IssuePayload } from "./notify/deliverers.ts";
import { verifyRequest } from "./signed-requests.ts";
import type { IssueStore, NewIssue, SubmissionStore } from "./store.ts";

/** The largest request: two locales' issues of tens of KB each, with room to spare. */
export const MAX_ISSUES_BODY = 512 * 1024;
const MAX_RATE_PER_MINUTE = 60_000;

export interface IssuesHandlerOptions {
  site: SiteConfig;
  secret: string;
  store: SubmissionStore & IssueStore;
  copies: CopySetup;
  /** One pass of the outbox. */
  deliver: () => Promise<DeliveryReport>;
  now: () => number;
}

export type IssueInput = Omit<NewIssue, "createdAt">;

const NO_STORE = { "Cache-Control": "no-store" };
const answer = (status: number, body: unknown) => jsonResponse(status, body, NO_STORE);
const refuse = (status: number, error: string) => answer(status, { ok: false, error });

const isText = (value: unknown, max: number): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= max;

/** One issue of the request, checked field by field; a description of the first problem otherwise. */
function issueOf(value: unknown, locales: readonly string[]): IssueInput | string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "an issue is not an object";
  const v = value as Record<string, unknown>;
  if (typeof v.locale !== "string" || !locales.includes(v.locale)) return "locale is not one of the site's";
  if (typeof v.day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v.day) || Number.isNaN(Date.parse(v.day)))
    return "day is not YYYY-MM-DD";
  if (!isText(v.subject, 300) || /[\r\n]/.test(v.subject)) return "subject is not one line of at most 300 characters";
  if (!isText(v.html, 400_000)) return "html is empty or longer than 400,000 characters";
  if (!isText(v.text, 200_000)) return "text is empty or longer than 200,000 characters";
  const articles = v.articles;
  if (
    !Array.isArray(articles) ||
    articles.length === 0 ||
    articles.length > 200 ||
    !articles.every((a) => isText(a, 300))
  )
    return "articles is not a list of 1 to 200 article keys";
  if (v.intro !== null && v.intro !== undefined && !isText(v.intro, 300)) return "intro is not a file name";
  const intro = (v.intro as string | null | undefined) ?? null;
  return { locale: v.locale, day: v.day, subject: v.subject, html: v.html, text: v.text, articles, intro };
}

const sameArticles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

export function createIssuesHandler(options: IssuesHandlerOptions): (request: Request) => Promise<Response> {
  const { store, now } = options;
  const locales = options.site.locales.map((l) => l.code);

  // Every issue's copies at once (one query, or one listing of the outbox on Netlify Blobs).
  const allCopies = () => store.issueProgress(`${ISSUE_KIND}:`);

  const state = async () => {
    const records = await store.issues();
    const subscribers = await store.list("newsletter");
    return {
      issues: records.map(({ id, locale, day, articles, intro, queued_at }) => ({
        ...{ id, locale, day, articles, intro, queued_at },
      })),
      subscribers: Object.fromEntries(locales.map((code) => [code, readersOf(subscribers, code).length])),
      progress: await allCopies(),
    };
  };

  const queue = async (body: Record<string, unknown>) => {
    const rate = body.ratePerMinute;
    if (typeof rate !== "number" || !Number.isInteger(rate) || rate < 1 || rate > MAX_RATE_PER_MINUTE)
      return refuse(422, "ratePerMinute is not a whole number from 1 to 60000");
    if (!Array.isArray(body.issues) || body.issues.length > locales.length)
      return refuse(422, "issues is not a list of at most one issue per locale");
    const issues: IssueInput[] = [];
    for (const value of body.issues) {
      const issue = issueOf(value, locales);
      if (typeof issue === "string") return refuse(422, issue);
      if (issues.some((i) => i.locale === issue.locale)) return refuse(422, "two issues of one locale");
      issues.push(issue);
    }
    const recorded = await store.issues();
    const subscribers = await store.list("newsletter");
    for (const issue of issues) {
      if (recorded.some((r) => r.locale === issue.locale && sameArticles(r.articles, issue.articles))) continue;
      await store.recordIssue({ ...issue, createdAt: new Date(now()).toISOString() });
    }
    const all = await store.issues();
    const queued = [];
    for (const record of all.filter((r) => r.queued_at === null)) {
      const copies = await queueIssue(store, record, readersOf(subscribers, record.locale), options.copies, now);
      queued.push({ id: record.id, locale: record.locale, subject: record.subject, copies });
    }
    await store.respace(`${ISSUE_KIND}:`, now(), 60_000 / rate);
    return answer(200, {
      ok: true,
      recorded: all.length - recorded.length,
      queued,
      progress: await allCopies(),
    });
  };

  const deliver = async () => {
    const report = await options.deliver();
    const copiesOf = (rows: { row: { kind: string; payload: unknown }; error: string }[]) =>
      rows
        .filter(({ row }) => row.kind === ISSUE_KIND)
        .map(({ row, error }) => ({ to: (row.payload as IssuePayload).to, error }));
    return answer(200, {
      ok: true,
      progress: await allCopies(),
      failed: copiesOf(report.failed),
      refused: copiesOf(report.refused ?? []),
    });
  };

  return async (request) => {
    if (request.method !== "GET" && request.method !== "POST")
      return new Response("Method not allowed\n", { status: 405, headers: { Allow: "GET, POST", ...NO_STORE } });
    const read = await readBody(request, MAX_ISSUES_BODY);
    if (!read.ok) return refuse(read.reason === "too-large" ? 413 : 400, read.reason);
    if (!(await verifyRequest(options.secret, request, read.bytes, Date.now())))
      return refuse(401, "the request is not signed with SUBMISSIONS_SECRET, or its signature is too old");
    try {
      if (request.method === "GET") return answer(200, { ok: true, ...(await state()) });
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(read.bytes));
      } catch {
        return refuse(400, "the body is not JSON in UTF-8");
      }
      if (body === null || typeof body !== "object" || Array.isArray(body)) return refuse(400, "not an object");
      const { action } = body as { action?: unknown };
      if (action === "queue") return await queue(body as Record<string, unknown>);
      if (action === "deliver") return await deliver();
      return refuse(422, 'action is neither "queue" nor "deliver"');
    } catch (error) {
      console.error(`sitegen: the issues endpoint failed: ${error instanceof Error ? error.message : String(error)}`);
      return refuse(503, "the store failed");
    }
  };
}
