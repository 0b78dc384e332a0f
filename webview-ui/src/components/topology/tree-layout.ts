/**
 * Trees as a radial sunburst or an icicle (MemAxes §6.2, seed digest §3.1 item 2): d3-hierarchy's
 * partition gives every leaf the same share (aggregates the share of their members), the root is the
 * centre disc (top row), and each level a ring (row) outward (downward). A containment link is a bar
 * in the gap above its child, as wide as the child at the level's largest value and proportionally
 * narrower below it (MemAxes: "from 1 px to the full available width"); other links between marks
 * (a cross-socket NUMA link) are curves through the centre disc (over the parent row).
 */
import { partition, stratify, type HierarchyRectangularNode } from 'd3';
import type { TopologyViewData, TopologyViewNode } from '../../../../src/shared/topology-protocol';
import type { MeasureText } from '../../text-estimate';
import { arcSize, MIN_LINK, MIN_MARK, polar, type ArcGeom, type MarkGeom, type RectGeom } from './topology-geometry';
import {
  COMFORTABLE_LEAF,
  insideLabels,
  linkShare,
  linkWidth,
  type LayoutBar,
  type LayoutCurve,
  type LayoutMark,
  PAD_PX,
  type TopologyLayoutResult,
} from './topology-layout';

interface Partitioned {
  root: HierarchyRectangularNode<TopologyViewNode>;
  depth: number;
}

const VIRTUAL_ROOT = '\u0000root';

/** The partition of the drawn tree on [0, 1] × [0, depth]; several roots share a virtual one. */
function partitionOf(data: TopologyViewData): Partitioned {
  const roots = data.nodes.filter(n => n.parent === null);
  const rows: TopologyViewNode[] =
    roots.length === 1
      ? data.nodes
      : [
          {
            id: VIRTUAL_ROOT,
            index: -1,
            kind: roots[0]?.kind ?? 'machine',
            label: '',
            short: '',
            parent: null,
            depth: -1,
            osIndex: -1,
            values: [],
            expandable: false,
            collapsible: false,
            weight: roots.reduce((s, r) => s + r.weight, 0),
          },
          ...data.nodes.map(n => (n.parent === null ? { ...n, parent: VIRTUAL_ROOT } : n)),
        ];
  const hasChild = new Set(rows.map(n => n.parent));
  const tree = stratify<TopologyViewNode>()
    .id(n => n.id)
    .parentId(n => n.parent)(rows)
    .sum(n => (hasChild.has(n.id) ? 0 : Math.max(n.weight, 0)));
  const root = partition<TopologyViewNode>().size([1, 1])(tree);
  return { root, depth: root.height + 1 };
}

/** Depth of a partition node in rings: the virtual root is not drawn, so its children are ring 0. */
function ringOf(p: HierarchyRectangularNode<TopologyViewNode>, virtual: boolean): number {
  return virtual ? p.depth - 1 : p.depth;
}

function containmentDrawn(data: TopologyViewData): boolean {
  return data.width.measure >= 0 && data.links.some(l => l.kind === 'contains');
}

/**
 * The partition's marks (the virtual root is not drawn) with the geometry `geomOf` gives a node in
 * its ring (row); `null` means too small to draw, counted in `hidden`.
 */
function partitionMarks<G extends MarkGeom>(
  root: HierarchyRectangularNode<TopologyViewNode>,
  geomOf: (p: HierarchyRectangularNode<TopologyViewNode>, ring: number) => G | null,
): { marks: LayoutMark[]; byId: Map<string, G>; hidden: number } {
  const virtual = root.data.id === VIRTUAL_ROOT;
  const marks: LayoutMark[] = [];
  const byId = new Map<string, G>();
  let hidden = 0;
  for (const p of root.descendants()) {
    if (p.data.id === VIRTUAL_ROOT) continue;
    const geom = geomOf(p, ringOf(p, virtual));
    if (!geom) {
      hidden++;
      continue;
    }
    byId.set(p.data.id, geom);
    marks.push({ node: p.data, geom });
  }
  return { marks, byId, hidden };
}

/**
 * The links between drawn marks: a containment link (when `contains` is drawn and its share is
 * above zero) as the bar `bar` puts above its child, any other as the curve `curve` draws.
 */
function treeLinks<G extends MarkGeom>(
  data: TopologyViewData,
  byId: Map<string, G>,
  contains: boolean,
  bar: (child: G, share: number) => LayoutBar['geom'],
  curve: (link: LayoutCurve['link'], source: G, target: G) => LayoutCurve,
): { bars: LayoutBar[]; curves: LayoutCurve[] } {
  const bars: LayoutBar[] = [];
  const curves: LayoutCurve[] = [];
  for (const link of data.links) {
    const s = byId.get(link.source),
      c = byId.get(link.target);
    if (!s || !c) continue;
    if (link.kind === 'contains') {
      if (!contains) continue;
      const share = linkShare(data, link);
      if (share > 0) bars.push({ link, geom: bar(c, share) });
      continue;
    }
    curves.push(curve(link, s, c));
  }
  return { bars, curves };
}

/** The radial sunburst in `width` × `height` (the drawing's own area, legend excluded). */
export function sunburstLayout(
  data: TopologyViewData,
  width: number,
  height: number,
  measure: MeasureText,
): TopologyLayoutResult {
  const empty = emptyResult('sunburst', width, height);
  if (!data.nodes.length) return empty;
  const { root, depth } = partitionOf(data);
  const virtual = root.data.id === VIRTUAL_ROOT;
  const rings = virtual ? depth - 1 : depth; // including the centre disc
  const cx = width / 2,
    cy = height / 2;
  const R = Math.max(0, Math.min(width, height) / 2 - 4);
  const links = containmentDrawn(data);
  // Ring thickness t, gap g, centre disc 1.1 t: R = 1.1 t + (rings − 1)(t + g).
  const gapOf = (t: number) => (links ? Math.max(3, Math.min(9, t * 0.2)) : 1.5);
  let t = R / (1.1 + (rings - 1) * 1.2);
  for (let k = 0; k < 3; k++) t = (R - (rings - 1) * gapOf(t)) / (1.1 + (rings - 1));
  t = Math.max(1, t);
  const g = gapOf(t);
  const disc = virtual ? 0 : 1.1 * t;
  const radii = (ring: number): [number, number] =>
    virtual
      ? [ring * (t + g), ring * (t + g) + t]
      : ring === 0
        ? [0, disc]
        : [disc + g + (ring - 1) * (t + g), disc + g + (ring - 1) * (t + g) + t];

  const { marks, byId, hidden } = partitionMarks<ArcGeom>(root, (p, ring) => {
    const [r0, r1] = radii(ring);
    let a0 = p.x0 * 2 * Math.PI,
      a1 = p.x1 * 2 * Math.PI;
    // Pads between neighbours: PAD_PX at the inner radius, at most a quarter of the arc.
    if (a1 - a0 < 2 * Math.PI - 1e-9 && r0 > 0) {
      const pad = Math.min(PAD_PX / r0, (a1 - a0) * 0.25);
      a0 += pad / 2;
      a1 -= pad / 2;
    }
    const geom: ArcGeom = { kind: 'arc', cx, cy, a0, a1, r0, r1 };
    return r0 > 0 && arcSize(geom) < MIN_MARK ? null : geom;
  });

  const chordMax = Math.max(3, Math.min(12, t * 0.25));
  const { bars, curves } = treeLinks(
    data,
    byId,
    links,
    (c, share) => {
      const span = c.a1 - c.a0;
      const r1 = c.r0 - 0.5,
        r0 = c.r0 - g + 0.5;
      const w = Math.min(span, Math.max(MIN_LINK / Math.max(r0, 1), share * span));
      const mid = (c.a0 + c.a1) / 2;
      return { kind: 'arc', cx, cy, a0: mid - w / 2, a1: mid + w / 2, r0, r1 };
    },
    (link, s, c) => {
      // A curve between the inner edges of the two arcs, bent towards the centre by their angular distance.
      const [ea, eb] = [s, c].map(e => {
        const a = (e.a0 + e.a1) / 2;
        return { a, r: Math.max(e.r0, 0) };
      }) as [{ a: number; r: number }, { a: number; r: number }];
      return chordCurve(link, cx, cy, ea, eb, linkWidth(data, link, chordMax));
    },
  );

  const labels = insideLabels(marks, measure);
  const leafRing = radii(rings - 1)[0];
  return {
    ...empty,
    marks,
    bars,
    curves,
    labels,
    hidden,
    capacity: Math.floor((2 * Math.PI * Math.max(leafRing, 1)) / COMFORTABLE_LEAF),
  };
}

/** A curve between two points on circles, bent towards the centre the farther apart they are (a chord). */
export function chordCurve(
  link: LayoutCurve['link'],
  cx: number,
  cy: number,
  a: { a: number; r: number },
  b: { a: number; r: number },
  width: number,
): LayoutCurve {
  const [x0, y0] = polar(cx, cy, a.a, a.r);
  const [x1, y1] = polar(cx, cy, b.a, b.r);
  let d = Math.abs(a.a - b.a) % (2 * Math.PI);
  if (d > Math.PI) d = 2 * Math.PI - d;
  // Mid-angle on the short way round.
  let mid = (a.a + b.a) / 2;
  if (Math.abs(a.a - b.a) > Math.PI) mid += Math.PI;
  const rc = Math.min(a.r, b.r) * Math.max(0, 1 - d / Math.PI) * 0.75;
  const [qx, qy] = polar(cx, cy, mid, rc);
  const f = (n: number) => Math.round(n * 100) / 100;
  // The curve's midpoint (t = ½ of the quadratic Bézier).
  const mx = 0.25 * x0 + 0.5 * qx + 0.25 * x1,
    my = 0.25 * y0 + 0.5 * qy + 0.25 * y1;
  return {
    link,
    path: `M${f(x0)} ${f(y0)}Q${f(qx)} ${f(qy)} ${f(x1)} ${f(y1)}`,
    width,
    mid: [mx, my],
  };
}

/** The icicle: the same partition in rows, the root on top. */
export function icicleLayout(
  data: TopologyViewData,
  width: number,
  height: number,
  measure: MeasureText,
): TopologyLayoutResult {
  const empty = emptyResult('icicle', width, height);
  if (!data.nodes.length) return empty;
  const { root, depth } = partitionOf(data);
  const virtual = root.data.id === VIRTUAL_ROOT;
  const rows = virtual ? depth - 1 : depth;
  const links = containmentDrawn(data);
  const margin = 4;
  const W = Math.max(0, width - 2 * margin);
  const gap = links ? 8 : 2;
  const rowH = Math.max(1, Math.min(72, (height - 2 * margin - (rows - 1) * gap) / rows));
  const top = margin;
  const { marks, byId, hidden } = partitionMarks<RectGeom>(root, (p, row) => {
    const x0 = margin + p.x0 * W,
      x1 = margin + p.x1 * W;
    const pad = Math.min(PAD_PX, (x1 - x0) * 0.25);
    const geom: RectGeom = { kind: 'rect', x: x0 + pad / 2, y: top + row * (rowH + gap), w: x1 - x0 - pad, h: rowH };
    return geom.w < MIN_MARK ? null : geom;
  });
  const curveMax = Math.max(3, Math.min(12, rowH * 0.2));
  const { bars, curves } = treeLinks(
    data,
    byId,
    links,
    (c, share) => {
      const w = Math.min(c.w, Math.max(MIN_LINK, share * c.w));
      return { kind: 'rect', x: c.x + (c.w - w) / 2, y: c.y - gap + 1, w, h: gap - 2 };
    },
    (link, s, c) => {
      // Over the row above: from the top centre of one cell to the other's, arched upwards.
      const xa = s.x + s.w / 2,
        xb = c.x + c.w / 2,
        y = Math.min(s.y, c.y);
      const lift = Math.min(rowH * 0.8 + gap, Math.abs(xb - xa) / 2);
      const f = (n: number) => Math.round(n * 100) / 100;
      return {
        link,
        path: `M${f(xa)} ${f(y)}Q${f((xa + xb) / 2)} ${f(y - 2 * lift)} ${f(xb)} ${f(y)}`,
        width: linkWidth(data, link, curveMax),
        mid: [(xa + xb) / 2, y - lift],
      };
    },
  );
  const labels = insideLabels(marks, measure);
  return { ...empty, marks, bars, curves, labels, hidden, capacity: Math.floor(W / COMFORTABLE_LEAF) };
}

export function emptyResult(
  layout: TopologyLayoutResult['layout'],
  width: number,
  height: number,
): TopologyLayoutResult {
  return { layout, width, height, marks: [], bars: [], curves: [], labels: [], hidden: 0, capacity: 0 };
}
