/**
 * The double opt-in's confirmation link on the deploy targets whose endpoints run only when a request
 * reaches them (Cloudflare Pages, Netlify): the host must route its path to the endpoints, so it must be a
 * path of the site. Checked when building, rather than left to answer 503 once deployed.
 */
import type { SiteConfig } from "../config.ts";
import { sitegenError } from "../errors.ts";

/** The confirmation link's path when submissions.doubleOptIn is on; undefined when it is off. */
export function confirmRoute(site: SiteConfig): string | undefined {
  if ((site.submissions as { doubleOptIn?: unknown } | undefined)?.doubleOptIn !== true) return undefined;
  const path = (site.endpoints as Record<string, unknown>).newsletterConfirm;
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) {
    throw sitegenError("NotificationSettingsInvalid", {
      variable: "endpoints.newsletterConfirm",
      problem: "submissions.doubleOptIn is on, but endpoints.newsletterConfirm in content/site.yaml is no path of this site (such as /api/newsletter/confirm): the confirmation link could not reach the endpoints.",
    });
  }
  return path;
}
