/**
 * The forms' submissions in the browser tests: where the web server stores them (playwright.config.ts), a
 * submission read back, and the forms' minimum fill time passed without sleeping.
 */
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { openSqlite } from "../../src/api/sqlite-driver.ts";
import { submissionSettings } from "../../src/api/submission-settings.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { ROOT } from "../helpers.ts";

/** The web server's own database, which playwright.config.ts hands it in SUBMISSIONS_DB. */
export const SUBMISSIONS_DB = join(ROOT, "node_modules", ".cache", "sitegen", "e2e-submissions.db");

/** The suspect mark of each stored submission from `email`: 1 if it came sooner than the minimum fill time. */
export function suspectMarks(table: "newsletter" | "contact", email: string): number[] {
  const db = openSqlite(SUBMISSIONS_DB, { readonly: true });
  try {
    return db
      .prepare(`SELECT suspect FROM ${table} WHERE email = ?`)
      .all(email)
      .map((row) => (row as { suspect: number }).suspect);
  } finally {
    db.close();
  }
}

/** site.yaml's submissions.minFillSeconds, and a tenth of a second more. */
const FILL_MS = submissionSettings(loadSiteConfig(ROOT), {}).minFillSeconds * 1000 + 100;

/**
 * The endpoints store a form sent sooner than the minimum fill time after the visitor first touched it
 * marked suspect, judging the page's clock (the form's startedAt) by their own (src/api/forms.ts). Called
 * before the page loads, this starts the page's clock that long behind the real one, so the form is touched
 * "earlier"; `fillTimeTaken` then moves the page's clock forward to the real time before the form is sent,
 * as if the visitor had spent that long on it.
 */
export async function clockBehindByFillTime(page: Page): Promise<void> {
  await page.clock.install({ time: Date.now() - FILL_MS });
}

export async function fillTimeTaken(page: Page): Promise<void> {
  await page.clock.fastForward(FILL_MS);
}
