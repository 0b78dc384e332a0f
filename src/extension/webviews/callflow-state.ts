/**
 * The CallFlow panel's state (pure: no `vscode`): splits and reveals, the brushed ranks, the
 * selected node and the view mode, kept by the host per dataset; the requests from the webview that
 * change it; and the graphs each mode draws (a brush: the brushed ranks and the rest, computed with
 * the super graph's context subsets, so both sides add up to the whole run).
 */
import { complementContexts, type RevealRequest, type SplitRequest } from '../../analysis/graph/super-graph';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { CallflowMode, CallflowRequest, CallflowViewState, CallflowData } from '../../shared/callflow-protocol';

export interface CallflowState {
  splits: SplitRequest[];
  reveal: RevealRequest[];
  brushed: number[] | null;
  mode: CallflowMode;
  selected: string | null;
}

export const initialCallflowState = (): CallflowState => ({
  splits: [],
  reveal: [],
  brushed: null,
  mode: 'single',
  selected: null,
});

/** The supernode a drawn node belongs to (a split part's base). */
function baseOf(data: CallflowData | undefined, nodeId: string): string {
  return data?.nodes.find(n => n.id === nodeId)?.baseId ?? nodeId;
}

/**
 * The state after a request, or an error message saying why it cannot apply (the state is then
 * unchanged). `data` is the graph on screen, `contextCount` the profile's contexts and
 * `canCompare` whether the dataset compares two runs.
 */
export function applyCallflowRequest(
  state: CallflowState,
  request: Exclude<CallflowRequest, { type: 'callflow/requestNodeMetrics' }>,
  data: CallflowData | undefined,
  contextCount: number,
  canCompare: boolean,
): CallflowState | { error: string } {
  switch (request.type) {
    case 'callflow/split': {
      const node = data?.nodes.find(n => n.id === request.nodeId);
      if (!node) return { error: `no node ${request.nodeId} in the graph to split` };
      const base = node.baseId ?? node.id;
      if (request.mode === 'entry' && (node.entryCount ?? node.entries?.length ?? 0) < 2 && node.kind === 'module') {
        return {
          error: `${node.label} has a single entry function (${node.entry.name}): splitting by entry would not change it`,
        };
      }
      if (request.mode === 'caller' && (node.callers?.length ?? 0) < 2 && node.kind === 'module') {
        return {
          error: `${node.label} has ${node.callers?.length ? 'a single caller' : 'no caller'}: splitting by caller would not change it`,
        };
      }
      return { ...state, splits: [...state.splits.filter(s => s.node !== base), { node: base, mode: request.mode }] };
    }
    case 'callflow/unsplit': {
      const base = baseOf(data, request.nodeId);
      const splits = state.splits.filter(s => s.node !== base);
      const reveal = state.reveal.filter(r => r.node !== base);
      if (splits.length === state.splits.length && reveal.length === state.reveal.length)
        return { error: `${base} is not split` };
      return {
        ...state,
        splits,
        reveal,
        selected: state.selected && baseOf(data, state.selected) === base ? base : state.selected,
      };
    }
    case 'callflow/reveal': {
      const base = baseOf(data, request.nodeId);
      if (state.reveal.some(r => r.node === base && r.function === request.function)) return state;
      return { ...state, reveal: [...state.reveal, { node: base, function: request.function }] };
    }
    case 'callflow/select':
      return { ...state, selected: request.nodeId };
    case 'callflow/brush': {
      if (request.contexts === null)
        return { ...state, brushed: null, mode: state.mode === 'brush' ? 'single' : state.mode };
      const brushed = [...new Set(request.contexts)].sort((a, b) => a - b);
      const bad = brushed.find(c => !(Number.isInteger(c) && c >= 0 && c < contextCount));
      if (bad !== undefined)
        return { error: `brushed context ${bad} is not one of the profile's ${contextCount} contexts` };
      return { ...state, brushed: brushed.length ? brushed : null };
    }
    case 'callflow/mode': {
      if (request.mode === 'brush') {
        if (!state.brushed?.length)
          return {
            error: 'Brush some bins of the histogram first: the split compares the brushed ranks with the rest.',
          };
        if (state.brushed.length >= contextCount)
          return { error: 'The brush holds every rank: there is no rest to compare with. Brush fewer bins.' };
      }
      if (request.mode === 'sideBySide' && !canCompare)
        return { error: 'Side by side needs two runs: use HPC Lens: Compare Two Profiles… first.' };
      return { ...state, mode: request.mode };
    }
  }
}

/** What the panel draws for a state: the graph options of the first and second graph and their captions. */
export interface GraphPlan {
  first: SuperGraphDataOptions;
  second?: SuperGraphDataOptions;
  /** The second graph comes from the baseline run (side by side). */
  secondIsBaseline?: boolean;
  labels?: [string, string];
}

export function graphPlan(
  state: CallflowState,
  base: SuperGraphDataOptions,
  contextCount: number,
  canCompare: boolean,
): GraphPlan {
  const common = { ...base, splits: state.splits, reveal: state.reveal };
  if (state.mode === 'brush' && state.brushed?.length && state.brushed.length < contextCount) {
    const rest = Array.from(complementContexts(contextCount, state.brushed));
    return {
      first: { ...common, contexts: state.brushed },
      second: { ...common, contexts: rest },
      labels: [`Brushed ranks (${state.brushed.length})`, `Other ranks (${rest.length})`],
    };
  }
  if (state.mode === 'sideBySide' && canCompare) return { first: common, second: common, secondIsBaseline: true };
  return { first: common };
}

/** The state as sent to the webview with the data. */
export function viewState(
  state: CallflowState,
  canCompare: boolean,
  second?: CallflowData,
  labels?: [string, string],
): CallflowViewState {
  return {
    mode: second ? state.mode : 'single',
    brushed: state.brushed,
    selected: state.selected,
    canCompare,
    ...(second ? { second } : {}),
    ...(labels ? { labels } : {}),
  };
}
