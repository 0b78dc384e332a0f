import { basename } from 'node:path';
import { pdesBehaviour } from '../behaviour';
import type { PdesHandlerMap } from '../handlers';
import { ROSS_CODES_FORMAT, type PdesRun } from '../model/pdes-run';
import { selectionActivity, type SelectionActivity } from '../panel-views';
import type { PdesMonitor } from './pdes-monitor';
import type { StreamLayout } from './stream-layout';
import { changePointEntities } from './stream-views';

/**
 * The monitored run as a {@link PdesRun} (the model is appendable, so a monitor's cache is a run that
 * grows tick by tick): the declared layout of its folder (summary, command line, CODES config and LP
 * types, LP statistics, LP placement) with the monitor's entities, samples and event trace. The
 * offline analyses that lead from entities to model code — the handlers' editor profile
 * (editor-profile.ts) and a selection's handler activity (handlers.ts) — run on it unchanged, so the
 * live monitor's **Show** and the PDES panel's selection put the same CodeLens on the handlers.
 * The view shares the monitor's arrays and grows with them: it is read in the monitor's worker, never sent.
 */
export function monitorRun(monitor: PdesMonitor, layout: StreamLayout | null, source: string): PdesRun {
  const cache = monitor.cache;
  const declared = layout?.declared;
  const folder = layout?.folder ?? null;
  return {
    format: ROSS_CODES_FORMAT,
    path: folder ?? source,
    name: basename(folder ?? source),
    files: layout?.files ?? { lpStats: [], packetLatency: [], routerTiming: [] },
    summary: declared?.summary ?? null,
    command: declared?.command ?? null,
    codesConfig: declared?.codesConfig ?? null,
    lpTypes: declared?.lpTypes ?? null,
    entities: cache.entities,
    placement: layout?.placement ?? { pe: 'none', kp: 'none' },
    samples: { [cache.mode]: cache.samples },
    modelSamples: null,
    // The trace grows with the stream: a run without one (nothing tailed beside the stats) has none.
    get eventTrace() {
      return cache.trace.count > 0 ? cache.trace : null;
    },
    unknownTraceLps: null,
    lpStats: declared?.lpStats ?? null,
    packets: null,
    routerHops: null,
    links: null,
    terminalStats: null,
    warnings: [],
  };
}

/** What **Show** on a change point puts on the model's handlers: the activity of its top PC1-loading entities. */
export interface ChangePointActivity extends SelectionActivity {
  changePoint: number;
  /** Ticks [from, to) the counts cover: from the change point to the next one, or to the latest complete tick. */
  from: number;
  to: number;
  /** The selected entities (indices of `level`, largest |PC1 loading| first) and their labels. */
  entities: number[];
  labels: string[];
}

/**
 * Events processed and rolled back per LP type by the LPs of a change point's top PC1-loading
 * entities (thesis §6.4: a change point notifies and **Show** leads to the code), over the segment
 * the change point starts — the behaviour that changed — as the handler CodeLenses show them. Null
 * for an unknown change point. Without the run's LP placement (no `ross_all_lp_stats/`, LP records
 * or `ross.csv` mapping yet) the rows are empty: nothing says which LPs the entities hold.
 */
export function changePointActivity(
  monitor: PdesMonitor,
  run: PdesRun,
  changePoint: number,
  handlers: PdesHandlerMap,
): ChangePointActivity | null {
  const shown = changePointEntities(monitor, changePoint);
  if (!shown) return null;
  const found = pdesBehaviour(run, shown.level, monitor.cache.mode);
  if (!found.behaviour) throw new Error(`no handler activity for change point ${changePoint}: ${found.reason}`);
  const behaviour = found.behaviour;
  const next = monitor.analyser.changePoints.find(c => c.number === changePoint + 1);
  const latest = Math.min(monitor.ticks, behaviour.ticks);
  const from = Math.min(shown.changePoint.tick, latest - 1);
  const to = Math.max(from + 1, Math.min(next?.tick ?? latest, latest));
  const selected = Int32Array.from(shown.entities).sort();
  return {
    ...selectionActivity(run, { behaviour, range: { from, to } }, selected, handlers),
    changePoint,
    from,
    to,
    entities: shown.entities,
    labels: shown.labels,
  };
}
