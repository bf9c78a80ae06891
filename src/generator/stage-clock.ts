/**
 * The time each stage took, in the order they ran; a stage run inside another (rendering, inside the writing) apart.
 */
export class StageClock {
  readonly timings: Record<string, number> = {};
  private readonly started = performance.now();
  private mark = this.started;
  private inner = 0;

  lap(stage: string): void {
    const now = performance.now();
    this.timings[stage] = now - this.mark - this.inner;
    this.mark = now;
    this.inner = 0;
  }

  /** Each item of the sequence as it is asked for, the time spent making it counted as `stage`'s. */
  *timed<T>(stage: string, items: Iterable<T>): Generator<T> {
    const iterator = items[Symbol.iterator]();
    for (;;) {
      const started = performance.now();
      const next = iterator.next();
      this.add(stage, performance.now() - started);
      if (next.done) return;
      yield next.value;
    }
  }

  /** Time spent on `stage` inside another stage. */
  add(stage: string, ms: number): void {
    this.timings[stage] = (this.timings[stage] ?? 0) + ms;
    this.inner += ms;
  }

  total(): number {
    return performance.now() - this.started;
  }
}
