/**
 * The site's endpoints module, which sitegen finds by convention and loads as its plug-in
 * (src/generator/plugin.ts; docs/extending.md): each export below is one thing the generator asks of the
 * site, so that it knows nothing of the forms, their store or the law they answer to.
 */
import type { SitePlugin } from "../generator/plugin.ts";
import { commands } from "./commands/cli.ts";
import { describeError } from "./errors.ts";
import { D1, routes } from "./hosting.ts";
import { createApiHandlers } from "./node-api.ts";
import { submissionSettings } from "./submission-settings.ts";

/** The D1 database the Cloudflare Pages worker stores through (hosting.ts). */
const d1 = D1;

/** The Node server's request log trusts X-Forwarded-For when the forms do (submissions.trustProxy). */
function serverSettings(site: Readonly<Record<string, unknown>>) {
  return { trustProxy: submissionSettings(site, globalThis.process?.env ?? {}).trustProxy };
}

export {
  /** The endpoints of `sitegen serve` and `sitegen start` (node-api.ts). */
  createApiHandlers,
  /** `sitegen submissions`, and its retry, export and delete (commands/). */
  commands,
  /** The addresses the Cloudflare and Netlify targets route to the endpoints (hosting.ts). */
  routes,
  d1,
  serverSettings,
  /** The failures of the endpoints, their store and their settings as catalogued errors (errors.ts). */
  describeError,
};

// The compiler checks that every export above is what the plug-in point expects of it.
void ({ createApiHandlers, commands, routes, d1, serverSettings, describeError } satisfies Required<SitePlugin>);

export type { ApiHandler, FormKind } from "./forms.ts";
export type { ApiInstance, ApiOptions } from "./node-api.ts";
export { createFormHandler, MAX_BODY_BYTES } from "./forms.ts";
export { createDetectLanguageHandler, detectLanguage } from "./detect-language.ts";
export { RateLimiter } from "./rate-limit.ts";
export type { SubmissionSink, SubmissionStore } from "./store.ts";
export { openStore, storeKind, sqliteFile } from "./stores.ts";
export type { DeliveryReport } from "./delivery.ts";
