/**
 * `sitegen submissions retry`: sends every notification still in the outbox, due or waiting out its
 * backoff, through the endpoints as a Node server runs them (the same deliverers, configured by the same
 * environment), and prints what went out and what still fails. What fails stays in the outbox.
 */
import type { CommandContext } from "../../generator/plugin.ts";
import type { DeliveryReport } from "../delivery.ts";
import { catalogued } from "../errors.ts";
import { createApiHandlers, type ApiInstance, type ApiOptions } from "../node-api.ts";
import type { Environment } from "../stores.ts";

const describe = (row: DeliveryReport["delivered"][number]) =>
  `${row.kind} for ${row.submission_type} ${row.submission_id} (try ${row.attempts})`;

export async function retryDeliveries(
  context: CommandContext,
  env: Environment = process.env,
): Promise<DeliveryReport> {
  let api: ApiInstance | undefined;
  let report: DeliveryReport;
  try {
    api = createApiHandlers({
      site: context.site(),
      root: context.root,
      messages: context.messages() as ApiOptions["messages"],
      env,
    });
    await api.ready();
  } catch (error) {
    await api?.close();
    throw catalogued(context, error);
  }
  try {
    report = await api.retry();
  } finally {
    await api.close();
  }
  const { delivered, failed } = report;
  if (delivered.length === 0 && failed.length === 0) {
    console.log("Nothing to send: every notification in the outbox has been delivered.");
    return report;
  }
  if (delivered.length > 0)
    console.log([`Sent ${delivered.length}:`, ...delivered.map((row) => `  ${describe(row)}`)].join("\n"));
  if (failed.length > 0) {
    console.log(
      [
        `Still failing ${failed.length} ` +
          "(kept in the outbox: a running server tries again with backoff, or run this command again):",
        ...failed.map(({ row, error }) => `  ${describe(row)}: ${error}`),
      ].join("\n"),
    );
  }
  return report;
}
