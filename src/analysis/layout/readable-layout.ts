/**
 * The CallFlow layout with the rules that keep large graphs readable (issue 15): a column holds at
 * most as many nodes as fit legibly in the height — about 25 at a panel's 600 px, one row of bar
 * and label each — and the lightest nodes of a fuller column merge into one "k more" node, which
 * the user can expand (`expanded`); gaps take at most a third of the height (layoutCallflow's
 * `maxGapShare`) and bars are at least `minNodeHeight` tall. Nothing leaves the box: an expanded
 * column that cannot fit is compressed, or with `scroll` the box grows to `neededHeight`.
 */
import {
  flowStructure,
  layoutCallflow,
  type CallflowLayout,
  type CallflowLayoutOptions,
  type FlowEdgeInput,
  type FlowGraphInput,
  type FlowNodeInput,
} from './callflow-layout';

export interface ReadableLayoutOptions extends CallflowLayoutOptions {
  /** Vertical room a node needs for its bar and its label (default 24 px: 25 rows in 600 px). */
  rowHeight?: number;
  /** Ids of "k more" nodes to expand (`moreNodeId(level)`): their columns show every node. */
  expanded?: readonly string[];
}

export interface MoreNode {
  /** Id of the merged node (stable for a column: `moreNodeId(level)`). */
  id: string;
  level: number;
  /** Ids of the nodes it stands for, heaviest first. */
  members: string[];
  /** Σ of their values (its height). */
  value: number;
}

export interface ReadableLayout {
  /** The layout of `graph` (node and edge `index` fields refer to `graph`). */
  layout: CallflowLayout;
  /** The graph drawn: the input's nodes except the merged ones, then one node per "k more". */
  graph: FlowGraphInput;
  /** Input node index of each node of `graph` (-1 for a "k more" node). */
  nodeSource: number[];
  /** Input edge indices each edge of `graph` stands for (several where merged nodes joined edges). */
  edgeSources: number[][];
  more: MoreNode[];
  /** Nodes a column may hold at this height before its lightest merge (per level). */
  rowsPerColumn: number[];
  /** Height in which every column, expanded ones included, stays legible (the view scrolls to it). */
  neededHeight: number;
  /** Input edges not drawn (unknown ids, self-loops, edges closing a cycle), by input index. */
  removedEdges: CallflowLayout['removedEdges'];
}

export const READABLE_DEFAULTS = { rowHeight: 24, minNodeHeight: 4 };

const MORE_PREFIX = '\u2026more@';

/** Id of the "k more" node of a column. */
export function moreNodeId(level: number): string {
  return `${MORE_PREFIX}${level}`;
}

/** How many nodes of `rowHeight` px fit in `innerHeight` px beside `dummies` long calls of `dummyGap` (at least 2: one node and "k more"). */
export function legibleRows(innerHeight: number, rowHeight: number, dummies = 0, dummyGap = 0): number {
  const room = Math.max(0, innerHeight - dummies * Math.max(0, dummyGap));
  return Math.max(2, Math.floor(room / Math.max(1, rowHeight)));
}

export function layoutReadableCallflow(input: FlowGraphInput, options: ReadableLayoutOptions): ReadableLayout {
  const rowHeight = finiteOr(options.rowHeight, READABLE_DEFAULTS.rowHeight);
  const height = Math.max(0, finiteOr(options.height, 0));
  const m = options.margin ?? { top: 0, right: 0, bottom: 0, left: 0 };
  const innerH = height - Math.min(Math.max(0, m.top), height / 4) - Math.min(Math.max(0, m.bottom), height / 4);
  const dummyGap = finiteOr(options.dummyGap, 4);
  const expanded = new Set(options.expanded ?? []);

  // Columns as the layout will see them: the same cleaning and levels.
  const st = flowStructure(input);
  const n = st.nodeInput.length;
  const levels = n ? Math.max(...st.level) + 1 : 0;
  const count = new Array<number>(levels).fill(0);
  const dummies = new Array<number>(levels).fill(0);
  for (const l of st.level) count[l]!++;
  for (const e of st.edges) for (let l = st.level[st.src(e)]! + 1; l < st.level[st.tgt(e)]!; l++) dummies[l]!++;
  const rowsPerColumn = count.map((_, l) => legibleRows(innerH, rowHeight, dummies[l]!, dummyGap));

  // The lightest nodes of a full column merge (ties: input order); `mergedInto` maps a unique node to its "k more".
  const mergedInto = new Int32Array(n).fill(-1);
  const more: MoreNode[] = [];
  const taken = new Set(st.nodeInput.map(x => x.id));
  for (let l = 0; l < levels; l++) {
    let id = moreNodeId(l);
    while (taken.has(id)) id = `\u2026${id}`;
    if (count[l]! <= rowsPerColumn[l]! || expanded.has(id) || expanded.has(moreNodeId(l))) continue;
    const column: number[] = [];
    for (let v = 0; v < n; v++) if (st.level[v] === l) column.push(v);
    column.sort((a, b) => st.value[b]! - st.value[a]! || a - b);
    const light = column.slice(rowsPerColumn[l]! - 1);
    for (const v of light) mergedInto[v] = more.length;
    more.push({
      id,
      level: l,
      members: light.map(v => st.nodeInput[v]!.id),
      value: light.reduce((s, v) => s + st.value[v]!, 0),
    });
  }

  // The graph drawn: kept nodes in input order, then the "k more" nodes; edges remapped and summed.
  const nodes: FlowNodeInput[] = [];
  const nodeSource: number[] = [];
  for (let v = 0; v < n; v++)
    if (mergedInto[v] === -1) {
      nodes.push(st.nodeInput[v]!);
      nodeSource.push(st.inputIndex[v]!);
    }
  for (const mn of more) {
    nodes.push({ id: mn.id, value: mn.value });
    nodeSource.push(-1);
  }
  const idOf = (v: number) => (mergedInto[v]! >= 0 ? more[mergedInto[v]!]!.id : st.nodeInput[v]!.id);
  // Only the edges the layout keeps: merging nodes of one level keeps them acyclic and leaves every
  // level as it was, whereas a dropped back edge, remapped, could make the layout drop another.
  const edges: FlowEdgeInput[] = [];
  const edgeSources: number[][] = [];
  const edgeAt = new Map<string, number>();
  for (const i of st.edges) {
    const s = st.src(i),
      t = st.tgt(i);
    const source = idOf(s),
      target = idOf(t);
    if (mergedInto[s]! < 0 && mergedInto[t]! < 0) {
      edges.push({ source, target, value: input.edges[i]!.value });
      edgeSources.push([i]);
      continue;
    }
    const key = `${source}\u0000${target}`;
    const at = edgeAt.get(key);
    if (at === undefined) {
      edgeAt.set(key, edges.length);
      edges.push({ source, target, value: st.flow(i) });
      edgeSources.push([i]);
    } else {
      edges[at] = { source, target, value: edges[at]!.value + st.flow(i) };
      edgeSources[at]!.push(i);
    }
  }
  const graph = { nodes, edges };

  const layout = layoutCallflow(graph, {
    ...options,
    minNodeHeight: options.minNodeHeight ?? READABLE_DEFAULTS.minNodeHeight,
    minRowHeight: options.minRowHeight ?? rowHeight,
  });
  return {
    layout,
    graph,
    nodeSource,
    edgeSources,
    more,
    rowsPerColumn,
    neededHeight: layout.neededHeight,
    removedEdges: st.removedEdges,
  };
}

function finiteOr(v: number | undefined, d: number): number {
  return v !== undefined && Number.isFinite(v) ? v : d;
}
