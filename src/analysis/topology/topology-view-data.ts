/**
 * The level-of-detail data of a topology view (src/shared/topology-protocol.ts): which marks the
 * webview draws for a {@link Topology} and its {@link TopologyValues}, with their values, the ranges
 * of the colour and width scales, and the selection. One function for the three topologies (machine
 * tree, dragonfly, host–GPU); the panels call it on the host side of the webview (in their system's
 * worker) and post the result.
 *
 * Level of detail (Li et al. 2017 and Fujiwara et al. 2018 aggregate big networks hierarchically; the
 * PDES seed's matrices drill down one level on double-click): levels of the containment tree are
 * drawn one by one while the nodes down to that level fit `maxNodes`; below that a node's descendants
 * are folded into one aggregate per kind (`a3:router`, the routers of group 3), which a drill-down
 * request (`expand`) opens. Links follow their ends to the marks that represent them and merge per
 * pair of marks and kind; a link with both ends in one mark becomes that mark's internal value (a
 * collapsed group's local traffic).
 */
import type {
  TopologyColourEncoding,
  TopologyColourScheme,
  TopologyLayout,
  TopologyNormalise,
  TopologyRange,
  TopologyViewData,
  TopologyViewLink,
  TopologyViewMeasure,
  TopologyViewNode,
} from '../../shared/topology-protocol';
import { topologyNodeOfId } from '../../shared/topology-protocol';
import { childrenOf, depthsOf, type Topology, type TopologyNodeKind, type TopologyValues } from './topology';

/** A measure with how aggregates combine it (default: `mean` for node measures, `sum` for link measures). */
export interface TopologyMeasureInput {
  values: TopologyValues;
  aggregate?: TopologyViewMeasure['aggregate'];
}

/** A measure named by its index in the list or by its `TopologyValues.name`. */
export type MeasureRef = number | string;

/** A colour encoding by a measure; `domain` fixes the range (0–100 for a utilisation in %). */
export interface ColourOption {
  measure?: MeasureRef | null;
  normalise?: TopologyNormalise;
  scheme?: TopologyColourScheme;
  domain?: [number, number];
}

export interface TopologyViewOptions {
  /** Default by shape: tree → sunburst, dragonfly → dragonfly, host-gpu → graph. */
  layout?: TopologyLayout;
  /** Values on nodes: each one's `node` array is used. */
  nodeMeasures?: readonly (TopologyValues | TopologyMeasureInput)[];
  /**
   * Values on links: each one's `link` array, and — with {@link containmentLinks} — its `node` array
   * as the value of the link from each node to its parent (MemAxes' transactions).
   */
  linkMeasures?: readonly (TopologyValues | TopologyMeasureInput)[];
  /** Draw parent → child links (kind `contains`) valued by the link measures' node arrays. Default: false. */
  containmentLinks?: boolean;
  /** Node fill: a node measure (default the first), normalisation (default `depth`, `all` for host–GPU) and scheme. */
  colour?: ColourOption;
  /** Link colour by a link measure (default none: by link kind; scheme `Reds`, over all links). */
  linkColour?: ColourOption;
  /** Link width ∝ a link measure (default the first), normalised per level for trees and over all links otherwise. */
  width?: { measure?: MeasureRef | null; normalise?: TopologyNormalise };
  /** Topology node indices to mark selected / highlighted (marks that contain them are marked). */
  selected?: readonly number[];
  highlighted?: readonly number[];
  /** Most marks before deeper levels are aggregated (default 600: a 256-PU machine whole). Expanded nodes may exceed it. */
  maxNodes?: number;
  /** Most links drawn; above it links between siblings are folded into their parent first (default 2000). */
  maxLinks?: number;
  /** Node kinds left out with everything below them (e.g. `terminal`); their links count in their ancestor's internal values. */
  omitKinds?: readonly TopologyNodeKind[];
  /** Ids (`n<i>`, or an aggregate id `a<i>:<kind>`) whose children to draw, or to fold, whatever the budget says. */
  expand?: readonly string[];
  collapse?: readonly string[];
  /** Merge the two directions of a link into one drawn link (default true). */
  undirected?: boolean;
  /** A second line for a node (the GPU's name…). */
  detail?: (node: number) => string | undefined;
  /** Level names the legend prints, by kind (defaults: `PU`, `L1`, `NUMA`, `Router`…). */
  levelLabels?: Partial<Record<TopologyNodeKind, string>>;
}

export const DEFAULT_MAX_NODES = 600;
export const DEFAULT_MAX_LINKS = 2000;

const LEVEL_LABELS: Record<TopologyNodeKind, string> = {
  machine: 'Machine',
  package: 'Package',
  numa: 'NUMA',
  l3: 'L3',
  l2: 'L2',
  l1: 'L1',
  core: 'Core',
  pu: 'PU',
  network: 'Network',
  group: 'Group',
  router: 'Router',
  terminal: 'Terminal',
  host: 'Host',
  gpu: 'GPU',
  switch: 'Switch',
};

/** Plural nouns for aggregate labels (`32 routers`, `16 PUs`). */
const PLURALS: Record<TopologyNodeKind, [string, string]> = {
  machine: ['machine', 'machines'],
  package: ['package', 'packages'],
  numa: ['NUMA node', 'NUMA nodes'],
  l3: ['L3', 'L3s'],
  l2: ['L2', 'L2s'],
  l1: ['L1', 'L1s'],
  core: ['core', 'cores'],
  pu: ['PU', 'PUs'],
  network: ['network', 'networks'],
  group: ['group', 'groups'],
  router: ['router', 'routers'],
  terminal: ['terminal', 'terminals'],
  host: ['host', 'hosts'],
  gpu: ['GPU', 'GPUs'],
  switch: ['switch', 'switches'],
};

/** Prefix of a short label (`N1`, `G3`); kinds not listed keep only the number. */
const SHORT_PREFIX: Partial<Record<TopologyNodeKind, string>> = { numa: 'N', group: 'G', package: 'P' };

/** `17` for `router 17`, `N1` for `NUMA 1`, the label itself when it ends in no number. */
export function shortLabel(kind: TopologyNodeKind, label: string): string {
  const m = /(\d+)$/.exec(label);
  return m ? (SHORT_PREFIX[kind] ?? '') + m[1] : label;
}

export { topologyNodeOfId };

interface ResolvedMeasure {
  values: TopologyValues;
  aggregate: TopologyViewMeasure['aggregate'];
}

function resolve(
  list: readonly (TopologyValues | TopologyMeasureInput)[] | undefined,
  dflt: TopologyViewMeasure['aggregate'],
): ResolvedMeasure[] {
  return (list ?? []).map(m =>
    'values' in m ? { values: m.values, aggregate: m.aggregate ?? dflt } : { values: m, aggregate: dflt },
  );
}

function measureIndex(list: ResolvedMeasure[], ref: MeasureRef | null | undefined, dflt: number): number {
  if (ref === null) return -1;
  if (ref === undefined) return list.length > dflt ? dflt : -1;
  if (typeof ref === 'number') {
    if (ref >= -1 && ref < list.length && Number.isInteger(ref)) return ref;
    throw new Error(`topology view: no measure ${ref} (there are ${list.length})`);
  }
  const i = list.findIndex(m => m.values.name === ref);
  if (i < 0) throw new Error(`topology view: no measure named "${ref}" (${list.map(m => m.values.name).join(', ')})`);
  return i;
}

/** Combines member values as the measure says; NaN members are skipped (all NaN → NaN). */
function combine(values: number[], how: TopologyViewMeasure['aggregate']): number {
  let sum = 0,
    max = -Infinity,
    n = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    sum += v;
    if (v > max) max = v;
    n++;
  }
  if (n === 0) return NaN;
  return how === 'sum' ? sum : how === 'max' ? max : sum / n;
}

/** Running ranges per level plus overall. */
class Ranges {
  private readonly byLevel = new Map<string, TopologyRange>();
  private allRange: TopologyRange | null = null;

  add(level: string, v: number, inAll: boolean): void {
    if (!Number.isFinite(v)) return;
    const r = this.byLevel.get(level);
    if (r) {
      r.min = Math.min(r.min, v);
      r.max = Math.max(r.max, v);
    } else this.byLevel.set(level, { min: v, max: v });
    if (!inAll) return;
    if (this.allRange) {
      this.allRange.min = Math.min(this.allRange.min, v);
      this.allRange.max = Math.max(this.allRange.max, v);
    } else this.allRange = { min: v, max: v };
  }

  measure(m: ResolvedMeasure): TopologyViewMeasure {
    return {
      name: m.values.name,
      unit: m.values.unit,
      aggregate: m.aggregate,
      byLevel: Object.fromEntries(this.byLevel),
      all: this.allRange,
    };
  }
}

const DEFAULT_LAYOUT: Record<Topology['shape'], TopologyLayout> = {
  tree: 'sunburst',
  dragonfly: 'dragonfly',
  'host-gpu': 'graph',
};

/** A link being merged: member values per measure and per direction. */
interface LinkBucket {
  source: string;
  target: string;
  kind: string;
  level: string;
  count: number;
  members: number[][];
  forward: number[][];
  backward: number[][];
}

/**
 * The marks and links to draw for `t` (see the module comment and `TopologyViewData`). Throws when a
 * measure does not fit the topology (wrong array lengths) or a named measure does not exist.
 */
export function topologyViewData(t: Topology, options: TopologyViewOptions = {}): TopologyViewData {
  const n = t.nodes.length;
  const nodeMeasures = resolve(options.nodeMeasures, 'mean');
  const linkMeasures = resolve(options.linkMeasures, 'sum');
  for (const m of nodeMeasures)
    if (m.values.node.length !== n)
      throw new Error(
        `topology view: measure "${m.values.name}" has ${m.values.node.length} node values for ${n} nodes`,
      );
  for (const m of linkMeasures) {
    if (m.values.link.length !== t.links.length)
      throw new Error(
        `topology view: measure "${m.values.name}" has ${m.values.link.length} link values for ${t.links.length} links`,
      );
    if (options.containmentLinks && m.values.node.length !== n)
      throw new Error(`topology view: measure "${m.values.name}" needs a value per node for containment links`);
  }
  const layout = options.layout ?? DEFAULT_LAYOUT[t.shape];
  const isTree = layout === 'sunburst' || layout === 'icicle';
  const maxNodes = Math.max(1, Math.floor(options.maxNodes ?? DEFAULT_MAX_NODES));
  const maxLinks = Math.max(0, Math.floor(options.maxLinks ?? DEFAULT_MAX_LINKS));
  const undirected = options.undirected ?? true;
  const depth = depthsOf(t);
  const children = childrenOf(t);
  const notes: string[] = [];

  // Omitted: nodes of the omitted kinds and everything below them.
  const omitKinds = new Set(options.omitKinds ?? []);
  const omitted = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = t.nodes[i]!.parent;
    if (omitKinds.has(t.nodes[i]!.kind) || (p >= 0 && omitted[p])) omitted[i] = 1;
  }

  // The automatic level: the deepest depth whose nodes, with all above it, fit the budget.
  const perDepth: number[] = [];
  for (let i = 0; i < n; i++) if (!omitted[i]) perDepth[depth[i]!] = (perDepth[depth[i]!] ?? 0) + 1;
  let autoDepth = 0;
  for (let d = 0, total = 0; d < perDepth.length; d++) {
    total += perDepth[d] ?? 0;
    if (total > maxNodes) break;
    autoDepth = d;
  }
  const expand = new Set((options.expand ?? []).map(topologyNodeOfId).filter(i => i >= 0 && i < n));
  const collapse = new Set((options.collapse ?? []).map(topologyNodeOfId).filter(i => i >= 0 && i < n));
  const open = (i: number) => (collapse.has(i) ? false : expand.has(i) ? true : depth[i]! < autoDepth);

  // Walk the tree: drawn nodes, and aggregates for the descendants of closed nodes.
  const nodes: TopologyViewNode[] = [];
  const rep: string[] = new Array<string>(n); // drawn mark of each non-omitted topology node
  const members = new Map<string, number[]>(); // aggregate id → topology nodes
  const levelLabels = { ...LEVEL_LABELS, ...options.levelLabels };
  let aggregated = 0;
  const nodeOf = new Map<string, TopologyViewNode>();
  const push = (v: TopologyViewNode) => {
    nodes.push(v);
    nodeOf.set(v.id, v);
  };
  const visit = (i: number, parent: string | null, d: number) => {
    const node = t.nodes[i]!;
    const id = `n${i}`;
    rep[i] = id;
    const kids = children[i]!.filter(c => !omitted[c]);
    const isOpen = kids.length > 0 && open(i);
    const detail = options.detail?.(i);
    push({
      id,
      index: i,
      kind: node.kind,
      label: node.label,
      short: shortLabel(node.kind, node.label),
      ...(detail ? { detail } : {}),
      parent,
      depth: d,
      osIndex: node.osIndex,
      values: nodeMeasures.map(m => m.values.node[i]!),
      expandable: kids.length > 0 && !isOpen,
      collapsible: isOpen,
      weight: 0,
    });
    if (isOpen) for (const c of kids) visit(c, id, d + 1);
    else if (kids.length) {
      // One aggregate per kind below i, in order of depth, each the child of the one above.
      const byKind = new Map<TopologyNodeKind, number[]>();
      const stack = [...kids];
      const below: number[] = [];
      while (stack.length) {
        const c = stack.pop()!;
        below.push(c);
        for (const g of children[c]!) if (!omitted[g]) stack.push(g);
      }
      below.sort((a, b) => depth[a]! - depth[b]! || a - b);
      for (const c of below) {
        const k = t.nodes[c]!.kind;
        let list = byKind.get(k);
        if (!list) byKind.set(k, (list = []));
        list.push(c);
      }
      let up = id;
      let level = d + 1;
      for (const [kind, list] of byKind) {
        const aid = `a${i}:${kind}`;
        members.set(aid, list);
        for (const c of list) rep[c] = aid;
        aggregated += list.length;
        const [one, many] = PLURALS[kind];
        push({
          id: aid,
          index: -1,
          kind,
          label: `${list.length} ${list.length === 1 ? one : many}`,
          short: `×${list.length}`,
          parent: up,
          depth: level++,
          osIndex: -1,
          values: nodeMeasures.map(m =>
            combine(
              list.map(c => m.values.node[c]!),
              m.aggregate,
            ),
          ),
          aggregate: {
            count: list.length,
            sums: nodeMeasures.map(m =>
              combine(
                list.map(c => m.values.node[c]!),
                'sum',
              ),
            ),
            maxima: nodeMeasures.map(m =>
              combine(
                list.map(c => m.values.node[c]!),
                'max',
              ),
            ),
          },
          expandable: true,
          collapsible: false,
          weight: 0,
        });
        up = aid;
      }
    }
  };
  for (let i = 0; i < n; i++) if (t.nodes[i]!.parent < 0 && !omitted[i]) visit(i, null, 0);
  let omittedCount = 0;
  for (let i = 0; i < n; i++) if (omitted[i]) omittedCount++;
  // Omitted nodes are represented by their nearest drawn ancestor (for links and selections).
  for (let i = 0; i < n; i++) if (omitted[i]) rep[i] = t.nodes[i]!.parent >= 0 ? rep[t.nodes[i]!.parent]! : '';

  // Weights bottom-up: a leaf mark counts 1, an aggregate without a child aggregate its members.
  const childCount = new Map<string, number>();
  for (const v of nodes) if (v.parent) childCount.set(v.parent, (childCount.get(v.parent) ?? 0) + 1);
  for (let k = nodes.length - 1; k >= 0; k--) {
    const v = nodes[k]!;
    if (!childCount.has(v.id)) v.weight = v.aggregate ? v.aggregate.count : 1;
    if (v.parent) nodeOf.get(v.parent)!.weight += v.weight;
  }

  // Links: each end to its mark; merged per pair of marks and kind, or internal to one mark.
  const buckets = new Map<string, LinkBucket>();
  const internal = new Map<string, { count: number; members: number[][] }>();
  const L = linkMeasures.length;
  const addInternal = (mark: string, values: number[]) => {
    let b = internal.get(mark);
    if (!b) internal.set(mark, (b = { count: 0, members: linkMeasures.map(() => []) }));
    b.count++;
    values.forEach((v, k) => b.members[k]!.push(v));
  };
  const addLink = (s: string, d: string, kind: string, level: string, values: number[]) => {
    if (!s || !d) return;
    if (s === d) return addInternal(s, values);
    const flip = undirected && s > d;
    const [a, b] = flip ? [d, s] : [s, d];
    const key = `${a}~${b}:${kind}`;
    let bucket = buckets.get(key);
    if (!bucket)
      buckets.set(
        key,
        (bucket = {
          source: a,
          target: b,
          kind,
          level,
          count: 0,
          members: linkMeasures.map(() => []),
          forward: linkMeasures.map(() => []),
          backward: linkMeasures.map(() => []),
        }),
      );
    bucket.count++;
    values.forEach((v, k) => {
      bucket.members[k]!.push(v);
      (flip ? bucket.backward : bucket.forward)[k]!.push(v);
    });
  };
  t.links.forEach((l, k) =>
    addLink(
      rep[l.source]!,
      rep[l.target]!,
      l.kind,
      l.kind,
      linkMeasures.map(m => m.values.link[k]!),
    ),
  );
  let internalLinks = 0;
  for (const b of internal.values()) internalLinks += b.count;

  let links: TopologyViewLink[] = [...buckets.entries()].map(([id, b]) => bucketLink(id, b, linkMeasures));

  // Too many links: fold the links between siblings into their parent, largest families first.
  if (links.length > maxLinks) {
    const parentOf = (id: string) => nodeOf.get(id)?.parent ?? null;
    const families = new Map<string, TopologyViewLink[]>();
    for (const l of links) {
      const p = parentOf(l.source);
      if (p !== null && p === parentOf(l.target)) {
        let f = families.get(p);
        if (!f) families.set(p, (f = []));
        f.push(l);
      }
    }
    const folded = new Set<TopologyViewLink>();
    let remaining = links.length;
    let foldedLinks = 0;
    for (const [p, family] of [...families].sort((a, b) => b[1].length - a[1].length)) {
      if (remaining <= maxLinks) break;
      for (const l of family) {
        folded.add(l);
        const b = buckets.get(l.id)!;
        for (let c = 0; c < b.count; c++)
          addInternal(
            p,
            b.members.map(m => m[c]!),
          );
        foldedLinks += b.count;
      }
      remaining -= family.length;
    }
    if (folded.size) {
      links = links.filter(l => !folded.has(l));
      internalLinks += foldedLinks;
      notes.push(`${foldedLinks} links between siblings are summed into their parent to keep ${links.length} drawn.`);
    }
    if (links.length > maxLinks) {
      const w = measureIndex(linkMeasures, options.width?.measure, 0);
      const key = (l: TopologyViewLink) => (w >= 0 && Number.isFinite(l.values[w]!) ? l.values[w]! : 0);
      const dropped = links.length - maxLinks;
      links = [...links].sort((a, b) => key(b) - key(a)).slice(0, maxLinks);
      notes.push(`The ${dropped} weakest links are not drawn (at most ${maxLinks}).`);
    }
  }

  // Containment links: parent → child, valued by the link measures' node arrays.
  if (options.containmentLinks && L > 0) {
    for (const v of nodes) {
      if (!v.parent) continue;
      const idx = v.index >= 0 ? [v.index] : members.get(v.id)!;
      links.push({
        id: `${v.parent}~${v.id}:contains`,
        source: v.parent,
        target: v.id,
        kind: 'contains',
        level: v.kind,
        values: linkMeasures.map(m =>
          combine(
            idx.map(i => m.values.node[i]!),
            m.aggregate,
          ),
        ),
        count: idx.length,
      });
    }
  }

  for (const [mark, b] of internal) {
    const v = nodeOf.get(mark);
    if (v) v.internal = { count: b.count, values: linkMeasures.map((m, k) => combine(b.members[k]!, m.aggregate)) };
  }

  // Scale ranges over what is drawn.
  const nodeRanges = nodeMeasures.map(() => new Ranges());
  for (const v of nodes) v.values.forEach((x, k) => nodeRanges[k]!.add(v.kind, x, v.parent !== null));
  const linkRanges = linkMeasures.map(() => new Ranges());
  for (const l of links) l.values.forEach((x, k) => linkRanges[k]!.add(l.level, x, true));

  const mapIds = (list: readonly number[] | undefined) => {
    const out = new Set<string>();
    for (const i of list ?? []) if (i >= 0 && i < n && rep[i]) out.add(rep[i]!);
    return [...out];
  };
  if (aggregated)
    notes.push(
      `${aggregated} of ${n} ${t.shape === 'dragonfly' ? 'network' : 'topology'} nodes are drawn as aggregates; expand one to see its members.`,
    );

  const colour: TopologyColourEncoding = {
    measure: measureIndex(nodeMeasures, options.colour?.measure, 0),
    normalise: options.colour?.normalise ?? (t.shape === 'host-gpu' ? 'all' : 'depth'),
    scheme: options.colour?.scheme ?? (t.shape === 'host-gpu' ? 'Reds' : 'YlOrRd'),
    ...(options.colour?.domain ? { domain: options.colour.domain } : {}),
  };
  const linkColour: TopologyColourEncoding = {
    measure: options.linkColour?.measure == null ? -1 : measureIndex(linkMeasures, options.linkColour.measure, -1),
    normalise: options.linkColour?.normalise ?? 'all',
    scheme: options.linkColour?.scheme ?? 'Reds',
    ...(options.linkColour?.domain ? { domain: options.linkColour.domain } : {}),
  };
  const usedLevels: Partial<Record<TopologyNodeKind, string>> = {};
  for (const v of nodes) usedLevels[v.kind] = levelLabels[v.kind];
  return {
    shape: t.shape,
    layout,
    source: t.source,
    nodes,
    links,
    nodeMeasures: nodeMeasures.map((m, k) => nodeRanges[k]!.measure(m)),
    linkMeasures: linkMeasures.map((m, k) => linkRanges[k]!.measure(m)),
    colour,
    linkColour,
    width: {
      measure: measureIndex(linkMeasures, options.width?.measure, 0),
      normalise: options.width?.normalise ?? (isTree ? 'depth' : 'all'),
    },
    selected: mapIds(options.selected),
    highlighted: mapIds(options.highlighted),
    levelLabels: usedLevels,
    detail: {
      topologyNodes: n,
      topologyLinks: t.links.length,
      aggregated,
      omitted: omittedCount,
      internalLinks,
      maxNodes,
      maxLinks,
    },
    notes,
  };
}

function bucketLink(id: string, b: LinkBucket, measures: ResolvedMeasure[]): TopologyViewLink {
  const both = b.forward[0]?.length && b.backward[0]?.length;
  const hasBoth = measures.length ? Boolean(both) : false;
  return {
    id,
    source: b.source,
    target: b.target,
    kind: b.kind,
    level: b.level,
    values: measures.map((m, k) => combine(b.members[k]!, m.aggregate)),
    ...(hasBoth
      ? {
          forward: measures.map((m, k) => combine(b.forward[k]!, m.aggregate)),
          backward: measures.map((m, k) => combine(b.backward[k]!, m.aggregate)),
        }
      : {}),
    count: b.count,
  };
}
