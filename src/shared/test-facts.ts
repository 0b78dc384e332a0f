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

/** What the live PDES monitor view drew. */
export interface PdesMonitorDrawn {
  /** live, paused, ended or failed. */
  state: string;
  /** Ticks in the summary views, and the newest one. */
  ticks: number;
  latestTick: number;
  changePoints: number;
  eventsProcessed: number;
  rollbacks: number;
  /** Lines in each behaviour view (one per entity), points in the similarity scatter. */
  behaviourLines: number[];
  scatterPoints: number;
  /** Rows of the causality table; cells of the live matrix. */
  causalityRows: number;
  matrixCells: number;
  /** Entities highlighted (lasso or Show). */
  selected: number;
}

export async function pdesMonitorDrawn(query: QueryPage): Promise<PdesMonitorDrawn | undefined> {
  const [root, behaviour, scatter, causality, matrix] = await Promise.all([
    query('.pdes-monitor[data-state]'),
    query('.monitor-behaviour[data-lines]'),
    query('.monitor-scatter[data-points]'),
    query('.monitor-causality[data-rows]'),
    query('.monitor-matrix[data-cells]'),
  ]);
  const r = root[0]?.data;
  if (!r) return undefined;
  return {
    state: r['state'] ?? '',
    ticks: Number(r['ticks']),
    latestTick: Number(r['latest-tick']),
    changePoints: Number(r['change-points']),
    eventsProcessed: Number(r['events-processed']),
    rollbacks: Number(r['rollbacks']),
    behaviourLines: behaviour.map(b => Number(b.data['lines'])),
    scatterPoints: Number(scatter[0]?.data['points'] ?? 0),
    causalityRows: Number(causality[0]?.data['rows'] ?? 0),
    matrixCells: Number(matrix[0]?.data['cells'] ?? 0),
    selected: Number(r['selected'] ?? 0),
  };
}
