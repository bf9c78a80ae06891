/**
 * Every failure a developer can meet has a name (searchable), a message (what happened, where) and a hint
 * (what to do). The CLI prints all three and exits non-zero.
 */
export class SitegenError extends Error {
  readonly hint?: string;
  constructor(name: string, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
    this.hint = hint;
  }
}

export function formatError(error: unknown): string {
  if (error instanceof SitegenError) {
    return `${error.name}: ${error.message}${error.hint ? `\n  hint: ${error.hint}` : ""}`;
  }
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
