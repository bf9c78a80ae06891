/**
 * `sitegen submissions retry`: sends every notification still in the outbox, due or waiting out its
 * backoff, through the site's own endpoints module (the same deliverers the servers run, configured by the
 * same environment), and prints what went out and what still fails. What fails stays in the outbox.
 */
import { commandSite } from "./command-site.ts";
import type { DeliveryReport } from "./endpoints.ts";
import { sitegenError } from "./errors.ts";
import { PROJECT_FILES } from "./project.ts";

const describe = (row: DeliveryReport["delivered"][number]) => `${row.kind} for ${row.submission_type} ${row.submission_id} (try ${row.attempts})`;

export async function retryDeliveries(root: string): Promise<DeliveryReport> {
  const api = await commandSite(root).endpoints();
  if (!api.retry) {
    await api.close();
    throw sitegenError("ApiModuleInvalid", { file: PROJECT_FILES.api, problem: "its createApiHandlers returns no retry(), which sitegen submissions retry sends the outbox through." });
  }
  let report: DeliveryReport;
  try {
    await api.ready?.();
    report = await api.retry();
  } finally {
    await api.close();
  }
  const { delivered, failed } = report;
  if (delivered.length === 0 && failed.length === 0) {
    console.log("Nothing to send: every notification in the outbox has been delivered.");
    return report;
  }
  if (delivered.length > 0) console.log([`Sent ${delivered.length}:`, ...delivered.map((row) => `  ${describe(row)}`)].join("\n"));
  if (failed.length > 0) {
    console.log(
      [
        `Still failing ${failed.length} (kept in the outbox: a running server tries again with backoff, or run this command again):`,
        ...failed.map(({ row, error }) => `  ${describe(row)}: ${error}`),
      ].join("\n"),
    );
  }
  return report;
}
