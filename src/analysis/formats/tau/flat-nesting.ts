/**
 * Recovers who-calls-whom for a TAU profile written without TAU_CALLPATH, where every timer is
 * flat. TAU's numbers constrain the nesting tightly: a timer's children account for exactly its
 * `Subrs` (their `Calls` add up to it) and for exactly `Incl − Excl` of every metric (their
 * inclusive values add up to it). TAU creates a timer when it is first entered, so a parent is
 * listed before its children.
 *
 * The search assigns each timer, in file order, to an earlier timer with room left (the most recent
 * first, which is the call stack's order) or makes it a top-level timer, backtracking on dead ends.
 * It succeeds only if every budget ends exactly used up, so an answer is a nesting that reproduces
 * every inclusive value and every Subrs count of the file. A timer called from two places, or
 * recursively, has no such nesting: then it fails, as it does when the search gets too long.
 */

export interface FlatTimers {
  count: number;
  calls: Float64Array;
  subrs: Float64Array;
  /** Per metric, per timer. */
  exclusive: Float64Array[];
  inclusive: Float64Array[];
}

export interface NestingOptions {
  /** Placement attempts before giving up (default 200 000 + 200 per timer). */
  maxSteps?: number;
}

/** Parent index per timer (-1 for top-level timers), or null when no exact nesting was found. */
export function inferNesting(t: FlatTimers, options: NestingOptions = {}): Int32Array | null {
  const n = t.count;
  const metrics = t.exclusive.length;
  const maxSteps = options.maxSteps ?? 200_000 + 200 * n;
  // Times are sums of printed decimals: allow rounding at 1e-9 of the thread's total.
  const tol = new Float64Array(metrics);
  for (let m = 0; m < metrics; m++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += Math.abs(t.exclusive[m]![i]!);
    tol[m] = 1e-9 * Math.max(1, total);
  }

  const callBudget = Float64Array.from(t.subrs);
  const timeBudget = t.exclusive.map((e, m) => {
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) b[i] = t.inclusive[m]![i]! - e[i]!;
    return b;
  });
  for (let i = 0; i < n; i++) {
    for (let m = 0; m < metrics; m++) {
      const b = timeBudget[m]![i]!;
      // Negative room, or time in children without any calls to children: no nesting exists.
      if (b < -tol[m]! || (t.subrs[i] === 0 && b > tol[m]!)) return null;
    }
  }

  // What the timers after position i can still supply, to prune budgets that cannot be filled.
  const callsAfter = new Float64Array(n + 1);
  const inclAfter = t.inclusive.map(() => new Float64Array(n + 1));
  for (let i = n - 1; i >= 0; i--) {
    callsAfter[i] = callsAfter[i + 1]! + t.calls[i]!;
    for (let m = 0; m < metrics; m++) inclAfter[m]![i] = inclAfter[m]![i + 1]! + t.inclusive[m]![i]!;
  }
  let openCalls = 0;
  const openTime = new Float64Array(metrics);

  const parent = new Int32Array(n).fill(-1);
  /** Timers placed so far that still have room for children, in file order. */
  const open: number[] = [];
  /** Per level: the next position in `open` to try (counting down), -1 for "top level", -2 when exhausted. */
  const cursor = new Int32Array(n + 1);
  /** Per level: where the chosen parent sat in `open` if it was closed by the placement, else -1. */
  const closedAt = new Int32Array(n).fill(-1);
  const pushed = new Uint8Array(n);

  const fits = (j: number, i: number): boolean => {
    if (callBudget[j]! < t.calls[i]!) return false;
    for (let m = 0; m < metrics; m++) if (timeBudget[m]![j]! < t.inclusive[m]![i]! - tol[m]!) return false;
    return true;
  };
  const place = (i: number, q: number): void => {
    const j = q >= 0 ? open[q]! : -1;
    parent[i] = j;
    if (j >= 0) {
      callBudget[j]! -= t.calls[i]!;
      openCalls -= t.calls[i]!;
      for (let m = 0; m < metrics; m++) {
        timeBudget[m]![j]! -= t.inclusive[m]![i]!;
        openTime[m]! -= t.inclusive[m]![i]!;
      }
      if (callBudget[j] === 0) {
        open.splice(q, 1);
        closedAt[i] = q;
      }
    }
    if (t.subrs[i]! > 0) {
      open.push(i);
      pushed[i] = 1;
      openCalls += t.subrs[i]!;
      for (let m = 0; m < metrics; m++) openTime[m]! += timeBudget[m]![i]!;
    }
  };
  const unplace = (i: number): void => {
    if (pushed[i]) {
      open.pop();
      pushed[i] = 0;
      openCalls -= t.subrs[i]!;
      for (let m = 0; m < metrics; m++) openTime[m]! -= timeBudget[m]![i]!;
    }
    const j = parent[i]!;
    if (j >= 0) {
      if (closedAt[i]! >= 0) {
        open.splice(closedAt[i]!, 0, j);
        closedAt[i] = -1;
      }
      callBudget[j]! += t.calls[i]!;
      openCalls += t.calls[i]!;
      for (let m = 0; m < metrics; m++) {
        timeBudget[m]![j]! += t.inclusive[m]![i]!;
        openTime[m]! += t.inclusive[m]![i]!;
      }
    }
    parent[i] = -1;
  };
  const feasibleAfter = (i: number): boolean => {
    // A parent whose calls are all accounted for must have its time accounted for too.
    if (closedAt[i]! >= 0) {
      for (let m = 0; m < metrics; m++) if (Math.abs(timeBudget[m]![parent[i]!]!) > tol[m]!) return false;
    }
    if (openCalls > callsAfter[i + 1]!) return false;
    for (let m = 0; m < metrics; m++) if (openTime[m]! > inclAfter[m]![i + 1]! + tol[m]! * n) return false;
    return true;
  };

  let steps = 0;
  let i = 0;
  cursor[0] = -1; // the first timer can only be top level
  while (i >= 0) {
    if (i === n) {
      if (open.length === 0 && allUsed(timeBudget, tol)) return parent;
      i--;
      unplace(i);
      continue;
    }
    let placed = false;
    while (cursor[i]! >= -1) {
      const q = cursor[i]!;
      cursor[i] = q - 1;
      if (q >= 0 && !fits(open[q]!, i)) continue;
      if (++steps > maxSteps) return null;
      place(i, q);
      if (feasibleAfter(i)) {
        placed = true;
        break;
      }
      unplace(i);
    }
    if (placed) {
      i++;
      if (i < n) cursor[i] = open.length - 1;
      continue;
    }
    i--;
    if (i >= 0) unplace(i);
  }
  return null;
}

function allUsed(timeBudget: Float64Array[], tol: Float64Array): boolean {
  for (let m = 0; m < timeBudget.length; m++) {
    for (const b of timeBudget[m]!) if (Math.abs(b) > tol[m]!) return false;
  }
  return true;
}
