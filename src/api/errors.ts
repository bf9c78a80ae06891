/**
 * The endpoints' failures that a developer must act on, as entries of sitegen's error catalogue
 * (src/generator/error-catalogue.ts): the generator asks this module's describeError (plugin.ts) when the
 * endpoints, their store or their routes fail, and the commands throw them through their context. Errors
 * are told apart by name, as they may come from another copy of these modules (a compiled bundle).
 */
import type { CommandContext, ErrorDescription } from "../generator/plugin.ts";
import type { StoreErrorCode } from "./store.ts";

/** Where the SQLite file is set, as the hints name it. */
const SQLITE_SETTING = "submissions.database in content/site.yaml";

export function describeError(error: unknown): ErrorDescription | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === "SiteSettingError") {
    const { field, problem } = error as Error & { field: string; problem: string };
    return { name: "ConfigInvalid", params: { file: "content/site.yaml", field, problem } };
  }
  if (error.name === "NotifyConfigError") {
    const variable = (error as Error & { variable?: string }).variable ?? "";
    if (variable === "SUBMISSIONS_SECRET") {
      const setting = (error as Error & { setting?: string }).setting;
      return {
        name: "DoubleOptInSecretMissing",
        params: { variable, problem: error.message, ...(setting ? { setting } : {}) },
      };
    }
    return { name: "NotificationSettingsInvalid", params: { variable, problem: error.message } };
  }
  if (error.name !== "StoreError") return undefined;
  const { code, target } = error as Error & { code?: StoreErrorCode; target?: string };
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause.message || error.message : error.message;
  if (code === "invalid-url")
    return { name: "DatabaseUrlInvalid", params: { problem: error.message, setting: SQLITE_SETTING } };
  if (code === "unreachable")
    return { name: "DatabaseUnreachable", params: { target: target ?? "", detail: error.message } };
  if (code === "unreadable")
    return {
      name: "DatabaseUnreadable",
      params: { file: target ?? "", reason, setting: `${SQLITE_SETTING}, or SUBMISSIONS_DB` },
    };
  return undefined;
}

/** A failure as a command throws it: catalogued when describeError knows it, else as it is. */
export function catalogued(context: CommandContext, error: unknown): unknown {
  const description = describeError(error);
  return description ? context.error(description, error) : error;
}
