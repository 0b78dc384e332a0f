import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { pdesBehaviour } from './behaviour';
import type { HandlerSourceLocation } from './handler-sources';
import { lpHandlerCounts, type LpHandlerCounts, type PdesHandlerMap } from './handlers';
import { lpTypeTable } from './lp-types';
import { ROSS_CODES_FORMAT, type PdesRun } from './model/pdes-run';

/**
 * A PDES run as the editor's overlays read it (seed digest §5.3 item 8): the model's event handlers
 * as functions at their source lines, so CodeLens, heat, hovers and the side-bar lists work on the
 * model's source as on any profile. The call tree is the program, then one node per LP type
 * (module = the LP type), then its forward and reverse handlers from `hpcLens.pdes.handlers`; the
 * contexts are the PEs. A forward handler runs once per event processed and a reverse handler once
 * per event rolled back, so:
 *
 * - `handler calls` (primary): events processed on forward handlers, events rolled back on reverse ones;
 * - `events processed`: on forward handlers (on the LP type itself when it has no handler configured);
 * - `events rolled back`: on reverse handlers (on the LP type when it has none).
 *
 * Counts are whole-run, from the best source the run has (LP samples, the full event trace, ROSS's
 * per-LP statistics; rolled-back events from LP samples, a rollback trace or KP rollbacks shared out
 * by events processed, see handlers.ts).
 */
export const EDITOR_METRICS = {
  handlerCalls: 'handler calls',
  eventsProcessed: 'events processed',
  eventsRolledBack: 'events rolled back',
} as const;

export function pdesEditorProfile(
  run: PdesRun,
  handlers: PdesHandlerMap,
  sources: ReadonlyMap<string, HandlerSourceLocation> = new Map(),
  /** Problems with the handler setting, kept as the profile's warnings. */
  handlerProblems: readonly string[] = [],
): Profile {
  const b = new ProfileBuilder(ROSS_CODES_FORMAT, run.path);
  const metric = (name: string, label: string) =>
    b.addMetric({ name, label, sourceKeys: [name], unit: 'events', kind: 'exclusive', aggregation: 'sum' });
  const calls = metric(EDITOR_METRICS.handlerCalls, 'Handler calls');
  const processedMetric = metric(EDITOR_METRICS.eventsProcessed, 'Events processed');
  const rolledBackMetric = metric(EDITOR_METRICS.eventsRolledBack, 'Events rolled back');

  const e = run.entities;
  // A PE is an MPI rank; views name it as ROSS does.
  const peContexts = Array.from({ length: e.count('pe') }, (_, p) =>
    b.newContext({ rank: e.peId(p), label: `PE ${e.peId(p)}` }),
  );
  let unplaced = -1;
  const contextOfLp = (lp: number) => {
    const p = e.lpPe(lp);
    if (p >= 0) return peContexts[p]!;
    if (unplaced < 0) unplaced = b.newContext({ label: 'no known PE' });
    return unplaced;
  };

  const counts = handlerCounts(run);
  const types = lpTypeTable(run);
  const program = run.command?.program.split(/[\\/]/).pop() || run.name;
  const root = b.tree.add(-1, program, NodeKind.Region);
  const usedTypes = new Set<number>();
  for (let lp = 0; lp < types.typeOf.length; lp++) if (types.typeOf[lp]! >= 0) usedTypes.add(types.typeOf[lp]!);
  const typeNodes = new Map<number, { forward: number; reverse: number }>();
  types.names.forEach((name, t) => {
    if (!usedTypes.has(t)) return;
    const typeNode = b.tree.add(root, name, NodeKind.Region, { module: name });
    const h = handlers[name];
    const where = sources.get(name);
    const file = where?.file ?? h?.file.replace(/^(?:\*\*\/)+/, '') ?? null;
    const forward = h
      ? b.tree.add(typeNode, h.forward, NodeKind.Function, { module: name, file, line: where?.forwardLine ?? 0 })
      : typeNode;
    const reverse =
      h?.reverse !== undefined
        ? b.tree.add(typeNode, h.reverse, NodeKind.Function, { module: name, file, line: where?.reverseLine ?? 0 })
        : typeNode;
    typeNodes.set(t, { forward, reverse });
  });
  if (counts) {
    for (let lp = 0; lp < types.typeOf.length; lp++) {
      const nodes = typeNodes.get(types.typeOf[lp]!);
      if (!nodes) continue;
      const c = contextOfLp(lp);
      const processed = counts.processed[lp]!,
        rolledBack = counts.rolledBack[lp]!;
      b.addExclusive(processedMetric, nodes.forward, c, processed);
      b.addExclusive(calls, nodes.forward, c, processed);
      b.addExclusive(rolledBackMetric, nodes.reverse, c, rolledBack);
      b.addExclusive(calls, nodes.reverse, c, rolledBack);
    }
    b.metadata['events processed from'] = counts.processedSource;
    if (counts.rolledBackSource) b.metadata['events rolled back from'] = counts.rolledBackSource;
  } else
    b.warnings.push(
      `${run.name} has no per-LP event counts (no LP samples, full event trace or ross_all_lp_stats/): the handlers show no values.`,
    );
  b.metadata.program = program;
  b.metadata.PEs = e.count('pe');
  b.metadata.KPs = e.count('kp');
  b.metadata.LPs = e.count('lp');
  b.warnings.push(...run.warnings, ...handlerProblems);
  return b.build(calls);
}

/** Whole-run per-LP counts, over the run's real-time samples when it has them (they reach the end of the run). */
function handlerCounts(run: PdesRun): LpHandlerCounts | null {
  const found = pdesBehaviour(run, 'pe', 'rt');
  const b = found.behaviour;
  return lpHandlerCounts(run, b ? { behaviour: b, range: { from: 0, to: b.ticks } } : null);
}
