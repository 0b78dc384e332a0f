/**
 * Geometry of the Ensemble-Sankey (pure): the CallFlow layout of the ensemble super graph (node
 * height = max inclusive over runs, ribbon = max flow over runs, tapered where the maxima of
 * different runs do not add up — AT-14), the bins of a node's gradient and the runs in each, the
 * target line and the target ribbon overlaid on an ensemble ribbon.
 *
 * The layout input depends only on the graph's structure and maxima, never on the mode, the target
 * or the diff pair, so switching them keeps every node in place (AT-10).
 */
import type { RibbonPoint } from '../../../../src/analysis/layout/ribbon-path';
import { ribbonOutline } from '../../../../src/analysis/layout/ribbon-path';
import { binOf } from '../../../../src/analysis/stats/histogram';
import type {
  EnsembleGraphData,
  EnsembleHistogram,
  EnsembleNodeData,
  EnsembleSide,
} from '../../../../src/shared/ensemble-protocol';
import type { CallflowData } from '../../../../src/shared/callflow-protocol';
import { layoutSankey } from '../sankey/sankey-layout';
import type { SankeyLayout } from '../sankey/sankey-layout';

/** Bar width: wide enough for the gradient to read and for a bin's run count. */
export const ENSEMBLE_NODE_WIDTH = 26;
/** Vertical gap between nodes: room for the min label above a node and the max label below the one over it. */
export const ENSEMBLE_NODE_GAP = 30;
/** Room above the first and below the last node of a column for the min/max text guides. */
export const ENSEMBLE_MARGIN = { top: 18, right: 8, bottom: 18, left: 8 };

/**
 * The graph as the single-run layout and labels see it: height = max inclusive, ribbons = max
 * flows, share = of the longest selected run's total (Σ of its roots). A node's value in a run
 * never exceeds that run's total, so no share passes 100 % — unlike a share of the largest root,
 * which a function called under two roots (threads) outgrows. Nothing here depends on the mode,
 * target or diff.
 */
export function asCallflowData(data: EnsembleGraphData): CallflowData {
  const incoming = new Set(data.links.map(l => l.target));
  const rootMax = Math.max(0, ...data.nodes.filter(n => !incoming.has(n.id)).map(n => n.maxInclusive));
  const longestRun = Math.max(rootMax, ...data.selectedRuns.map(r => data.runs[r]?.total ?? 0));
  return {
    title: data.title,
    metric: data.metric,
    total: longestRun,
    nodes: data.nodes.map(n => {
      const entry = hottestEntry(n) ?? n.entries[0];
      return {
        id: n.id,
        label: n.label,
        module: n.module,
        inclusive: n.maxInclusive,
        exclusive: n.maxExclusive,
        share: longestRun > 0 ? n.maxInclusive / longestRun : 0,
        imbalance: 1,
        entry: entry
          ? { name: entry.name, file: entry.file, line: entry.line }
          : { name: n.label, file: null, line: null },
        kind: n.kind,
        baseId: n.baseId,
        occurrence: n.occurrence,
      };
    }),
    links: data.links.map(l => ({ source: l.source, target: l.target, value: l.value })),
  };
}

/** Everything the layout depends on, as a string: equal keys give the same layout. */
export function layoutKey(data: EnsembleGraphData): string {
  return JSON.stringify([
    data.nodes.map(n => [n.id, n.maxInclusive]),
    data.links.map(l => [l.source, l.target, l.value]),
  ]);
}

/**
 * Lays the ensemble graph out in a `width` × `height` box, staying close to `previous`, by the
 * CallFlow panel's readable rules (readable-layout.ts): bars at least 4 px, and a column with more
 * nodes than fit legibly shows its lightest as one "k more" bar unless its id is in `expanded`
 * (the drawing then grows taller and the chart scrolls).
 */
export function layoutEnsemble(
  data: EnsembleGraphData,
  width: number,
  height: number,
  previous?: SankeyLayout | null,
  expanded: readonly string[] = [],
): SankeyLayout {
  return layoutSankey(asCallflowData(data), {
    width,
    height,
    nodeWidth: ENSEMBLE_NODE_WIDTH,
    nodePadding: ENSEMBLE_NODE_GAP,
    margin: ENSEMBLE_MARGIN,
    minNodeHeight: ENSEMBLE_MIN_NODE_HEIGHT,
    previous,
    expanded,
  });
}

/** Shortest bar drawn (issue 15: every bar at least 4 px, so a light kernel stays a target to hover and click). */
export const ENSEMBLE_MIN_NODE_HEIGHT = 4;

/** The entry function with the largest max inclusive that has a source location (the click target), if any. */
export function hottestEntry(n: EnsembleNodeData): EnsembleNodeData['entries'][number] | undefined {
  return [...n.entries].sort((a, b) => b.maxInclusive - a.maxInclusive).find(e => e.file !== null);
}

/** Value range [lo, hi] of bin `bin` of a histogram (the last bin includes its upper edge). */
export function binRange(h: EnsembleHistogram, bin: number): [number, number] {
  const bins = h.counts.length;
  const width = (h.max - h.min) / bins;
  if (!(width > 0)) return [h.min, h.max];
  return [h.min + bin * width, bin === bins - 1 ? h.max : h.min + (bin + 1) * width];
}

/**
 * Runs (ensemble indices, ascending) whose value of `side` falls in bin `bin` of the node's
 * gradient, by the same rule the host binned them with; null when the host sent no per-run values
 * (more than MAX_RUN_VALUES selected runs).
 */
export function runsInBin(
  data: EnsembleGraphData,
  node: EnsembleNodeData,
  side: EnsembleSide,
  bin: number,
): number[] | null {
  const values = node.runValues?.[side];
  if (!values) return null;
  const h = node.gradient[side];
  const out: number[] = [];
  values.forEach((v, k) => {
    if (v !== null && binOf(v, h.min, h.max, h.counts.length) === bin) out.push(data.selectedRuns[k]!);
  });
  return out.sort((a, b) => a - b);
}

/** y of a target line: the centre of the target's bin, bin 0 at the top (§4.8: (bin + 0.5) × h / bins). */
export function targetLineY(y0: number, y1: number, bin: number, bins: number): number {
  return y0 + ((bin + 0.5) * (y1 - y0)) / Math.max(1, bins);
}

/**
 * Outline of the target run's ribbon drawn over an ensemble ribbon: the same path along its top
 * edge, `fraction` (target flow / ensemble max flow, clamped to [0, 1]) of its height at every point.
 */
export function targetRibbonPath(points: readonly RibbonPoint[], fraction: number, curvature = 0.5): string {
  const f = Number.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 0;
  return ribbonOutline(
    points.map(p => ({ x: p.x, top: p.top, bottom: p.top + (p.bottom - p.top) * f })),
    curvature,
  );
}

/** A box in layout coordinates. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

export interface GuideText {
  text: string;
  x: number;
  y: number;
  width: number;
}
export interface NodeGuides {
  nodeId: string;
  /** `min …` above the bar and `max …` below it (bin 0, the lowest values, is at the top); null where it would overlap. */
  min: GuideText | null;
  max: GuideText | null;
  /** Top-left corner of the sparkline, or null (no order, or no room). */
  spark: { x: number; y: number } | null;
  /** Where the out-of-order mark goes (text guides off), or null. */
  flag: { x: number; y: number } | null;
}

export interface GuideOptions {
  width: number;
  height: number;
  textGuides: boolean;
  side: EnsembleSide;
  unit: string;
  /** Node ids with a sparkline (ordered ensemble) and those flagged out of order. */
  sparkline: ReadonlySet<string>;
  outOfOrder: ReadonlySet<string>;
  /** Label boxes already placed (never covered) and the side each label is on. */
  labels: readonly {
    nodeId: string;
    side: 'left' | 'right';
    x: number;
    anchor: 'start' | 'end';
    width: number;
    top: number;
    bottom: number;
  }[];
  measure: (text: string) => number;
  format: (v: number, unit: string) => string;
  sparkSize: { width: number; height: number };
}

/**
 * Places the text guides of every node — min above, max below, the sparkline on the side away from
 * the label (under the label when that side is off the chart) — biggest nodes first; a guide that
 * would cover a label or another guide is left out (the tooltip and the bin popover still say it).
 */
export function placeGuides(
  layout: SankeyLayout,
  nodes: ReadonlyMap<string, EnsembleNodeData>,
  o: GuideOptions,
): NodeGuides[] {
  const taken: Box[] = o.labels.map(l => {
    const x0 = (l.anchor === 'start' ? l.x : l.x - l.width) - 4;
    return { x0, y0: l.top, x1: x0 + l.width + 8, y1: l.bottom };
  });
  for (const n of layout.nodes) taken.push({ x0: n.x0 - 2, y0: n.y0 - 2, x1: n.x1 + 2, y1: n.y1 + 2 });
  const labelOf = new Map(o.labels.map(l => [l.nodeId, l]));
  const fits = (b: Box): boolean => b.x0 >= 0 && b.x1 <= o.width && b.y0 >= 0 && b.y1 <= o.height;
  const claim = (b: Box, ignore?: Box): boolean => {
    if (!fits(b) || taken.some(t => t !== ignore && overlaps(t, b))) return false;
    taken.push(b);
    return true;
  };
  const out: NodeGuides[] = [];
  for (const pn of [...layout.nodes].sort((a, b) => b.value - a.value || a.y0 - b.y0)) {
    const n = nodes.get(pn.id);
    if (!n) continue;
    const ownBox = taken.find(t => t.x0 === pn.x0 - 2 && t.y0 === pn.y0 - 2);
    const g: NodeGuides = { nodeId: pn.id, min: null, max: null, spark: null, flag: null };
    const cx = (pn.x0 + pn.x1) / 2;
    const text = (label: string, baseline: number): GuideText | null => {
      const width = o.measure(label) + 6;
      const x = Math.max(width / 2, Math.min(o.width - width / 2, cx));
      return claim({ x0: x - width / 2, y0: baseline - 10, x1: x + width / 2, y1: baseline + 3 }, ownBox)
        ? { text: label, x, y: baseline, width }
        : null;
    };
    if (o.textGuides) {
      const h = n.gradient[o.side];
      g.min = text(`min ${o.format(h.min, o.unit)}`, pn.y0 - 5);
      g.max = text(`max ${o.format(h.max, o.unit)}`, pn.y1 + 13);
    }
    const label = labelOf.get(pn.id);
    const away: 'left' | 'right' = label?.side === 'right' ? 'left' : 'right';
    const { width: sw, height: sh } = o.sparkSize;
    if (o.textGuides && o.sparkline.has(pn.id)) {
      const mid = (pn.y0 + pn.y1) / 2 - sh / 2;
      const candidates: Box[] = [
        away === 'right'
          ? { x0: pn.x1 + 6, y0: mid, x1: pn.x1 + 6 + sw, y1: mid + sh }
          : { x0: pn.x0 - 6 - sw, y0: mid, x1: pn.x0 - 6, y1: mid + sh },
      ];
      if (label) {
        const x0 = label.anchor === 'start' ? label.x : label.x - sw;
        candidates.push({ x0, y0: label.bottom + 2, x1: x0 + sw, y1: label.bottom + 2 + sh });
      }
      const spot = candidates.find(b => claim(b));
      if (spot) g.spark = { x: spot.x0, y: spot.y0 };
    }
    if (!o.textGuides && o.outOfOrder.has(pn.id)) {
      const candidates: Box[] = [
        away === 'right'
          ? { x0: pn.x1 + 3, y0: pn.y0, x1: pn.x1 + 14, y1: pn.y0 + 13 }
          : { x0: pn.x0 - 14, y0: pn.y0, x1: pn.x0 - 3, y1: pn.y0 + 13 },
        { x0: pn.x1 - 6, y0: pn.y0 - 15, x1: pn.x1 + 5, y1: pn.y0 - 2 },
      ];
      const spot = candidates.find(b => claim(b));
      if (spot) g.flag = { x: spot.x0, y: spot.y1 - 2 };
    }
    out.push(g);
  }
  return out;
}
