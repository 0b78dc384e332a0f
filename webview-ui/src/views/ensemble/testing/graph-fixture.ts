/**
 * Synthetic ensemble super graphs for the Ensemble-Sankey's tests and screenshots: a LULESH-like
 * module graph (a weak-scaling study over rank counts, two compilers) whose per-run values are
 * generated, then summarised exactly as the protocol asks — maxima and minima over the selected
 * runs, run histograms (the analysis library's `runHistogram`, so bins agree with the host), one
 * global count scale, target and diff fields, and the ordered-ensemble sparklines.
 */
import { runHistogram } from '../../../../../src/analysis/ensemble/node-statistics';
import { orderScore } from '../../../../../src/analysis/ensemble/ordered-ensemble';
import { symmetricDomain } from '../../../../../src/analysis/ensemble/run-comparison';
import { binOf } from '../../../../../src/analysis/stats/histogram';
import { seededRandom } from '../../../../../src/analysis/stats/seeded-random';
import { DEFAULT_ENSEMBLE_OPTIONS } from '../../../../../src/shared/ensemble-protocol';
import type {
  EnsembleGraphData,
  EnsembleHistogram,
  EnsembleLinkData,
  EnsembleNodeData,
  EnsembleOptions,
  EnsembleRunInfo,
  EnsembleViewState,
} from '../../../../../src/shared/ensemble-protocol';

export interface GraphFixtureOptions {
  /** Number of runs (default 16). */
  runs?: number;
  seed?: number;
  /** Histogram bins (default 20). */
  bins?: number | 'auto';
  /** Nodes whose exclusive values split in two groups: even runs near the low end, odd runs ~2.2× higher. */
  bimodal?: readonly string[];
  /** Nodes missing in some runs (their callees too, when no other caller is left). */
  missing?: readonly { node: string; runs: readonly number[] }[];
  /** Mode `target` with this target run. */
  target?: number;
  /** Mode `diff` with this pair. */
  diff?: { baseline: number; compare: number };
  /** Ordered ensemble by this parameter (`ranks` or `compiler`). */
  orderBy?: string;
  /** The run subset (default: all runs). */
  selectedRuns?: readonly number[];
  /** Leave out `runValues` (as the host does above MAX_RUN_VALUES runs). */
  withoutRunValues?: boolean;
  options?: Partial<EnsembleOptions>;
  selected?: string | null;
}

interface NodeSpec {
  id: string;
  module: string;
  /** Exclusive seconds of a run at 8 ranks. */
  base: number;
  /** Growth of the exclusive value per doubling of the rank count (weak scaling: near 0). */
  growth: number;
  callers: { id: string; share: number }[];
  entries: { name: string; file: string | null; line: number | null; share: number }[];
}

/** Callers before callees. */
const NODES: NodeSpec[] = [
  {
    id: 'lulesh',
    module: 'lulesh2.0',
    base: 0.6,
    growth: 0.01,
    callers: [],
    entries: [{ name: 'main', file: 'lulesh.cc', line: 2690, share: 1 }],
  },
  {
    id: 'CalcForce',
    module: 'CalcForce',
    base: 3.2,
    growth: 0.03,
    callers: [{ id: 'lulesh', share: 1 }],
    entries: [
      { name: 'CalcForceForNodes', file: 'lulesh.cc', line: 1240, share: 0.8 },
      { name: 'CalcVolumeForceForElems', file: 'lulesh.cc', line: 1176, share: 0.2 },
    ],
  },
  {
    id: 'CalcLagrange',
    module: 'CalcLagrange',
    base: 2.1,
    growth: 0.02,
    callers: [{ id: 'lulesh', share: 1 }],
    entries: [
      { name: 'LagrangeElements', file: 'lulesh.cc', line: 2210, share: 0.7 },
      { name: 'LagrangeNodal', file: 'lulesh.cc', line: 1310, share: 0.3 },
    ],
  },
  {
    id: 'MPI',
    module: 'MPI',
    base: 0.9,
    growth: 0.22,
    callers: [
      { id: 'lulesh', share: 0.35 },
      { id: 'CalcForce', share: 0.65 },
    ],
    entries: [
      { name: 'MPI_Allreduce', file: null, line: null, share: 0.55 },
      { name: 'MPI_Wait', file: null, line: null, share: 0.3 },
      { name: 'MPI_Isend', file: null, line: null, share: 0.15 },
    ],
  },
  {
    id: 'CalcHourglass',
    module: 'CalcHourglass',
    base: 1.4,
    growth: 0.04,
    callers: [{ id: 'CalcForce', share: 1 }],
    entries: [{ name: 'CalcHourglassControlForElems', file: 'lulesh.cc', line: 1065, share: 1 }],
  },
  {
    id: 'libm',
    module: 'libm.so.6',
    base: 0.45,
    growth: 0,
    callers: [
      { id: 'CalcHourglass', share: 0.6 },
      { id: 'CalcLagrange', share: 0.4 },
    ],
    entries: [
      { name: 'cbrt', file: null, line: null, share: 0.7 },
      { name: 'sqrt', file: null, line: null, share: 0.3 },
    ],
  },
  {
    id: 'io',
    module: 'libhdf5.so',
    base: 0.3,
    growth: 0.05,
    callers: [{ id: 'lulesh', share: 1 }],
    entries: [{ name: 'DumpToVisit', file: 'lulesh-viz.cc', line: 120, share: 1 }],
  },
];

const RANK_LEVELS = [8, 27, 64, 125, 216, 343, 512, 729];

function runInfos(count: number): EnsembleRunInfo[] {
  return Array.from({ length: count }, (_, i) => {
    const ranks = RANK_LEVELS[i % RANK_LEVELS.length]!;
    const compiler = Math.floor(i / RANK_LEVELS.length) % 2 === 0 ? 'clang' : 'gcc';
    const rep = Math.floor(i / (2 * RANK_LEVELS.length));
    const name = `${compiler}_${ranks}${rep > 0 ? `_${rep}` : ''}`;
    return {
      index: i,
      name,
      path: `${compiler}/${ranks}/${rep}.cali`,
      format: 'caliper',
      ranks,
      parameters: { ranks, compiler },
      total: 0,
    };
  });
}

const present = (v: number | null): v is number => v !== null;
const maxOf = (vs: (number | null)[]): { value: number; at: number } => {
  let value = -Infinity,
    at = -1;
  vs.forEach((v, i) => {
    if (v !== null && v > value) {
      value = v;
      at = i;
    }
  });
  return at < 0 ? { value: 0, at: -1 } : { value, at };
};
const minOf = (vs: (number | null)[]): number => {
  const p = vs.filter(present);
  return p.length ? Math.min(...p) : 0;
};

function histogram(values: (number | null)[], bins: number | 'auto'): EnsembleHistogram {
  const h = runHistogram(
    Float64Array.from(values, v => (v === null ? NaN : v)),
    bins,
  );
  return { min: h.min, max: h.max, counts: [...h.counts] };
}

/** A synthetic ensemble graph and a matching panel state. */
export function ensembleGraphFixture(o: GraphFixtureOptions = {}): {
  data: EnsembleGraphData;
  state: EnsembleViewState;
} {
  const R = o.runs ?? 16;
  const rnd = seededRandom(o.seed ?? 7);
  const runs = runInfos(R);
  const bins = o.bins ?? 20;
  const bimodal = new Set(o.bimodal ?? []);

  // Per run: exclusive of every node, then inclusive bottom-up and the flow of every edge.
  const exclusive = new Map<string, (number | null)[]>();
  const inclusive = new Map<string, (number | null)[]>();
  const flow = new Map<string, number[]>();
  const edgeKey = (s: string, t: string): string => `${s}>${t}`;
  for (const n of NODES) for (const c of n.callers) flow.set(edgeKey(c.id, n.id), new Array<number>(R).fill(0));
  for (let r = 0; r < R; r++) {
    const gone = new Set<string>((o.missing ?? []).filter(m => m.runs.includes(r)).map(m => m.node));
    for (const n of NODES) if (n.callers.length && n.callers.every(c => gone.has(c.id))) gone.add(n.id);
    const doublings = Math.log2(runs[r]!.ranks / RANK_LEVELS[0]!);
    const compilerFactor = runs[r]!.parameters.compiler === 'gcc' ? 1.12 : 1;
    for (const n of NODES) {
      const ex = exclusive.get(n.id) ?? [];
      exclusive.set(n.id, ex);
      if (gone.has(n.id)) {
        ex[r] = null;
        continue;
      }
      let v = n.base * compilerFactor * (1 + n.growth * doublings);
      // The 343-rank runs of MPI finish faster than the 216-rank ones: out of order against the rank count (AT-8).
      if (n.id === 'MPI' && runs[r]!.ranks === 343) v *= 0.78;
      if (bimodal.has(n.id)) v = n.base * (r % 2 === 0 ? 1 : 2.2) * (1 + (rnd() - 0.5) * 0.01);
      else v *= 1 + (rnd() - 0.5) * 0.06;
      ex[r] = v;
    }
    for (const n of [...NODES].reverse()) {
      const inc = inclusive.get(n.id) ?? [];
      inclusive.set(n.id, inc);
      const ex = exclusive.get(n.id)![r]!;
      if (ex === null) {
        inc[r] = null;
        continue;
      }
      let sum = ex;
      for (const c of NODES.filter(m => m.callers.some(x => x.id === n.id))) {
        const ci = inclusive.get(c.id)![r];
        if (ci === null || ci === undefined) continue;
        const live = c.callers.filter(x => exclusive.get(x.id)![r] !== null);
        const share = c.callers.find(x => x.id === n.id)!.share / live.reduce((s, x) => s + x.share, 0);
        flow.get(edgeKey(n.id, c.id))![r] = ci * share;
        sum += ci * share;
      }
      inc[r] = sum;
    }
  }
  for (const run of runs) run.total = inclusive.get(NODES[0]!.id)![run.index] ?? 0;

  const selectedRuns = [...(o.selectedRuns ?? runs.map(r => r.index))].sort((a, b) => a - b);
  const pick = <T>(vs: T[]): T[] => selectedRuns.map(r => vs[r]!);
  const target = o.target;
  const diff = o.diff;
  const orderBy = o.orderBy ?? o.options?.orderBy ?? null;
  const order = orderBy ? orderOf(runs, orderBy) : undefined;

  const nodes: EnsembleNodeData[] = NODES.map(n => {
    const inc = pick(inclusive.get(n.id)!);
    const exc = pick(exclusive.get(n.id)!);
    const maxInc = maxOf(inc),
      maxExc = maxOf(exc);
    const gradient = { inclusive: histogram(inc, bins), exclusive: histogram(exc, bins) };
    const node: EnsembleNodeData = {
      id: n.id,
      label: n.module,
      module: n.module,
      kind: 'module',
      baseId: n.id,
      occurrence: 1,
      maxInclusive: maxInc.value,
      maxExclusive: maxExc.value,
      minInclusive: minOf(inc),
      minExclusive: minOf(exc),
      maxInclusiveRun: selectedRuns[maxInc.at] ?? -1,
      maxExclusiveRun: selectedRuns[maxExc.at] ?? -1,
      present: inc.filter(present).length,
      ...(o.withoutRunValues ? {} : { runValues: { inclusive: inc, exclusive: exc } }),
      gradient,
      entries: n.entries.map(e => ({ name: e.name, maxInclusive: maxInc.value * e.share, file: e.file, line: e.line })),
      entryCount: n.entries.length,
      callers: n.callers.map(c => ({ id: c.id, value: Math.max(0, ...pick(flow.get(edgeKey(c.id, n.id))!)) })),
      memberCount: n.entries.length * 3,
      functionCount: n.entries.length + 1,
    };
    if (target !== undefined) {
      const ti = inclusive.get(n.id)![target]!,
        te = exclusive.get(n.id)![target]!;
      const bin = (v: number | null, h: EnsembleHistogram): number =>
        v === null ? -1 : binOf(v, h.min, h.max, h.counts.length);
      node.target = {
        inclusive: ti,
        exclusive: te,
        binInclusive: bin(ti, gradient.inclusive),
        binExclusive: bin(te, gradient.exclusive),
      };
    }
    if (diff) {
      const b = exclusive.get(n.id)![diff.baseline]!,
        c = exclusive.get(n.id)![diff.compare]!;
      const bi = inclusive.get(n.id)![diff.baseline]!,
        ci = inclusive.get(n.id)![diff.compare]!;
      const both = b === null && c === null;
      node.diff = {
        exclusive: both ? null : (c ?? 0) - (b ?? 0),
        inclusive: both ? null : (ci ?? 0) - (bi ?? 0),
        baseline: b,
        compare: c,
      };
    }
    if (order) {
      const level = (vs: (number | null)[]): (number | null)[] =>
        order.runsAtLevel.map(at => {
          const p = at.map(r => vs[r]!).filter(present);
          return p.length ? p.reduce((s, v) => s + v, 0) / p.length : null;
        });
      const si = level(inclusive.get(n.id)!),
        se = level(exclusive.get(n.id)!);
      const side = (o.options?.gradientSide ?? DEFAULT_ENSEMBLE_OPTIONS.gradientSide) === 'inclusive' ? si : se;
      node.sparkline = {
        inclusive: si,
        exclusive: se,
        outOfOrder: orderScore(side.map(v => (v === null ? NaN : v))).inversions.length > 0,
      };
    }
    return node;
  });

  const links: EnsembleLinkData[] = [];
  for (const n of NODES)
    for (const c of n.callers) {
      const f = flow.get(edgeKey(c.id, n.id))!;
      const link: EnsembleLinkData = { source: c.id, target: n.id, value: Math.max(0, ...pick(f)) };
      if (target !== undefined) link.targetValue = f[target]!;
      if (diff) link.diff = f[diff.compare]! - f[diff.baseline]!;
      links.push(link);
    }

  const scale = (side: 'inclusive' | 'exclusive'): number =>
    Math.max(0, ...nodes.flatMap(n => n.gradient[side].counts));
  const domain = (key: 'maxInclusive' | 'maxExclusive'): [number, number] => [
    Math.min(...nodes.map(n => n[key])),
    Math.max(...nodes.map(n => n[key])),
  ];
  const data: EnsembleGraphData = {
    title: `lulesh weak scaling · ${R} runs`,
    metric: { name: 'time', unit: 's' },
    runs,
    selectedRuns,
    nodes,
    links,
    countScale: { inclusive: scale('inclusive'), exclusive: scale('exclusive') },
    borderDomain: { inclusive: domain('maxInclusive'), exclusive: domain('maxExclusive') },
    ...(diff ? { diffDomain: symmetricDomain(nodes.map(n => n.diff?.exclusive ?? 0)) } : {}),
    ...(order ? { order } : {}),
    orderKeys: ['ranks', 'compiler'],
    filter: { threshold: 0.001, by: 'inclusive', removedNodes: 0, removedFunctions: 0 },
    splits: [],
    unmatched: [],
    bins: typeof bins === 'number' ? bins : Math.max(...nodes.map(n => n.gradient.inclusive.counts.length)),
    warnings: [],
  };
  const state: EnsembleViewState = {
    mode: diff ? 'diff' : target !== undefined ? 'target' : 'summary',
    target: target ?? null,
    diff: diff ?? null,
    runs: o.selectedRuns ? selectedRuns : null,
    selected: o.selected ?? null,
    options: { ...DEFAULT_ENSEMBLE_OPTIONS, bins, orderBy, ...o.options },
  };
  return { data, state };
}

function orderOf(runs: EnsembleRunInfo[], key: string): NonNullable<EnsembleGraphData['order']> {
  const value = (r: EnsembleRunInfo): string | number => r.parameters[key] ?? '';
  const levels = [...new Set(runs.map(value))].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );
  return { key, levels, runsAtLevel: levels.map(l => runs.filter(r => value(r) === l).map(r => r.index)) };
}

/**
 * CallFlow's tapered-edge example (AT-14, paper Fig 2(d)): node maxima LIB1 = 40, LIB2 = 20,
 * LIB3 = 30, LIB4 = 35; LIB1's outgoing edge maxima 20, 10 and 35 sum to 65 > 40.
 */
export function taperedEdgeFixture(): { data: EnsembleGraphData; state: EnsembleViewState } {
  const { data, state } = ensembleGraphFixture({ runs: 4 });
  const node = (id: string, max: number): EnsembleNodeData => ({
    ...data.nodes[0]!,
    id,
    label: id,
    module: id,
    baseId: id,
    maxInclusive: max,
    maxExclusive: max / 4,
    minInclusive: max / 2,
    minExclusive: max / 8,
    maxInclusiveRun: 0,
    maxExclusiveRun: 0,
    present: 4,
    runValues: { inclusive: [max / 2, max, max * 0.75, max * 0.6], exclusive: [max / 8, max / 4, max / 5, max / 6] },
    gradient: {
      inclusive: { min: max / 2, max, counts: [1, 0, 1, 1, 1] },
      exclusive: { min: max / 8, max: max / 4, counts: [1, 1, 1, 0, 1] },
    },
    entries: [{ name: `${id.toLowerCase()}_main`, maxInclusive: max, file: `${id.toLowerCase()}.c`, line: 10 }],
    entryCount: 1,
    callers: [],
  });
  const nodes = [node('LIB1', 40), node('LIB2', 20), node('LIB3', 30), node('LIB4', 35)];
  const links: EnsembleLinkData[] = [
    { source: 'LIB1', target: 'LIB2', value: 20 },
    { source: 'LIB1', target: 'LIB3', value: 10 },
    { source: 'LIB1', target: 'LIB4', value: 35 },
  ];
  for (const l of links) nodes.find(n => n.id === l.target)!.callers = [{ id: l.source, value: l.value }];
  return {
    data: {
      ...data,
      title: 'AT-14',
      nodes,
      links,
      countScale: { inclusive: 1, exclusive: 1 },
      borderDomain: { inclusive: [20, 40], exclusive: [5, 10] },
      bins: 5,
    },
    state: { ...state, options: { ...state.options, bins: 5 } },
  };
}
