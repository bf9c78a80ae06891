/**
 * The store for a command, opened and migrated as the endpoints open it (PostgreSQL with DATABASE_URL, else
 * the SQLite file of submissions.database), with its failures as catalogued errors. A command that only
 * reads creates no SQLite file: with none yet, nothing was ever stored.
 */
import { existsSync } from "node:fs";
import type { CommandContext } from "../../generator/plugin.ts";
import { catalogued } from "../errors.ts";
import type { SubmissionStore } from "../store.ts";
import { openStore, sqliteFile, storeKind, type Environment } from "../stores.ts";
import { submissionSettings } from "../submission-settings.ts";

/**
 * Runs `work` with the store open, and closes it; `empty()` instead when the SQLite file does not exist.
 * Opening migrates a file of an older layout in place, as the endpoints would on their next submission.
 */
export async function withStore<T>(
  context: CommandContext,
  env: Environment,
  work: (store: SubmissionStore) => Promise<T>,
  empty: (file: string) => T,
): Promise<T> {
  let store: SubmissionStore | undefined;
  try {
    const settings = submissionSettings(context.site(), env);
    if (storeKind(env) === "sqlite") {
      const file = sqliteFile(settings, context.root);
      if (!existsSync(file)) return empty(file);
    }
    store = openStore(settings, env, context.root);
    await store.ready?.();
  } catch (error) {
    await store?.close().catch(() => {});
    throw catalogued(context, error);
  }
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
