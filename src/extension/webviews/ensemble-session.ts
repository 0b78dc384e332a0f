/**
 * One ensemble's Ensemble CallFlow session (pure: no `vscode`): the panel's state, the requests
 * that change it, and the computation of what a change invalidates — the ensemble graph with the
 * projection, or only the selected node's detail. The panel is the VS Code glue around it; the
 * benchmark and the screenshot script drive the same object, so what they time and draw is what
 * the panel does.
 */
import { ensembleDetail } from '../../analysis/ensemble/ensemble-detail';
import type { EnsembleProfile } from '../../analysis/ensemble/ensemble-profile';
import { fastestRun, slowestRun } from '../../analysis/ensemble/run-comparison';
import { ensembleGraph } from '../../analysis/ensemble/ensemble-graph';
import { projectionData } from '../../analysis/ensemble/projection-data';
import type { ModuleRule } from '../../analysis/graph/module-map';
import type { SuperGraph } from '../../analysis/graph/super-graph';
import type {
  EnsembleDetailData,
  EnsembleGraphData,
  EnsembleProjectionData,
  EnsembleRequest,
} from '../../shared/ensemble-protocol';
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
  constructor(
    readonly ep: EnsembleProfile,
    private readonly options: EnsembleSessionOptions,
  ) {}

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
        ...(this.options.moduleMap ? { moduleMap: this.options.moduleMap() } : {}),
      });
      timings.graph = performance.now() - t;
      // The projection depends on the runs and its input only, not on the mode or the selection.
      const key = `${metric}|${view().options.projectionInput}|${view().runs?.join(',') ?? 'all'}`;
      let projection: EnsembleProjectionData;
      if (c?.projectionKey === key) projection = c.projection;
      else {
        t = performance.now();
        projection = projectionData(this.ep.ensembleOf(metric), view().options.projectionInput, view().runs);
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
