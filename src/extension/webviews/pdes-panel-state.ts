/**
 * The PDES panel's state changes, pure (no VS Code): the panel and the screenshot script apply the
 * view's messages through these, so both keep the same rules.
 */
import type { PdesAnalysisOptions } from '../../analysis/pdes/analysis-options';
import type { PdesSelection } from '../../analysis/pdes/selection';
import { applyDrillDown } from '../../shared/topology-protocol';
import {
  CLUSTER_RESETTING_OPTIONS,
  EMPTY_PDES_PANEL_STATE,
  SELECTION_RESETTING_OPTIONS,
  type PdesPanelState,
  type PdesViewToHost,
} from '../../shared/pdes-protocol';

/**
 * The state with `options` set over it; options that change what entity indices or cluster numbers
 * mean drop the parts of the selection that use them, and a new segmentation or range the chosen matrix.
 */
export function withOptions(state: PdesPanelState, options: Partial<PdesAnalysisOptions>): PdesPanelState {
  const keys = Object.keys(options) as (keyof PdesAnalysisOptions)[];
  const merged: Partial<PdesAnalysisOptions> = { ...state.options };
  for (const k of keys) {
    if (options[k] === undefined) delete merged[k];
    else (merged as Record<string, unknown>)[k] = options[k];
  }
  let selection: PdesSelection = state.selection;
  if (keys.some(k => SELECTION_RESETTING_OPTIONS.includes(k))) selection = {};
  else if (keys.some(k => CLUSTER_RESETTING_OPTIONS.includes(k)) && selection.clusters) {
    const { clusters: _dropped, ...rest } = selection;
    selection = rest;
  }
  const resegmented = keys.some(k => k === 'changePoints' || k === 'range' || SELECTION_RESETTING_OPTIONS.includes(k));
  return {
    ...state,
    options: merged,
    selection,
    matrixSegment: resegmented ? null : state.matrixSegment,
    networkSegment: resegmented ? null : state.networkSegment,
  };
}

/** A remembered panel state, or undefined when what the storage holds is not one. */
export function readState(raw: unknown): PdesPanelState | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Partial<PdesPanelState>;
  if (!r.options || typeof r.options !== 'object' || !r.selection || typeof r.selection !== 'object') return undefined;
  return {
    ...EMPTY_PDES_PANEL_STATE,
    options: r.options,
    selection: r.selection,
    keepUnselected: r.keepUnselected === true,
    matrixSegment: typeof r.matrixSegment === 'number' ? r.matrixSegment : null,
    networkSegment: typeof r.networkSegment === 'number' ? r.networkSegment : null,
    networkDrill: readDrill(r.networkDrill),
  };
}

/** A message of the view that changes the panel's state. */
export type PdesStateMessage = Extract<
  PdesViewToHost,
  {
    type:
      | 'pdes/options'
      | 'pdes/resetOptions'
      | 'pdes/selection'
      | 'pdes/keepUnselected'
      | 'pdes/matrixSegment'
      | 'pdes/networkSegment'
      | 'pdes/topology';
  }
>;

/** The panel's state after one of the view's state changes. */
export function nextState(s: PdesPanelState, m: PdesStateMessage): PdesPanelState {
  switch (m.type) {
    case 'pdes/options':
      return withOptions(s, m.options);
    case 'pdes/resetOptions':
      return { ...s, options: {}, selection: {}, matrixSegment: null };
    case 'pdes/selection':
      return { ...s, selection: m.selection };
    case 'pdes/keepUnselected':
      return { ...s, keepUnselected: m.keep };
    case 'pdes/matrixSegment':
      return { ...s, matrixSegment: m.segment };
    case 'pdes/networkSegment':
      return { ...s, networkSegment: m.segment };
    case 'pdes/topology':
      return { ...s, networkDrill: applyDrillDown(s.networkDrill, m.event) };
  }
}

/** A remembered drill-down, or none when the storage holds something else. */
function readDrill(raw: unknown): PdesPanelState['networkDrill'] {
  const d = raw as Partial<PdesPanelState['networkDrill']> | undefined;
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { expand: ids(d?.expand), collapse: ids(d?.collapse) };
}
