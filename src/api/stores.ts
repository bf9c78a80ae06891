/**
 * Which store the endpoints and `sitegen submissions` use: PostgreSQL when DATABASE_URL is set in the
 * environment (as container platforms and managed databases pass it), else the SQLite file of
 * `submissions.database` in site.yaml (or SUBMISSIONS_DB: submission-settings.ts). Node only:
 * an edge runtime gives createApiHandlers its own store (D1) instead.
 */
import { resolve } from "node:path";
import { checkDatabaseUrl } from "./pg-url.ts";
import { PgSubmissionStore } from "./pg-store.ts";
import { SqliteSubmissionStore } from "./sqlite-store.ts";
import type { SubmissionStore } from "./store.ts";

import { DEFAULT_DATABASE } from "./submission-settings.ts";

export type Environment = Readonly<Record<string, string | undefined>>;

export type StoreKind = "postgres" | "sqlite";

export function storeKind(env: Environment): StoreKind {
  return env.DATABASE_URL?.trim() ? "postgres" : "sqlite";
}

/**
 * The store for these settings, not yet connected: it opens and migrates on first use, or when ready() is
 * awaited. A DATABASE_URL that is no PostgreSQL URL throws a StoreError("invalid-url") at once.
 */
export function openStore(settings: { database?: string }, env: Environment, root: string): SubmissionStore {
  const url = env.DATABASE_URL?.trim();
  if (url) return new PgSubmissionStore(checkDatabaseUrl(url));
  return new SqliteSubmissionStore(sqliteFile(settings, root));
}

/** The SQLite file the settings name, absolute. */
export function sqliteFile(settings: { database?: string }, root: string): string {
  return resolve(root, settings.database || DEFAULT_DATABASE);
}
