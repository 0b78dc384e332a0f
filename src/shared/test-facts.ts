/**
 * What each view drew, read from the `data-*` facts it puts on its elements through any way of
 * querying the page: the extension-host tests ask the page's test agent, the screenshot scripts ask
 * Playwright's page. One reading, so both check the same facts.
 */
import type { ElementFacts } from './test-protocol';
import type { TimelineWindow } from './timeline-protocol';

/** Elements matching a CSS selector, with their `data-*` facts. */
export type QueryPage = (selector: string) => Promise<ElementFacts[]>;

/** What the Sankey view drew. */
export interface CallflowDrawn {
  /** One entry per graph on screen (two side by side): its title, nodes and links. */
  graphs: { title: string; nodes: number; links: number }[];
  /** Node ids outlined as revealed (Reveal Current Line, a CodeLens click). */
  revealed: string[];
  /** The node drawn as selected. */
  selected: string | null;
}

export async function callflowDrawn(query: QueryPage): Promise<CallflowDrawn> {
  const [charts, revealed, selected] = await Promise.all([
    query('.sankey-chart[data-nodes]'),
    query('[data-node][data-revealed="true"]'),
    query('[data-node][data-selected="true"]'),
  ]);
  return {
    graphs: charts.map(c => ({
      title: c.data['title'] ?? '',
      nodes: Number(c.data['nodes']),
      links: Number(c.data['links']),
    })),
    revealed: revealed.map(e => e.data['node']!),
    selected: selected[0]?.data['node'] ?? null,
  };
}

/** What the timeline's last frame drew. */
export interface TimelineDrawn {
  requestId: number;
  lanes: number;
  laneLabels: string[];
  groups: number;
  rects: number;
  events: number;
  flows: number;
  copies: number;
  highlighted: number;
  /** Iteration bands of the trace analysis's main loop drawn. */
  iterations: number;
  /** What the colours stand for (function, module, class) and how the lanes are ordered (display, clusters, …). */
  colourBy: string;
  sort: string;
  /** The call depth the lanes show (what a hover looks up first). */
  depth: number;
  /** The frame's window, and the view's (where pointer positions map to time). */
  window: TimelineWindow;
  view: TimelineWindow;
  /** The canvas's box in the page. */
  box: ElementFacts['box'];
}

/** The timeline's last frame, or undefined before the first one. */
export async function timelineDrawn(query: QueryPage): Promise<TimelineDrawn | undefined> {
  const [c] = await query('canvas.timeline-canvas');
  if (!c || c.data['request-id'] === undefined) return undefined;
  const n = (k: string) => Number(c.data[k]);
  return {
    requestId: n('request-id'),
    lanes: n('lanes'),
    laneLabels: c.data['lane-labels'] ? c.data['lane-labels'].split('\n') : [],
    groups: n('groups'),
    rects: n('rects'),
    events: n('events'),
    flows: n('flows'),
    copies: n('copies'),
    highlighted: n('highlighted'),
    iterations: n('iterations'),
    colourBy: c.data['colour-by'] ?? '',
    sort: c.data['sort'] ?? '',
    depth: n('depth'),
    window: { start: n('window-start'), end: n('window-end') },
    view: { start: n('view-start'), end: n('view-end') },
    box: c.box,
  };
}

/** What the ensemble views drew: counts per view and of the Sankey's marks, with the page's mode and selection. */
export interface EnsembleDrawn {
  counts: Record<string, number>;
  mode: string | undefined;
  selected: string | null;
}

export async function ensembleDrawn(query: QueryPage): Promise<EnsembleDrawn> {
  const count = async (selector: string) => (await query(selector)).length;
  const [views, app] = await Promise.all([query('[data-ensemble-view]'), query('.ensemble-app')]);
  const counts: Record<string, number> = {};
  for (const v of views) {
    counts[v.data['ensemble-view']!] = Number(v.data['drawn'] ?? 0);
    // Items a view left out for size (e.g. icicle bars narrower than a pixel).
    if (v.data['hidden']) counts[`${v.data['ensemble-view']!}Hidden`] = Number(v.data['hidden']);
  }
  const marks = {
    sankeyNodes: '.ens-node',
    sankeyLinks: '.ens-link',
    targetLinks: '.ens-target-link',
    targetLines: '.ens-target-line',
    gradients: '.ens-gradient',
    textGuides: '.ens-bin',
  };
  for (const [key, selector] of Object.entries(marks)) counts[key] = await count(selector);
  return { counts, mode: app[0]?.data['mode'], selected: app[0]?.data['selected'] || null };
}

/** What the Trace Analysis panel drew. */
export interface TraceAnalysisDrawn {
  /** `result`, `running` or `unavailable`. */
  state: string;
  clusters: number;
  /** Cluster bands drawn, with their heights in px (∝ log₂(size + 1)). */
  bandHeights: number[];
  loops: number;
  strips: number;
  paths: number;
  segments: number;
  /** The significant path drawn as selected, or null. */
  selectedPath: number | null;
  /** The what-if sum of the checked segments' projected savings (s). */
  whatIf: number;
  /** Why the lanes are one cluster, when a role has only one. */
  oneCluster: string[];
  /** The iteration matrix drawn: rows × columns, or null. */
  matrix: { rows: number; columns: number; loop: number } | null;
}

export async function traceAnalysisDrawn(query: QueryPage): Promise<TraceAnalysisDrawn> {
  const [app, bands, strips, paths, segments, selected, notes, matrix] = await Promise.all([
    query('.trace-analysis-app'),
    query('[data-cluster-band]'),
    query('[data-loop-strip]'),
    query('[data-path-row]'),
    query('[data-segment-row]'),
    query('[data-path-row][data-selected="true"]'),
    query('[data-one-cluster]'),
    query('canvas.ta-matrix-canvas[data-rows]'),
  ]);
  const a = app[0]?.data ?? {};
  const m = matrix[0]?.data;
  return {
    state: a['state'] ?? '',
    clusters: Number(a['clusters'] ?? 0),
    bandHeights: bands.map(b => Number(b.data['height'])),
    loops: Number(a['loops'] ?? 0),
    strips: strips.length,
    paths: paths.length,
    segments: segments.length,
    selectedPath: selected[0] ? Number(selected[0].data['path-row']) : null,
    whatIf: Number(a['what-if'] ?? 0),
    oneCluster: notes.map(n => n.data['one-cluster'] ?? ''),
    matrix: m ? { rows: Number(m['rows']), columns: Number(m['columns']), loop: Number(m['loop']) } : null,
  };
}
