/**
 * Latency budgets for progressive methods (thesis §6.2: "return the best result within a latency
 * budget"). Time comes from an injectable clock so that tests can drive the bookkeeping without
 * measuring real time.
 */

/** Milliseconds from an arbitrary origin. */
export type Clock = () => number;

/** The process's monotonic clock. */
export const systemClock: Clock = () => performance.now();

export class TimeBudget {
  readonly started: number;
  /** Cost of the most expensive unit of work recorded so far (ms): the estimate for the next one. */
  private unitCost = 0;
  private mark: number;

  constructor(
    /** The budget in milliseconds (Infinity for none). */
    readonly limitMs: number,
    readonly clock: Clock = systemClock,
  ) {
    if (!(limitMs >= 0)) throw new RangeError(`a time budget must be ≥ 0 ms, got ${limitMs}`);
    this.started = clock();
    this.mark = this.started;
  }

  elapsed(): number {
    return this.clock() - this.started;
  }

  remaining(): number {
    return this.limitMs - this.elapsed();
  }

  /**
   * Whether another unit of work fits: the remaining time must cover the costliest unit seen so far
   * plus `reserveMs` (work that must still run after the loop, such as assigning every entity), so
   * that a progressive loop ends within its budget instead of one unit past it.
   */
  allowsAnother(reserveMs = 0): boolean {
    return this.remaining() >= this.unitCost + reserveMs;
  }

  /** Starts timing units of work (setup before the loop then does not count as a unit). */
  startLaps(): void {
    this.mark = this.clock();
  }

  /**
   * Ends a unit of work; returns its cost (ms): the time since the previous lap, or since
   * {@link startLaps} or the budget began, so the loop's own checks are part of each unit.
   */
  lap(): number {
    const now = this.clock();
    const cost = now - this.mark;
    this.mark = now;
    if (cost > this.unitCost) this.unitCost = cost;
    return cost;
  }

  /** The costliest unit so far (ms). */
  get estimatedUnitCost(): number {
    return this.unitCost;
  }
}

/** A clock that advances by `stepMs` on each reading (a fake for tests of budget bookkeeping). */
export function steppingClock(stepMs: number, start = 0): Clock & { now: number } {
  const clock = (() => {
    const t = clock.now;
    clock.now += stepMs;
    return t;
  }) as Clock & { now: number };
  clock.now = start;
  return clock;
}
