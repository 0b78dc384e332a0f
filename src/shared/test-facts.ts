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

/** What the DMV panel drew: its mode and window, each view's count, and the facts of the linked views. */
export interface DmvDrawn {
  /** `trace`, `ensemble`, `unavailable` or `loading`. */
  mode: string;
  /** The selected window (null: the whole run), and the window of the views on screen. */
  window: TimelineWindow | null;
  drawnWindow: TimelineWindow | null;
  /** The clock sector the window is, when it is one. */
  sector: number | null;
  playing: boolean;
  /** Per view (`clock`, `flags`, `matrix`, `hardware`, `metrics`, `events`, `application`): what it drew. */
  views: Record<string, number>;
  /** Clock sectors labelled with bytes (or faults). */
  labelledSectors: number[];
  matrix: { src: number; dst: number; bytes: number; count: number; link: string }[];
  matrixWarnings: string[];
  /** The clicked cell's listing: its copies and issuing lines. */
  cell: { cell: string; copies: number; sites: string[] } | null;
  events: { items: number; groups: number; lanes: number; total: number } | null;
  flags: { kind: string; file: string; line: number | null; selected: boolean }[];
  /** Metric ids in the order drawn (by variance in the window). */
  metrics: string[];
  application: { nodes: number; active: number } | null;
  hardware: { device: string; utilisation: number | null }[];
  ensemble: { runs: string[]; mode: string; sectorWidth: number | null } | null;
  /** The hardware view's drawing (the shared topology component). */
  topology: TopologyDrawn | null;
}

export async function dmvDrawn(query: QueryPage): Promise<DmvDrawn> {
  const [
    app,
    page,
    views,
    labels,
    cells,
    warnings,
    cell,
    events,
    flags,
    metrics,
    application,
    devices,
    ensemble,
    runs,
  ] = await Promise.all([
    query('.dmv-app'),
    query('.dmv-page'),
    query('[data-dmv-view]'),
    query('.dmv-sector-label'),
    query('.dmv-cell'),
    query('[data-matrix-warning]'),
    query('.dmv-cell-copies'),
    query('.dmv-events'),
    query('.dmv-flag'),
    query('.dmv-metrics'),
    query('.dmv-app-view'),
    query('[data-device]'),
    query('.dmv-ensemble'),
    query('.dmv-grid-run'),
  ]);
  const p = page[0]?.data ?? {};
  const win = (s: string | undefined, e: string | undefined) =>
    s !== undefined && s !== '' && e !== undefined && e !== '' ? { start: Number(s), end: Number(e) } : null;
  const drawn = p['request-window']?.split('-').map(Number);
  const viewCounts: Record<string, number> = {};
  for (const v of views) viewCounts[v.data['dmv-view']!] = Number(v.data['drawn'] ?? 0);
  const c = cell[0];
  const ev = events[0]?.data;
  return {
    mode: app[0]?.data['mode'] ?? 'none',
    window: win(p['window-start'], p['window-end']),
    drawnWindow: drawn && drawn.length === 2 ? { start: drawn[0]!, end: drawn[1]! } : null,
    sector: p['sector'] ? Number(p['sector']) : null,
    playing: p['playing'] === 'true',
    views: viewCounts,
    labelledSectors: labels.map(l => Number(l.data['sector'])),
    matrix: cells.map(e => ({
      src: Number(e.data['src']),
      dst: Number(e.data['dst']),
      bytes: Number(e.data['bytes']),
      count: Number(e.data['count']),
      link: e.data['link'] ?? '',
    })),
    matrixWarnings: warnings.map(w => w.text),
    cell: c
      ? {
          cell: c.data['cell'] ?? '',
          copies: Number(c.data['copies']),
          sites: (await query('.dmv-cell-copies [data-site]')).map(s => s.data['site']!),
        }
      : null,
    events: ev
      ? {
          items: Number(ev['items']),
          groups: Number(ev['groups']),
          lanes: Number(ev['lanes']),
          total: Number(ev['total']),
        }
      : null,
    flags: flags.map(f => ({
      kind: f.data['flag']!,
      file: f.data['file'] ?? '',
      line: f.data['line'] ? Number(f.data['line']) : null,
      selected: f.data['selected'] === 'true',
    })),
    metrics: metrics[0]?.data['order'] ? metrics[0].data['order'].split('\n') : [],
    application: application[0]
      ? { nodes: Number(application[0].data['nodes']), active: Number(application[0].data['active']) }
      : null,
    hardware: devices.map(d => ({
      device: d.data['device']!,
      utilisation: d.data['utilisation'] ? Number(d.data['utilisation']) : null,
    })),
    ensemble: ensemble[0]
      ? {
          runs: runs.map(r => r.data['run']!),
          mode: ensemble[0].data['mode'] ?? '',
          sectorWidth: ensemble[0].data['sector-width'] ? Number(ensemble[0].data['sector-width']) : null,
        }
      : null,
    topology: (await topologyDrawn(query))[0] ?? null,
  };
}

/** What the Memory view drew. */
export interface MemoryDrawn {
  /** Samples of the dataset, the visible ones and the selection (0: nothing selected). */
  samples: number;
  visible: number;
  selected: number;
  /** `drawn` (the machine), or `none` (no topology in the data). */
  topology: string;
  /** The machine's marks drawn, by kind (`machine`, `numa`, `l3`, … `pu`). */
  resources: Record<string, number>;
  /** One per histogram: its attribute, bars drawn and whether it is brushed. */
  histograms: { attribute: string; bins: number; brushed: boolean }[];
  /** The code bars (`file:line`) and variable bars in order. */
  lines: string[];
  variables: string[];
  /** Depth rows with the imbalance shown. */
  depths: { depth: string; imbalance: number }[];
  /** The metric strip's windows and peak, and the cluster markers drawn. */
  strip: { attribute: string; windows: number; peak: number } | null;
  clusters: number;
}

export async function memoryDrawn(query: QueryPage): Promise<MemoryDrawn> {
  const [root, topo, resources, hists, lines, vars, depths, strip, clusters] = await Promise.all([
    query('.memory-view'),
    query('.memory-topology'),
    query('.memory-topology [data-node][data-kind]'),
    query('.memory-histogram[data-attribute]'),
    query('.memory-line-bar[data-line]'),
    query('.memory-variable-bar[data-variable]'),
    query('.memory-depth-row[data-depth]'),
    query('.memory-strip[data-windows]'),
    query('.memory-cluster[data-node]'),
  ]);
  const r = root[0]?.data ?? {};
  const byDepth: Record<string, number> = {};
  for (const e of resources) byDepth[e.data['kind']!] = (byDepth[e.data['kind']!] ?? 0) + 1;
  const s = strip[0]?.data;
  return {
    samples: Number(r['samples'] ?? 0),
    visible: Number(r['visible'] ?? 0),
    selected: Number(r['selected'] ?? 0),
    topology: topo[0]?.data['state'] ?? 'absent',
    resources: byDepth,
    histograms: hists.map(h => ({
      attribute: h.data['attribute']!,
      bins: Number(h.data['bins'] ?? 0),
      brushed: h.data['brushed'] === 'true',
    })),
    lines: lines.map(l => `${l.data['file']}:${l.data['line']}`),
    variables: vars.map(v => v.data['variable']!),
    depths: depths.map(d => ({ depth: d.data['depth']!, imbalance: Number(d.data['imbalance']) })),
    strip: s ? { attribute: s['attribute']!, windows: Number(s['windows']), peak: Number(s['peak']) } : null,
    clusters: clusters.length,
  };
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
  /** Lines in each behaviour view (one per entity), points in the top similarity scatter (and in each). */
  behaviourLines: number[];
  scatterPoints: number;
  scatters: number[];
  /** Rows of the causality table; cells of the live matrix. */
  causalityRows: number;
  matrixCells: number;
  /** Entities highlighted (lasso or Show). */
  selected: number;
  /** The highlighted entities (indices of the monitor's level), the change point Show selected them for (null for a lasso), and what the editor shows for them. */
  selection: { entities: number[]; changePoint: number | null; editor: string };
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
    scatters: scatter.map(v => Number(v.data['points'])),
    causalityRows: Number(causality[0]?.data['rows'] ?? 0),
    matrixCells: Number(matrix[0]?.data['cells'] ?? 0),
    selected: Number(r['selected'] ?? 0),
    selection: {
      entities: r['selected-entities'] ? r['selected-entities'].split(',').map(Number) : [],
      changePoint: r['selection-change-point'] ? Number(r['selection-change-point']) : null,
      editor: r['selection-editor'] ?? '',
    },
  };
}
