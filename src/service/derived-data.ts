/**
 * Everything the editor overlays and side-bar views need for one (profile, metric), computed in one
 * place: the analysis service's `derive` (in the dataset's home worker). The benchmark uses it too.
 *
 * The result is small or made of typed arrays (transferable), never per-node objects: line costs
 * are packed into columns and unpacked per file only when an editor shows that file.
 */
import {
  functionInclusiveByContext,
  functionTotals,
  lineOwners,
  type FunctionTotals,
  type LineCost,
} from '../analysis/model/aggregates';
import type { DiffLists } from '../analysis/graph/diff-lists';
import { GrowableFloat64, GrowableInt32 } from '../analysis/model/growable';
import type { Profile } from '../analysis/model/profile';
import { functionCallCounts } from '../analysis/stats/call-counts';
import { rootHotPaths, type HotPath } from '../analysis/stats/hot-path';
import {
  functionImbalance,
  functionImbalances,
  type FunctionImbalances,
  type ImbalanceRanking,
} from '../analysis/stats/imbalance';
import {
  firstFramesOf,
  lineInformation,
  topFunctions,
  topLines,
  type FunctionEntry,
  type LineEntry,
  type LineInformation,
} from '../analysis/stats/top-lists';

/** Exclusive line costs of every recorded file, packed: file k's lines are lineStart[k] … lineStart[k+1]-1. */
export interface PackedLineCosts {
  files: string[];
  lineStart: Int32Array;
  line: Int32Array;
  exclusive: Float64Array;
  /** Line j's nodes are nodes[nodeStart[j]] … nodes[nodeStart[j+1]-1]. */
  nodeStart: Int32Array;
  nodes: Int32Array;
}

/** Functions with nodes located in each recorded file, with the smallest line seen (0 = none). */
export interface PackedFileFunctions {
  files: string[];
  start: Int32Array;
  fn: Int32Array;
  near: Int32Array;
}

/** The side-bar lists for one metric and hot-path threshold. */
export interface SideBarLists {
  threshold: number;
  limit: number;
  hotPaths: HotPath[];
  topLines: LineEntry[];
  /** What source information the profile has (why Top Lines may be empty). */
  lineInfo: LineInformation;
  topFunctions: FunctionEntry[];
  /** Functions by imbalance over comparable contexts, and those that ran in one unit only. */
  imbalance: ImbalanceRanking;
  /** First call-tree frame of each imbalance entry's function, then of each single-context one (-1 when none). */
  imbalanceFrames: Int32Array;
  /** A comparison's lists (Compare Two Profiles), which the views show instead: both runs and the change. */
  diff?: DiffLists;
}

export interface DerivedData {
  metric: number;
  functions: FunctionTotals;
  /** Function-major inclusive value per function and context. */
  functionByContext: Float64Array;
  /**
   * Function totals of every metric (the tree part — names, functionOfNode, outermost — is shared):
   * hovers show all metrics, and computing them later would walk 10⁶ nodes on the host per metric.
   */
  exclusiveByMetric: Float64Array[];
  inclusiveByMetric: Float64Array[];
  total: number;
  /** The "100 %" of every metric (Σ root inclusive over contexts), for hovers that show all metrics. */
  metricTotals: number[];
  /** Every function's imbalance over comparable contexts (the CodeLens figure). */
  imbalances: FunctionImbalances;
  /** Calls per function where the format records calls, NaN elsewhere (the CodeLens count). */
  calls: Float64Array;
  /** Per-node values of `metric` summed over contexts (the profile's own cached arrays: shared when the worker holds it). */
  nodeTotals: { inclusive: Float64Array; exclusive: Float64Array };
  /** Largest exclusive value of any source line (the global heat scale's top). */
  hottestLine: number;
  lines: PackedLineCosts;
  fileFunctions: PackedFileFunctions;
}

export interface DeriveOptions {
  hotPathThreshold: number;
  listLength: number;
}

/**
 * Exclusive cost per source line of metric m, packed (the values of aggregates.lineCosts, in its
 * order: files as first met, lines ascending, each line's nodes ascending), made in typed arrays:
 * one index per distinct line, no object or list per line.
 */
export function packedLineCosts(profile: Profile, m: number): PackedLineCosts {
  const tree = profile.tree;
  const n = tree.size;
  const excl = profile.exclusiveTotals(m);
  const { file, line } = tree.columns;
  const owner = lineOwners(profile);
  // Per file string id, its lines' indices by line number; files in the order first met.
  const linesOfFile: (Map<number, number> | undefined)[] = [];
  const fileOrder: number[] = [];
  const lineNumber = new GrowableInt32();
  const sum = new GrowableFloat64();
  const nodeCount = new GrowableInt32();
  const lineOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = owner[i]!;
    if (o < 0) continue;
    const f = file[o]!,
      l = line[o]!;
    let lines = linesOfFile[f];
    if (!lines) {
      linesOfFile[f] = lines = new Map();
      fileOrder.push(f);
    }
    let k = lines.get(l);
    if (k === undefined) {
      k = lineNumber.push(l);
      lines.set(l, k);
      sum.push(0);
      nodeCount.push(0);
    }
    sum.set(k, sum.get(k) + excl[i]!);
    nodeCount.set(k, nodeCount.get(k) + 1);
    lineOf[i] = k;
  }
  // Output position of each line: by file, then by line number.
  const lineCount = lineNumber.length;
  const at = new Int32Array(lineCount);
  const lineStart = new Int32Array(fileOrder.length + 1);
  const outLine = new Int32Array(lineCount);
  const exclusive = new Float64Array(lineCount);
  const nodeStart = new Int32Array(lineCount + 1);
  let j = 0;
  fileOrder.forEach((f, fi) => {
    const ks = Int32Array.from(linesOfFile[f]!.values()).sort((a, b) => lineNumber.get(a) - lineNumber.get(b));
    for (const k of ks) {
      at[k] = j;
      outLine[j] = lineNumber.get(k);
      exclusive[j] = sum.get(k);
      nodeStart[j + 1] = nodeCount.get(k);
      j++;
    }
    lineStart[fi + 1] = j;
  });
  for (let q = 0; q < lineCount; q++) nodeStart[q + 1]! += nodeStart[q]!;
  const fill = nodeStart.slice(0, lineCount);
  const nodes = new Int32Array(nodeStart[lineCount]!);
  for (let i = 0; i < n; i++) if (owner[i]! >= 0) nodes[fill[at[lineOf[i]!]!]!++] = i;
  return {
    files: fileOrder.map(f => tree.strings.get(f)),
    lineStart,
    line: outLine,
    exclusive,
    nodeStart,
    nodes,
  };
}

/** The LineCost rows of packed file k (what FileOverlay.lines holds). */
export function unpackLines(p: PackedLineCosts, k: number): LineCost[] {
  const out: LineCost[] = [];
  for (let j = p.lineStart[k]!; j < p.lineStart[k + 1]!; j++) {
    out.push({
      line: p.line[j]!,
      exclusive: p.exclusive[j]!,
      nodes: Array.from(p.nodes.subarray(p.nodeStart[j]!, p.nodeStart[j + 1]!)),
    });
  }
  return out;
}

/** Per recorded file, the functions with a node in it and the smallest line seen (for placing CodeLens). */
export function fileFunctions(profile: Profile, functionOfNode: Int32Array): PackedFileFunctions {
  const { file, line } = profile.tree.columns;
  const byFile = new Map<number, Map<number, number>>();
  for (let i = 0; i < profile.tree.size; i++) {
    const fi = file[i]!,
      f = functionOfNode[i]!;
    if (fi === 0 || f < 0) continue;
    let m = byFile.get(fi);
    if (!m) byFile.set(fi, (m = new Map()));
    const l = Math.max(0, line[i]!);
    const prev = m.get(f);
    if (prev === undefined || (l > 0 && (prev === 0 || l < prev))) m.set(f, l);
  }
  const files: string[] = [];
  let count = 0;
  for (const m of byFile.values()) count += m.size;
  const start = new Int32Array(byFile.size + 1),
    fn = new Int32Array(count),
    near = new Int32Array(count);
  let j = 0;
  for (const [fi, m] of byFile) {
    files.push(profile.tree.strings.get(fi));
    for (const [f, l] of m) {
      fn[j] = f;
      near[j] = l;
      j++;
    }
    start[files.length] = j;
  }
  return { files, start, fn, near };
}

export function sideBarLists(
  profile: Profile,
  metric: number,
  totals: FunctionTotals,
  options: DeriveOptions,
  byContext: Float64Array = functionInclusiveByContext(profile, metric, totals),
): SideBarLists {
  const limit = options.listLength;
  const imbalance = functionImbalance(profile, metric, { limit }, totals, byContext);
  return {
    threshold: options.hotPathThreshold,
    limit,
    hotPaths: rootHotPaths(profile, metric, options.hotPathThreshold),
    topLines: topLines(profile, metric, { limit }).entries,
    lineInfo: lineInformation(profile),
    topFunctions: topFunctions(profile, metric, { limit }, totals),
    imbalance,
    imbalanceFrames: firstFramesOf(profile, totals, [
      ...imbalance.entries.map(e => e.id),
      ...imbalance.singleContext.map(e => e.id),
    ]),
  };
}

/**
 * What the editor's overlays need for one metric: CodeLens, hovers and heat. The side-bar lists (hot
 * paths, top lines and functions, imbalance: a second or so at 10⁶ nodes) are not among them; the
 * side bar asks for them itself (`sideBar`) after the lenses are placed.
 */
export function deriveData(profile: Profile, metric: number): DerivedData {
  const functions = functionTotals(profile, metric);
  const lines = packedLineCosts(profile, metric);
  let hottestLine = 0;
  for (const v of lines.exclusive) if (v > hottestLine) hottestLine = v;
  const exclusiveByMetric: Float64Array[] = [],
    inclusiveByMetric: Float64Array[] = [];
  profile.metrics.forEach((_, k) => {
    const t = k === metric ? functions : functionTotals(profile, k);
    exclusiveByMetric.push(t.exclusive);
    inclusiveByMetric.push(t.inclusive);
  });
  const functionByContext = functionInclusiveByContext(profile, metric, functions);
  return {
    metric,
    functions,
    functionByContext,
    imbalances: functionImbalances(profile, metric, functions, functionByContext),
    exclusiveByMetric,
    inclusiveByMetric,
    total: profile.total(metric),
    metricTotals: profile.metrics.map((_, k) => profile.total(k)),
    calls: functionCallCounts(profile, functions),
    nodeTotals: { inclusive: profile.inclusiveTotals(metric), exclusive: profile.exclusiveTotals(metric) },
    hottestLine,
    lines,
    fileFunctions: fileFunctions(profile, functions.functionOfNode),
  };
}
