/**
 * How far a long build has got, for a developer watching a terminal: one line, rewritten in place, naming
 * the stage that runs and its count ("Rendering pages 4,000 of 20,000 (20 %)"). A build calls `step` as it
 * goes, whatever its size; the line appears only once the build has run for a moment, so a short build
 * prints its summary alone, and never where the output is not a terminal (CI logs, pipes), whose readers
 * get the summary only. `clear` removes the line before anything else is printed.
 */
export interface Progress {
  step(stage: string, done: number, total: number): void;
  clear(): void;
}

/** What a build reports to when nobody watches (tests, sitegen serve's rebuilds, output that is not a terminal). */
export const NO_PROGRESS: Progress = { step() {}, clear() {} };

/** What terminalProgress writes to: a terminal tells its width, so the line never wraps. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressTiming {
  /** How long a build runs before the line appears. */
  delayMs: number;
  /** How often the line is written again, at most. */
  everyMs: number;
  now(): number;
}

const TIMING: ProgressTiming = { delayMs: 400, everyMs: 100, now: () => performance.now() };

/** Back to the line's start, and the line erased (ANSI). */
const ERASE = "\r\x1b[2K";

/** A count as the CLI writes numbers, its thousands grouped with commas (20,000). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A Progress that writes to `stream` when it is a terminal, NO_PROGRESS otherwise. */
export function terminalProgress(stream: ProgressStream, timing: Partial<ProgressTiming> = {}): Progress {
  if (!stream.isTTY) return NO_PROGRESS;
  const { delayMs, everyMs, now } = { ...TIMING, ...timing };
  const started = now();
  let written = -Infinity;
  let shown = false;
  return {
    step(stage, done, total) {
      const at = now();
      // The last step of a stage is written too, so that the line never stays short of the total.
      if (at - started < delayMs || (at - written < everyMs && done < total)) return;
      written = at;
      const share = total > 0 ? ` (${Math.floor((100 * done) / total)} %)` : "";
      const line = `${stage} ${grouped(done)} of ${grouped(total)}${share}`;
      // A terminal that does not tell its width (0) is taken as 80 columns wide.
      stream.write(ERASE + line.slice(0, (stream.columns || 80) - 1));
      shown = true;
    },
    clear() {
      if (shown) stream.write(ERASE);
      shown = false;
    },
  };
}

/** The items of `items` as they come, each counted to `progress` as the stage's next one of `total`. */
export function* counted<T>(items: Iterable<T>, progress: Progress, stage: string, total: number): Generator<T> {
  let done = 0;
  for (const item of items) {
    yield item;
    progress.step(stage, ++done, total);
  }
}
