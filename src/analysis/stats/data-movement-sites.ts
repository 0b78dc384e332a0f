import type { CallTree } from '../model/call-tree';
import { DataMovementKind, type DataMovementColumns } from '../model/trace';
import { formatBytes, formatSeconds } from './format';

/**
 * Data movement by the place in the program that issues it: every copy or memset of a trace's
 * data-movement table is charged to its source location (the file:line of its `sourceNode`, the
 * nearest frame of its call path that has one) or, when no frame has a location, to the function
 * that launched it. Per location and per direction: count, bytes, time, achieved bandwidth, size
 * range and devices, plus the call paths that issue the most bytes. This is what the editor's
 * data-movement markers and the Data Movement view show.
 */

const KINDS = 6;

/** Short direction labels, by DataMovementKind. */
export const DIRECTION_LABELS: readonly string[] = ['H→D', 'D→H', 'D→D', 'P2P', 'memset', 'copy'];

/** Totals of a set of copies. */
export interface CopyTotals {
  count: number;
  bytes: number;
  /** Σ of the operations' durations, nanoseconds. */
  durationNs: number;
  /** bytes / Σ duration, in bytes per second; null when no time was recorded. */
  bandwidth: number | null;
  minBytes: number;
  maxBytes: number;
  /** Devices involved as source or destination, ascending; -1 stands for the host. */
  devices: number[];
}

/** The copies of one direction issued from a site. */
export interface DirectionTotals extends CopyTotals {
  /** A DataMovementKind. */
  kind: DataMovementKind;
  /** `H→D`, `D→H`, `D→D`, `P2P`, `memset` or `copy`. */
  label: string;
}

/** A call path that issues copies from a site: `node` is the copy's own call-tree node (its ancestors are the path). */
export interface IssuingPath {
  node: number;
  count: number;
  bytes: number;
  durationNs: number;
}

export interface DataMovementSite {
  /** Source file as recorded by the tool, or null for a site known only by its function. */
  file: string | null;
  /** 1-based line, or null. */
  line: number | null;
  /** The function the location is in, or the launching function for a site without a location. */
  name: string;
  /** A call-tree node of the site: the source node, or the launching node for a function site. */
  node: number;
  total: CopyTotals;
  /** Per direction, most bytes first. */
  directions: DirectionTotals[];
  /** The issuing call paths with the most bytes, most first (at most `maxPaths`). */
  paths: IssuingPath[];
}

export interface DataMovementSites {
  /** Most bytes first (ties: more copies, then file, line, name). */
  sites: DataMovementSite[];
  /** Copies with neither a call-tree node nor a source node (nothing to charge them to). */
  unattributed: { count: number; bytes: number };
}

export interface DataMovementSiteOptions {
  /** How many issuing call paths to keep per site (default 3). */
  maxPaths?: number;
}

/** Runtime and driver API calls (cudaMemcpyAsync, cuMemcpyHtoD, hipMemcpy, …): not where the program decided to copy. */
const RUNTIME_CALL = /^(cuda|cu[A-Z]|hip|hsa_|zeCommand|cl[A-Z])/;

/**
 * Groups the data-movement table by issuing site: the source node's file:line, or — when no frame
 * of the path has a location — the launching function (the nearest ancestor of the copy that is not
 * a GPU runtime or driver call), by name.
 * O(copies + distinct nodes × depth): per copy only typed-array reads and writes, no objects.
 */
export function dataMovementSites(
  dm: DataMovementColumns,
  tree: CallTree,
  options: DataMovementSiteOptions = {},
): DataMovementSites {
  const maxPaths = options.maxPaths ?? 3;
  const n = dm.kind.length;
  const unattributed = { count: 0, bytes: 0 };
  if (n === 0) return { sites: [], unattributed };

  // Site of each copy, memoized per source node (or per launching node when there is no source node).
  const siteOfNode = new Int32Array(tree.size).fill(-1);
  const siteKeys = new Map<string, number>();
  const siteNode: number[] = [],
    siteSourced: boolean[] = [];
  const siteOf = (node: number, sourced: boolean): number => {
    let s = siteOfNode[node]!;
    if (s >= 0) return s;
    const { file, line, name } = tree.columns;
    const key = sourced ? `${file[node]}:${line[node]}` : `fn:${name[node]}`;
    s = siteKeys.get(key) ?? -1;
    if (s < 0) {
      s = siteNode.length;
      siteKeys.set(key, s);
      siteNode.push(node);
      siteSourced.push(sourced);
    }
    siteOfNode[node] = s;
    return s;
  };
  const launcherOf = new Int32Array(tree.size).fill(-2);
  const launcher = (node: number): number => {
    let l = launcherOf[node]!;
    if (l !== -2) return l;
    l = node;
    for (let p = tree.parent(node); p >= 0; p = tree.parent(p)) {
      l = p;
      if (!RUNTIME_CALL.test(tree.name(p))) break;
    }
    return (launcherOf[node] = l);
  };
  const rowSite = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const src = dm.sourceNode[i]!;
    const node = dm.node[i]!;
    rowSite[i] = src >= 0 ? siteOf(src, true) : node >= 0 ? siteOf(launcher(node), false) : -1;
  }

  const S = siteNode.length;
  const count = new Float64Array(S * KINDS),
    bytes = new Float64Array(S * KINDS),
    dur = new Float64Array(S * KINDS);
  const minB = new Float64Array(S * KINDS).fill(Infinity),
    maxB = new Float64Array(S * KINDS).fill(-Infinity);
  const devices: (Set<number> | undefined)[] = new Array(S * KINDS);
  const lastSrc = new Int32Array(S * KINDS).fill(-2),
    lastDst = new Int32Array(S * KINDS).fill(-2);
  // Issuing paths: one per (site, copy node), memoized per node (a node belongs to one site).
  const pathOfNode = new Int32Array(tree.size).fill(-1);
  const pathNode: number[] = [],
    pathSite: number[] = [];
  const pCount: number[] = [],
    pBytes: number[] = [],
    pDur: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = rowSite[i]!;
    if (s < 0) {
      unattributed.count++;
      unattributed.bytes += dm.bytes[i]!;
      continue;
    }
    const kind = dm.kind[i]! < KINDS ? dm.kind[i]! : DataMovementKind.Other;
    const k = s * KINDS + kind;
    const b = dm.bytes[i]!,
      d = dm.duration[i]!;
    count[k]!++;
    bytes[k]! += b;
    dur[k]! += d;
    if (b < minB[k]!) minB[k] = b;
    if (b > maxB[k]!) maxB[k] = b;
    const sd = dm.srcDevice[i]!,
      dd = dm.dstDevice[i]!;
    if (sd !== lastSrc[k] || dd !== lastDst[k]) {
      const set = (devices[k] ??= new Set());
      set.add(sd);
      set.add(dd);
      lastSrc[k] = sd;
      lastDst[k] = dd;
    }
    const node = dm.node[i]!;
    if (node < 0) continue;
    let p = pathOfNode[node]!;
    if (p < 0 || pathSite[p] !== s) {
      p = pathNode.length;
      pathOfNode[node] = p;
      pathNode.push(node);
      pathSite.push(s);
      pCount.push(0);
      pBytes.push(0);
      pDur.push(0);
    }
    pCount[p]!++;
    pBytes[p]! += b;
    pDur[p]! += d;
  }

  const pathsBySite: IssuingPath[][] = Array.from({ length: S }, () => []);
  for (let p = 0; p < pathNode.length; p++)
    pathsBySite[pathSite[p]!]!.push({ node: pathNode[p]!, count: pCount[p]!, bytes: pBytes[p]!, durationNs: pDur[p]! });

  const sites: DataMovementSite[] = [];
  for (let s = 0; s < S; s++) {
    const node = siteNode[s]!;
    const directions: DirectionTotals[] = [];
    const all = new Set<number>();
    for (let kind = 0; kind < KINDS; kind++) {
      const k = s * KINDS + kind;
      if (count[k] === 0) continue;
      const devs = [...(devices[k] ?? [])].sort((a, b) => a - b);
      for (const dv of devs) all.add(dv);
      directions.push({
        kind: kind as DataMovementKind,
        label: DIRECTION_LABELS[kind]!,
        ...totals(count[k]!, bytes[k]!, dur[k]!, minB[k]!, maxB[k]!, devs),
      });
    }
    if (directions.length === 0) continue;
    directions.sort((a, b) => b.bytes - a.bytes || b.count - a.count || a.kind - b.kind);
    let c = 0,
      by = 0,
      du = 0,
      mn = Infinity,
      mx = -Infinity;
    for (const d of directions) {
      c += d.count;
      by += d.bytes;
      du += d.durationNs;
      mn = Math.min(mn, d.minBytes);
      mx = Math.max(mx, d.maxBytes);
    }
    const sourced = siteSourced[s]!;
    sites.push({
      file: sourced ? tree.file(node) : null,
      line: sourced ? tree.line(node) : null,
      name: tree.name(node),
      node,
      total: totals(
        c,
        by,
        du,
        mn,
        mx,
        [...all].sort((a, b) => a - b),
      ),
      directions,
      paths: pathsBySite[s]!.sort((a, b) => b.bytes - a.bytes || b.count - a.count || a.node - b.node).slice(
        0,
        maxPaths,
      ),
    });
  }
  sites.sort((a, b) => b.total.bytes - a.total.bytes || b.total.count - a.total.count || compareLocation(a, b));
  return { sites, unattributed };
}

function totals(
  count: number,
  bytes: number,
  durationNs: number,
  minBytes: number,
  maxBytes: number,
  devices: number[],
): CopyTotals {
  return {
    count,
    bytes,
    durationNs,
    bandwidth: durationNs > 0 ? (bytes / durationNs) * 1e9 : null,
    minBytes,
    maxBytes,
    devices,
  };
}

function compareLocation(a: DataMovementSite, b: DataMovementSite): number {
  const fa = a.file ?? '',
    fb = b.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  if ((a.line ?? 0) !== (b.line ?? 0)) return (a.line ?? 0) - (b.line ?? 0);
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The sites with a source location, per recorded file, by line (what the editor marks). */
export function dataMovementLinesByFile(sites: readonly DataMovementSite[]): Map<string, DataMovementSite[]> {
  const out = new Map<string, DataMovementSite[]>();
  for (const s of sites) {
    if (s.file === null || s.line === null) continue;
    let list = out.get(s.file);
    if (!list) out.set(s.file, (list = []));
    list.push(s);
  }
  for (const list of out.values()) list.sort((a, b) => a.line! - b.line!);
  return out;
}

/** `H→D 96 MB · 24× · 3.1 ms · 31 GB/s` for one direction (no bandwidth when no time was recorded). */
export function directionSummary(d: DirectionTotals): string {
  const parts = [`${d.label} ${formatBytes(d.bytes)}`, `${d.count}×`, formatSeconds(d.durationNs * 1e-9)];
  if (d.bandwidth !== null) parts.push(`${formatBytes(d.bandwidth)}/s`);
  return parts.join(' · ');
}

/** After-line text of a site: `⇅ H→D 96 MB · 24× · 3.1 ms · 31 GB/s`, further directions after `│`. */
export function dataMovementAnnotation(site: DataMovementSite): string {
  return `⇅ ${site.directions.map(directionSummary).join('  │  ')}`;
}

/** `host`, `GPU 0`, … for a device id of the data-movement table. */
export function deviceLabel(device: number): string {
  return device < 0 ? 'host' : `GPU ${device}`;
}
