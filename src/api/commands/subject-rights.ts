/**
 * The LGPD's data-subject rights (art. 18) as commands, read and written through the site's own store
 * (PostgreSQL with DATABASE_URL, else the SQLite file):
 * - `sitegen submissions export --email <address>`: everything stored about that person, as JSON (access);
 * - `sitegen submissions delete --email <address>`: erases it, queued notifications included, and says how
 *   many rows went from each table (deletion).
 * Addresses are matched in any case, as the store compares them.
 */
import type { CommandContext } from "../../generator/plugin.ts";
import type { Environment } from "../stores.ts";
import { withStore } from "./store.ts";

/**
 * A plausible address: one @ with text on both sides and a dot in the domain, no white space or control
 * character. Loose on purpose: the command must reach every address the forms ever stored, and one that
 * matches nothing simply finds nothing. `command` names it in the error ("submissions export"), and `action`
 * says what it does with the person's data ("prints").
 */
export function checkEmailOption(
  context: CommandContext,
  command: string,
  action: string,
  value: string | undefined,
): string {
  const email = (value ?? "").trim();
  const invalid = (shown: string) =>
    context.error({ name: "EmailOptionInvalid", params: { command, value: shown, action } });
  if (email === "") throw invalid("");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(email) || /\p{Cc}/u.test(email)) throw invalid(email);
  return email;
}

/**
 * Prints `{ email, newsletter: [...], contact: [...], issues: [...], outbox: [...] }`: `issues` are the
 * newsletter issues queued for the address (issue id, day, locale, articles, subject, when sent or refused).
 */
export async function exportSubject(
  context: CommandContext,
  value: string | undefined,
  env: Environment = process.env,
): Promise<void> {
  const email = checkEmailOption(context, "submissions export", "prints", value);
  // Nothing was ever stored: there is nothing to find, and no database is created for it.
  const found = await withStore(
    context,
    env,
    (store) => store.findByEmail(email),
    () => ({ newsletter: [], contact: [], issues: [], outbox: [] }),
  );
  const { newsletter, contact, issues, outbox } = found;
  console.log(JSON.stringify({ email, newsletter, contact, issues, outbox }, null, 2));
}

export async function deleteSubject(
  context: CommandContext,
  value: string | undefined,
  env: Environment = process.env,
): Promise<Record<string, number>> {
  const email = checkEmailOption(context, "submissions delete", "erases", value);
  const removed: Record<string, number> = await withStore(
    context,
    env,
    (store) => store.deleteByEmail(email),
    () => ({ newsletter: 0, contact: 0, outbox: 0 }),
  );
  const total = Object.values(removed).reduce((a, b) => a + b, 0);
  // The submissions first, then their notifications; any table a store adds, after them.
  const order = ["newsletter", "contact", "outbox"];
  const perTable = Object.entries(removed)
    .sort(([a], [b]) => (order.indexOf(a) + 1 || order.length + 1) - (order.indexOf(b) + 1 || order.length + 1))
    .map(([table, n]) => `${table}: ${n} ${n === 1 ? "row" : "rows"}`)
    .join(", ");
  console.log(
    total === 0
      ? `Nothing is stored about ${email}; nothing was erased.`
      : `Erased everything stored about ${email} (LGPD art. 18): ${perTable}.`,
  );
  return removed;
}
