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

/** What the PDES panel drew (thesis ch. 5's views), from its `data-*` facts. */
export interface PdesDrawn {
  level: string;
  axis: string;
  selected: number;
  total: number;
  segments: string[];
  clusterSizes: number[];
  overview: { points: number; brushFrom: number; brushTo: number; changePoints: number[] } | null;
  /** Per detail view: lines drawn and the selected ones among them. */
  details: { metric: string; lines: number; selectedLines: number }[];
  similarity: { metric: string; points: number; method: string }[];
  /** Per segment's circular view: ribbons, ring items and the largest ribbon's PEs. */
  circular: { segment: string; ribbons: number; items: number; topRibbon: string }[];
  matrix: { segment: string; rows: number } | null;
  topologyAvailable: boolean;
  handlerRows: number;
}

/** The PDES panel's facts, or undefined before it drew a run. */
export async function pdesDrawn(query: QueryPage): Promise<PdesDrawn | undefined> {
  const [[body], [overview], details, similarity, circular, [matrix], [topology], [handlers]] = await Promise.all([
    query('.pdes-body'),
    query('svg.pdes-overview'),
    query('svg.pdes-detail'),
    query('svg.pdes-similarity'),
    query('svg.pdes-circular'),
    query('svg.pdes-matrix'),
    query('.pdes-topology'),
    query('.pdes-handlers'),
  ]);
  if (!body) return undefined;
  const list = (s: string | undefined) => (s ? s.split(',').filter(Boolean) : []);
  return {
    level: body.data['level']!,
    axis: body.data['axis']!,
    selected: Number(body.data['selected']),
    total: Number(body.data['total']),
    segments: list(body.data['segments']),
    clusterSizes: list(body.data['clusters']).map(Number),
    overview: overview
      ? {
          points: Number(overview.data['points']),
          brushFrom: Number(overview.data['brush-from']),
          brushTo: Number(overview.data['brush-to']),
          changePoints: list(overview.data['change-points']).map(Number),
        }
      : null,
    details: details.map(d => ({
      metric: d.data['metric']!,
      lines: Number(d.data['lines']),
      selectedLines: Number(d.data['selected-lines']),
    })),
    similarity: similarity.map(s => ({
      metric: s.data['metric']!,
      points: Number(s.data['points']),
      method: s.data['method']!,
    })),
    circular: circular.map(c => ({
      segment: c.data['segment']!,
      ribbons: Number(c.data['ribbons']),
      items: Number(c.data['items']),
      topRibbon: c.data['top-ribbon'] ?? '',
    })),
    matrix: matrix ? { segment: matrix.data['segment']!, rows: Number(matrix.data['rows']) } : null,
    topologyAvailable: topology?.data['available'] === 'true',
    handlerRows: Number(handlers?.data['rows'] ?? 0),
  };
}

/** What a topology view drew (components/topology/topology-view.tsx): its layout, counts and selection. */
export interface TopologyDrawn {
  layout: string;
  nodes: number;
  links: number;
  labels: number;
  /** Marks too small to draw at the view's size. */
  hidden: number;
  aggregates: number;
  selected: string[];
  highlighted: string[];
  /** Leaf marks the view's size holds comfortably. */
  capacity: number;
}

/** Every topology view on the page (a panel may show more than one), in page order. */
export async function topologyDrawn(query: QueryPage): Promise<TopologyDrawn[]> {
  const views = await query('.topology-view[data-topology-layout]');
  const ids = (s: string | undefined) => (s ? s.split(' ').filter(Boolean) : []);
  return views.map(v => ({
    layout: v.data['topology-layout']!,
    nodes: Number(v.data['nodes-drawn']),
    links: Number(v.data['links-drawn']),
    labels: Number(v.data['labels-drawn']),
    hidden: Number(v.data['hidden']),
    aggregates: Number(v.data['aggregates']),
    selected: ids(v.data['selected']),
    highlighted: ids(v.data['highlighted']),
    capacity: Number(v.data['capacity']),
  }));
}
