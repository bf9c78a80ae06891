/**
 * The site's commands, added to sitegen's CLI through the plug-in point (index.ts exports `commands`):
 * `sitegen submissions` and its subcommands retry, export and delete; `sitegen newsletter` preview, send and
 * unsubscribe.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../generator/plugin.ts";
import { printSubmissions } from "./list.ts";
import { previewNewsletter, PREVIEW_FOLDER } from "./newsletter.ts";
import { sendThroughSite } from "./newsletter-remote.ts";
import { sendNewsletter, unsubscribeAddress, type SendOptions } from "./newsletter-send.ts";
import { retryDeliveries } from "./retry.ts";
import { deleteSubject, exportSubject } from "./subject-rights.ts";

export function commands(program: Command, context: CommandContext): void {
  const submissions = program
    .command("submissions")
    .description("Print the newsletter and contact submissions stored by the endpoints.")
    .option("-t, --type <type>", "newsletter or contact (default: both)")
    .option("-f, --format <format>", "csv or json", "csv")
    .action(async (opts: { type?: string; format: string }) => {
      await printSubmissions(context, opts);
    });
  submissions
    .command("retry")
    .description(
      "Send every notification still in the outbox now (e-mail, webhook) and print what went out and what still fails.",
    )
    .action(async () => {
      await retryDeliveries(context);
    });
  submissions
    .command("export")
    .description("Print everything stored about one person, as JSON (LGPD art. 18: access).")
    .option("--email <address>", "the person's e-mail address (any case)")
    .action(async (opts: { email?: string }) => {
      await exportSubject(context, opts.email);
    });
  submissions
    .command("delete")
    .description("Erase everything stored about one person, queued notifications included (LGPD art. 18: deletion).")
    .option("--email <address>", "the person's e-mail address (any case)")
    .action(async (opts: { email?: string }) => {
      await deleteSubject(context, opts.email);
    });
  const newsletter = program.command("newsletter").description("Preview and send the newsletter's issues.");
  newsletter
    .command("preview")
    .description(
      "Write the next issue of each language (the articles since --since, else since the last issue sent) as " +
        "HTML and plain text, and print where.",
    )
    .option("--since <date>", "the first day whose articles the issue holds (YYYY-MM-DD)")
    .option("--out <folder>", "where to write <locale>.html and <locale>.txt", PREVIEW_FOLDER)
    .action(async (opts: { since?: string; out: string }) => {
      await previewNewsletter(context, opts);
    });
  newsletter
    .command("send")
    .description(
      "Record each language's next issue and send it to every confirmed subscriber of that language, once each " +
        "(run it again to resume a send that was cut short).",
    )
    .option("--since <date>", "the first day whose articles the issue holds (default: the last issue's day)")
    .option("--dry-run", "print how many articles and subscribers each language has, and send nothing")
    .option("--test-to <address>", "send one copy of each language's issue to this address only, and record nothing")
    .option("--rate <per-minute>", "copies sent per minute (default: site.yaml's newsletter.ratePerMinute, or 60)")
    .option("--site <url>", "send through the deployed site's store (Cloudflare D1, Netlify Blobs), not a local one")
    .action(async (opts: SendOptions) => {
      if (opts.site !== undefined) await sendThroughSite(context, { ...opts, site: opts.site });
      else await sendNewsletter(context, opts);
    });
  newsletter
    .command("unsubscribe")
    .description(
      "Unsubscribe one address, as its unsubscribe link does (for a request sent by e-mail): its subscription " +
        "and every copy still queued for it are erased.",
    )
    .option("--email <address>", "the subscriber's e-mail address (any case)")
    .action(async (opts: { email?: string }) => {
      await unsubscribeAddress(context, opts.email);
    });
}
