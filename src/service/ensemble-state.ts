/**
 * The Ensemble CallFlow panel's state (pure: no `vscode`): mode, target run, diff pair, run subset,
 * selection, display options, splits and reveals, kept by the host per ensemble dataset; and the
 * requests from the webview that change it, each validated so a bad request explains itself and
 * leaves the state as it was.
 */
import { applyFilterRequest, type FilterState } from '../analysis/graph/callflow-filter-settings';
import type { RevealRequest, SplitRequest } from '../analysis/graph/super-graph';
import {
  DEFAULT_ENSEMBLE_OPTIONS,
  type EnsembleGraphData,
  type EnsembleOptions,
  type EnsembleRequest,
  type EnsembleViewState,
} from '../shared/ensemble-protocol';

/** The panel's state; `filter` is the ensemble's own filter (null: the settings'), `repopulate` what it shows again. */
export interface EnsemblePanelState extends FilterState {
  view: EnsembleViewState;
  splits: SplitRequest[];
  reveal: RevealRequest[];
}

/** What requests are checked against: the runs and the graph on screen. */
export interface EnsembleContext {
  runCount: number;
  /** Run with the largest runtime: the default target (CallFlow §4.8). */
  slowestRun: number;
  /** Run with the smallest runtime: the default diff baseline (compare = the slowest). */
  fastestRun: number;
  runName(run: number): string;
  data: EnsembleGraphData | undefined;
}

export const initialEnsembleState = (): EnsemblePanelState => ({
  view: {
    mode: 'summary',
    target: null,
    diff: null,
    runs: null,
    selected: null,
    options: { ...DEFAULT_ENSEMBLE_OPTIONS },
  },
  splits: [],
  reveal: [],
  filter: null,
  repopulate: [],
});

const SIDES = ['inclusive', 'exclusive'] as const;
const CHOICES: { [K in keyof EnsembleOptions]?: readonly EnsembleOptions[K][] } = {
  gradientSide: SIDES,
  borderSide: SIDES,
  distributionMode: ['callsite', 'run', 'rank'],
  callSiteSort: ['mean', 'max', 'imbalance', 'variance', 'name'],
  projectionInput: ['parameters', 'structure'],
};
/** The projection's k-means cluster counts (CallFlow §4.9 offers 2–8). */
export const MIN_CLUSTERS = 2,
  MAX_CLUSTERS = 8;
/** More bins than runs shows nothing more; 200 is plenty for any histogram on a node a few hundred px tall. */
const MAX_BINS = 200;

/** The state after a request, or why it cannot apply. */
export function applyEnsembleRequest(
  state: EnsemblePanelState,
  request: EnsembleRequest,
  ctx: EnsembleContext,
): EnsemblePanelState | { error: string } {
  const view = state.view;
  const badRun = (run: unknown): string | undefined =>
    Number.isInteger(run) && (run as number) >= 0 && (run as number) < ctx.runCount
      ? undefined
      : `run ${String(run)} is not one of the ensemble's ${ctx.runCount} runs`;
  const baseOf = (nodeId: string): string => ctx.data?.nodes.find(n => n.id === nodeId)?.baseId ?? nodeId;
  const withView = (v: Partial<EnsembleViewState>): EnsemblePanelState => ({ ...state, view: { ...view, ...v } });
  switch (request.type) {
    case 'ensemble/select':
      if (request.nodeId !== null && ctx.data && !ctx.data.nodes.some(n => n.id === request.nodeId))
        return { error: `no node ${request.nodeId} in the ensemble graph` };
      return withView({ selected: request.nodeId });
    case 'ensemble/mode':
      if (request.mode === 'target') return withView({ mode: 'target', target: view.target ?? ctx.slowestRun });
      if (request.mode === 'diff') {
        if (ctx.runCount < 2) return { error: 'a diff needs two runs' };
        const fallback =
          ctx.fastestRun !== ctx.slowestRun
            ? { baseline: ctx.fastestRun, compare: ctx.slowestRun }
            : { baseline: 0, compare: 1 };
        return withView({ mode: 'diff', diff: view.diff ?? fallback });
      }
      return withView({ mode: 'summary' });
    case 'ensemble/target': {
      const bad = badRun(request.run);
      return bad ? { error: bad } : withView({ mode: 'target', target: request.run });
    }
    case 'ensemble/diff': {
      const bad = badRun(request.baseline) ?? badRun(request.compare);
      if (bad) return { error: bad };
      if (request.baseline === request.compare)
        return { error: `a diff needs two different runs (both are ${ctx.runName(request.baseline)})` };
      return withView({ mode: 'diff', diff: { baseline: request.baseline, compare: request.compare } });
    }
    case 'ensemble/runs': {
      if (request.runs === null) return withView({ runs: null });
      const runs = [...new Set(request.runs)].sort((a, b) => a - b);
      const bad = runs.map(badRun).find(e => e !== undefined);
      if (bad) return { error: bad };
      if (runs.length === 0) return { error: 'the selection holds no run: select at least one' };
      return withView({ runs: runs.length === ctx.runCount ? null : runs });
    }
    case 'ensemble/options': {
      const next = { ...view.options };
      for (const [key, value] of Object.entries(request.options) as [keyof EnsembleOptions, unknown][]) {
        const choices = CHOICES[key] as readonly unknown[] | undefined;
        if (choices && !choices.includes(value))
          return { error: `${key} must be one of ${choices.join(', ')}, not ${String(value)}` };
        if (
          key === 'bins' &&
          value !== 'auto' &&
          !(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_BINS)
        )
          return { error: `bins must be "auto" or a whole number from 1 to ${MAX_BINS}, not ${String(value)}` };
        if (key === 'iqrFactor' && !(typeof value === 'number' && value > 0 && value <= 10))
          return { error: `the outlier fence must be a number of IQRs in (0, 10], not ${String(value)}` };
        if (
          key === 'clusters' &&
          !(Number.isInteger(value) && (value as number) >= MIN_CLUSTERS && (value as number) <= MAX_CLUSTERS)
        )
          return {
            error: `the projection's clusters must be a whole number from ${MIN_CLUSTERS} to ${MAX_CLUSTERS}, not ${String(value)}`,
          };
        if (key === 'textGuides' && typeof value !== 'boolean') return { error: 'textGuides must be true or false' };
        if (
          key === 'orderBy' &&
          value !== null &&
          !(typeof value === 'string' && (ctx.data?.orderKeys.includes(value) ?? true))
        )
          return {
            error: `the runs cannot be ordered by ${String(value)} (parameters: ${ctx.data?.orderKeys.join(', ') || 'none'})`,
          };
        (next as Record<string, unknown>)[key] = value;
      }
      return withView({ options: next });
    }
    case 'ensemble/split': {
      const node = ctx.data?.nodes.find(n => n.id === request.nodeId);
      if (!node) return { error: `no node ${request.nodeId} in the ensemble graph to split` };
      if (request.mode === 'entry' && node.kind === 'module' && node.entryCount < 2)
        return { error: `${node.label} has a single entry function: splitting by entry would not change it` };
      if (request.mode === 'caller' && node.kind === 'module' && node.callers.length < 2)
        return {
          error: `${node.label} has ${node.callers.length ? 'a single caller' : 'no caller'}: splitting by caller would not change it`,
        };
      return {
        ...state,
        splits: [...state.splits.filter(s => s.node !== node.baseId), { node: node.baseId, mode: request.mode }],
      };
    }
    case 'ensemble/unsplit': {
      const base = baseOf(request.nodeId);
      const splits = state.splits.filter(s => s.node !== base);
      const reveal = state.reveal.filter(r => r.node !== base);
      if (splits.length === state.splits.length && reveal.length === state.reveal.length)
        return { error: `${base} is not split` };
      const selected = view.selected && baseOf(view.selected) === base ? base : view.selected;
      return { ...state, view: { ...view, selected }, splits, reveal };
    }
    case 'ensemble/reveal': {
      const base = baseOf(request.nodeId);
      const via = request.via ?? [];
      if (!Array.isArray(via) || via.some(f => typeof f !== 'string'))
        return { error: `the path of ${request.function} must be a list of function names` };
      // The call site and the functions on its path: each a component node, so the chain shows.
      const added = [...new Set([...via, request.function])]
        .filter(f => !state.reveal.some(r => r.node === base && r.function === f))
        .map(f => ({ node: base, function: f }));
      return added.length ? { ...state, reveal: [...state.reveal, ...added] } : state;
    }
    case 'ensemble/filter':
      return applyFilterRequest(
        state,
        { type: 'filter', threshold: request.threshold, by: request.by },
        ctx.data?.nodes,
      );
    case 'ensemble/repopulate':
      return applyFilterRequest(
        state,
        { type: 'repopulate', nodeId: request.nodeId, function: request.function },
        ctx.data?.nodes,
      );
    case 'ensemble/unrepopulate':
      return applyFilterRequest(state, { ...request, type: 'unrepopulate' }, ctx.data?.nodes);
  }
}

/**
 * What a request invalidates: the graph (and the detail with it), only the selected node's detail,
 * or nothing but the state the webview draws with (text guides, the distribution's y axis: the
 * data for every choice is already there).
 */
export function changeScope(request: EnsembleRequest): 'graph' | 'detail' | 'state' {
  if (request.type === 'ensemble/select') return 'detail';
  if (request.type === 'ensemble/options') {
    const keys = Object.keys(request.options) as (keyof EnsembleOptions)[];
    const stateOnly: (keyof EnsembleOptions)[] = ['textGuides', 'distributionMode'];
    const detailOnly: (keyof EnsembleOptions)[] = [...stateOnly, 'iqrFactor', 'callSiteSort'];
    if (keys.every(k => stateOnly.includes(k))) return 'state';
    return keys.every(k => detailOnly.includes(k)) ? 'detail' : 'graph';
  }
  return 'graph';
}
