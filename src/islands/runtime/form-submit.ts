/**
 * Sends a form to its endpoint as JSON and reads the answer. The endpoints answer JSON to
 * `Accept: application/json` (and a 303 redirect to a result page to a plain form post without JavaScript).
 */
/** A quick check before sending; the endpoint's validation (src/api/validate.ts) is the one that counts. */
export const LOOKS_LIKE_EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export interface SubmitResult {
  ok: boolean;
  status: number;
  /** The endpoint's own title and message for the outcome, in the visitor's language. */
  title?: string;
  message?: string;
  errors?: Record<string, string>;
}

export async function submitJson(endpoint: string, data: Record<string, string>): Promise<SubmitResult> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(data),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0 };
  }
  let body: { ok?: boolean; title?: string; message?: string; errors?: Record<string, string> } = {};
  try {
    body = await response.json();
  } catch {
    /* a proxy's HTML error page: the status says enough */
  }
  return {
    ok: response.ok && body.ok !== false,
    status: response.status,
    title: body.title,
    message: body.message,
    errors: body.errors,
  };
}

/** When the visitor started filling the form: the endpoints treat a too-fast submission as a bot. */
export function firstTouchTracker(): { mark(): void; value(): string } {
  let startedAt = 0;
  return {
    mark() {
      if (!startedAt) startedAt = Date.now();
    },
    value() {
      return startedAt ? String(startedAt) : "";
    },
  };
}
