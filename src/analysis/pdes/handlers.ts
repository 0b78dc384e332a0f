import { entityOfLp } from './model/entities';
import type { TickRange } from './analysis-options';
import { formatCount } from '../stats/format';
import { lpsOfEntities, lpTypeTable } from './lp-types';
import { METRIC } from './model/metrics';
import type { PdesAnalysis } from './pdes-analysis';
import type { PdesRun } from './model/pdes-run';
import { traceScope } from './segments';

/**
 * From PDES entities to the model code that processes their events (seed digest §5.3 item 8): the
 * setting `hpcLens.pdes.handlers` maps each LP type to its event handlers in the model's source, and
 * {@link handlerActivity} says, for the selected entities, how many events each LP type processed
 * and rolled back — what the CodeLens above the forward and reverse handlers shows.
 */

/** One LP type's handlers (ROSS `tw_lptype`: the `event_f` and `revent_f` of the type). */
export interface PdesHandlerSource {
  /** The source file: a path relative to a workspace folder, an absolute path, or a workspace glob pattern. */
  file: string;
  /** The forward event handler: its CodeLens shows the events processed. */
  forward: string;
  /** The reverse-computation handler: its CodeLens shows the events rolled back. */
  reverse?: string;
}

/** `hpcLens.pdes.handlers`: LP type name (as `LPGROUPS` names it, or the ROSS program's name) → handlers. */
export type PdesHandlerMap = Record<string, PdesHandlerSource>;

/**
 * Defaults: CODES dragonfly-dally's terminal and router LP types (`dragonfly-dally.C`) and ROSS's
 * PHOLD model (`models/phold/phold.c`, `phold_event_handler` / `phold_event_handler_rc`).
 */
export const DEFAULT_PDES_HANDLERS: Readonly<PdesHandlerMap> = Object.freeze({
  modelnet_dragonfly_dally: {
    file: '**/src/networks/model-net/dragonfly-dally.C',
    forward: 'terminal_dally_event',
    reverse: 'terminal_dally_rc_event_handler',
  },
  modelnet_dragonfly_dally_router: {
    file: '**/src/networks/model-net/dragonfly-dally.C',
    forward: 'router_dally_event',
    reverse: 'router_dally_rc_event_handler',
  },
  phold: { file: '**/models/phold/phold.c', forward: 'phold_event_handler', reverse: 'phold_event_handler_rc' },
});

/**
 * The handler map the setting asks for: the defaults, with the user's entries added or replacing
 * them by LP type (an entry set to null removes a default). Malformed entries are skipped and each
 * named in `problems`.
 */
export function resolveHandlers(setting: unknown): { handlers: PdesHandlerMap; problems: string[] } {
  const handlers: PdesHandlerMap = { ...DEFAULT_PDES_HANDLERS };
  const problems: string[] = [];
  if (setting === undefined || setting === null) return { handlers, problems };
  if (typeof setting !== 'object' || Array.isArray(setting))
    return { handlers, problems: ['hpcLens.pdes.handlers must map LP type names to { file, forward, reverse? }'] };
  for (const [type, entry] of Object.entries(setting as Record<string, unknown>)) {
    if (entry === null) {
      delete handlers[type];
      continue;
    }
    const e = entry as Partial<PdesHandlerSource> | undefined;
    const ok =
      e &&
      typeof e === 'object' &&
      typeof e.file === 'string' &&
      e.file.length > 0 &&
      typeof e.forward === 'string' &&
      e.forward.length > 0 &&
      (e.reverse === undefined || typeof e.reverse === 'string');
    if (!ok) {
      problems.push(
        `hpcLens.pdes.handlers["${type}"] needs a "file" and a "forward" handler name (and optionally "reverse")`,
      );
      continue;
    }
    handlers[type] = { file: e.file!, forward: e.forward!, ...(e.reverse ? { reverse: e.reverse } : {}) };
  }
  return { handlers, problems };
}

/** Where a count came from, best first. */
export type ProcessedSource = 'LP samples' | 'event trace' | 'LP statistics';
export type RolledBackSource = 'LP samples' | 'rollback trace' | 'KP samples';

/** One LP type's activity among the selected entities' LPs: what the handler CodeLenses show. */
export interface HandlerActivity {
  lpType: string;
  /** LPs of this type held by the selected entities. */
  lps: number;
  eventsProcessed: number;
  processedSource: ProcessedSource;
  /**
   * Events rolled back (LP samples); or, with a rollback-only trace, the stragglers these LPs
   * received (each caused a primary rollback); or the KPs' rolled-back events shared out over their
   * LPs by events processed (an estimate). Null when the run has none of these.
   */
  eventsRolledBack: number | null;
  rolledBackSource: RolledBackSource | null;
  /** The configured handlers of the type (null when `hpcLens.pdes.handlers` has none). */
  handler: PdesHandlerSource | null;
  /** CodeLens titles for the forward and the reverse handler. */
  forwardTitle: string;
  reverseTitle: string | null;
  /** The counts cover the whole run although a narrower range was asked (LP statistics only). */
  wholeRun: boolean;
}

/** What the handler counts are computed over: a behaviour (level, axis and samples) and a range of its samples. */
export type HandlerScope = Pick<PdesAnalysis, 'behaviour' | 'range'>;

/**
 * Events processed and rolled back by every LP over `range` of the scope's time axis (the whole
 * run without a scope, i.e. when the run has no samples), from the best source the run has (see {@link ProcessedSource}, {@link RolledBackSource}); null when it has
 * none. The handler CodeLenses and the editor profile of a PDES run both add these up.
 */
export interface LpHandlerCounts {
  /** Per LP index of `run.entities`. */
  processed: Float64Array;
  rolledBack: Float64Array;
  processedSource: ProcessedSource;
  rolledBackSource: RolledBackSource | null;
  /** The counts cover the whole run although a narrower range was asked (LP statistics only). */
  wholeRun: boolean;
}

export function lpHandlerCounts(
  run: PdesRun,
  scope: HandlerScope | null,
  range: TickRange | undefined = scope?.range,
): LpHandlerCounts | null {
  const b = scope?.behaviour;
  const e = run.entities;
  const nLp = e.count('lp');
  const whole = !b || !range || (range.from === 0 && range.to === b.ticks);
  const processed = new Float64Array(nLp);
  const rolledBack = new Float64Array(nLp);
  let processedSource: ProcessedSource | null = null;
  let rolledBackSource: RolledBackSource | null = null;
  let wholeRun = false;
  const lpTable = b?.samples.lp;
  const trace = run.eventTrace;
  const traced = traceScope(run);
  // Events by receiving LP within the range, on the axis' clock.
  const received = () => {
    const counts = new Float64Array(nLp);
    const lookup = e.lpLookup('lp');
    const { dst } = trace!.columns;
    const time = trace!.times(b?.eventAxis ?? 'receive');
    const lo = whole || range!.from === 0 ? -Infinity : b!.edgeTimes[range!.from - 1]!;
    const hi = whole ? Infinity : b!.edgeTimes[range!.to - 1]!;
    for (let i = 0; i < dst.length; i++) {
      const lp = entityOfLp(lookup, dst[i]!);
      const t = time[i]!;
      if (lp >= 0 && t > lo && t <= hi) counts[lp]!++;
    }
    return counts;
  };
  // Sums a series over the range (the whole series without a scope).
  const sumRange = (s: Float64Array) => {
    let sum = 0;
    for (let t = range?.from ?? 0, end = range?.to ?? s.length; t < end; t++) sum += s[t]!;
    return sum;
  };
  const sumOver = (metric: string, out: Float64Array) => {
    const m = lpTable!.metricIndex(metric);
    for (let lp = 0; lp < Math.min(nLp, lpTable!.entityCount); lp++) out[lp] = sumRange(lpTable!.series(m, lp));
  };
  if (lpTable && lpTable.records > 0) {
    sumOver(METRIC.eventsProcessed, processed);
    sumOver(METRIC.eventsRolledBack, rolledBack);
    processedSource = rolledBackSource = 'LP samples';
  } else {
    if (trace && traced === 'all events') {
      processed.set(received());
      processedSource = 'event trace';
    } else if (run.lpStats) {
      const s = run.lpStats;
      for (let i = 0; i < s.lp.length; i++) {
        const lp = e.findLp(s.lp[i]!);
        if (lp >= 0) processed[lp] = s.eventsProcessed[i]!;
      }
      processedSource = 'LP statistics';
      wholeRun = !whole;
    }
    if (trace && traced === 'rollback-causing events') {
      rolledBack.set(received());
      rolledBackSource = 'rollback trace';
    } else if (processedSource && b && b.samples.kp.records > 0 && run.placement.kp !== 'none') {
      // Share each KP's rolled-back events out over its LPs by their events processed.
      const kp = b.samples.kp;
      const m = kp.metricIndex(METRIC.eventsRolledBack);
      const kpProcessed = new Float64Array(e.count('kp'));
      for (let lp = 0; lp < nLp; lp++) if (e.lpKp(lp) >= 0) kpProcessed[e.lpKp(lp)]! += processed[lp]!;
      for (let lp = 0; lp < nLp; lp++) {
        const k = e.lpKp(lp);
        if (k < 0 || !kpProcessed[k]) continue;
        rolledBack[lp] = (sumRange(kp.series(m, k)) * processed[lp]!) / kpProcessed[k]!;
      }
      rolledBackSource = 'KP samples';
    }
  }
  return processedSource ? { processed, rolledBack, processedSource, rolledBackSource, wholeRun } : null;
}

/**
 * Events processed and rolled back per LP type by the LPs of the selected entities (of the
 * scope's level) over `range` (default the analysed range), one row per LP type that has LPs
 * among them, in the run's type order.
 */
export function handlerActivity(
  run: PdesRun,
  scope: HandlerScope,
  selected: ArrayLike<number>,
  handlers: PdesHandlerMap = DEFAULT_PDES_HANDLERS,
  range: TickRange = scope.range,
): HandlerActivity[] {
  const b = scope.behaviour;
  const lps = lpsOfEntities(run, b.level, selected);
  const types = lpTypeTable(run);
  const counts = lpHandlerCounts(run, scope, range);
  if (!counts) return [];
  const { processed, rolledBack, processedSource, rolledBackSource, wholeRun } = counts;
  const rows = types.names.map(() => ({ lps: 0, processed: 0, rolledBack: 0 }));
  for (const lp of lps) {
    const t = types.typeOf[lp]!;
    if (t < 0) continue;
    rows[t]!.lps++;
    rows[t]!.processed += processed[lp]!;
    rows[t]!.rolledBack += rolledBack[lp]!;
  }
  const what = `${selected.length} selected ${b.level.toUpperCase()}${selected.length === 1 ? '' : 's'}`;
  return types.names.flatMap((lpType, t) => {
    const r = rows[t]!;
    if (!r.lps) return [];
    const rb = rolledBackSource ? Math.round(r.rolledBack) : null;
    const estimate = rolledBackSource === 'KP samples' ? '≈ ' : '';
    return [
      {
        lpType,
        lps: r.lps,
        eventsProcessed: r.processed,
        processedSource,
        eventsRolledBack: rb,
        rolledBackSource,
        handler: handlers[lpType] ?? null,
        forwardTitle: `${formatCount(r.processed)} events processed by ${r.lps} ${lpType} LP${r.lps === 1 ? '' : 's'} of ${what}${wholeRun ? ' (whole run)' : ''}`,
        reverseTitle:
          rb === null
            ? null
            : rolledBackSource === 'rollback trace'
              ? `${formatCount(rb)} rollback-causing events received by these LPs`
              : `${estimate}${formatCount(rb)} events rolled back${estimate ? ' (KP rollbacks shared out by events processed)' : ''}`,
        wholeRun,
      },
    ];
  });
}
