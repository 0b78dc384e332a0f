import type { TraceTrack } from '../model/trace';
import type { TimelineIndex } from './timeline-index';

/** One timeline lane: a track of the trace. */
export interface Lane {
  /** Stable across reloads of the same file: built from the track's kind, process and ids. */
  id: string;
  track: number;
  label: string;
  kind: TraceTrack['kind'];
  /** Row height in px when not the default (lanes of a cluster band). */
  height?: number;
}

/** A collapsible group: a process/rank (threads), a GPU device (its streams), async or counter tracks of a process. */
export interface LaneGroup {
  id: string;
  label: string;
  kind: 'process' | 'gpu-device' | 'async' | 'counters' | 'cluster';
  groups: LaneGroup[];
  lanes: Lane[];
}

/**
 * The lane tree of a trace, in the trace's display order: one group per process (rank), holding
 * its threads as lanes, then one sub-group per GPU device (its streams), then its async tracks and
 * its counter tracks as sub-groups. Ids are paths of names (`p:rank 0/gpu:0/…`), so a collapsed
 * state or a selection survives re-reading the file.
 */
export function buildLaneTree(tracks: readonly TraceTrack[]): LaneGroup[] {
  const top: LaneGroup[] = [];
  const byId = new Map<string, LaneGroup>();
  const used = new Map<string, number>();
  const group = (parent: LaneGroup | null, id: string, label: string, kind: LaneGroup['kind']): LaneGroup => {
    let g = byId.get(id);
    if (!g) {
      g = { id, label, kind, groups: [], lanes: [] };
      byId.set(id, g);
      (parent ? parent.groups : top).push(g);
    }
    return g;
  };
  tracks.forEach((tr, t) => {
    const proc = group(null, `p:${tr.process}`, tr.process || 'process', 'process');
    const home =
      tr.kind === 'gpu-stream'
        ? group(proc, `${proc.id}/gpu:${tr.gpuDevice}`, tr.gpuDevice >= 0 ? `GPU ${tr.gpuDevice}` : 'GPU', 'gpu-device')
        : tr.kind === 'async'
          ? group(proc, `${proc.id}/async`, 'async', 'async')
          : tr.kind === 'counter'
            ? group(proc, `${proc.id}/counters`, 'counters', 'counters')
            : proc;
    const base = `${home.id}/${tr.kind}:${tr.pid}:${tr.tid}:${tr.name}`;
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    home.lanes.push({
      id: seen ? `${base}#${seen + 1}` : base,
      track: t,
      label: tr.name || (tr.tid ? `thread ${tr.tid}` : 'main'),
      kind: tr.kind,
    });
  });
  return top;
}

/**
 * Each track's lane as one line of text, for lists outside the timeline (analysis results, the
 * CLI): its process group's label, then its own label (`rank 0 · thread 1`, `python [GPU 0] ·
 * stream 7`). The lane of a process that has only that lane and no label of its own (`main`) is the
 * process (`rank 3`). Titles repeated within a trace get ` #2`, ` #3`… as lane ids do.
 */
export function laneTitles(tracks: readonly TraceTrack[]): string[] {
  const out = new Array<string>(tracks.length).fill('');
  const used = new Map<string, number>();
  for (const proc of buildLaneTree(tracks)) {
    const alone = proc.lanes.length === 1 && proc.groups.length === 0;
    for (const lane of flattenLanes([proc])) {
      const base = alone && lane.label === 'main' ? proc.label : `${proc.label} · ${lane.label}`;
      const seen = used.get(base) ?? 0;
      used.set(base, seen + 1);
      out[lane.track] = seen ? `${base} #${seen + 1}` : base;
    }
  }
  return out;
}

/** Every lane of a tree, depth first (groups' own lanes, then their sub-groups). */
export function flattenLanes(groups: readonly LaneGroup[]): Lane[] {
  const out: Lane[] = [];
  const walk = (g: LaneGroup) => {
    out.push(...g.lanes);
    g.groups.forEach(walk);
  };
  groups.forEach(walk);
  return out;
}

/** A row of the lane list as the view draws it. */
export type LaneRow =
  { type: 'group'; group: LaneGroup; level: number; collapsed: boolean } | { type: 'lane'; lane: Lane; level: number };

/** The rows to draw given the collapsed group ids: a collapsed group shows as its header alone. */
export function visibleRows(groups: readonly LaneGroup[], collapsed: ReadonlySet<string>): LaneRow[] {
  const out: LaneRow[] = [];
  const walk = (g: LaneGroup, level: number) => {
    const c = collapsed.has(g.id);
    out.push({ type: 'group', group: g, level, collapsed: c });
    if (c) return;
    for (const lane of g.lanes) out.push({ type: 'lane', lane, level: level + 1 });
    for (const s of g.groups) walk(s, level + 1);
  };
  groups.forEach(g => walk(g, 0));
  return out;
}

/**
 * A lane filter: `*` and `?` are globs, anything else a case-insensitive substring. It matches a
 * lane's label or `group › … › label`, so `rank 1*` keeps ranks 1, 10–19… and `stream` keeps GPU streams.
 */
export function laneMatcher(pattern: string): (text: string) => boolean {
  const p = pattern.trim().toLowerCase();
  if (!p) return () => true;
  if (!/[*?]/.test(p)) return text => text.toLowerCase().includes(p);
  const re = new RegExp(
    '^' +
      p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.') +
      '$',
  );
  return text => re.test(text.toLowerCase());
}

/** The tree with only the lanes that match (a group whose own label matches keeps all its lanes); empty groups are dropped. */
export function filterLanes(groups: readonly LaneGroup[], pattern: string): LaneGroup[] {
  const match = laneMatcher(pattern);
  const walk = (g: LaneGroup, path: string, keepAll: boolean): LaneGroup | null => {
    const here = path ? `${path} › ${g.label}` : g.label;
    const all = keepAll || match(g.label) || match(here);
    const lanes = g.lanes.filter(l => all || match(l.label) || match(`${here} › ${l.label}`));
    const subs = g.groups.map(s => walk(s, here, all)).filter((s): s is LaneGroup => s !== null);
    return lanes.length || subs.length ? { ...g, lanes, groups: subs } : null;
  };
  return groups.map(g => walk(g, '', false)).filter((g): g is LaneGroup => g !== null);
}

export type LaneSort =
  | { by: 'display' }
  | { by: 'name' }
  /** Busy time over the whole run (outermost slices or sample holds), largest first. */
  | { by: 'busy' }
  /** Inclusive value of a call-tree node on each lane's context (profile metric `metric`, default primary), largest first. */
  | { by: 'node'; node: number; metric?: number };

let naturalOrder: Intl.Collator | null = null;
/** Made on first use: a collator costs a fresh process ~6 ms of ICU set-up, which every CLI and worker start paid. */
const natural = (): Intl.Collator =>
  (naturalOrder ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));

/**
 * Lanes sorted inside each group, and groups among themselves by their largest lane (names: by
 * label). Sorting never moves a lane out of its group. `by: 'node'` reads the profile's per-context
 * inclusive values, so it costs O(lanes), not a pass over the events.
 */
export function sortLanes(groups: readonly LaneGroup[], index: TimelineIndex, sort: LaneSort): LaneGroup[] {
  if (sort.by === 'display') return groups.slice();
  const [lo, hi] = index.trace.timeRange;
  const p = index.profile;
  let score: (l: Lane) => number;
  if (sort.by === 'busy') score = l => index.busy(l.track, lo, hi + 1);
  else if (sort.by === 'node') {
    if (!(sort.node >= 0 && sort.node < p.tree.size)) throw new RangeError(`no call-tree node ${sort.node}`);
    const row = new Float64Array(p.contextCount);
    p.contextRow('inclusive', sort.metric ?? p.primaryMetric, sort.node, row);
    score = l => {
      const c = index.trace.tracks[l.track]!.context;
      return c >= 0 ? row[c]! : 0;
    };
  } else score = () => 0;
  const collator = natural();
  const byName = (a: { label: string }, b: { label: string }) => collator.compare(a.label, b.label);
  const best = new Map<LaneGroup, number>();
  const walk = (g: LaneGroup): LaneGroup => {
    const scored = g.lanes.map(l => ({ l, s: score(l) }));
    const subs = g.groups.map(walk);
    let top = -Infinity;
    for (const x of scored) top = Math.max(top, x.s);
    for (const s of subs) top = Math.max(top, best.get(s)!);
    const lanes =
      sort.by === 'name'
        ? g.lanes.slice().sort(byName)
        : scored.sort((a, b) => b.s - a.s || byName(a.l, b.l)).map(x => x.l);
    const out = {
      ...g,
      lanes,
      groups: sort.by === 'name' ? subs.sort(byName) : subs.sort((a, b) => best.get(b)! - best.get(a)! || byName(a, b)),
    };
    best.set(out, top);
    return out;
  };
  const out = groups.map(walk);
  return sort.by === 'name' ? out.sort(byName) : out.sort((a, b) => best.get(b)! - best.get(a)! || byName(a, b));
}

/** A cluster of lanes (a trace analysis): its label, its lanes' tracks with the representative first, and log₂(size + 1). */
export interface ClusterBandSpec {
  label: string;
  tracks: number[];
  weight: number;
}

/** Height of a cluster band per unit of weight, the representative's row, and the thinnest member row drawn. */
export const CLUSTER_BAND_UNIT = 24;
export const CLUSTER_REPRESENTATIVE_HEIGHT = 24;
export const CLUSTER_MIN_ROW = 3;

/**
 * The lanes grouped and ordered by cluster (paper §3.4): one group per cluster, in the analysis's
 * order; the band of a cluster of n lanes is CLUSTER_BAND_UNIT × log₂(n + 1) px tall, so small
 * outlier clusters stand out. Its representative's lane comes first at full height; the other
 * members share the rest of the band, as many as fit at CLUSTER_MIN_ROW px (evenly spread over the
 * cluster in rank order: a band of 4,000 lanes draws about 90 of them). Lanes the tree holds but no
 * cluster does (not analysed) follow in a last group. `titles` names lanes without their process group.
 */
export function clusterLaneGroups(
  groups: readonly LaneGroup[],
  bands: readonly ClusterBandSpec[],
  titles: readonly string[],
): LaneGroup[] {
  const byTrack = new Map(flattenLanes(groups).map(l => [l.track, l]));
  const used = new Set<number>();
  const out: LaneGroup[] = [];
  bands.forEach((b, k) => {
    const lanes = b.tracks.filter(t => byTrack.has(t));
    if (!lanes.length) return;
    lanes.forEach(t => used.add(t));
    const band = Math.max(CLUSTER_REPRESENTATIVE_HEIGHT, CLUSTER_BAND_UNIT * b.weight);
    const rest = band - CLUSTER_REPRESENTATIVE_HEIGHT;
    const others = lanes.length - 1;
    const shown = Math.min(others, Math.floor(rest / CLUSTER_MIN_ROW));
    const rowHeight = shown ? rest / shown : 0;
    const picked: number[] = [lanes[0]!];
    for (let i = 0; i < shown; i++) picked.push(lanes[1 + Math.floor((i * others) / shown)]!);
    const note = shown < others ? ` (${shown + 1} of ${lanes.length} drawn)` : '';
    out.push({
      id: `cluster:${k}`,
      label: `${b.label}${note}`,
      kind: 'cluster',
      groups: [],
      lanes: picked.map((t, i) => ({
        ...byTrack.get(t)!,
        label:
          i === 0 && lanes.length > 1
            ? `${titles[t] ?? byTrack.get(t)!.label} (representative)`
            : (titles[t] ?? byTrack.get(t)!.label),
        height: i === 0 ? CLUSTER_REPRESENTATIVE_HEIGHT : rowHeight,
      })),
    });
  });
  const rest = flattenLanes(groups).filter(l => !used.has(l.track));
  if (rest.length)
    out.push({
      id: 'cluster:other',
      label: `not in a cluster (${rest.length})`,
      kind: 'cluster',
      groups: [],
      lanes: rest.map(l => ({ ...l, label: titles[l.track] ?? l.label })),
    });
  return out;
}
