import type { TraceAnalysis } from './analyze-trace';
import type {
  ClusterBand,
  ClusterMerge,
  ClusterView,
  IterationMatrix,
  LaneSetLabel,
  LoopView,
  PathView,
  SegmentView,
  TraceAnalysisView,
} from './model/trace-analysis-view';
import type { TraceAnalysisOptions } from './model/options';

export type {
  ClusterBand,
  ClusterView,
  IterationMatrix,
  LaneSetLabel,
  LoopView,
  PathView,
  SegmentView,
  TraceAnalysisView,
} from './model/trace-analysis-view';

/**
 * What the Trace Analysis panel, the timeline and the editor show of an analysis (paper §3.4 and
 * §5's views): level-of-detail data, computed in the worker that holds the analysis. Lanes are
 * named as the timeline names them; times are ns from the trace origin unless a field says seconds.
 */

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

const fmtRatio = (r: number) => (r === 0 ? '0' : r < 0.001 ? r.toExponential(1) : r.toFixed(4).replace(/0+$/, ''));
const fmtMs = (s: number) => `${(s * 1e3).toPrecision(3).replace(/\.?0+$/, '')} ms`;

/**
 * Why the lanes of a role are one cluster (Algorithm 3 merged every pair): the widest merge's
 * diffRatio and the rule that allowed it — below Ratio_min (always merged), below Ratio_rel × the
 * farthest pair, or more clusters than K — and, when the lanes compared equal, that Algorithm 2
 * forgives gapTolerance × V per compared gap, so differences shorter than that are sampling noise
 * (§2.5). The settings that would split them are named.
 */
export function oneClusterReason(
  size: number,
  merge: ClusterMerge | null,
  options: Pick<TraceAnalysisOptions, 'ratioMin' | 'ratioRel' | 'gapTolerance' | 'instrumentedResolution'>,
  samplingPeriod: number | null,
): string {
  const all = `All ${size} lanes behave alike (one cluster).`;
  if (!merge) return all;
  const tolerance = samplingPeriod
    ? `${options.gapTolerance}V = ${fmtMs(options.gapTolerance * samplingPeriod)}`
    : `${options.gapTolerance} × ${fmtMs(options.instrumentedResolution)} (instrumentedResolution)`;
  if (merge.ratio === 0)
    return `${all} Their call trees differ by nothing beyond ${tolerance} per compared gap, which Algorithm 2 forgives as sampling noise: at this resolution nothing tells them apart. A lower hpcLens.traceAnalysis.gapTolerance compares finer.`;
  const by =
    merge.rule === 'ratioMin'
      ? `under Ratio_min = ${options.ratioMin}, below which Algorithm 3 always merges (lower hpcLens.traceAnalysis.ratioMin to split them)`
      : merge.rule === 'ratioRel'
        ? `under Ratio_rel = ${options.ratioRel} × the farthest pair (${fmtRatio(merge.farthest)}), so still alike relative to the rest (lower hpcLens.traceAnalysis.ratioRel to split them)`
        : `merged because there were more clusters than K (raise hpcLens.traceAnalysis.maxClusters)`;
  return `${all} The largest difference merged was a diffRatio of ${fmtRatio(merge.ratio)} (differences beyond ${tolerance} per gap, over the whole run), ${by}.`;
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
    widestMerge: c.widestMerge,
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
    oneCluster: a.roles.flatMap((r, k) => {
      if (r.clusters.length !== 1 || r.lanes.length < 2) return [];
      const c = a.clusters[r.clusters[0]!]!;
      return [{ role: k, text: oneClusterReason(c.members.length, c.widestMerge, a.options, a.samplingPeriod) }];
    }),
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

/** The lanes × iterations matrix of one loop (IterationMatrix says how rows and columns are binned). */
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
