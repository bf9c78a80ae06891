/**
 * `sitegen submissions [--type newsletter|contact] [--format csv|json]`: prints what the forms stored, oldest
 * first, read through the store the endpoints write (PostgreSQL with DATABASE_URL, else the SQLite file),
 * each row with the state of its notifications. CSV by default, both types (one table with a `type`
 * column); JSON is an array for one type and `{ newsletter: [...], contact: [...] }` for both.
 */
import { relative } from "node:path";
import type { CommandContext } from "../../generator/plugin.ts";
import { FORM_KINDS, type FormKind } from "../forms.ts";
import type { Environment } from "../stores.ts";
import { withStore } from "./store.ts";

export const SUBMISSION_FORMATS = ["csv", "json"] as const;

/**
 * Each row's notifications (store.ts, Delivery): none, pending, failing, delivered or refused, with tries and
 * last error.
 */
const DELIVERY = ["delivery", "delivery_attempts", "delivery_error"];
/** When the mail server refused a subscriber's address for good, and its reply (nothing more is sent to it). */
const BOUNCE = ["bounced_at", "bounce_reason"];
/** Columns per table, in output order (the database's own names). */
const COLUMNS: Record<FormKind, string[]> = {
  newsletter: ["id", "email", "locale", "created_at", "suspect", "confirmed_at", ...DELIVERY, ...BOUNCE],
  contact: [
    "id",
    "first_name",
    "last_name",
    "email",
    "company",
    "message",
    "locale",
    "created_at",
    "suspect",
    ...DELIVERY,
  ],
};
/** Both tables in one CSV: a `type` column, then every column of either table. */
const COMBINED_COLUMNS = [
  "type",
  "id",
  "created_at",
  "locale",
  "email",
  "first_name",
  "last_name",
  "company",
  "message",
  "suspect",
  ...DELIVERY,
  "confirmed_at",
  ...BOUNCE,
];

type Row = Record<string, string | number | null>;

/**
 * One CSV field (RFC 4180), quoted when it holds a comma, semicolon, tab, quote or line break (quotes
 * doubled) or starts or ends with a space, and guarded against formula injection: an apostrophe goes before
 * a leading = + - @ tab or CR, so an exported contact message cannot run in Excel or Sheets (use --format
 * json for the exact stored text).
 *
 * The guard also goes after every semicolon, tab and line break inside the text, because a reader may cut
 * cells there that this file does not: Excel in Brazilian Portuguese splits on ";", and it honours quotes
 * only at the start of a cell it cut, so `1,"x;=1+1;y"` would give it a cell `=1+1`, and a quoted line
 * break mid-row would start a new row with whatever follows it.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string") text = text.replace(/(^|[;\t\r\n])(?=[=+\-@\t\r])/g, "$1'");
  return /[",;\t\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(columns: string[], rows: Row[]): string {
  return [columns.join(","), ...rows.map((row) => columns.map((c) => csvField(row[c])).join(","))].join("\n");
}

export async function printSubmissions(
  context: CommandContext,
  opts: { type?: string; format?: string },
  env: Environment = process.env,
): Promise<void> {
  const format = (opts.format ?? "csv").toLowerCase();
  if (!(SUBMISSION_FORMATS as readonly string[]).includes(format)) {
    throw context.error({
      name: "OptionValueInvalid",
      params: { option: "format", value: opts.format ?? "", valid: SUBMISSION_FORMATS, meaning: "an output format" },
    });
  }
  const type = opts.type?.toLowerCase();
  if (type !== undefined && !(FORM_KINDS as readonly string[]).includes(type)) {
    const params = {
      option: "type",
      value: opts.type ?? "",
      valid: FORM_KINDS,
      meaning: "a submission type",
      omitted: "for both",
    };
    throw context.error({ name: "OptionValueInvalid", params });
  }
  const types = type ? [type as FormKind] : [...FORM_KINDS];

  const data = await withStore(
    context,
    env,
    async (store) => {
      const rows = {} as Record<FormKind, Row[]>;
      for (const t of types) rows[t] = (await store.list(t)) as unknown as Row[];
      return rows;
    },
    (file) => {
      // Listing creates no database: that is the first submission's job.
      const shown = relative(context.root, file) || file;
      console.error(
        `No submissions stored yet: ${shown} does not exist ` +
          "(it is created by the first form sent through sitegen serve).",
      );
      return undefined;
    },
  );
  if (!data) return;
  if (format === "json") {
    console.log(JSON.stringify(types.length === 1 ? data[types[0]] : data, null, 2));
  } else if (types.length === 1) {
    console.log(csv(COLUMNS[types[0]], data[types[0]]));
  } else {
    const rows = types.flatMap((t) => data[t].map((row) => ({ type: t, ...row })));
    console.log(csv(COMBINED_COLUMNS, rows));
  }
}
