/**
 * A lead posted as JSON to NOTIFY_WEBHOOK_URL: `id` (the notification's, the same on every try, also sent
 * as the Idempotency-Key header), `text` (one line, which Slack's and Teams' incoming webhooks show as the
 * message) and `submission` (every field, for a CRM or an automation). Any answer but 2xx is a failure,
 * retried with backoff; so is a receiver that does not answer within the timeout.
 */
export interface WebhookBody {
  id: string;
  text: string;
  event: "contact" | "newsletter";
  submission: unknown;
}

export async function postWebhook(
  url: string,
  body: WebhookBody,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "sitegen-notify",
      // A structured-field string, as the IETF's Idempotency-Key draft has it: the id in double quotes.
      "idempotency-key": `"${body.id}"`,
    },
    body: JSON.stringify(body),
    signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    // A redirect is not followed (the lead is not sent where the firm did not say) and counts as a failure
    // below; "manual" rather than "error", which Cloudflare's runtime does not implement.
    redirect: "manual",
  }).catch((error: unknown) => {
    if (timeout.aborted) throw new Error(`the webhook did not answer within ${timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`the webhook could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  });
  // The body is not needed; reading it frees the connection.
  await response.arrayBuffer().catch(() => {});
  if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
}
