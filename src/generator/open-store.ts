/**
 * The submissions store for a command (`sitegen submissions`, and the servers' start-up), opened and
 * migrated, with its failures shown as catalogued errors. src/api stays free of the generator, so its
 * StoreError is told apart here by name and code rather than by class: the endpoints module is bundled on
 * its own (src/generator/endpoints.ts) and brings its own copy of that class.
 */
import { openStore, type Environment } from "../api/stores.ts";
import type { SubmissionStore } from "../api/store.ts";
import type { SiteConfig } from "./config.ts";
import { sitegenError } from "./errors.ts";

export async function openStoreForCommand(root: string, site: SiteConfig, env: Environment): Promise<SubmissionStore> {
  let store: SubmissionStore | undefined;
  try {
    store = openStore(site.submissions, env, root);
    await store.ready();
    return store;
  } catch (error) {
    await store?.close().catch(() => {});
    throw storeFailure(error);
  }
}

/** A StoreError as its catalogue entry; anything else as it is. */
export function storeFailure(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== "StoreError") return error;
  const { code, target } = error as Error & { code?: string; target?: string };
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause.message || error.message : error.message;
  if (code === "invalid-url") return sitegenError("DatabaseUrlInvalid", { problem: error.message }, { cause: error });
  if (code === "unreachable") return sitegenError("DatabaseUnreachable", { target: target ?? "", detail: error.message }, { cause: error });
  if (code === "unreadable") return sitegenError("SubmissionsUnreadable", { file: target ?? "", reason }, { cause: error });
  return error;
}
