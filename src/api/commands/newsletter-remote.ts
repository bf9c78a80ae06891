/**
 * `sitegen newsletter send --site <url>`: the send for a site whose store only the deployed site reaches
 * (D1 on Cloudflare Pages, Netlify Blobs), through its issues endpoint (newsletter-issues.ts), each request
 * signed with SUBMISSIONS_SECRET. The command composes each locale's issue from the sources as the local
 * send does (newsletter-send.ts); the site says which articles its issues already hold and how many
 * confirmed subscribers each locale has, records and queues what it is given (posting twice queues nothing
 * twice), and sends through its own outbox, one pass per request, while the command shows the progress.
 */
import type { CommandContext } from "../../generator/plugin.ts";
import { signingSecret } from "../endpoints.ts";
import { catalogued } from "../errors.ts";
import { historyOf } from "../newsletter/compose.ts";
import { UNSUBSCRIBE_PLACEHOLDER } from "../newsletter/queue.ts";
import { createMailer } from "../notify/email.ts";
import { NotifyConfigError } from "../notify/settings.ts";
import { signRequest } from "../signed-requests.ts";
import type { IssueProgress, IssueRecord } from "../store.ts";
import { nextIssues, renderIn } from "./newsletter.ts";
import {
  checkSendOptions,
  passesUntilDone,
  plural,
  printDryRun,
  printOutcome,
  sendTests,
  settingsFor,
  type Outcomes,
  type SendDependencies,
  type SendOptions,
  type SendSummary,
} from "./newsletter-send.ts";

/** What the endpoint answers a GET: the issues recorded, the confirmed subscribers per locale, the copies. */
interface SiteState {
  issues: Pick<IssueRecord, "id" | "locale" | "day" | "articles" | "intro" | "queued_at">[];
  subscribers: Record<string, number>;
  progress: IssueProgress;
}

/** Room, per pass, for the host's tries that time out. */
const TRY_TIMEOUT_MS = 30_000;

/** The issues endpoint's address on the deployed site. */
function endpointUrl(context: CommandContext, site: string): URL {
  let base: URL | undefined;
  try {
    base = new URL(site);
  } catch {
    base = undefined;
  }
  if (!base || (base.protocol !== "https:" && base.protocol !== "http:") || base.username || base.password)
    throw context.error({
      name: "OptionValueInvalid",
      params: {
        option: "site",
        value: site,
        valid: ["https://www.example.com"],
        meaning: "the deployed site's address",
      },
    });
  const path = context.site().endpoints.newsletterIssues;
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//"))
    throw catalogued(
      context,
      new NotifyConfigError(
        "endpoints.newsletterIssues",
        "sitegen newsletter send --site sends through the site's issues endpoint, but endpoints.newsletterIssues " +
          "in content/site.yaml is no path of the site (such as /api/newsletter/issues).",
      ),
    );
  return new URL(path, base);
}

export async function sendThroughSite(
  context: CommandContext,
  opts: SendOptions & { site: string },
  deps: SendDependencies & { fetch?: typeof fetch } = {},
): Promise<SendSummary> {
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  const print = deps.print ?? ((line: string) => console.log(line));
  const { since, rate, testTo, unsubscribeEmail } = checkSendOptions(context, opts);
  const url = endpointUrl(context, opts.site);
  let secret: string | undefined;
  try {
    secret = signingSecret(env, "the requests to the site's issues endpoint");
    if (!secret)
      throw new NotifyConfigError(
        "SUBMISSIONS_SECRET",
        "sitegen newsletter send --site signs its requests with SUBMISSIONS_SECRET, the site's own, which is not set.",
      );
  } catch (error) {
    throw catalogued(context, error);
  }

  /** A signed request; its JSON answer, or SiteRequestFailed. */
  const call = async <T>(method: "GET" | "POST", payload?: unknown): Promise<T> => {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const headers = await signRequest(secret!, method, url.pathname + url.search, body, Date.now());
    let problem: string;
    try {
      const response = await (deps.fetch ?? fetch)(url, {
        method,
        headers: { ...headers, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body } : {}),
        redirect: "manual",
        signal: AbortSignal.timeout(TRY_TIMEOUT_MS * 4),
      });
      const text = await response.text();
      let data: { ok?: boolean; error?: string } | undefined;
      try {
        data = JSON.parse(text) as typeof data;
      } catch {
        data = undefined;
      }
      if (response.ok && data?.ok === true) return data as T;
      problem = `it answered ${response.status}${data?.error ? `: ${data.error}` : ""}`;
      if (response.status === 401) problem += " (is SUBMISSIONS_SECRET here the site's?)";
    } catch (error) {
      problem = `it could not be reached: ${error instanceof Error ? error.message : String(error)}`;
    }
    throw context.error({ name: "SiteRequestFailed", params: { url: url.href, method, problem } });
  };

  const state = await call<SiteState>("GET");
  const records = state.issues as IssueRecord[];
  const issues = await nextIssues(context, historyOf(records, since));
  const readers = (locale: string) => state.subscribers[locale] ?? 0;
  const day = new Date(now()).toISOString().slice(0, 10);
  if (opts.dryRun) {
    printDryRun(context, issues, readers, state.progress, print);
    return { recorded: 0, progress: state.progress };
  }
  if (testTo !== undefined) {
    let setup: NonNullable<ReturnType<typeof settingsFor>>;
    try {
      setup = settingsFor(context, env, false)!;
    } catch (error) {
      throw catalogued(context, error);
    }
    const to = { to: testTo, unsubscribeEmail };
    await sendTests(context, issues, day, to, setup.links, setup.notify, deps.createMailer ?? createMailer, print);
    return { recorded: 0, progress: { total: 0, delivered: 0, failing: 0, pending: 0, refused: 0 } };
  }

  const posted = [];
  for (const issue of issues) {
    if (readers(issue.locale) === 0) {
      print(`${issue.locale}: no confirmed subscriber; nothing recorded.`);
      continue;
    }
    const rendered = await renderIn(context, issue, day, UNSUBSCRIBE_PLACEHOLDER);
    const articles = issue.articles.map((a) => a.key);
    posted.push({ locale: issue.locale, day, articles, intro: issue.intro?.file ?? null, ...rendered });
  }
  const left = state.progress.pending + state.progress.failing;
  if (issues.length === 0 && records.every((r) => r.queued_at !== null) && left === 0) {
    print(`No new article${since ? ` since ${since}` : " since the last issue"}: nothing to send.`);
    return { recorded: 0, progress: state.progress };
  }
  const queued = await call<{
    recorded: number;
    queued: { id: number; locale: string; subject: string; copies: number }[];
    progress: IssueProgress;
  }>("POST", { action: "queue", issues: posted, ratePerMinute: rate });
  for (const q of queued.queued)
    print(`${q.locale}: issue ${q.id} "${q.subject}", ${plural(q.copies, "copy", "copies")} queued.`);

  const outcomes: Outcomes = { failed: [], refused: [] };
  const pass = async () => {
    const answer = await call<Outcomes & { progress: IssueProgress }>("POST", { action: "deliver" });
    outcomes.failed.push(...answer.failed);
    outcomes.refused.push(...answer.refused);
    return answer.progress;
  };
  const progress = await passesUntilDone(pass, queued.progress.total, 60_000 / rate, TRY_TIMEOUT_MS, deps, print);
  printOutcome(progress, outcomes, print);
  return { recorded: queued.recorded, progress };
}
