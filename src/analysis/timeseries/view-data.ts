import type { TraceAnalysis } from './analyze-trace';
import type { ClassName } from './semantic-class';

/**
 * What the Trace Analysis panel, the timeline and the editor show of an analysis (paper §3.4 and
 * §5's views): level-of-detail data, computed in the worker that holds the analysis. Lanes are
 * named as the timeline names them; times are ns from the trace origin unless a field says seconds.
 */

/** A set of lane names in few characters: the numbers that vary as ranges (`{8–15}`), and the whole (`rank 8–15`). */
export interface LaneSetLabel {
  /** `{8–15}`, `{0–7, 16–23}`; a single lane's own name; `rank 0, rank 5, … (+6)` when names share no pattern. */
  short: string;
  /** The names with the varying number as ranges: `rank 8–15 · thread 0`, `rank {0–7, 16} · thread 0`. */
  text: string;
}

const SPLIT = /(\d+)/;

/** `8–15, 17, 20–21` for sorted unique integers (at most `max` runs, then `… (+n)`). */
export function integerRanges(values: readonly number[], max = 8): string {
  const runs: [number, number][] = [];
  for (const v of values) {
    const last = runs[runs.length - 1];
    if (last && v === last[1] + 1) last[1] = v;
    else runs.push([v, v]);
  }
  const parts = runs.slice(0, max).map(([a, b]) => (a === b ? String(a) : `${a}–${b}`));
  if (runs.length > max) parts.push(`… (+${runs.length - max})`);
  return parts.join(', ');
}

/**
 * Compresses lane names that differ in one number (`rank 8` … `rank 15`, `rank 3 · thread 0`):
 * the varying number becomes a range list. Names with no common pattern are listed, the first few.
 */
export function laneSetLabel(names: readonly string[], maxListed = 3): LaneSetLabel {
  if (names.length === 0) return { short: '{}', text: '' };
  if (names.length === 1) return { short: names[0]!, text: names[0]! };
  const parts = names.map(n => n.split(SPLIT));
  const shape = parts[0]!;
  // Same text pieces and piece count; numbers differ at exactly one position.
  const same = parts.every(p => p.length === shape.length && p.every((x, i) => i % 2 === 1 || x === shape[i]));
  if (same) {
    const varying: number[] = [];
    for (let i = 1; i < shape.length; i += 2) if (parts.some(p => p[i] !== shape[i])) varying.push(i);
    if (varying.length === 1) {
      const at = varying[0]!;
      const values = [...new Set(parts.map(p => Number(p[at])))].sort((a, b) => a - b);
      const ranges = integerRanges(values);
      const single = !ranges.includes(',');
      const text = shape.map((x, i) => (i === at ? (single ? ranges : `{${ranges}}`) : x)).join('');
      return { short: `{${ranges}}`, text };
    }
  }
  const listed = names.slice(0, maxListed).join(', ');
  const more = names.length > maxListed ? `, … (+${names.length - maxListed})` : '';
  return { short: `${listed}${more}`, text: `${listed}${more}` };
}

export interface ClusterView {
  index: number;
  role: number;
  roleName: string;
  size: number;
  label: LaneSetLabel;
  representative: { lane: number; track: number; name: string };
  /** diffRatio of the representative to the cluster's average, and of the cluster to its nearest neighbour (null when alone). */
  representativeDistance: number;
  nearestDistance: number | null;
  /** Band height weight log₂(size + 1) (paper §3.4). */
  weight: number;
}

export interface LoopView {
  index: number;
  role: number;
  name: string;
  file: string | null;
  line: number | null;
  implicit: boolean;
  accepted: boolean;
  iterations: number;
  ids: number;
  acceptedIds: number;
  rejectedIds: number;
  instances: number;
  profileInstances: number;
  lanes: number;
  /** Mean share of the run per lane. */
  share: number;
  /** Iteration clusters of one instance on a representative lane, run-length encoded (identifiers + 1). */
  strip: { cluster: number; from: number; to: number }[];
  /** Distinct iteration clusters in the strip. */
  iterationClusters: number;
  /** Iteration durations over every lane and instance (ns); NaN when none was accepted. */
  meanIteration: number;
  minIteration: number;
  maxIteration: number;
}

export interface PathView {
  index: number;
  role: number;
  path: string[];
  name: string;
  file: string | null;
  line: number | null;
  /** First call-tree node of the path's construct (-1 for iterations and implicit loops). */
  node: number;
  class: Exclude<ClassName, 'insignificant'>;
  iteration: number | null;
  /** Seconds. */
  imbalance: number;
  wait: number;
  /** Table 1's loss: what removing the imbalance and the waiting would save (s). */
  saving: number;
  min: number;
  avg: number;
  max: number;
  byImbalance: boolean;
  byWait: boolean;
  maxLane: string | null;
  minLane: string | null;
  maxCluster: number;
  minCluster: number;
  startNs: number | null;
  endNs: number | null;
  /** The segment the path belongs to. */
  segment: number;
}

export interface SegmentView {
  index: number;
  role: number;
  roleName: string;
  startNs: number | null;
  endNs: number | null;
  /** Table 2 row (0 = no significant loss). */
  row: number;
  diagnosis: string;
  /** Seconds. */
  imbS: number;
  waitS: number;
  sumImb: number;
  sumWait: number;
  projectedSaving: number;
  paths: number[];
  sync: number | null;
}

/** A cluster band of the timeline: the representative's lane first. */
export interface ClusterBand {
  cluster: number;
  label: string;
  tracks: number[];
  weight: number;
}

export interface TraceAnalysisView {
  /** V in seconds, null for instrumented traces. */
  samplingPeriod: number | null;
  /** Seconds. */
  runTime: number;
  lanes: number;
  events: number;
  skipped: { name: string; reason: string }[];
  notes: string[];
  roles: { name: string; lanes: number; clusters: number[] }[];
  clusters: ClusterView[];
  loops: LoopView[];
  paths: PathView[];
  segments: SegmentView[];
  /** Σ projected savings of every segment (s), the what-if with all of them fixed. */
  totalSaving: number;
  /** The timeline's cluster bands (lanes grouped and ordered by cluster). */
  bands: ClusterBand[];
  /** The call depth of the deepest significant path (the timeline's automatic depth), −1 without any. */
  depth: number;
}

/** The panel's data of an analysis. `nodeDepth` gives a call-tree node's depth (for the timeline's automatic depth). */
export function traceAnalysisView(a: TraceAnalysis, nodeDepth?: (node: number) => number): TraceAnalysisView {
  const laneName = (l: number) => a.lanes[l]!.name;
  const clusterNames = a.clusters.map(c => laneSetLabel(c.members.map(laneName)));
  const clusters: ClusterView[] = a.clusters.map((c, k) => ({
    index: k,
    role: c.role,
    roleName: a.roles[c.role]!.name,
    size: c.members.length,
    label: clusterNames[k]!,
    representative: {
      lane: c.representative,
      track: a.lanes[c.representative]!.track,
      name: laneName(c.representative),
    },
    representativeDistance: c.representativeDistance,
    nearestDistance: c.nearestDistance,
    weight: Math.log2(c.members.length + 1),
  }));
  const durations = loopDurations(a);
  const loops: LoopView[] = a.loops.map((l, k) => {
    const d = durations[k]!;
    return {
      index: k,
      role: l.role,
      name: l.name,
      file: l.file,
      line: l.line,
      implicit: l.implicit,
      accepted: l.accepted,
      iterations: l.iterations,
      ids: l.ids,
      acceptedIds: l.acceptedIds,
      rejectedIds: l.rejectedIds,
      instances: l.instances,
      profileInstances: l.profileInstances,
      lanes: l.lanes,
      share: l.share,
      strip: l.strip,
      iterationClusters: new Set(l.strip.map(s => s.cluster)).size,
      meanIteration: d.count ? d.sum / d.count : NaN,
      minIteration: d.count ? d.min : NaN,
      maxIteration: d.count ? d.max : NaN,
    };
  });
  const segmentOf = new Int32Array(a.significant.length).fill(-1);
  a.segments.forEach((g, k) => g.paths.forEach(p => (segmentOf[p] = k)));
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const paths: PathView[] = a.significant.map((s, k) => ({
    index: k,
    role: s.role,
    path: s.path,
    name: s.name,
    file: s.file,
    line: s.line,
    node: s.node,
    class: s.class,
    iteration: s.iteration,
    imbalance: s.imbalance,
    wait: s.wait,
    saving: s.imbalance + s.wait,
    min: s.min,
    avg: s.avg,
    max: s.max,
    byImbalance: s.byImbalance,
    byWait: s.byWait,
    maxLane: s.maxLane >= 0 ? laneName(s.maxLane) : null,
    minLane: s.minLane >= 0 ? laneName(s.minLane) : null,
    maxCluster: s.maxCluster,
    minCluster: s.minCluster,
    startNs: finite(s.startNs),
    endNs: finite(s.endNs),
    segment: segmentOf[k]!,
  }));
  const segments: SegmentView[] = a.segments.map((g, k) => ({
    index: k,
    role: g.role,
    roleName: a.roles[g.role]!.name,
    startNs: finite(g.startNs),
    endNs: finite(g.endNs),
    row: g.row,
    diagnosis: g.diagnosis,
    imbS: g.imbS,
    waitS: g.waitS,
    sumImb: g.sumImb,
    sumWait: g.sumWait,
    projectedSaving: g.projectedSaving,
    paths: g.paths,
    sync: g.sync,
  }));
  const bands: ClusterBand[] = a.clusterBands.map(b => {
    const c = clusters[b.cluster]!;
    return {
      cluster: b.cluster,
      label: `#${b.cluster} ${c.label.short} · ${c.size} lane${c.size === 1 ? '' : 's'}`,
      tracks: a.laneOrder.slice(b.first, b.first + b.rows).map(l => a.lanes[l]!.track),
      weight: b.weight,
    };
  });
  let depth = -1;
  if (nodeDepth) for (const s of a.significant) if (s.node >= 0) depth = Math.max(depth, nodeDepth(s.node));
  return {
    samplingPeriod: a.samplingPeriod,
    runTime: a.runTime,
    lanes: a.lanes.length,
    events: a.lanes.reduce((s, l) => s + l.events, 0),
    skipped: a.skipped.map(s => ({ name: s.name, reason: s.reason })),
    notes: a.notes,
    roles: a.roles.map(r => ({ name: r.name, lanes: r.lanes.length, clusters: r.clusters })),
    clusters,
    loops,
    paths,
    segments,
    totalSaving: a.segments.reduce((s, g) => s + g.projectedSaving, 0),
    bands,
    depth,
  };
}

function loopDurations(a: TraceAnalysis): { count: number; sum: number; min: number; max: number }[] {
  const out = a.loops.map(() => ({ count: 0, sum: 0, min: Infinity, max: -Infinity }));
  const it = a.iterations;
  for (let k = 0; k < it.lane.length; k++) {
    const d = out[it.loop[k]!];
    if (!d) continue;
    const v = it.end[k]! - it.start[k]!;
    d.count++;
    d.sum += v;
    if (v < d.min) d.min = v;
    if (v > d.max) d.max = v;
  }
  return out;
}

/**
 * Lanes × iterations of one loop for the panel's iteration view, at most `maxRows` × `maxColumns`
 * cells. Rows are the lanes in cluster order (representatives first), binned within each cluster
 * when there are more lanes than rows; columns are a lane's k-th iteration of the loop (identifiers
 * repeat when the loop runs several times per lane), binned when there are more than `maxColumns`.
 * A cell holds the mean iteration duration of its lanes and iterations and their most common
 * iteration cluster.
 */
export interface IterationMatrix {
  loop: number;
  rows: {
    /** Lane indices [from, to) in laneOrder. */
    from: number;
    to: number;
    cluster: number;
    label: string;
    tracks: number[];
  }[];
  columns: {
    /** Occurrences [from, to) (a lane's k-th iteration). */
    from: number;
    to: number;
    /** Iteration identifier (+1, as users count) of the first occurrence on the first lane that has it. */
    iteration: number;
    /** Earliest start and latest end over the column's lanes (ns). */
    start: number;
    end: number;
    meanDuration: number;
    /** Iteration cluster on the first row's representative lane, −1 when it lacks the column. */
    cluster: number;
  }[];
  /** rows × columns, row-major: mean duration (ns), NaN where no lane has that iteration. */
  duration: Float64Array;
  /** rows × columns: the most common iteration cluster, −1 where empty. */
  cluster: Int32Array;
  /** Duration range over the cells, for the colour scale. */
  min: number;
  max: number;
  /** Occurrences per lane at most (columns before binning). */
  occurrences: number;
}

export function iterationMatrix(a: TraceAnalysis, loop: number, maxRows = 256, maxColumns = 400): IterationMatrix {
  if (!(loop >= 0 && loop < a.loops.length))
    throw new RangeError(`no loop ${loop} (the analysis has ${a.loops.length})`);
  const it = a.iterations;
  // Per lane: its band rows of this loop, in time order (bands are sorted by lane, then start).
  const perLane = new Map<number, number[]>();
  for (let k = 0; k < it.lane.length; k++) {
    if (it.loop[k] !== loop) continue;
    const l = it.lane[k]!;
    let list = perLane.get(l);
    if (!list) perLane.set(l, (list = []));
    list.push(k);
  }
  const role = a.loops[loop]!.role;
  const order = a.laneOrder.filter(l => a.lanes[l]!.role === role);
  let occurrences = 0;
  for (const list of perLane.values()) occurrences = Math.max(occurrences, list.length);

  // Rows: per cluster (in order), its lanes binned into a share of maxRows proportional to its size (≥ 1).
  const byCluster: { cluster: number; lanes: number[] }[] = [];
  for (const l of order) {
    const c = a.lanes[l]!.cluster;
    const last = byCluster[byCluster.length - 1];
    if (last && last.cluster === c) last.lanes.push(l);
    else byCluster.push({ cluster: c, lanes: [l] });
  }
  const rowsBudget = Math.max(byCluster.length, maxRows);
  const rows: IterationMatrix['rows'] = [];
  const rowLanes: number[][] = [];
  let at = 0;
  for (const g of byCluster) {
    const n = g.lanes.length;
    const bins = Math.max(1, Math.min(n, Math.round((rowsBudget * n) / Math.max(1, order.length))));
    for (let b = 0; b < bins; b++) {
      const from = Math.floor((b * n) / bins),
        to = Math.floor(((b + 1) * n) / bins);
      if (to <= from) continue;
      const lanes = g.lanes.slice(from, to);
      rowLanes.push(lanes);
      rows.push({
        from: at + from,
        to: at + to,
        cluster: g.cluster,
        label: laneSetLabel(lanes.map(l => a.lanes[l]!.name)).text,
        tracks: lanes.map(l => a.lanes[l]!.track),
      });
    }
    at += n;
  }

  const cols = Math.max(0, Math.min(occurrences, maxColumns));
  const colOf = (k: number) => (occurrences <= maxColumns ? k : Math.floor((k * cols) / occurrences));
  const columns: IterationMatrix['columns'] = Array.from({ length: cols }, (_, c) => ({
    from: occurrences <= maxColumns ? c : Math.ceil((c * occurrences) / cols),
    to: occurrences <= maxColumns ? c + 1 : Math.ceil(((c + 1) * occurrences) / cols),
    iteration: -1,
    start: Infinity,
    end: -Infinity,
    meanDuration: NaN,
    cluster: -1,
  }));
  const R = rows.length;
  const sum = new Float64Array(R * cols),
    count = new Uint32Array(R * cols);
  const colSum = new Float64Array(cols),
    colCount = new Uint32Array(cols);
  const clusterVotes: Map<number, number>[] = Array.from({ length: R * cols }, () => new Map());
  rowLanes.forEach((lanes, r) => {
    for (const l of lanes) {
      const list = perLane.get(l);
      if (!list) continue;
      list.forEach((k, occ) => {
        const c = colOf(occ);
        const d = it.end[k]! - it.start[k]!;
        const cell = r * cols + c;
        sum[cell]! += d;
        count[cell]!++;
        colSum[c]! += d;
        colCount[c]!++;
        const col = columns[c]!;
        if (col.iteration < 0) col.iteration = it.iteration[k]! + 1;
        if (it.start[k]! < col.start) col.start = it.start[k]!;
        if (it.end[k]! > col.end) col.end = it.end[k]!;
        const votes = clusterVotes[cell]!;
        votes.set(it.cluster[k]!, (votes.get(it.cluster[k]!) ?? 0) + 1);
      });
    }
  });
  const duration = new Float64Array(R * cols).fill(NaN);
  const cluster = new Int32Array(R * cols).fill(-1);
  let min = Infinity,
    max = -Infinity;
  for (let cell = 0; cell < R * cols; cell++) {
    if (!count[cell]) continue;
    const v = sum[cell]! / count[cell]!;
    duration[cell] = v;
    if (v < min) min = v;
    if (v > max) max = v;
    let best = -1,
      bestN = 0;
    for (const [c, n] of clusterVotes[cell]!) if (n > bestN || (n === bestN && c < best)) [best, bestN] = [c, n];
    cluster[cell] = best;
  }
  columns.forEach((col, c) => {
    col.meanDuration = colCount[c] ? colSum[c]! / colCount[c]! : NaN;
    col.cluster = R ? cluster[c]! : -1;
    if (!Number.isFinite(col.start)) [col.start, col.end] = [NaN, NaN];
  });
  return {
    loop,
    rows,
    columns,
    duration,
    cluster,
    min: Number.isFinite(min) ? min : 0,
    max: Number.isFinite(max) ? max : 0,
    occurrences,
  };
}

/**
 * The iteration bands of one loop on the given tracks within a window, for the timeline's
 * alternating bands: per track, [start, end, start, end, …] and the identifiers. `maxPerTrack`
 * caps what one lane sends (a zoomed-out view of 10⁵ iterations shows every n-th).
 */
export function iterationSpans(
  a: TraceAnalysis,
  loop: number,
  tracks: readonly number[],
  window: { start: number; end: number },
  maxPerTrack = 2000,
): { track: number; spans: Float64Array; ids: Int32Array }[] {
  const laneOfTrack = new Map(a.lanes.map((l, i) => [l.track, i]));
  const it = a.iterations;
  // Bands are sorted by lane: one scan finds each lane's first row.
  const firstRow = new Map<number, number>();
  for (let k = it.lane.length - 1; k >= 0; k--) firstRow.set(it.lane[k]!, k);
  return tracks.map(track => {
    const lane = laneOfTrack.get(track);
    const spans: number[] = [],
      ids: number[] = [];
    if (lane !== undefined) {
      for (let k = firstRow.get(lane) ?? it.lane.length; k < it.lane.length && it.lane[k] === lane; k++) {
        if (it.loop[k] !== loop || it.end[k]! < window.start || it.start[k]! > window.end) continue;
        spans.push(it.start[k]!, it.end[k]!);
        ids.push(it.iteration[k]!);
      }
    }
    const n = ids.length;
    if (n > maxPerTrack) {
      const step = Math.ceil(n / maxPerTrack);
      const s: number[] = [],
        d: number[] = [];
      for (let i = 0; i < n; i += step) {
        s.push(spans[2 * i]!, spans[2 * i + 1]!);
        d.push(ids[i]!);
      }
      return { track, spans: Float64Array.from(s), ids: Int32Array.from(d) };
    }
    return { track, spans: Float64Array.from(spans), ids: Int32Array.from(ids) };
  });
}
