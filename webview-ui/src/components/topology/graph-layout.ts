/**
 * A host and its devices as boxes and links (DMV's hardware view, thesis §7.4): the root (host) on
 * top, the leaves (GPUs) in a row below it inside frames for the nodes between (NUMA nodes), links
 * from the host down to each device, and links between devices as arcs under the row (an arc diagram:
 * the farther apart two devices, the deeper their arc, so no two arcs share an apex) labelled by their
 * path type (`NV2`, `PIX`, `SYS`… from `nvidia-smi topo -m`). Width ∝ the width measure (bytes).
 */
import type { TopologyViewData, TopologyViewLink, TopologyViewNode } from '../../../../src/shared/topology-protocol';
import { truncateText, type MeasureText } from '../../text-measure';
import { boxesOverlap, labelHeight, LABEL_PAD, type LabelBox, type RectGeom } from './topology-geometry';
import {
  childrenById,
  linkWidth,
  type LayoutCurve,
  type LayoutLabel,
  type LayoutMark,
  type TopologyLayoutResult,
} from './topology-layout';
import { emptyResult } from './tree-layout';

const MARGIN = 8;
const LEAF_GAP = 14;
const FRAME_PAD = 10;
const FRAME_HEADER = 22;
const FRAME_GAP = 16;
const MIN_BOX = 44;
const MAX_BOX = 176;
const BOX_H = 48;
const ROOT_H = 44;

/** Draw order of link kinds for label priority: NVLink first, then PCIe, then the rest. */
function kindRank(kind: string): number {
  if (/^NV\d+$/.test(kind)) return 0;
  if (/^(PIX|PXB|PHB)$/.test(kind)) return 1;
  if (/^(NODE|SYS|SOC)$/.test(kind)) return 2;
  return 3;
}

/** Stroke width without a width measure: bonded NVLinks thicker by their count. */
function plainWidth(kind: string): number {
  const nv = /^NV(\d+)$/.exec(kind);
  return nv ? Math.min(6, 1 + 0.75 * Number(nv[1])) : 1.5;
}

export function graphLayout(
  data: TopologyViewData,
  width: number,
  height: number,
  measure: MeasureText,
): TopologyLayoutResult {
  const empty = emptyResult('graph', width, height);
  if (!data.nodes.length) return empty;
  const kids = childrenById(data);
  const roots = data.nodes.filter(n => n.parent === null);
  const leaves = data.nodes.filter(n => n.parent !== null && !kids.has(n.id));
  const inner = data.nodes.filter(n => n.parent !== null && kids.has(n.id));
  const nodeOf = new Map(data.nodes.map(n => [n.id, n]));
  // The frame (inner node) chain of each leaf, outermost first.
  const framesOf = (n: TopologyViewNode): TopologyViewNode[] => {
    const out: TopologyViewNode[] = [];
    for (
      let p = n.parent ? nodeOf.get(n.parent) : undefined;
      p && p.parent !== null;
      p = p.parent ? nodeOf.get(p.parent) : undefined
    )
      out.unshift(p);
    return out;
  };
  const frameDepth = Math.max(0, ...leaves.map(l => framesOf(l).length));

  // Horizontal: leaves in order; a frame boundary costs padding on both sides plus a gap.
  const chains = leaves.map(framesOf);
  let fixed = 2 * MARGIN;
  for (let i = 0; i < leaves.length; i++) {
    const prev = i > 0 ? chains[i - 1]! : [];
    const cur = chains[i]!;
    let shared = 0;
    while (shared < prev.length && shared < cur.length && prev[shared] === cur[shared]) shared++;
    const closing = prev.length - shared,
      opening = cur.length - shared;
    fixed += (closing + opening) * FRAME_PAD + (i > 0 ? (closing || opening ? FRAME_GAP : LEAF_GAP) : 0);
  }
  fixed += (chains[chains.length - 1]?.length ?? 0) * FRAME_PAD;
  const boxW = leaves.length ? Math.min(MAX_BOX, (width - fixed) / leaves.length) : 0;
  const usable = boxW >= MIN_BOX;
  const rowW = leaves.length * Math.max(boxW, 0) + fixed - 2 * MARGIN;
  let x = Math.max(MARGIN, (width - rowW) / 2);

  // Vertical: root row, the links down, frame headers, the leaf row, then the arcs below.
  const rootY = MARGIN;
  const hostGap = Math.max(36, Math.min(110, height * 0.16));
  const frameTop = rootY + ROOT_H + hostGap;
  const leafY = frameTop + frameDepth * FRAME_HEADER;
  const frameBottom = (depth: number) => leafY + BOX_H + (frameDepth - depth) * 6 + 4;

  const geomOf = new Map<string, RectGeom>();
  const marks: LayoutMark[] = [];
  let hidden = 0;
  const leafX = new Map<string, number>();
  if (usable)
    leaves.forEach((leaf, i) => {
      const prev = i > 0 ? chains[i - 1]! : [];
      const cur = chains[i]!;
      let shared = 0;
      while (shared < prev.length && shared < cur.length && prev[shared] === cur[shared]) shared++;
      const closing = prev.length - shared,
        opening = cur.length - shared;
      if (i > 0) x += (closing + opening) * FRAME_PAD + (closing || opening ? FRAME_GAP : LEAF_GAP);
      else x += opening * FRAME_PAD;
      leafX.set(leaf.id, x);
      geomOf.set(leaf.id, { kind: 'rect', x, y: leafY, w: boxW, h: BOX_H });
      x += boxW;
    });
  else hidden += leaves.length;

  // Frames around their leaves.
  for (const f of inner) {
    const depth = framesOf(f).length; // 0 for the outermost frame
    const mine = leaves.filter(l => chains[leaves.indexOf(l)]!.includes(f) && geomOf.has(l.id));
    if (!mine.length) {
      hidden++;
      continue;
    }
    const pad = FRAME_PAD * (frameDepth - depth);
    const x0 = Math.min(...mine.map(l => geomOf.get(l.id)!.x)) - pad;
    const x1 = Math.max(...mine.map(l => geomOf.get(l.id)!.x + boxW)) + pad;
    const y0 = frameTop + depth * FRAME_HEADER;
    geomOf.set(f.id, { kind: 'rect', x: x0, y: y0, w: x1 - x0, h: frameBottom(depth) - y0 });
  }
  // Roots centred over the row.
  const rootW = Math.min(240, Math.max(120, width * 0.3));
  roots.forEach((r, i) => {
    const span = width / roots.length;
    geomOf.set(r.id, { kind: 'rect', x: span * i + (span - rootW) / 2, y: rootY, w: rootW, h: ROOT_H });
  });
  for (const n of data.nodes) {
    const g = geomOf.get(n.id);
    if (g) marks.push({ node: n, geom: g });
  }

  // Links.
  const lowest = Math.max(...[...geomOf.values()].map(g => g.y + g.h));
  const rowBottom = leafY + BOX_H;
  const arcRoom = Math.max(0, height - MARGIN - 16 - Math.max(rowBottom, lowest));
  const order = new Map(leaves.map((l, i) => [l.id, i]));
  const maxW = Math.max(3, Math.min(14, boxW * 0.12));
  const widthOf = (l: TopologyViewLink) =>
    data.width.measure >= 0 ? linkWidth(data, l, maxW) : Math.min(maxW, plainWidth(l.kind));
  const between: TopologyViewLink[] = [];
  const down: TopologyViewLink[] = [];
  for (const l of data.links) {
    if (!geomOf.has(l.source) || !geomOf.has(l.target)) continue;
    const s = nodeOf.get(l.source)!,
      t = nodeOf.get(l.target)!;
    if (order.has(s.id) && order.has(t.id)) between.push(l);
    else down.push(l);
  }
  // Ports on each box edge, ordered by where the other end lies.
  const spread = (list: { id: string; other: number; key: string }[], g: RectGeom) => {
    const out = new Map<string, number>();
    const sorted = [...list].sort((a, b) => a.other - b.other || a.key.localeCompare(b.key));
    const inset = Math.min(g.w * 0.15, 16);
    sorted.forEach((p, i) =>
      out.set(
        p.key,
        sorted.length === 1 ? g.x + g.w / 2 : g.x + inset + ((g.w - 2 * inset) * (i + 0.5)) / sorted.length,
      ),
    );
    return out;
  };
  const centreX = (id: string) => {
    const g = geomOf.get(id)!;
    return g.x + g.w / 2;
  };
  const curves: LayoutCurve[] = [];
  const f = (n: number) => Math.round(n * 100) / 100;

  // Down links: from the upper box's bottom to the lower box's top.
  const bottomPorts = new Map<string, { id: string; other: number; key: string }[]>();
  const topPorts = new Map<string, { id: string; other: number; key: string }[]>();
  const upperOf = (l: TopologyViewLink) => {
    const a = geomOf.get(l.source)!,
      b = geomOf.get(l.target)!;
    return a.y <= b.y ? [l.source, l.target] : [l.target, l.source];
  };
  for (const l of down) {
    const [u, w] = upperOf(l) as [string, string];
    const push = (m: typeof bottomPorts, id: string, other: string) => {
      let list = m.get(id);
      if (!list) m.set(id, (list = []));
      list.push({ id, other: centreX(other), key: l.id });
    };
    push(bottomPorts, u, w);
    push(topPorts, w, u);
  }
  const bottomX = new Map<string, Map<string, number>>();
  for (const [id, list] of bottomPorts) bottomX.set(id, spread(list, geomOf.get(id)!));
  const topX = new Map<string, Map<string, number>>();
  for (const [id, list] of topPorts) topX.set(id, spread(list, geomOf.get(id)!));
  for (const l of down) {
    const [u, w] = upperOf(l) as [string, string];
    const gu = geomOf.get(u)!,
      gw = geomOf.get(w)!;
    const x0 = bottomX.get(u)!.get(l.id)!,
      y0 = gu.y + gu.h;
    const x1 = topX.get(w)!.get(l.id)!,
      y1 = gw.y;
    const my = (y0 + y1) / 2;
    curves.push({
      link: l,
      path: `M${f(x0)} ${f(y0)}C${f(x0)} ${f(my)} ${f(x1)} ${f(my)} ${f(x1)} ${f(y1)}`,
      width: widthOf(l),
      mid: [(x0 + x1) / 2, my],
    });
  }

  // Arcs between leaves, under the row.
  const arcPorts = new Map<string, { id: string; other: number; key: string }[]>();
  for (const l of between)
    for (const [self, other] of [
      [l.source, l.target],
      [l.target, l.source],
    ] as const) {
      let list = arcPorts.get(self);
      if (!list) arcPorts.set(self, (list = []));
      list.push({ id: self, other: centreX(other), key: l.id });
    }
  const arcX = new Map<string, Map<string, number>>();
  for (const [id, list] of arcPorts) arcX.set(id, spread(list, geomOf.get(id)!));
  const maxSpan = Math.max(1, ...between.map(l => Math.abs(order.get(l.source)! - order.get(l.target)!)));
  const unit = arcRoom / maxSpan;
  const labels: LayoutLabel[] = [];
  const placed: LabelBox[] = [];
  const arcLabels: { l: TopologyViewLink; apex: [number, number]; width: number }[] = [];
  for (const l of between) {
    const span = Math.abs(order.get(l.source)! - order.get(l.target)!);
    const x0 = arcX.get(l.source)!.get(l.id)!,
      x1 = arcX.get(l.target)!.get(l.id)!;
    const y = rowBottom;
    const depth = Math.max(10, unit * span);
    // A cubic with both controls 4/3 of the depth down reaches exactly `depth` at its middle.
    const c = y + (4 / 3) * depth;
    const w = widthOf(l);
    curves.push({
      link: l,
      path: `M${f(x0)} ${f(y)}C${f(x0)} ${f(c)} ${f(x1)} ${f(c)} ${f(x1)} ${f(y)}`,
      width: w,
      mid: [(x0 + x1) / 2, y + depth],
    });
    arcLabels.push({ l, apex: [(x0 + x1) / 2, y + depth], width: w });
  }

  // Box labels: the label on the first line, the detail (truncated) on the second; the frame's in its header.
  const lhT = labelHeight('title'),
    lhD = labelHeight('detail');
  for (const m of marks) {
    const g = m.geom as RectGeom;
    const isFrame = kids.has(m.node.id) && m.node.parent !== null;
    const room = g.w - 2 * LABEL_PAD - 8;
    const title =
      truncateText(m.node.label, room, 'title', measure) || truncateText(m.node.short, room, 'title', measure);
    if (!title) continue;
    const tw = measure(title, 'title') + 2 * LABEL_PAD;
    const top = isFrame ? g.y + 3 : m.node.detail ? g.y + (g.h - lhT - lhD) / 2 : g.y + (g.h - lhT) / 2;
    const box: LabelBox = isFrame
      ? { cx: g.x + 6 + tw / 2, cy: top + lhT / 2, w: tw, h: lhT, angle: 0 }
      : { cx: g.x + g.w / 2, cy: top + lhT / 2, w: tw, h: lhT, angle: 0 };
    labels.push({ of: m.node.id, text: title, box, inside: !isFrame, style: 'title' });
    placed.push(box);
    if (m.node.detail && !isFrame) {
      const text = truncateText(m.node.detail, room, 'detail', measure);
      if (text) {
        const dbox: LabelBox = {
          cx: g.x + g.w / 2,
          cy: top + lhT + lhD / 2,
          w: measure(text, 'detail') + 2 * LABEL_PAD,
          h: lhD,
          angle: 0,
        };
        labels.push({ of: m.node.id, text, box: dbox, inside: true, style: 'detail' });
        placed.push(dbox);
      }
    }
  }
  // Arc labels at the apexes, NVLink and wide links first, skipped where they would collide.
  arcLabels.sort((a, b) => kindRank(a.l.kind) - kindRank(b.l.kind) || b.width - a.width);
  for (const { l, apex } of arcLabels) {
    const w = measure(l.kind, 'detail') + 8;
    const box: LabelBox = { cx: apex[0], cy: apex[1], w, h: lhD, angle: 0 };
    if (box.cy + box.h / 2 > height || placed.some(p => boxesOverlap(p, box))) continue;
    placed.push(box);
    labels.push({ of: l.id, text: l.kind, box, inside: false, style: 'detail' });
  }

  return {
    ...empty,
    marks,
    curves,
    labels,
    hidden,
    capacity: Math.max(0, Math.floor((width - 2 * MARGIN) / (MIN_BOX + LEAF_GAP))),
  };
}
