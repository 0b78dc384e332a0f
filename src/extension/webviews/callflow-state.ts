/**
 * The CallFlow panel's state (pure: no `vscode`): splits and reveals, the filter and what
 * repopulation shows again, the brushed ranks, the selected node and the view mode, kept by the
 * host per dataset; the requests from the webview that change it; and the graphs each mode draws
 * (a brush: the brushed ranks and the rest, computed with the super graph's context subsets, so
 * both sides add up to the whole run).
 */
import { english, type L10n } from '../l10n-text';
import {
  applyFilterRequest,
  type CallflowFilter,
  type FilterState,
} from '../../analysis/graph/callflow-filter-settings';
import {
  complementContexts,
  type RepopulateRequest,
  type RevealRequest,
  type SplitRequest,
} from '../../analysis/graph/super-graph';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { CallflowGraphReader, PackedCallflowData } from '../../shared/callflow-packing';
import type { CallflowMode, CallflowRequest, CallflowWireState } from '../../shared/callflow-protocol';

export interface CallflowState extends FilterState {
  splits: SplitRequest[];
  reveal: RevealRequest[];
  brushed: number[] | null;
  mode: CallflowMode;
  selected: string | null;
}

export const initialCallflowState = (saved?: Partial<FilterState>): CallflowState => ({
  splits: [],
  reveal: [],
  brushed: null,
  mode: 'single',
  selected: null,
  filter: saved?.filter ?? null,
  repopulate: saved?.repopulate ?? [],
});

/** Where the filter choices of every dataset are remembered (workspace state), by dataset key. */
export const PERSISTED_FILTERS_KEY = 'hpcLens.callflow.filters';

/**
 * The remembered filter choices as the workspace state holds them; anything malformed (another
 * version, a hand edit) is dropped entry by entry.
 */
export function parsePersistedFilters(raw: unknown): Map<string, FilterState> {
  const out = new Map<string, FilterState>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!v || typeof v !== 'object') continue;
    const f = (v as { filter?: unknown }).filter as { threshold?: unknown; by?: unknown } | null | undefined;
    const filter: CallflowFilter | null =
      f &&
      typeof f.threshold === 'number' &&
      f.threshold >= 0 &&
      f.threshold <= 1 &&
      (f.by === 'inclusive' || f.by === 'exclusive')
        ? { threshold: f.threshold, by: f.by }
        : null;
    const list = (v as { repopulate?: unknown }).repopulate;
    const repopulate: RepopulateRequest[] = Array.isArray(list)
      ? list.flatMap(r =>
          r && typeof r.node === 'string' && typeof r.function === 'string'
            ? [{ node: r.node as string, function: r.function as string }]
            : [],
        )
      : [];
    if (filter || repopulate.length) out.set(key, { filter, repopulate });
  }
  return out;
}

/** What is remembered of a state: the dataset's own filter and its repopulations (nothing when neither). */
export function persistedFilterOf(state: CallflowState): FilterState | undefined {
  return state.filter || state.repopulate.length
    ? { filter: state.filter, repopulate: state.repopulate.map(r => ({ node: r.node, function: r.function })) }
    : undefined;
}

/** The supernode a drawn node belongs to (a split part's base). */
function baseOf(graph: CallflowGraphReader | undefined, nodeId: string): string {
  const i = graph?.indexOf(nodeId) ?? -1;
  return i < 0 ? nodeId : graph!.baseId(i);
}

/** The node a request names, as the list the filter rules search (made from the packed graph alone). */
function namedNode(graph: CallflowGraphReader | undefined, nodeId: string) {
  if (!graph) return undefined;
  const node = graph.nodeById(nodeId);
  return node ? [node] : [];
}

/**
 * The state after a request, or an error message saying why it cannot apply (the state is then
 * unchanged). `graph` reads the graph on screen, `contextCount` the profile's contexts and
 * `canCompare` whether the dataset compares two runs.
 */
export function applyCallflowRequest(
  state: CallflowState,
  request: Exclude<CallflowRequest, { type: 'callflow/requestNodeMetrics' }>,
  graph: CallflowGraphReader | undefined,
  contextCount: number,
  canCompare: boolean,
  l10n: L10n = english,
): CallflowState | { error: string } {
  switch (request.type) {
    case 'callflow/filter':
      return applyFilterRequest(state, { type: 'filter', threshold: request.threshold, by: request.by }, undefined);
    case 'callflow/repopulate':
      return applyFilterRequest(
        state,
        { type: 'repopulate', nodeId: request.nodeId, function: request.function },
        namedNode(graph, request.nodeId),
      );
    case 'callflow/unrepopulate':
      return applyFilterRequest(state, { ...request, type: 'unrepopulate' }, undefined);
    case 'callflow/split': {
      const node = graph?.nodeById(request.nodeId);
      if (!node) return { error: l10n.t('no node {0} in the graph to split', request.nodeId) };
      const base = node.baseId ?? node.id;
      if (request.mode === 'entry' && (node.entryCount ?? node.entries?.length ?? 0) < 2 && node.kind === 'module') {
        return {
          error: l10n.t(
            '{0} has a single entry function ({1}): splitting by entry would not change it',
            node.label,
            node.entry.name,
          ),
        };
      }
      if (request.mode === 'caller' && (node.callers?.length ?? 0) < 2 && node.kind === 'module') {
        return {
          error: node.callers?.length
            ? l10n.t('{0} has a single caller: splitting by caller would not change it', node.label)
            : l10n.t('{0} has no caller: splitting by caller would not change it', node.label),
        };
      }
      return { ...state, splits: [...state.splits.filter(s => s.node !== base), { node: base, mode: request.mode }] };
    }
    case 'callflow/unsplit': {
      const base = baseOf(graph, request.nodeId);
      const splits = state.splits.filter(s => s.node !== base);
      const reveal = state.reveal.filter(r => r.node !== base);
      if (splits.length === state.splits.length && reveal.length === state.reveal.length)
        return { error: l10n.t('{0} is not split', base) };
      return {
        ...state,
        splits,
        reveal,
        selected: state.selected && baseOf(graph, state.selected) === base ? base : state.selected,
      };
    }
    case 'callflow/reveal': {
      const base = baseOf(graph, request.nodeId);
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
        return {
          error: l10n.t("brushed context {0} is not one of the profile's {1} contexts", bad, contextCount),
        };
      return { ...state, brushed: brushed.length ? brushed : null };
    }
    case 'callflow/mode': {
      if (request.mode === 'brush') {
        if (!state.brushed?.length)
          return {
            error: l10n.t(
              'Brush some bins of the histogram first: the split compares the brushed ranks with the rest.',
            ),
          };
        if (state.brushed.length >= contextCount)
          return {
            error: l10n.t('The brush holds every rank: there is no rest to compare with. Brush fewer bins.'),
          };
      }
      if (request.mode === 'sideBySide' && !canCompare)
        return { error: l10n.t('Side by side needs two runs: use HPC Lens: Compare Two Profiles… first.') };
      return { ...state, mode: request.mode };
    }
  }
}

/**
 * The options of the graph on screen over all ranks (what a selection's questions are about): the
 * base options (module map, the settings' filter) with the dataset's own filter, splits, reveals
 * and repopulations.
 */
export function shownOptions(state: CallflowState, base: SuperGraphDataOptions): SuperGraphDataOptions {
  return {
    ...base,
    ...(state.filter ? { filter: { ...state.filter } } : {}),
    splits: state.splits,
    reveal: state.reveal,
    ...(state.repopulate.length ? { repopulate: state.repopulate } : {}),
  };
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
  l10n: L10n = english,
): GraphPlan {
  const common = shownOptions(state, base);
  if (state.mode === 'brush' && state.brushed?.length && state.brushed.length < contextCount) {
    const rest = Array.from(complementContexts(contextCount, state.brushed));
    return {
      first: { ...common, contexts: state.brushed },
      second: { ...common, contexts: rest },
      labels: [l10n.t('Brushed ranks ({0})', state.brushed.length), l10n.t('Other ranks ({0})', rest.length)],
    };
  }
  if (state.mode === 'sideBySide' && canCompare) return { first: common, second: common, secondIsBaseline: true };
  return { first: common };
}

/** The state as sent to the webview with the data. */
export function viewState(
  state: CallflowState,
  canCompare: boolean,
  second?: PackedCallflowData,
  labels?: [string, string],
): CallflowWireState {
  return {
    mode: second ? state.mode : 'single',
    brushed: state.brushed,
    selected: state.selected,
    canCompare,
    ...(second ? { second } : {}),
    ...(labels ? { labels } : {}),
  };
}
