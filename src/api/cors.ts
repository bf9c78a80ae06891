/**
 * Cross-origin access to the endpoints, for a site whose pages are served by a host with no functions
 * (GitHub Pages, S3 + CloudFront) and whose forms post to the endpoints on another origin (site.yaml's
 * endpoints as absolute URLs). Only the site's own origins (siteUrl's) are answered: the preflight a
 * browser sends before the island's JSON post, and the actual answer, which the island must be allowed to
 * read. Any other origin gets no CORS header, so its scripts read nothing; its posts are refused anyway
 * (origin.ts). No credentials: the forms need no cookie.
 */
import type { ApiHandler } from "./forms.ts";

/** Request headers the islands send besides the CORS-safelisted ones. */
const ALLOWED_HEADERS = "Content-Type, Accept";
/** How long a browser may reuse a preflight's answer (Chromium caps it at two hours). */
const PREFLIGHT_MAX_AGE = "7200";

function ownOrigin(request: Request): string | undefined {
  try {
    return new URL(request.url).origin;
  } catch {
    return undefined;
  }
}

/** The handler, answering preflights and adding CORS headers for `allowedOrigins`; `methods` are the ones it serves. */
export function withCors(
  handler: ApiHandler,
  allowedOrigins: ReadonlySet<string>,
  methods: readonly string[],
): ApiHandler {
  const allow = [...methods, "OPTIONS"].join(", ");
  return async (request) => {
    const origin = request.headers.get("origin")?.trim();
    const allowed = origin !== undefined && origin !== ownOrigin(request) && allowedOrigins.has(origin);
    // A preflight; any other OPTIONS is the handler's to answer (405 with its Allow).
    if (request.method === "OPTIONS" && origin !== undefined && request.headers.has("access-control-request-method")) {
      if (!allowed)
        return new Response(null, {
          status: 403,
          headers: { Allow: allow, Vary: "Origin", "Cache-Control": "no-store" },
        });
      return new Response(null, {
        status: 204,
        headers: {
          Allow: allow,
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": methods.join(", "),
          "Access-Control-Allow-Headers": ALLOWED_HEADERS,
          "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
          Vary: "Origin",
        },
      });
    }
    const response = await handler(request);
    const headers = new Headers(response.headers);
    // The answer differs by Origin: a cache must not hand one origin's answer to another.
    headers.append("Vary", "Origin");
    if (allowed) headers.set("Access-Control-Allow-Origin", origin);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
