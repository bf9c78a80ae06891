/**
 * The LGPD's data-subject rights (art. 18) as commands, read and written through the site's own store
 * (PostgreSQL with DATABASE_URL, else the SQLite file):
 * - `sitegen submissions export --email <address>`: everything stored about that person, as JSON (access);
 * - `sitegen submissions delete --email <address>`: erases it, queued notifications included, and says how
 *   many rows went from each table (deletion).
 * Addresses are matched in any case, as the store compares them.
 */
import { existsSync } from "node:fs";
import { commandSite } from "./command-site.ts";
import { sitegenError } from "./errors.ts";
import { openStoreForCommand, storeModule, type Environment } from "./open-store.ts";

export type SubjectCommand = "export" | "delete";

/**
 * A plausible address: one @ with text on both sides and a dot in the domain, no white space or control
 * character. Loose on purpose: the command must reach every address the forms ever stored, and one that
 * matches nothing simply finds nothing.
 */
export function checkEmailOption(command: SubjectCommand, value: string | undefined): string {
  const email = (value ?? "").trim();
  if (email === "") throw sitegenError("SubmissionsEmailInvalid", { command, value: "" });
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(email) || /\p{Cc}/u.test(email)) throw sitegenError("SubmissionsEmailInvalid", { command, value: email });
  return email;
}

async function withStore<T>(root: string, env: Environment, work: (store: Awaited<ReturnType<typeof openStoreForCommand>>) => Promise<T>, empty: () => T): Promise<T> {
  const project = commandSite(root, env as NodeJS.ProcessEnv);
  const site = project.site;
  const api = await project.module();
  const { storeKind, sqliteFile } = storeModule(api);
  // Nothing was ever stored: there is nothing to find or erase, and no database is created for it.
  if (storeKind(env) === "sqlite" && !existsSync(sqliteFile(site.submissions, root))) return empty();
  const store = await openStoreForCommand(root, site, env, api);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Prints `{ email, newsletter: [...], contact: [...], outbox: [...] }`. */
export async function exportSubject(root: string, value: string | undefined, env: Environment = process.env): Promise<void> {
  const email = checkEmailOption("export", value);
  const found = await withStore(root, env, (store) => store.findByEmail(email), () => ({ newsletter: [], contact: [], outbox: [] }));
  console.log(JSON.stringify({ email, ...found }, null, 2));
}

export async function deleteSubject(root: string, value: string | undefined, env: Environment = process.env): Promise<Record<string, number>> {
  const email = checkEmailOption("delete", value);
  const removed = await withStore(root, env, (store) => store.deleteByEmail(email), () => ({ newsletter: 0, contact: 0, outbox: 0 }));
  const total = Object.values(removed).reduce((a, b) => a + b, 0);
  // The submissions first, then their notifications; any table a store adds, after them.
  const order = ["newsletter", "contact", "outbox"];
  const perTable = Object.entries(removed)
    .sort(([a], [b]) => (order.indexOf(a) + 1 || order.length + 1) - (order.indexOf(b) + 1 || order.length + 1))
    .map(([table, n]) => `${table}: ${n} ${n === 1 ? "row" : "rows"}`)
    .join(", ");
  console.log(total === 0 ? `Nothing is stored about ${email}; nothing was erased.` : `Erased everything stored about ${email} (LGPD art. 18): ${perTable}.`);
  return removed;
}
