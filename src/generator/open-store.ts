/**
 * The submissions store for a command (`sitegen submissions`, and the servers' start-up), opened and
 * migrated, with its failures shown as catalogued errors. The store is the site's own: its endpoints
 * module (src/api/index.ts, loaded by convention, endpoints.ts) exports openStore. src/api stays free of
 * the generator, so its StoreError is told apart here by name and code rather than by class.
 */
import type { SiteConfig } from "./config.ts";
import { sitegenError } from "./errors.ts";
import { PROJECT_FILES } from "./project.ts";
import type { ApiModule, CommandStore } from "./endpoints.ts";

export type Environment = Readonly<Record<string, string | undefined>>;

/** The site's endpoints module, which must export openStore, storeKind and sqliteFile for the commands. */
export function storeModule(module: ApiModule | undefined): Required<Pick<ApiModule, "openStore" | "storeKind" | "sqliteFile">> {
  if (!module?.openStore || !module.storeKind || !module.sqliteFile) {
    throw sitegenError("ApiModuleInvalid", { file: PROJECT_FILES.api, problem: "it does not export openStore, storeKind and sqliteFile, which sitegen submissions reads the stored submissions through." });
  }
  return { openStore: module.openStore, storeKind: module.storeKind, sqliteFile: module.sqliteFile };
}

export async function openStoreForCommand(root: string, site: SiteConfig, env: Environment, module: ApiModule | undefined): Promise<CommandStore> {
  const { openStore } = storeModule(module);
  let store: CommandStore | undefined;
  try {
    store = openStore(site.submissions, env, root);
    await store.ready();
    return store;
  } catch (error) {
    await store?.close().catch(() => {});
    throw storeFailure(error);
  }
}

/** A StoreError (or a notification setting that cannot work) as its catalogue entry; anything else as it is. */
export function storeFailure(error: unknown): unknown {
  if (error instanceof Error && error.name === "NotifyConfigError") {
    const variable = (error as Error & { variable?: string }).variable ?? "";
    if (variable === "SUBMISSIONS_SECRET") return sitegenError("DoubleOptInSecretMissing", { problem: error.message }, { cause: error });
    return sitegenError("NotificationSettingsInvalid", { variable, problem: error.message }, { cause: error });
  }
  if (!(error instanceof Error) || error.name !== "StoreError") return error;
  const { code, target } = error as Error & { code?: string; target?: string };
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause.message || error.message : error.message;
  if (code === "invalid-url") return sitegenError("DatabaseUrlInvalid", { problem: error.message }, { cause: error });
  if (code === "unreachable") return sitegenError("DatabaseUnreachable", { target: target ?? "", detail: error.message }, { cause: error });
  if (code === "unreadable") return sitegenError("SubmissionsUnreadable", { file: target ?? "", reason }, { cause: error });
  return error;
}
