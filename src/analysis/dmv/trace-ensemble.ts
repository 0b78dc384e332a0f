import type { RunProfile } from '../ensemble/ensemble-runs';
import type { TimeWindow } from '../timeline/timeline-index';
import { CLOCK_SECTORS, dmvClock, type BinSource, type DmvClock } from './clock';
import { DmvIndex, type DmvIndexOptions } from './dmv-index';

/**
 * DMV's ensemble view (thesis §7.4, view G): a grid of clock glyphs, one per run, with the run's
 * runtime percentile as the inner disc and runtime and bytes as labels. **Sort** orders the runs by
 * runtime (fastest first); **Compare** gives every clock the same sector width, the longest run / 12,
 * with each run's time taken from its own start, so shorter runs fill fewer hours.
 */

/** What the grid keeps of a run: its binnable series (not its event table), name and totals. */
export interface DmvRunDigest extends BinSource {
  name: string;
  path: string;
  range: TimeWindow;
  /** ns. */
  runtime: number;
}

/** A run reduced to what its clock needs; the index (and the trace's event table) can then be dropped. */
export function digestRun(index: DmvIndex, name: string): DmvRunDigest {
  return {
    name,
    path: index.profile.path,
    range: index.range,
    runtime: index.runtime,
    classUnions: index.classUnions,
    deviceBusy: index.deviceBusy,
    hostBusy: index.hostBusy,
    copyClass: index.copyClass,
    copyIndex: index.copyIndex,
    trace: { dataMovement: index.trace.dataMovement, pageFaults: index.trace.pageFaults },
  };
}

/** Digests of loaded runs (an ensemble folder); runs without a timeline are an error naming them. */
export function digestRuns(runs: readonly RunProfile[], options: DmvIndexOptions = {}): DmvRunDigest[] {
  const untimed = runs.filter(r => !r.profile.trace);
  if (untimed.length)
    throw new Error(
      `a trace ensemble needs traces; ${untimed.map(r => `${r.run.name} (${r.profile.format})`).join(', ')} ${untimed.length === 1 ? 'has' : 'have'} no timeline`,
    );
  return runs.map(r => digestRun(new DmvIndex(r.profile, { rules: options.rules }), r.run.name));
}

export interface GridRun {
  name: string;
  path: string;
  /** ns. */
  runtime: number;
  /** Explicit copy bytes. */
  bytes: number;
  /**
   * Where the run's runtime ranks in the ensemble, in [0, 1]: 0 the fastest, 1 the slowest (ties share
   * their mean rank). The inner disc's colour.
   */
  percentile: number;
  clock: DmvClock;
}

export interface ClockGrid {
  mode: 'own' | 'compare';
  /** The common sector width in compare mode (ns), else null (each clock spans its own run). */
  sectorWidth: number | null;
  /** In the order asked for: the given order, or by runtime when sorted. */
  runs: GridRun[];
}

export interface ClockGridOptions {
  mode?: 'own' | 'compare';
  /** Order by runtime, fastest first (the Sort button). */
  sort?: boolean;
}

/** The grid of clocks of at least 2 runs. */
export function clockGrid(digests: readonly DmvRunDigest[], options: ClockGridOptions = {}): ClockGrid {
  if (digests.length < 2)
    throw new Error(
      `a trace ensemble needs at least 2 traces, ${digests.length === 1 ? `only ${digests[0]!.name} was given` : 'none were given'}`,
    );
  const mode = options.mode ?? 'own';
  const longest = Math.max(...digests.map(d => d.runtime));
  const width = mode === 'compare' ? longest / CLOCK_SECTORS : null;
  const sorted = digests.map(d => d.runtime).sort((a, b) => a - b);
  const rank = (rt: number) => {
    let below = 0,
      equal = 0;
    for (const r of sorted) {
      if (r < rt) below++;
      else if (r === rt) equal++;
    }
    return (below + (equal - 1) / 2) / (sorted.length - 1);
  };
  let runs = digests.map(d => {
    const clock = dmvClock(d, d.range, width !== null ? { sectorWidth: width } : {});
    return { name: d.name, path: d.path, runtime: d.runtime, bytes: clock.bytes, percentile: rank(d.runtime), clock };
  });
  if (options.sort)
    runs = runs
      .map((r, i) => ({ r, i }))
      .sort((a, b) => a.r.runtime - b.r.runtime || a.i - b.i)
      .map(x => x.r);
  return { mode, sectorWidth: width, runs };
}
