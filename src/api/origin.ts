/**
 * Cross-site request forgery guard for the form endpoints. Without it any other site could post signups
 * through its visitors' browsers, each visitor with a fresh rate-limit budget.
 *
 * A browser's own headers decide, since no page can forge them:
 * - `Sec-Fetch-Site: same-origin` (our pages) and `none` (the visitor acting directly) pass, whatever the
 *   Origin says: behind a proxy that rewrites Host the Origin cannot be compared, but this header still tells.
 * - Otherwise a present Origin must be one of the site's own: the origin of `siteUrl` (its pages posting to
 *   an endpoint on another host), or the endpoint's own host in either scheme (TLS often ends at a proxy
 *   that forwards plain HTTP). `Origin: null` (a sandboxed frame, a page from a file) is nobody's own.
 * - A request with neither header passes: an old browser posting a form without JavaScript sends neither,
 *   and a client that is no browser can forge anything anyway (the rate limit is what bounds those).
 * - `Sec-Fetch-Site` saying same-site or cross-site with no Origin at all passes nothing.
 */

/** The origins (scheme://host[:port]) whose pages may post to the endpoints, besides the endpoint's own host. */
export function siteOrigins(siteUrl: string | undefined): Set<string> {
  const origins = new Set<string>();
  try {
    if (siteUrl) origins.add(new URL(siteUrl).origin);
  } catch {
    // An unusable siteUrl adds nothing: the endpoint's own host still passes.
  }
  return origins;
}

function ownHosts(request: Request, trustProxy: boolean): string[] {
  const hosts: string[] = [];
  try {
    hosts.push(new URL(request.url).host);
  } catch {
    // A handler always gets an absolute URL; nothing to add otherwise.
  }
  // Behind a proxy you run, the Host the visitor used may arrive only as X-Forwarded-Host.
  const forwarded = trustProxy ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  if (forwarded) {
    try {
      hosts.push(new URL(`http://${forwarded}`).host);
    } catch {
      // Not a host: ignored.
    }
  }
  return hosts;
}

export function isCrossSite(request: Request, allowedOrigins: ReadonlySet<string>, trustProxy = false): boolean {
  const fetchSite = request.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite === "same-origin" || fetchSite === "none") return false;
  const origin = request.headers.get("origin")?.trim();
  if (origin === undefined || origin === "") return fetchSite !== undefined;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return true;
  }
  if (from.protocol !== "https:" && from.protocol !== "http:") return true;
  if (allowedOrigins.has(from.origin)) return false;
  return !ownHosts(request, trustProxy).includes(from.host);
}

/**
 * Where a plain form post's answer sends the browser: "" (a path on the endpoint's own origin, where the
 * pages usually are), or the origin of the site's pages when they are served elsewhere (GitHub Pages, S3)
 * and post here. A page of the site's own origins that posted from another origin says so in Origin;
 * without that header (an old browser), `remotePages` (set when site.yaml's endpoints are on another
 * origin than siteUrl) decides.
 */
export function pagesOrigin(
  request: Request,
  allowedOrigins: ReadonlySet<string>,
  remotePages: string | undefined,
): string {
  let own: string | undefined;
  try {
    own = new URL(request.url).origin;
  } catch {
    // A handler always gets an absolute URL.
  }
  const origin = request.headers.get("origin")?.trim();
  if (origin) return origin !== own && allowedOrigins.has(origin) ? origin : "";
  return remotePages && remotePages !== own ? remotePages : "";
}
