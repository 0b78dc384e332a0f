/**
 * One ensemble's Ensemble CallFlow session: the panel's state, the requests that change it, and the
 * computation of what a change invalidates — the ensemble graph with the projection, or only the
 * selected node's detail. It lives beside the ensemble in the analysis service (one per dataset);
 * the panel forwards the webview's requests and posts what {@link EnsembleSession.respond} returns.
 * The benchmark and the screenshot script drive the same object, so what they time and draw is what
 * the panel does.
 */
import { ensembleDetail } from '../analysis/ensemble/ensemble-detail';
import type { EnsembleProfile } from '../analysis/ensemble/ensemble-profile';
import { fastestRun, slowestRun } from '../analysis/ensemble/run-comparison';
import { ensembleGraph } from '../analysis/ensemble/ensemble-graph';
import { projectionData } from '../analysis/ensemble/projection-data';
import type { CallflowFilter } from '../analysis/graph/callflow-filter-settings';
import type { ModuleRule } from '../analysis/graph/module-map';
import type { SuperGraph } from '../analysis/graph/super-graph';
import type {
  EnsembleDetailData,
  EnsembleGraphData,
  EnsembleProjectionData,
  EnsembleRequest,
  EnsembleViewState,
} from '../shared/ensemble-protocol';
import {
  packEnsembleDetail,
  packEnsembleGraph,
  type EnsembleDetailWire,
  type PackedEnsembleGraph,
} from '../shared/ensemble-packing';
import type { EnsembleComparison } from './analysis-service';
import {
  applyEnsembleRequest,
  changeScope,
  initialEnsembleState,
  type EnsembleContext,
  type EnsemblePanelState,
} from './ensemble-state';

export interface EnsembleSessionOptions {
  title: string;
  /** The metric (by name) the views show; read on every computation (the user may switch it). */
  metric(): string;
  moduleMap?(): readonly ModuleRule[];
  /** The filter of the settings, used until the panel chooses one for this ensemble. */
  filter?(): CallflowFilter;
}

/** What one request to the session answers: the state after it and what changed. */
export interface EnsembleViewResult {
  state: EnsembleViewState;
  /** What the editor's CodeLens and hovers follow (mode, target, diff pair). */
  comparison: EnsembleComparison;
  /** Present when the graph was recomputed (or asked for): the ensemble-Sankey and the projection. */
  graph?: { data: EnsembleGraphData; projection: EnsembleProjectionData };
  /** The selected supernode's linked views (always current). */
  detail: EnsembleDetailData | null;
  /** Why the request was refused; the state is then unchanged. */
  error?: string;
  timings: EnsembleTimings;
}

/**
 * What the analysis service answers: the result with its graph and the correlation points of its
 * detail packed (fresh buffers the worker transfers and the extension host forwards untouched).
 */
export type EnsembleViewAnswer = Omit<EnsembleViewResult, 'graph' | 'detail'> & {
  graph?: { data: PackedEnsembleGraph; projection: EnsembleProjectionData };
  detail: EnsembleDetailWire | null;
};

/** Packs a session's answer for the wire. */
export function packEnsembleView(r: EnsembleViewResult): EnsembleViewAnswer {
  const { graph, detail, ...rest } = r;
  const wire = { ...rest, detail: detail && packEnsembleDetail(detail) };
  return graph ? { ...wire, graph: { data: packEnsembleGraph(graph.data), projection: graph.projection } } : wire;
}

/** Milliseconds each step of the last computation took. */
export interface EnsembleTimings {
  graph?: number;
  detail?: number;
  projection?: number;
}

export interface EnsembleComputed {
  data: EnsembleGraphData;
  graph: SuperGraph;
  projection: EnsembleProjectionData;
  /** Metric, input and runs the projection was computed for. */
  projectionKey: string;
  detail: EnsembleDetailData | null;
}

export type Scope = 'graph' | 'detail' | 'state';

export class EnsembleSession {
  state: EnsemblePanelState = initialEnsembleState();
  computed: EnsembleComputed | undefined;
  timings: EnsembleTimings = {};
  /** A function whose supernode the next graph computation selects (a CodeLens click). */
  focusFunction: string | undefined;
  /** Metric and module map the computed graph was built with: a change of either rebuilds it. */
  private graphKey = '';

  constructor(
    readonly ep: EnsembleProfile,
    public options: EnsembleSessionOptions,
  ) {}

  /**
   * Applies `request` (null: none) and recomputes what it invalidates; `needGraph` sends the graph
   * even when it did not change (a panel showing it for the first time).
   */
  respond(request: EnsembleRequest | null, needGraph: boolean): EnsembleViewResult {
    let scope: Scope = needGraph ? 'graph' : 'detail';
    if (request) {
      const applied = this.apply(request);
      if ('error' in applied) return { ...this.answer(undefined), error: applied.error, timings: {} };
      if (applied.scope === 'graph') scope = 'graph';
      else if (applied.scope === 'state' && !needGraph && this.computed) return this.answer(undefined);
    }
    const key = `${this.options.metric()}|${JSON.stringify(this.options.moduleMap?.() ?? [])}|${JSON.stringify(this.filter())}`;
    if (key !== this.graphKey) scope = 'graph';
    const c = this.compute(scope === 'graph' ? 'graph' : 'detail');
    this.graphKey = key;
    return this.answer(scope === 'graph' ? { data: c.data, projection: c.projection } : undefined);
  }

  private answer(graph: EnsembleViewResult['graph']): EnsembleViewResult {
    const v = this.state.view;
    return {
      state: v,
      comparison: { mode: v.mode, target: v.target, diff: v.diff },
      ...(graph ? { graph } : {}),
      detail: this.computed?.detail ?? null,
      timings: this.timings,
    };
  }

  /** What requests are checked against; the default target and pair come from the selected runs. */
  context(): EnsembleContext {
    const e = this.ep.ensemble;
    const runs = this.state.view.runs ?? undefined;
    return {
      runCount: e.runCount,
      slowestRun: slowestRun(e, runs),
      fastestRun: fastestRun(e, runs),
      runName: r => e.runs[r]?.name ?? `#${r}`,
      data: this.computed?.data,
    };
  }

  /** Applies a request to the state; says what it invalidates, or why it cannot apply (state unchanged). */
  apply(request: EnsembleRequest): { scope: Scope } | { error: string } {
    const next = applyEnsembleRequest(this.state, request, this.context());
    if ('error' in next) return next;
    this.state = next;
    const scope = changeScope(request);
    // Without a computed graph there is nothing to update but everything to compute.
    return { scope: this.computed ? scope : 'graph' };
  }

  /** The filter in force: the panel's own choice for this ensemble, else the settings'. */
  filter(): CallflowFilter | undefined {
    return this.state.filter ?? this.options.filter?.();
  }

  /** Recomputes what `scope` invalidates (and the detail, which follows every graph). */
  compute(scope: 'graph' | 'detail'): EnsembleComputed {
    const timings: EnsembleTimings = {};
    const metric = this.options.metric();
    const view = () => this.state.view;
    let c = this.computed;
    if (scope === 'graph' || !c) {
      let t = performance.now();
      const result = ensembleGraph(this.ep, {
        state: view(),
        metric,
        title: this.options.title,
        splits: this.state.splits,
        reveal: this.state.reveal,
        ...(this.filter() ? { filter: { ...this.filter()! } } : {}),
        ...(this.state.repopulate.length ? { repopulate: this.state.repopulate } : {}),
        ...(this.options.moduleMap ? { moduleMap: this.options.moduleMap() } : {}),
      });
      timings.graph = performance.now() - t;
      // The projection depends on the runs and its input only, not on the mode or the selection.
      const key = `${metric}|${view().options.projectionInput}|${view().options.clusters}|${view().runs?.join(',') ?? 'all'}`;
      let projection: EnsembleProjectionData;
      if (c?.projectionKey === key) projection = c.projection;
      else {
        t = performance.now();
        projection = projectionData(
          this.ep.ensembleOf(metric),
          view().options.projectionInput,
          view().runs,
          view().options.clusters,
        );
        timings.projection = performance.now() - t;
      }
      // A selection that no longer names a node (after an unsplit, a filter) falls back to none.
      let selected = view().selected;
      if (selected && !result.data.nodes.some(n => n.id === selected)) selected = null;
      if (this.focusFunction !== undefined) {
        selected = supernodeOfFunction(this.ep, result.graph, this.focusFunction, metric) ?? selected;
        this.focusFunction = undefined;
      }
      this.state = { ...this.state, view: { ...view(), selected } };
      c = { data: result.data, graph: result.graph, projection, projectionKey: key, detail: null };
    }
    const t = performance.now();
    const detail = view().selected ? ensembleDetail(this.ep, c.graph, view().selected!, view(), metric) : null;
    timings.detail = performance.now() - t;
    this.computed = { ...c, detail };
    this.timings = timings;
    return this.computed;
  }
}

/** The supernode holding most of a function's time (its heaviest call-tree instance), or undefined. */
function supernodeOfFunction(ep: EnsembleProfile, graph: SuperGraph, fn: string, metric: string): string | undefined {
  const p = ep.profile;
  const tree = p.tree;
  const inclusive = p.inclusiveTotals(Math.max(0, p.metricIndex(metric)));
  let best = -1;
  for (let i = 0; i < tree.size; i++) {
    if (graph.superOf[i]! >= 0 && tree.name(i) === fn && (best < 0 || inclusive[i]! > inclusive[best]!)) best = i;
  }
  return best >= 0 ? graph.nodes[graph.superOf[best]!]!.id : undefined;
}
