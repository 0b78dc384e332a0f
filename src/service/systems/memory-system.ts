/**
 * Memory-access samples (MemAxes, seed 002) as a system of the analysis service. It claims MemAxes
 * and Mitos sample CSVs, `perf script` memory samples and MemAxes run folders (data/ + hardware.xml)
 * by content, reads the samples and the machine in the dataset's own worker, and keeps them there
 * with the panel's scope (visible samples and selection). The editor gets an editor profile (file →
 * line → variable over the PUs, analysis/memory/editor-profile.ts); the memory panel asks for its
 * data at level of detail, makes selections, and asks for metric strips and clusters; a selection's
 * own editor profile re-weights the overlays (`selectionProfile`).
 */
import { basename } from 'node:path';
import { readMemoryDataset } from '../../analysis/formats/memory/memory-dataset';
import { samplesInRanges, type AttributeRange } from '../../analysis/memory/attribute-histograms';
import type { DepthScores } from '../../analysis/memory/depth-scores';
import { editorProfileOf, editorProfileShape, type EditorProfileShape } from '../../analysis/memory/editor-profile';
import {
  clearSelection,
  focusOf,
  hideSelected,
  hideUnselected,
  indicesWhere,
  select,
  showAll,
  type IndexSet,
  type SampleScope,
} from '../../analysis/memory/index-set';
import {
  prepareMemoryAnalysis,
  samplesAtNode,
  topologyLoad,
  type MemoryAnalysis,
  type TopologyLoad,
} from '../../analysis/memory/memory-analysis';
import { memorySummary, type MemorySummary } from '../../analysis/memory/memory-summary';
import { MemoryView } from '../../analysis/memory/memory-view';
import {
  clusterAlongAttribute,
  clusterSamples,
  cutClusters,
  type ClusterTree,
} from '../../analysis/memory/metric-clustering';
import { metricStrip } from '../../analysis/memory/metric-strip';
import { findAttribute, type SampleAttribute } from '../../analysis/memory/model/memory-samples';
import type { LineCost, VariableCost } from '../../analysis/memory/source-costs';
import type { TopologyValues } from '../../analysis/topology/topology';
import { topologyViewData } from '../../analysis/topology/topology-view-data';
import type {
  MemoryClusterData,
  MemoryDepthRow,
  MemoryLoad,
  MemoryMetricSpec,
  MemoryPanelData,
  MemoryScopeAction,
  MemorySelectionMode,
  MemorySelectionTarget,
  MemoryStripData,
} from '../../shared/memory-protocol';
import { shareProfile, type SharedModel } from '../shared-memory';
import type { AnalysisSystem } from './analysis-system';

/** What the editor is told about a memory-samples dataset it opened. */
export interface MemoryOpened {
  samples: number;
  cycles: number;
  format: string;
  dialect: string;
  samplesPath: string;
  topologyPath: string | null;
  /** Resources per depth (all 0 without a topology). */
  machine: { numa: number; l3: number; l2: number; l1: number; pu: number };
  warnings: string[];
}

export type MemoryRequest =
  /** The panel's data for the current scope. */
  | { kind: 'view' }
  /** A selection made in a view (or from the editor), applied with `mode` to the visible samples. */
  | { kind: 'select'; mode: MemorySelectionMode; target: MemorySelectionTarget }
  /** Clear the selection, hide selected or unselected samples, show all. */
  | { kind: 'scope'; action: MemoryScopeAction }
  /** A metric strip along an attribute over the visible samples. */
  | { kind: 'strip'; attribute: string; metric: MemoryMetricSpec; windows: number }
  /** `count` clusters along a continuous attribute over the visible samples, with each cluster's load. */
  | { kind: 'clusters'; attribute: string; metric: MemoryMetricSpec; count: number }
  /** The `hpc-lens memory --json` summary of the whole file. */
  | { kind: 'summary' }
  /**
   * The editor profile of the focus (the selection, or the visible samples when some are hidden),
   * in shared memory; null when every sample is visible and none is selected (the dataset's own
   * editor profile then applies).
   */
  | { kind: 'selectionProfile' };

export interface MemoryShape {
  open: never;
  opened: MemoryOpened;
  request: MemoryRequest;
  results: {
    view: MemoryPanelData;
    select: MemoryPanelData;
    scope: MemoryPanelData;
    strip: MemoryStripData;
    clusters: MemoryClusterData;
    summary: MemorySummary;
    selectionProfile: SharedModel | null;
  };
  event: never;
}

/** Cluster trees kept per dataset (one per attribute × metric shown). */
const CLUSTER_TREES_KEPT = 8;
/** At most this many clusters per axis (markers must stay distinguishable). */
const MAX_CLUSTERS = 64;
/** At most this many strip windows. */
const MAX_STRIP_WINDOWS = 500;

interface MemoryState {
  path: string;
  analysis: MemoryAnalysis;
  topologyPath: string | null;
  view: MemoryView;
  shape: EditorProfileShape;
  scope: SampleScope;
  /** Cycles of the visible samples, for the visible set it was summed over. */
  visibleCycles: { visible: IndexSet | null; cycles: number };
  /** Cluster trees over the visible set they were built for, most recent last. */
  trees: { key: string; visible: IndexSet | null; tree: ClusterTree }[];
  /** The machine resources the current selection was made on (clicks on the machine), drawn selected. */
  selectedNodes: number[];
}

function sumCycles(a: MemoryAnalysis, set: IndexSet | null): number {
  if (!set) return a.totalCycles;
  const lat = a.samples.latency;
  let s = 0;
  for (let k = 0; k < set.length; k++) s += lat[set[k]!]!;
  return s;
}

function attributeNamed(a: MemoryAnalysis, name: string): SampleAttribute {
  const attr = findAttribute(a.samples, name);
  if (!attr)
    throw new Error(
      `the samples have no attribute "${name}" (they have ${a.samples.attributes.map(x => x.name).join(', ')})`,
    );
  return attr;
}

function checkedMetric(a: MemoryAnalysis, m: MemoryMetricSpec): MemoryMetricSpec {
  if (!a.machine) throw new Error('metrics over the machine need a topology (hardware.xml, hwloc XML or lscpu -p)');
  if (!['latency', 'imbalance', 'cv', 'maxOverMean', 'gini'].includes(m.score))
    throw new Error(`unknown score ${JSON.stringify(m.score)}`);
  if (!['pu', 'l1', 'l2', 'l3', 'numa'].includes(m.depth)) throw new Error(`unknown depth ${JSON.stringify(m.depth)}`);
  return m;
}

/** A copy of topology values (the view caches the visible samples' load; answers are transferred). */
function copyValues(v: TopologyValues): TopologyValues {
  return { name: v.name, unit: v.unit, node: v.node.slice(), link: v.link.slice() };
}

function loadData(load: TopologyLoad | null): MemoryLoad | null {
  if (!load) return null;
  return {
    samples: copyValues(load.samples),
    cycles: copyValues(load.cycles),
    transactions: copyValues(load.transactions),
    unplaced: { ...load.unplaced },
  };
}

function depthRow(a: MemoryAnalysis, d: DepthScores): MemoryDepthRow {
  const named = (node: number) => (node >= 0 ? { node, label: a.machine!.topology.nodes[node]!.label } : null);
  return {
    depth: d.depth,
    resources: d.resources,
    latency: d.latency,
    imbalance: d.imbalance,
    cv: d.cv,
    maxOverMean: d.maxOverMean,
    gini: d.gini,
    extreme: named(d.extremeNode),
    busiest: named(d.maxNode),
    idlest: named(d.minNode),
  };
}

const costRow = <T extends LineCost | VariableCost>(c: T): T => ({
  ...c,
  levelSamples: [...c.levelSamples],
  levelCycles: [...c.levelCycles],
});

/**
 * The machine for the shared topology view: the focus's load (the selection, else the visible
 * samples) with cycles per access per resource, transactions as the width of the links to the
 * parents (MemAxes §6.2), colour by cycles normalised per depth (YlOrRd).
 */
function machineView(a: MemoryAnalysis, focus: TopologyLoad | null, selectedNodes: readonly number[]) {
  if (!a.machine || !focus) return null;
  const perAccess = focus.cycles.node.map((c, i) => {
    const n = focus.samples.node[i]!;
    return n > 0 ? c / n : NaN;
  });
  return topologyViewData(a.machine.topology, {
    layout: 'sunburst',
    nodeMeasures: [
      { values: focus.cycles, aggregate: 'sum' },
      { values: focus.samples, aggregate: 'sum' },
      { values: { name: 'cycles per access', unit: 'cycles', node: perAccess, link: new Float64Array(0) } },
    ],
    linkMeasures: [focus.transactions],
    containmentLinks: true,
    colour: { measure: 0, normalise: 'depth', scheme: 'YlOrRd' },
    width: { measure: 0, normalise: 'depth' },
    selected: selectedNodes,
  });
}

function panelData(state: MemoryState): MemoryPanelData {
  const a = state.analysis;
  const s = a.samples;
  const m = state.view.update(state.scope);
  const { visible, selected } = state.scope;
  if (state.visibleCycles.visible !== visible) state.visibleCycles = { visible, cycles: sumCycles(a, visible) };
  return {
    title: basename(state.path),
    format: s.format,
    dialect: s.dialect,
    samplesPath: s.path,
    topologyPath: state.topologyPath,
    all: { samples: s.count, cycles: a.totalCycles },
    visible: { samples: visible ? visible.length : s.count, cycles: state.visibleCycles.cycles },
    selected: selected ? { samples: m.top.focus.samples, cycles: m.top.focus.cycles } : null,
    focusShare: m.top.focus.share,
    topology: a.machine ? a.machine.topology : null,
    machineView: machineView(a, m.selected ?? m.total, selected ? state.selectedNodes : []),
    total: loadData(m.total),
    selection: loadData(m.selected),
    depths: m.depths.map(d => depthRow(a, d)),
    files: m.top.files.map(f => ({ ...f, lines: f.lines.map(costRow) })),
    variables: m.top.variables.map(costRow),
    histograms: m.histograms.map(h => ({
      attribute: h.attribute,
      kind: h.kind,
      min: h.min,
      max: h.max,
      ...(h.categories ? { categories: h.categories } : {}),
      visible: h.visible.slice(),
      selected: h.selected,
    })),
    warnings: a.warnings,
  };
}

/** The samples a selection target names, among the visible ones. */
function samplesOf(state: MemoryState, target: MemorySelectionTarget): IndexSet {
  const a = state.analysis;
  const s = a.samples;
  const visible = state.scope.visible;
  const where = (keep: (i: number) => boolean) => indicesWhere(s.count, keep, visible);
  switch (target.kind) {
    case 'ranges': {
      const ranges: AttributeRange[] = target.ranges.map(r => {
        if (!(r.min <= r.max)) throw new Error(`the range of "${r.attribute}" is empty (${r.min} > ${r.max})`);
        return { attribute: attributeNamed(a, r.attribute), min: r.min, max: r.max };
      });
      return samplesInRanges(a, ranges, visible);
    }
    case 'node': {
      const nodes = a.machine?.topology.nodes.length ?? 0;
      if (!(Number.isInteger(target.node) && target.node >= 0 && target.node < nodes))
        throw new Error(`node ${target.node} is not a resource of the machine`);
      return samplesAtNode(a, target.node, visible);
    }
    case 'line': {
      const f = s.source.names.indexOf(target.file);
      if (f < 0) throw new Error(`no samples name the source file ${target.file}`);
      let id = -1;
      for (let l = 0; l < a.lineFile.length; l++) if (a.lineFile[l] === f && a.lineNumber[l] === target.line) id = l;
      if (id < 0) throw new Error(`no samples at ${target.file}:${target.line}`);
      return where(i => a.lineOf[i] === id);
    }
    case 'file': {
      const f = s.source.names.indexOf(target.file);
      if (f < 0) throw new Error(`no samples name the source file ${target.file}`);
      return where(i => s.source.ids[i] === f);
    }
    case 'variable': {
      const v = s.variable.names.indexOf(target.name);
      if (v < 0) throw new Error(`no samples name the variable ${target.name}`);
      return where(i => s.variable.ids[i] === v);
    }
    case 'cluster': {
      const tree = clusterTree(state, target.attribute, target.metric);
      if (!(Number.isInteger(target.node) && target.node >= 0 && target.node < tree.nodes.length))
        throw new Error(`cluster ${target.node} is not in the clustering along ${target.attribute}`);
      return clusterSamples(tree, target.node);
    }
  }
}

function clusterTree(state: MemoryState, attribute: string, metric: MemoryMetricSpec): ClusterTree {
  const a = state.analysis;
  const attr = attributeNamed(a, attribute);
  checkedMetric(a, metric);
  const key = `${attr.name}|${metric.score}|${metric.depth}`;
  const visible = state.scope.visible;
  const k = state.trees.findIndex(t => t.key === key && t.visible === visible);
  if (k >= 0) {
    const [kept] = state.trees.splice(k, 1);
    state.trees.push(kept!);
    return kept!.tree;
  }
  const tree = clusterAlongAttribute(a, attr, metric, { set: visible });
  state.trees = state.trees.filter(t => t.visible === visible).slice(-(CLUSTER_TREES_KEPT - 1));
  state.trees.push({ key, visible, tree });
  return tree;
}

function strip(state: MemoryState, r: Extract<MemoryRequest, { kind: 'strip' }>): MemoryStripData {
  const a = state.analysis;
  const windows = Math.round(r.windows);
  if (!(windows >= 1 && windows <= MAX_STRIP_WINDOWS))
    throw new Error(`a metric strip has 1 to ${MAX_STRIP_WINDOWS} windows (asked for ${r.windows})`);
  const s = metricStrip(a, attributeNamed(a, r.attribute), checkedMetric(a, r.metric), windows, state.scope.visible);
  return { attribute: s.attribute, metric: r.metric, min: s.min, max: s.max, windows: s.windows, peak: s.peak };
}

function clusters(state: MemoryState, r: Extract<MemoryRequest, { kind: 'clusters' }>): MemoryClusterData {
  const a = state.analysis;
  const count = Math.round(r.count);
  if (!(count >= 1 && count <= MAX_CLUSTERS)) throw new Error(`1 to ${MAX_CLUSTERS} clusters (asked for ${r.count})`);
  const tree = clusterTree(state, r.attribute, r.metric);
  return {
    attribute: tree.attribute,
    metric: r.metric,
    count,
    leaves: tree.leaves,
    clusters: cutClusters(tree, count).map(node => {
      const x = tree.nodes[node]!;
      // Without a topology there is no machine to load: the markers still select (issue 21, bad input).
      const load = a.machine ? topologyLoad(a, clusterSamples(tree, node)) : null;
      return {
        node,
        start: x.start,
        end: x.end,
        min: x.min,
        max: x.max,
        value: x.value,
        cycles: load ? load.cycles.node : null,
        samplesPerNode: load ? load.samples.node : null,
        machineView: machineView(a, load, []),
      };
    }),
  };
}

function applyScope(state: MemoryState, action: MemoryScopeAction): SampleScope {
  const scope = state.scope;
  switch (action) {
    case 'clear':
      return clearSelection(scope);
    case 'hideSelected':
      return hideSelected(scope, state.analysis.samples.count);
    case 'hideUnselected':
      return hideUnselected(scope);
    case 'showAll':
      return showAll(scope);
  }
}

export const memorySystem: AnalysisSystem<MemoryShape, MemoryState> = {
  async openPath(path, _limits, ctx) {
    const dataset = await readMemoryDataset(path, {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    });
    ctx.onProgress?.(1, 'joining the samples to the machine');
    const analysis = prepareMemoryAnalysis(dataset.samples, dataset.machine);
    const shape = editorProfileShape(analysis, path);
    const summary = memorySummary(analysis);
    const state: MemoryState = {
      path,
      analysis,
      topologyPath: dataset.topologyPath,
      view: new MemoryView(analysis),
      shape,
      scope: { visible: null, selected: null },
      visibleCycles: { visible: null, cycles: analysis.totalCycles },
      trees: [],
      selectedNodes: [],
    };
    return {
      state,
      opened: {
        samples: summary.samples,
        cycles: summary.cycles,
        format: dataset.samples.format,
        dialect: dataset.samples.dialect,
        samplesPath: dataset.samples.path,
        topologyPath: dataset.topologyPath,
        machine: summary.topology,
        warnings: analysis.warnings,
      },
      profile: editorProfileOf(analysis, shape, null),
    };
  },

  answer(state, request) {
    switch (request.kind) {
      case 'view':
        return panelData(state);
      case 'select': {
        state.scope = select(state.scope, samplesOf(state, request.target), request.mode);
        const t = request.target;
        // The machine marks the resources the selection was made on (clicked, added); others clear the mark.
        if (t.kind === 'node')
          state.selectedNodes = request.mode === 'append' ? [...state.selectedNodes, t.node] : [t.node];
        else if (request.mode !== 'filter') state.selectedNodes = [];
        return panelData(state);
      }
      case 'scope':
        state.scope = applyScope(state, request.action);
        return panelData(state);
      case 'strip':
        return strip(state, request);
      case 'clusters':
        return clusters(state, request);
      case 'summary':
        return memorySummary(state.analysis);
      case 'selectionProfile': {
        const focus = focusOf(state.scope);
        return focus ? shareProfile(editorProfileOf(state.analysis, state.shape, focus)) : null;
      }
    }
  },
};
