import type { CallflowData } from '../../shared/callflow-protocol';
import type { FilterBy } from './callflow-filter';
import { DEFAULT_FILTER_THRESHOLD, type RepopulateRequest } from './super-graph';

/**
 * The CallFlow filter as users set it: a threshold in percent of the total (the settings, the
 * toolbar and `hpc-lens callflow --threshold`) and the side it applies to; checked here, once, so
 * that a bad value gives a warning naming the setting and the last valid value stays in force.
 */

export const FILTER_THRESHOLD_SETTING = 'hpcLens.callflow.filterThreshold';
export const FILTER_BY_SETTING = 'hpcLens.callflow.filterBy';
/** The toolbar's choices, in percent (thesis §3.2.1: 0.1 % is conservative and removes most nodes). */
export const FILTER_THRESHOLD_PRESETS = [0, 0.01, 0.1, 0.5, 1, 5] as const;

export interface CallflowFilter {
  /** Share of Σ root inclusive, 0 … 1 (the super graph's `filter.threshold`). */
  threshold: number;
  by: FilterBy;
}

export const DEFAULT_CALLFLOW_FILTER: CallflowFilter = { threshold: DEFAULT_FILTER_THRESHOLD, by: 'inclusive' };

/**
 * A threshold typed by a user, in percent: `0.1`, `0.1%`, `0.1 %`, `.5`, `1e-2`. Null for anything
 * else, including values outside 0–100.
 */
export function parseThresholdPercent(text: string): number | null {
  const m = /^\s*([+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*%?\s*$/i.exec(text);
  if (!m) return null;
  const v = Number(m[1]);
  return Number.isFinite(v) && v >= 0 && v <= 100 ? v : null;
}

/**
 * The filter from the two settings as read (`undefined` = not set: the default), falling back to
 * `last` for a value that is not valid, with one warning per bad setting. The threshold setting is
 * in percent (0–100); numbers only (a typed string belongs to the toolbar's `parseThresholdPercent`).
 */
export function validateCallflowSettings(
  raw: { filterThreshold?: unknown; filterBy?: unknown },
  last: CallflowFilter = DEFAULT_CALLFLOW_FILTER,
): { filter: CallflowFilter; warnings: string[] } {
  const warnings: string[] = [];
  let threshold = DEFAULT_CALLFLOW_FILTER.threshold;
  const t = raw.filterThreshold;
  if (t !== undefined) {
    if (typeof t === 'number' && Number.isFinite(t) && t >= 0 && t <= 100) threshold = t / 100;
    else {
      threshold = last.threshold;
      warnings.push(
        `${FILTER_THRESHOLD_SETTING} must be a number of percent between 0 and 100, not ${shown(t)}; ` +
          `keeping ${percentText(last.threshold)}`,
      );
    }
  }
  let by = DEFAULT_CALLFLOW_FILTER.by;
  const b = raw.filterBy;
  if (b !== undefined) {
    if (b === 'inclusive' || b === 'exclusive') by = b;
    else {
      by = last.by;
      warnings.push(`${FILTER_BY_SETTING} must be "inclusive" or "exclusive", not ${shown(b)}; keeping "${last.by}"`);
    }
  }
  return { filter: { threshold, by }, warnings };
}

/** `0.001` → `0.1 %`, `0.0001` → `0.01 %`, `0.05` → `5 %`. */
export function percentText(share: number): string {
  return `${Number((share * 100).toPrecision(6))} %`;
}

/**
 * The Sankey header's account of the filter: "0.1 % filter: 172 of 230 functions kept, 1,189 nodes
 * folded into callers" (plus what repopulation re-added); "No filter: 230 functions, 1,908 nodes"
 * at threshold 0. Null when the message carries no filter counts.
 */
export function filterHeadline(filter: CallflowData['filter']): string | null {
  if (!filter || filter.totalFunctions === undefined || filter.keptFunctions === undefined) return null;
  const n = (v: number) => v.toLocaleString('en');
  if (filter.threshold === 0)
    return `No filter: ${n(filter.totalFunctions)} functions, ${n(filter.totalNodes ?? 0)} nodes`;
  const side = filter.by === 'exclusive' ? ' exclusive' : '';
  const again = filter.repopulatedNodes ? `, ${n(filter.repopulatedNodes)} shown again` : '';
  return (
    `${percentText(filter.threshold)}${side} filter: ${n(filter.keptFunctions)} of ${n(filter.totalFunctions)} ` +
    `functions kept, ${n(filter.removedNodes)} nodes folded into callers${again}`
  );
}

/** "2,000 of 162,954 supernodes shown: the heaviest, with their callers (160,954 left out)", or null. */
export function guardHeadline(guard: CallflowData['guard']): string | null {
  if (!guard) return null;
  const n = (v: number) => v.toLocaleString('en');
  return (
    `${n(guard.shown)} of ${n(guard.supernodes)} supernodes shown: the heaviest, with their callers ` +
    `(${n(guard.omitted)} left out)`
  );
}

/** What a panel keeps per dataset about the filter: its own choice (null: the settings') and what it shows again. */
export interface FilterState {
  filter: CallflowFilter | null;
  repopulate: RepopulateRequest[];
}

/** A node as the panels' requests are checked against: its label and the functions folded into it. */
interface FoldingNode {
  id: string;
  label: string;
  filteredCallees?: readonly { name: string }[];
  filteredCalleeCount?: number;
}

/**
 * The state after a filter, repopulate or hide-again request of a panel (the same rules for the
 * CallFlow panel and Ensemble CallFlow), or why it cannot apply. `nodes` is the graph on screen.
 * Repopulations stay when the filter changes: they are replayed on the new graph, and the ones
 * that then re-add nothing come back as the graph's misses.
 */
export function applyFilterRequest<S extends FilterState>(
  state: S,
  request:
    | { type: 'filter'; threshold: number; by: FilterBy }
    | { type: 'repopulate'; nodeId: string; function: string }
    | { type: 'unrepopulate'; nodeId?: string; function?: string },
  nodes: readonly FoldingNode[] | undefined,
): S | { error: string } {
  switch (request.type) {
    case 'filter': {
      const { threshold, by } = request;
      if (!(typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0 && threshold <= 1))
        return { error: `the filter threshold must be between 0 and 100 %, not ${shown(threshold * 100)} %` };
      if (by !== 'inclusive' && by !== 'exclusive')
        return { error: `the filter applies by "inclusive" or "exclusive" value, not ${shown(by)}` };
      return { ...state, filter: { threshold, by } };
    }
    case 'repopulate': {
      const node = nodes?.find(n => n.id === request.nodeId);
      if (!node) return { error: `no node ${request.nodeId} in the graph to show filtered callees under` };
      if (!node.filteredCallees?.some(c => c.name === request.function))
        return {
          error: node.filteredCalleeCount
            ? `${request.function} is not among the functions the filter folded into ${node.label}`
            : `the filter folded no function into ${node.label}`,
        };
      if (state.repopulate.some(r => r.node === node.id && r.function === request.function)) return state;
      return { ...state, repopulate: [...state.repopulate, { node: node.id, function: request.function }] };
    }
    case 'unrepopulate': {
      const hit = (r: RepopulateRequest) =>
        (request.nodeId === undefined || r.node === request.nodeId) &&
        (request.function === undefined || r.function === request.function);
      const repopulate = state.repopulate.filter(r => !hit(r));
      if (repopulate.length === state.repopulate.length)
        return {
          error:
            request.function !== undefined
              ? `${request.function} is not shown again${request.nodeId ? ` under ${request.nodeId}` : ''}`
              : 'nothing is shown again',
        };
      return { ...state, repopulate };
    }
  }
}

function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return String(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
