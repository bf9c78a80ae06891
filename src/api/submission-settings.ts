/**
 * site.yaml's `submissions` block: where the forms store and how they guard against abuse and keep data.
 * The generator passes the block through as written; the endpoints, the commands and the deploy targets'
 * routes read it here, validated, with two environment overrides for one run (SUBMISSIONS_DB and
 * SUBMISSIONS_RATE_LIMIT), so a test or a load test needs no edited site.yaml. Web-standard: the edge
 * runtimes read it too.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface SubmissionSettings {
  /** The SQLite file, relative to the project folder (DATABASE_URL, when set, takes PostgreSQL instead). */
  database: string;
  /** Accepted submissions per client per minute before the endpoints answer 429. */
  rateLimitPerMinute: number;
  /** Take the client's address from X-Forwarded-For (behind a proxy the operator runs). */
  trustProxy: boolean;
  /** Forms sent sooner than this after the first keystroke are stored marked suspect. */
  minFillSeconds: number;
  /** Contact messages older than this many days are erased on start and daily; absent: kept until deleted. */
  retentionDays?: number;
  /** Newsletter signups wait for the subscriber to confirm through an e-mailed link (opt-in.ts). */
  doubleOptIn?: boolean;
  /** Days a signup may stay unconfirmed before it is erased (default 7). */
  unconfirmedDays?: number;
}

export const DEFAULT_DATABASE = ".data/submissions.db";
const DEFAULT_RATE_LIMIT = 5;
const DEFAULT_MIN_FILL_SECONDS = 2;

/** A field of site.yaml that cannot work; `field` names it (describeError shows it as ConfigInvalid). */
export class SiteSettingError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`content/site.yaml, \`${field}\`: ${problem}`);
    this.name = "SiteSettingError";
  }
}

/**
 * The settings of `site.submissions`, defaults filled in and the overrides of `env` applied. Throws a
 * SiteSettingError for a value that cannot work.
 */
export function submissionSettings(site: Readonly<Record<string, unknown>>, env: Environment): SubmissionSettings {
  const value = (site.submissions ?? {}) as Partial<Record<keyof SubmissionSettings, unknown>>;
  if (typeof value !== "object" || Array.isArray(value))
    throw new SiteSettingError("submissions", "must be a mapping of settings.");
  const limit = Number(env.SUBMISSIONS_RATE_LIMIT ?? value.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT);
  const retention = value.retentionDays;
  if (
    retention !== undefined &&
    retention !== null &&
    !(typeof retention === "number" && Number.isFinite(retention) && retention > 0)
  ) {
    // Zero would erase every submission at start: refused rather than guessed at.
    throw new SiteSettingError(
      "submissions.retentionDays",
      `${JSON.stringify(retention)} is not a positive number of days ` +
        "(leave it out to keep submissions until they are deleted).",
    );
  }
  const unconfirmed = value.unconfirmedDays;
  if (
    unconfirmed !== undefined &&
    unconfirmed !== null &&
    !(typeof unconfirmed === "number" && Number.isFinite(unconfirmed) && unconfirmed > 0)
  ) {
    throw new SiteSettingError(
      "submissions.unconfirmedDays",
      `${JSON.stringify(unconfirmed)} is not a positive number of days.`,
    );
  }
  return {
    database: env.SUBMISSIONS_DB ?? (typeof value.database === "string" ? value.database : DEFAULT_DATABASE),
    rateLimitPerMinute: Number.isFinite(limit) && limit > 0 ? limit : DEFAULT_RATE_LIMIT,
    trustProxy: value.trustProxy === true,
    minFillSeconds: Number(value.minFillSeconds ?? DEFAULT_MIN_FILL_SECONDS),
    ...(typeof retention === "number" ? { retentionDays: retention } : {}),
    ...(value.doubleOptIn === true ? { doubleOptIn: true } : {}),
    ...(typeof unconfirmed === "number" ? { unconfirmedDays: unconfirmed } : {}),
  };
}
