/**
 * `sitegen newsletter send`: records each locale's next issue and queues one copy per confirmed subscriber
 * of that locale in the outbox, then delivers them as the outbox delivers everything (the same retries and
 * backoff as lead notifications), at the configured rate, printing a progress line and a summary.
 *
 * Exactly once: each copy is an outbox row whose key (issue and subscriber) is unique, and an issue is
 * marked queued only once every copy is. Run again after a crash (kill -9 included), the command finishes
 * queuing the issue it had recorded and delivers what is left; after a completed send there is nothing new
 * to send. A copy is an outbox row of its subscriber, so unsubscribing drops it, even during a send. What
 * SMTP has accepted but the store had not recorded when the process died is sent again (the outbox
 * delivers at least once): the window is the moment between the server's answer and the record.
 */
import type { CommandContext } from "../../generator/plugin.ts";
import { DeliveryWorker, type DeliveryReport } from "../delivery.ts";
import { unsubscribeSetup } from "../endpoints.ts";
import { catalogued } from "../errors.ts";
import { localeFromField, type ApiLocale, type Messages } from "../http.ts";
import { historyOf, type IssueContent } from "../newsletter/compose.ts";
import { createDeliverers, unsubscribeHeaders, type IssuePayload } from "../notify/deliverers.ts";
import { createMailer } from "../notify/email.ts";
import type { MailerFactory } from "../notify/mailer.ts";
import { notifySettings, NotifyConfigError, type NotificationsConfig } from "../notify/settings.ts";
import { isIssueStore, type IssueProgress, type IssueRecord, type IssueStore, type SubmissionStore } from "../store.ts";
import { openStore, type Environment } from "../stores.ts";
import { submissionSettings } from "../submission-settings.ts";
import { unsubscribeLink } from "../unsubscribe.ts";
import { isValidEmail } from "../validate.ts";
import {
  EMPTY_PROGRESS,
  ISSUE_KIND,
  progressOf,
  queueIssue,
  readersOf,
  UNSUBSCRIBE_PLACEHOLDER,
} from "../newsletter/queue.ts";
import { checkSince, nextIssues, renderIn } from "./newsletter.ts";
import { withStore } from "./store.ts";
import { checkEmailOption } from "./subject-rights.ts";

/** Copies sent per minute when neither --rate nor site.yaml's newsletter.ratePerMinute says. */
export const DEFAULT_RATE_PER_MINUTE = 60;
const MAX_RATE_PER_MINUTE = 60_000;

export interface SendOptions {
  since?: string;
  dryRun?: boolean;
  testTo?: string;
  rate?: string;
  /** The deployed site whose store the send goes through (newsletter-remote.ts). */
  site?: string;
}

export interface SendDependencies {
  env?: Environment;
  now?: () => number;
  createMailer?: MailerFactory;
  /** Waits between two passes over the outbox. */
  sleep?: (ms: number) => Promise<void>;
  /** Where the progress line and the summary go. */
  print?: (line: string) => void;
}

export interface SendSummary {
  /** The issues this run recorded. */
  recorded: number;
  progress: IssueProgress;
}

/** site.yaml's newsletter.unsubscribeEmail: the address that takes unsubscribe requests by e-mail, if any. */
export function unsubscribeEmailOf(context: CommandContext): string | undefined {
  const value = (context.site().newsletter as { unsubscribeEmail?: unknown } | undefined)?.unsubscribeEmail;
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && isValidEmail(value.trim())) return value.trim();
  throw context.error({
    name: "ConfigInvalid",
    params: {
      file: "content/site.yaml",
      field: "newsletter.unsubscribeEmail",
      problem: `${JSON.stringify(value)} is not an e-mail address.`,
    },
  });
}

function ratePerMinute(context: CommandContext, value: string | undefined): number {
  const configured = (context.site().newsletter as { ratePerMinute?: unknown } | undefined)?.ratePerMinute;
  const rate = Number(value ?? configured ?? DEFAULT_RATE_PER_MINUTE);
  if (Number.isInteger(rate) && rate > 0 && rate <= MAX_RATE_PER_MINUTE) return rate;
  if (value !== undefined)
    throw context.error({
      name: "OptionValueInvalid",
      params: { option: "rate", value, valid: ["60"], meaning: `a whole number of e-mails a minute, 1 to 60000` },
    });
  throw context.error({
    name: "ConfigInvalid",
    params: {
      file: "content/site.yaml",
      field: "newsletter.ratePerMinute",
      problem: `${String(configured)} is not a whole number of e-mails a minute, 1 to 60000.`,
    },
  });
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The options every send checks first, wherever the store is. */
export function checkSendOptions(context: CommandContext, opts: SendOptions) {
  const since = checkSince(context, opts.since);
  const rate = ratePerMinute(context, opts.rate);
  const testTo = opts.testTo?.trim();
  if (testTo !== undefined && !isValidEmail(testTo))
    throw context.error({
      name: "OptionValueInvalid",
      params: { option: "test-to", value: testTo, valid: ["ana@example.com"], meaning: "an e-mail address" },
    });
  return { since, rate, testTo, unsubscribeEmail: unsubscribeEmailOf(context) };
}

/** What --dry-run prints: each locale's new articles and confirmed subscribers, and copies still waiting. */
export function printDryRun(
  context: CommandContext,
  issues: IssueContent[],
  readers: (locale: string) => number,
  unfinished: IssueProgress,
  print: (line: string) => void,
): void {
  for (const { code } of context.site().locales) {
    const issue = issues.find((i) => i.locale === code);
    const count = plural(readers(code), "confirmed subscriber");
    print(
      issue
        ? `${code}: ${plural(issue.articles.length, "new article")}, ${count}: nothing sent (--dry-run).`
        : `${code}: no new article, ${count}: nothing to send.`,
    );
  }
  const left = unfinished.pending + unfinished.failing;
  if (left > 0) print(`Issues already recorded: ${plural(left, "copy", "copies")} still to deliver.`);
}

export async function sendNewsletter(
  context: CommandContext,
  opts: SendOptions,
  deps: SendDependencies = {},
): Promise<SendSummary> {
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  const print = deps.print ?? ((line: string) => console.log(line));
  const { since, rate, testTo, unsubscribeEmail } = checkSendOptions(context, opts);
  const site = context.site();

  let store: (SubmissionStore & IssueStore) | undefined;
  let setup: ReturnType<typeof settingsFor>;
  try {
    setup = settingsFor(context, env, opts.dryRun === true);
    const opened = openStore(submissionSettings(site, env), env, context.root);
    await opened.ready();
    if (!isIssueStore(opened)) throw new Error("this store cannot send the newsletter");
    store = opened;
  } catch (error) {
    await store?.close().catch(() => {});
    throw catalogued(context, error);
  }
  try {
    const records = await store.issues();
    const issues = await nextIssues(context, historyOf(records, since));
    const subscribers = await store.list("newsletter");
    const ofLocale = (locale: string) => readersOf(subscribers, locale);
    const day = new Date(now()).toISOString().slice(0, 10);

    if (opts.dryRun) {
      const unfinished = await unfinishedOf(store, records);
      printDryRun(context, issues, (code) => ofLocale(code).length, unfinished, print);
      return { recorded: 0, progress: unfinished };
    }
    const { links, notify } = setup!;
    if (testTo !== undefined) {
      const factory = deps.createMailer ?? createMailer;
      await sendTests(context, issues, day, { to: testTo, unsubscribeEmail }, links, notify, factory, print);
      return { recorded: 0, progress: EMPTY_PROGRESS };
    }

    // Record this run's issues, then queue whatever issue is not fully queued (this run's, or a cut one's).
    let recorded = 0;
    for (const issue of issues) {
      if (ofLocale(issue.locale).length === 0) {
        print(`${issue.locale}: no confirmed subscriber; nothing recorded.`);
        continue;
      }
      const rendered = await renderIn(context, issue, day, UNSUBSCRIBE_PLACEHOLDER);
      await store.recordIssue({
        ...{ locale: issue.locale, day, articles: issue.articles.map((a) => a.key), intro: issue.intro?.file ?? null },
        ...{
          subject: rendered.subject,
          html: rendered.html,
          text: rendered.text,
          createdAt: new Date(now()).toISOString(),
        },
      });
      recorded++;
    }
    const all = await store.issues();
    const copies = { siteUrl: site.siteUrl, links, ...(unsubscribeEmail ? { unsubscribeEmail } : {}) };
    for (const record of all.filter((r) => r.queued_at === null)) {
      const queued = await queueIssue(store, record, ofLocale(record.locale), copies, now);
      print(`${record.locale}: issue ${record.id} "${record.subject}", ${plural(queued, "copy", "copies")} queued.`);
    }
    if (recorded === 0 && all.every((r) => r.queued_at !== null) && issues.length === 0) {
      const left = await unfinishedOf(store, all);
      if (left.pending + left.failing === 0) {
        print(`No new article${since ? ` since ${since}` : " since the last issue"}: nothing to send.`);
        return { recorded, progress: left };
      }
    }
    const progress = await deliver(store, all, rate, setup!, context, now, deps, print);
    return { recorded, progress };
  } finally {
    await store.close();
  }
}

/** SMTP, the sender and the unsubscribe links' signer, each required unless nothing is sent. */
export function settingsFor(context: CommandContext, env: Environment, dryRun: boolean) {
  const site = context.site();
  const notify = notifySettings(site.notifications as NotificationsConfig | undefined, env);
  if (dryRun) return undefined;
  if (!notify.smtpUrl || !notify.from)
    throw new NotifyConfigError(
      notify.smtpUrl ? "notifications.from" : "SMTP_URL",
      notify.smtpUrl
        ? "sitegen newsletter send needs a sender: notifications.from in content/site.yaml is empty."
        : "sitegen newsletter send needs a mail server: SMTP_URL is not set.",
    );
  const links = unsubscribeSetup(site, env);
  if (!links)
    throw new NotifyConfigError(
      site.endpoints.newsletterUnsubscribe === undefined ? "endpoints.newsletterUnsubscribe" : "SUBMISSIONS_SECRET",
      site.endpoints.newsletterUnsubscribe === undefined
        ? "sitegen newsletter send gives every copy an unsubscribe link, but endpoints.newsletterUnsubscribe is not " +
            "set in content/site.yaml."
        : "sitegen newsletter send signs every subscriber's unsubscribe link, but SUBMISSIONS_SECRET is not set.",
    );
  return { notify, links };
}

export async function sendTests(
  context: CommandContext,
  issues: IssueContent[],
  day: string,
  { to, unsubscribeEmail }: { to: string; unsubscribeEmail: string | undefined },
  links: NonNullable<ReturnType<typeof settingsFor>>["links"],
  notify: NonNullable<ReturnType<typeof settingsFor>>["notify"],
  factory: MailerFactory,
  print: (line: string) => void,
): Promise<void> {
  if (issues.length === 0) {
    print("No new article: no test copy to send.");
    return;
  }
  const mailer = factory({
    ...{ smtpUrl: notify.smtpUrl!, from: notify.from!, timeoutMs: notify.timeoutMs },
    ...(notify.dkim ? { dkim: notify.dkim } : {}),
  });
  try {
    for (const issue of issues) {
      const locale: ApiLocale = localeFromField(issue.locale) ?? "pt";
      const link = await unsubscribeLink(context.site().siteUrl, links.path, links.tokens, { email: to, locale });
      const rendered = await renderIn(context, issue, day, link);
      const headers = unsubscribeHeaders(link, unsubscribeEmail);
      await mailer.send({ to: [to], subject: rendered.subject, text: rendered.text, html: rendered.html, headers });
      print(`${issue.locale}: a test copy of "${rendered.subject}" sent to ${to}; nothing recorded.`);
    }
  } finally {
    mailer.close();
  }
}

const unfinishedOf = progressOf;

/**
 * Delivers the copies, spaced at the rate: the copies never tried are given due times `interval` apart
 * (after any still scheduled), and the outbox worker sends each when it is due. Stops when every copy was
 * delivered or has failed (a failed copy waits for its next try, by a server's worker or the next run), or
 * after a bounded wait.
 */
async function deliver(
  store: SubmissionStore & IssueStore,
  records: IssueRecord[],
  rate: number,
  setup: NonNullable<ReturnType<typeof settingsFor>>,
  context: CommandContext,
  now: () => number,
  deps: SendDependencies,
  print: (line: string) => void,
): Promise<IssueProgress> {
  const interval = 60_000 / rate;
  await store.respace(`${ISSUE_KIND}:`, now(), interval);
  const { deliverers, close } = createDeliverers(setup.notify, context.messages() as Messages, "pt", {
    createMailer: deps.createMailer ?? createMailer,
  });
  const failures: DeliveryReport["failed"] = [];
  const refusals: NonNullable<DeliveryReport["refused"]> = [];
  const worker = new DeliveryWorker({
    store,
    deliverers,
    now,
    leaseMs: setup.notify.timeoutMs * 3 + interval,
    onFailure: (failure) => failures.push(failure),
    onRefusal: (refusal) => refusals.push(refusal),
  });
  const report: Outcomes = { failed: [], refused: [] };
  try {
    const total = (await unfinishedOf(store, records)).total;
    const pass = async () => {
      await worker.runDue();
      return unfinishedOf(store, records);
    };
    const progress = await passesUntilDone(pass, total, interval, setup.notify.timeoutMs, deps, print);
    report.failed = failures.map(({ row, error }) => ({ to: (row.payload as IssuePayload).to, error }));
    report.refused = refusals.map(({ row, error }) => ({ to: (row.payload as IssuePayload).to, error }));
    printOutcome(progress, report, print);
    return progress;
  } finally {
    await worker.stop(1000);
    close();
  }
}

/** The addresses whose copy failed this run, and those refused for good. */
export interface Outcomes {
  failed: { to: string; error: string }[];
  refused: { to: string; error: string }[];
}

/**
 * Runs `pass` (one delivery pass, then the copies' progress) every poll until no copy waits, or for a
 * bounded time (the copies at the rate, plus room for timeouts), showing a progress line as it goes.
 */
export async function passesUntilDone(
  pass: () => Promise<IssueProgress>,
  total: number,
  interval: number,
  timeoutMs: number,
  deps: SendDependencies,
  print: (line: string) => void,
): Promise<IssueProgress> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pollMs = Math.min(Math.max(interval, 20), 1000);
  const rounds = Math.ceil((total * interval + timeoutMs * 6 + 60_000) / pollMs) + 10;
  const tty = process.stdout.isTTY === true && deps.print === undefined;
  let shown = -1;
  let progress = EMPTY_PROGRESS;
  try {
    for (let round = 0; round < rounds; round++) {
      progress = await pass();
      const { delivered, failing, pending } = progress;
      const line = `Sending: ${delivered} of ${progress.total} sent, ${failing} failed, ${pending} waiting`;
      if (tty) process.stdout.write(`\r${line}`);
      else if (delivered !== shown && (pending === 0 || delivered % Math.max(1, Math.ceil(progress.total / 10)) === 0))
        print(line);
      shown = delivered;
      if (pending === 0) break;
      await sleep(pollMs);
    }
  } finally {
    if (tty) process.stdout.write("\n");
  }
  return progress;
}

/** The addresses that failed or were refused this run, then the summary. */
export function printOutcome(progress: IssueProgress, outcomes: Outcomes, print: (line: string) => void): void {
  for (const { to, error } of outcomes.failed.slice(0, 20)) print(`  failed: ${to}: ${error}`);
  for (const { to, error } of outcomes.refused.slice(0, 20))
    print(`  refused: ${to}: ${error} (nothing more is sent to it)`);
  const refused = progress.refused > 0 ? `refused ${progress.refused} (address bounced), ` : "";
  print(
    `Sent ${progress.delivered}, failed ${progress.failing} (tried again later), ${refused}` +
      `waiting ${progress.pending}, of ${plural(progress.total, "copy", "copies")}.`,
  );
}

/**
 * `sitegen newsletter unsubscribe --email <address>`: what the unsubscribe link does, for a request that
 * came another way (an e-mail to newsletter.unsubscribeEmail, the List-Unsubscribe mailto:). The
 * subscription is erased with every copy still queued for it; contact messages keep their own period.
 */
export async function unsubscribeAddress(
  context: CommandContext,
  value: string | undefined,
  env: Environment = process.env,
  print: (line: string) => void = (line) => console.log(line),
): Promise<"removed" | "missing"> {
  const email = checkEmailOption(context, "newsletter unsubscribe", "erases", value);
  const result = await withStore(
    context,
    env,
    (store) => store.unsubscribe(email),
    () => "missing" as const,
  );
  print(
    result === "removed"
      ? `Unsubscribed ${email}: its subscription and every copy still queued for it are erased.`
      : `${email} is not subscribed; nothing changed.`,
  );
  return result;
}
