/**
 * What the deploy targets of `sitegen build --target cloudflare | netlify` need of the endpoints (plugin.ts):
 * the addresses to route to them, and the D1 database the Cloudflare Pages worker stores through.
 * Web-standard: the Pages worker reads the binding's name from here too.
 */
import type { SiteConfig } from "../generator/config.ts";
import { NotifyConfigError } from "./notify/settings.ts";
import { submissionSettings } from "./submission-settings.ts";

/** The D1 database: the binding cloudflare.ts reads it by, and its name after the project (`<project>-submissions`). */
export const D1 = { binding: "SUBMISSIONS", database: "submissions" } as const;

/**
 * Every address the endpoints answer, in site.yaml's order: the forms' and the language detection's, the
 * double opt-in's confirmation link only when submissions.doubleOptIn is on (endpoints.ts mounts it then),
 * and the newsletter's unsubscribe link and issues endpoint when endpoints.newsletterUnsubscribe and
 * newsletterIssues are set. The endpoints answer those once SUBMISSIONS_SECRET is set; until then the host
 * serves its 404 page there.
 */
export function routes(site: SiteConfig): string[] {
  const answered = Object.entries(site.endpoints)
    .filter(([name]) => !["newsletterConfirm", "newsletterUnsubscribe", "newsletterIssues"].includes(name))
    .map(([, address]) => address);
  const later = [confirmRoute(site), site.endpoints.newsletterUnsubscribe, site.endpoints.newsletterIssues];
  return [...answered, ...later.filter((address) => typeof address === "string")];
}

/**
 * The confirmation link's path when submissions.doubleOptIn is on. On a host whose endpoints run only when
 * a request reaches them, the host must route that path to them, so it must be a path of the site: checked
 * when building, rather than left to answer 503 once deployed.
 */
function confirmRoute(site: SiteConfig): string | undefined {
  if (submissionSettings(site, {}).doubleOptIn !== true) return undefined;
  const path = site.endpoints.newsletterConfirm;
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) {
    throw new NotifyConfigError(
      "endpoints.newsletterConfirm",
      "submissions.doubleOptIn is on, but endpoints.newsletterConfirm in content/site.yaml is no path of this site " +
        "(such as /api/newsletter/confirm): the confirmation link could not reach the endpoints.",
    );
  }
  return path;
}
