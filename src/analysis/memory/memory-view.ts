/**
 * Everything the memory panel and the editor show for one scope (visible samples + selection),
 * recomputed on every selection change. What depends only on the visible samples (their topology
 * load, histograms, line and variable costs) is kept until the visible set changes, so a selection
 * change costs passes over the selected samples only: linear set operations, as in MemAxes §8.
 */
import { attributeHistogram, HISTOGRAM_BINS, withSelection, type AttributeHistogram } from './attribute-histograms';
import { depthScores, type DepthScores } from './depth-scores';
import type { SampleScope } from './index-set';
import { topologyLoad, type MemoryAnalysis, type TopologyLoad } from './memory-analysis';
import {
  lineCosts,
  rankOffenders,
  variableCosts,
  type LineCost,
  type TopOffenderLimits,
  type TopOffenders,
  type VariableCost,
} from './source-costs';

export interface MemoryViewModel {
  scope: SampleScope;
  /** The visible samples' load on the machine, and the selection's apart; null without a topology. */
  total: TopologyLoad | null;
  selected: TopologyLoad | null;
  /** Per-depth scores of the selection (or of all visible samples when nothing is selected). */
  depths: DepthScores[];
  /** Top files × lines and variables of the selection (or of all visible samples). */
  top: TopOffenders;
  /** Every source line and variable of the selection (or of all visible samples), by cycles: the editor's heat, after-line text and hovers. */
  lines: LineCost[];
  variables: VariableCost[];
  /** One histogram per attribute: visible counts, and the selection's in the same bins. */
  histograms: AttributeHistogram[];
}

interface VisibleAggregates {
  visible: SampleScope['visible'];
  load: TopologyLoad | null;
  histograms: AttributeHistogram[];
  lines: LineCost[];
  variables: VariableCost[];
}

export class MemoryView {
  private cache: VisibleAggregates | null = null;

  constructor(
    readonly analysis: MemoryAnalysis,
    private readonly options: { bins?: number; limits?: TopOffenderLimits } = {},
  ) {}

  /** The aggregates of the visible samples, recomputed only when the visible set is another one. */
  private visibleAggregates(visible: SampleScope['visible']): VisibleAggregates {
    if (this.cache && this.cache.visible === visible) return this.cache;
    const a = this.analysis;
    const scope = { visible, selected: null };
    this.cache = {
      visible,
      load: a.machine ? topologyLoad(a, visible) : null,
      histograms: a.samples.attributes.map(attr =>
        attributeHistogram(attr, scope, this.options.bins ?? HISTOGRAM_BINS),
      ),
      lines: lineCosts(a, visible),
      variables: variableCosts(a, visible),
    };
    return this.cache;
  }

  update(scope: SampleScope): MemoryViewModel {
    const a = this.analysis;
    const base = this.visibleAggregates(scope.visible);
    const sel = scope.selected;
    const selected = sel && a.machine ? topologyLoad(a, sel) : null;
    const lines = sel ? lineCosts(a, sel) : base.lines;
    const variables = sel ? variableCosts(a, sel) : base.variables;
    const load = selected ?? base.load;
    return {
      scope,
      total: base.load,
      selected,
      depths: load ? depthScores(a, load) : [],
      top: rankOffenders(a, lines, variables, this.options.limits),
      lines,
      variables,
      histograms: base.histograms.map((h, k) => (sel ? withSelection(h, a.samples.attributes[k]!, sel) : h)),
    };
  }
}
