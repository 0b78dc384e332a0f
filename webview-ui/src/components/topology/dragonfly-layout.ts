/**
 * The radial dragonfly view (the PDES seed's topology view, after the radial dragonfly layout of
 * Bhatele et al. 2016 that the seed cites): groups around a circle as an outer band, their routers as
 * a ring inside it, terminals (when drawn) as a thin ring between the two; links between routers are
 * curves through the middle — a global link crosses towards the centre, a local link stays near its
 * group's edge — with width ∝ traffic; terminal links are bars in the gap between the router and
 * terminal rings. Collapsed groups draw one aggregate arc for their routers; an expanded group gets
 * room for each router (focus + context: a collapsed group counts as at most four routers).
 */
import type { TopologyViewData, TopologyViewNode } from '../../../../src/shared/topology-protocol';
import type { MeasureText } from '../../text-estimate';
import {
  arcSize,
  boxesOverlap,
  labelHeight,
  MIN_LINK,
  MIN_MARK,
  polar,
  type ArcGeom,
  type LabelBox,
} from './topology-geometry';
import {
  childrenById,
  COMFORTABLE_LEAF,
  insideLabels,
  labelTexts,
  linkShare,
  linkWidth,
  type LayoutBar,
  type LayoutCurve,
  type LayoutLabel,
  type LayoutMark,
  PAD_PX,
  type TopologyLayoutResult,
} from './topology-layout';
import { chordCurve, emptyResult } from './tree-layout';

/** Room a collapsed group asks for, in routers. */
const COLLAPSED_WEIGHT = 4;

/** Room of a mark among its siblings: an aggregate counts as at most {@link COLLAPSED_WEIGHT}. */
function roomOf(n: TopologyViewNode): number {
  return n.aggregate ? Math.min(n.aggregate.count, COLLAPSED_WEIGHT) : 1;
}

export function dragonflyLayout(
  data: TopologyViewData,
  width: number,
  height: number,
  measure: MeasureText,
): TopologyLayoutResult {
  const empty = emptyResult('dragonfly', width, height);
  const groups = data.nodes.filter(n => n.depth === 1);
  if (!groups.length) return empty;
  const kids = childrenById(data);
  const hasTerminals = data.nodes.some(n => n.depth === 3);
  const cx = width / 2,
    cy = height / 2;

  // Room for the group labels outside the circle: the widest short label, one line above and below.
  const lh = labelHeight('detail');
  const shortW = Math.max(...groups.map(g => measure(g.short, 'detail')));
  const margin = Math.max(lh + 8, shortW + 10);
  const R = Math.max(10, Math.min(width / 2 - margin, height / 2 - lh - 8));
  const band = Math.max(4, Math.min(12, R * 0.04));
  const gapCN = hasTerminals ? Math.max(3, Math.min(8, R * 0.025)) : 0;
  const ringT = hasTerminals ? Math.max(4, R * 0.07) : 0;
  const ringR = Math.max(6, R * 0.13);
  const gBand: [number, number] = [R - band, R];
  const tRing: [number, number] = [gBand[0] - 3 - ringT, gBand[0] - 3];
  const rRing: [number, number] = hasTerminals
    ? [tRing[0] - gapCN - ringR, tRing[0] - gapCN]
    : [gBand[0] - 3 - ringR, gBand[0] - 3];

  // Angles: groups by the room of their routers, with a gap between groups.
  const room = (g: TopologyViewNode) => {
    const list = kids.get(g.id) ?? [];
    return list.length ? list.reduce((s, r) => s + roomOf(r), 0) : 1;
  };
  const total = groups.reduce((s, g) => s + room(g), 0);
  const groupPad = Math.min((2 * Math.PI * 0.25) / groups.length, Math.max(0.004 * 2 * Math.PI, 3 / rRing[0]));
  const free = 2 * Math.PI - groupPad * groups.length;

  const marks: LayoutMark[] = [];
  const geomOf = new Map<string, ArcGeom>();
  let hidden = 0;
  const add = (node: TopologyViewNode, geom: ArcGeom) => {
    if (arcSize(geom) < MIN_MARK) {
      hidden++;
      return false;
    }
    geomOf.set(node.id, geom);
    marks.push({ node, geom });
    return true;
  };
  const split = (list: TopologyViewNode[], a0: number, a1: number, r: [number, number]) => {
    const sum = list.reduce((s, n) => s + roomOf(n), 0);
    let a = a0;
    return list.map(n => {
      const span = ((a1 - a0) * roomOf(n)) / sum;
      const pad = Math.min(PAD_PX / Math.max(r[0], 1), span * 0.25);
      const geom: ArcGeom = { kind: 'arc', cx, cy, a0: a + pad / 2, a1: a + span - pad / 2, r0: r[0], r1: r[1] };
      a += span;
      return { n, geom };
    });
  };
  let a = groupPad / 2;
  for (const g of groups) {
    const span = (free * room(g)) / total;
    if (!add(g, { kind: 'arc', cx, cy, a0: a, a1: a + span, r0: gBand[0], r1: gBand[1] })) {
      a += span + groupPad;
      continue;
    }
    for (const { n: router, geom } of split(kids.get(g.id) ?? [], a, a + span, rRing)) {
      if (!add(router, geom)) continue;
      const terminals = kids.get(router.id) ?? [];
      if (terminals.length) for (const t of split(terminals, geom.a0, geom.a1, tRing)) add(t.n, t.geom);
    }
    a += span + groupPad;
  }

  // Links: parent–child (router → terminal) as bars in the gap; everything else as curves from the router ring.
  const bars: LayoutBar[] = [];
  const curveEnds: { link: TopologyViewData['links'][number]; a: string; b: string }[] = [];
  const nodeOf = new Map(data.nodes.map(n => [n.id, n]));
  /** The mark a link end is drawn at: itself, or its nearest drawn ancestor when it is too small to draw. */
  const drawnEnd = (id: string): TopologyViewNode | null => {
    for (let n = nodeOf.get(id); n; n = n.parent ? nodeOf.get(n.parent) : undefined) if (geomOf.has(n.id)) return n;
    return null;
  };
  for (const link of data.links) {
    const s = nodeOf.get(link.source),
      t = nodeOf.get(link.target);
    if (!s || !t) continue;
    if (!geomOf.has(s.id) || !geomOf.has(t.id)) {
      // Routers too small to draw: their links leave from their group, as in the collapsed view; links inside one mark are not drawn.
      const ds = drawnEnd(s.id),
        dt = drawnEnd(t.id);
      if (ds && dt && ds.id !== dt.id && ds.depth >= 1 && dt.depth >= 1 && s.parent !== t.id && t.parent !== s.id)
        curveEnds.push({ link, a: ds.id, b: dt.id });
      continue;
    }
    if (s.id === t.parent || t.id === s.parent) {
      const child = geomOf.get(s.id === t.parent ? t.id : s.id)!;
      const share = linkShare(data, link);
      if (share <= 0 || child.r0 < rRing[1]) continue;
      const span = child.a1 - child.a0;
      const r0 = rRing[1] + 0.5,
        r1 = child.r0 - 0.5;
      const w = Math.min(span, Math.max(MIN_LINK / r0, share * span));
      const mid = (child.a0 + child.a1) / 2;
      bars.push({ link, geom: { kind: 'arc', cx, cy, a0: mid - w / 2, a1: mid + w / 2, r0, r1 } });
      continue;
    }
    if (s.depth < 1 || t.depth < 1) continue;
    curveEnds.push({ link, a: s.id, b: t.id });
  }
  // Ports: each mark spreads its curves over its arc, ordered by where their other ends are.
  const midAngle = (id: string) => {
    const g = geomOf.get(id)!;
    return (g.a0 + g.a1) / 2;
  };
  const ports = new Map<string, { other: string; k: number }[]>();
  curveEnds.forEach((c, k) => {
    for (const [self, other] of [
      [c.a, c.b],
      [c.b, c.a],
    ] as const) {
      let list = ports.get(self);
      if (!list) ports.set(self, (list = []));
      list.push({ other, k });
    }
  });
  const portAngle = new Map<string, number>(); // `${k}:${self}` → angle
  for (const [self, list] of ports) {
    const g = geomOf.get(self)!;
    const m = midAngle(self);
    // Clockwise offset of the other end from this mark, so curves leaving to the right attach on the right.
    const rel = (o: string) => {
      let d = midAngle(o) - m;
      while (d <= -Math.PI) d += 2 * Math.PI;
      while (d > Math.PI) d -= 2 * Math.PI;
      return d;
    };
    list.sort((x, y) => rel(y.other) - rel(x.other) || x.k - y.k);
    const inset = (g.a1 - g.a0) * 0.12;
    const lo = g.a0 + inset,
      hi = g.a1 - inset;
    list.forEach((p, i) =>
      portAngle.set(`${p.k}:${self}`, list.length === 1 ? m : lo + ((hi - lo) * (i + 0.5)) / list.length),
    );
  }
  const rc = rRing[0] - 2;
  const maxW = Math.max(3, Math.min(12, rc * 0.04));
  const curves: LayoutCurve[] = curveEnds.map((c, k) =>
    chordCurve(
      c.link,
      cx,
      cy,
      { a: portAngle.get(`${k}:${c.a}`)!, r: rc },
      { a: portAngle.get(`${k}:${c.b}`)!, r: rc },
      linkWidth(data, c.link, maxW),
    ),
  );

  // Labels: routers and terminals inside their arcs; groups outside the band, clear of each other.
  const labels: LayoutLabel[] = insideLabels(
    marks.filter(m => m.node.depth !== 1),
    measure,
    () => 'detail',
  );
  const outside: LabelBox[] = [];
  for (const m of marks) {
    if (m.node.depth !== 1) continue;
    const g = m.geom as ArcGeom;
    const mid = (g.a0 + g.a1) / 2;
    for (const text of labelTexts(m.node)) {
      const box = outsideBox(cx, cy, mid, R + 5, measure(text, 'detail') + 4, lh);
      const inView = boxInside(box, width, height);
      if (inView && !outside.some(o => boxesOverlap(o, box))) {
        outside.push(box);
        labels.push({ of: m.node.id, text, box, inside: false, style: 'detail' });
        break;
      }
    }
  }
  const circumference = 2 * Math.PI * rRing[0];
  return {
    ...empty,
    marks,
    bars,
    curves,
    labels,
    hidden,
    capacity: Math.floor(circumference / COMFORTABLE_LEAF),
  };
}

/** A horizontal label box just outside a circle at angle `a`: beside it on the left and right, above or below at the top and bottom. */
function outsideBox(cx: number, cy: number, a: number, r: number, w: number, h: number): LabelBox {
  const [x, y] = polar(cx, cy, a, r);
  // Scaled so the larger component is 1: the box lies wholly beyond the point in the outward quadrant.
  const m = Math.max(Math.abs(Math.sin(a)), Math.abs(Math.cos(a)));
  const s = Math.sin(a) / m,
    c = Math.cos(a) / m;
  const dx = (s * w) / 2,
    dy = (-c * h) / 2;
  return { cx: x + dx, cy: y + dy, w, h, angle: 0 };
}

function boxInside(b: LabelBox, width: number, height: number): boolean {
  return b.cx - b.w / 2 >= 0 && b.cx + b.w / 2 <= width && b.cy - b.h / 2 >= 0 && b.cy + b.h / 2 <= height;
}
