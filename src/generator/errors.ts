import { ERRORS, type ErrorName, type ErrorParams } from "./error-catalogue.ts";

/**
 * A failure a developer can meet, thrown by name from the catalogue (error-catalogue.ts): the name is
 * searchable, the title says what kind of failure it is, the message what happened and where
 * (file:line:column, page and route, or option), the hint what to do. The CLI prints all of them and
 * exits non-zero.
 */
export class SitegenError extends Error {
  readonly title: string;
  readonly hint: string;
  /** What code that catches the error may read besides its text (EntryInvalid: each problem, entry-file.ts). */
  readonly data?: unknown;

  constructor(
    name: ErrorName,
    message: string,
    title: string,
    hint: string,
    options?: { cause?: unknown; data?: unknown },
  ) {
    super(message, options);
    this.name = name;
    this.title = title;
    this.hint = hint;
    this.data = options?.data;
  }
}

/** The catalogued error `name`, its message and hint filled from `params`. */
export function sitegenError<N extends ErrorName>(
  name: N,
  params: ErrorParams<N>,
  options?: { cause?: unknown; data?: unknown },
): SitegenError {
  const entry = ERRORS[name] as {
    title: string;
    message: (p: ErrorParams<N>) => string;
    hint: (p: ErrorParams<N>) => string;
  };
  return new SitegenError(name, entry.message(params), entry.title, entry.hint(params), options);
}

/** What the CLI prints for a failure: name and title, the message, the hint; anything uncatalogued keeps its stack. */
export function formatError(error: unknown): string {
  if (error instanceof SitegenError) {
    return `${error.name}: ${error.title}\n  ${error.message.split("\n").join("\n  ")}\n  hint: ${error.hint}`;
  }
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
