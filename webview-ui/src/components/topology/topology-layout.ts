/**
 * What every topology layout produces: marks with their geometry, link shapes with their widths,
 * and labels that fit. The component draws it; the tests check it (no overlap, minimum sizes).
 */
import type {
  TopologyLayout,
  TopologyViewData,
  TopologyViewLink,
  TopologyViewNode,
} from '../../../../src/shared/topology-protocol';
import type { MeasureText } from '../../text-estimate';
import { rangeOf, widthShare } from './topology-colours';
import type { LabelBox, MarkGeom } from './topology-geometry';
import { fitLabel, MIN_LINK } from './topology-geometry';

export interface LayoutMark {
  node: TopologyViewNode;
  geom: MarkGeom;
}

/** A link drawn as a filled shape between a parent's and a child's marks (a bar in the gap between rings or rows). */
export interface LayoutBar {
  link: TopologyViewLink;
  geom: MarkGeom;
}

/** A link drawn as a stroked curve. */
export interface LayoutCurve {
  link: TopologyViewLink;
  /** SVG path. */
  path: string;
  /** Stroke width in px. */
  width: number;
  /** Where its tooltip and label go. */
  mid: [number, number];
}

export interface LayoutLabel {
  /** The mark (node id) or link (link id) it names. */
  of: string;
  text: string;
  box: LabelBox;
  /** Inside its mark (text coloured for the mark's fill) or outside the drawing (theme foreground). */
  inside: boolean;
  style: 'title' | 'detail';
}

export interface TopologyLayoutResult {
  layout: TopologyLayout;
  width: number;
  height: number;
  /** Marks in drawing order (parents first). */
  marks: LayoutMark[];
  bars: LayoutBar[];
  curves: LayoutCurve[];
  labels: LayoutLabel[];
  /** Marks not drawn because they would be smaller than the minimum mark size. */
  hidden: number;
  /** Leaf marks this size can draw at a comfortable size (4 px each): what a panel may ask for as `maxNodes`. */
  capacity: number;
}

/** Children of each drawn node id, in data order. */
export function childrenById(data: TopologyViewData): Map<string, TopologyViewNode[]> {
  const out = new Map<string, TopologyViewNode[]>();
  for (const n of data.nodes) {
    if (!n.parent) continue;
    let list = out.get(n.parent);
    if (!list) out.set(n.parent, (list = []));
    list.push(n);
  }
  return out;
}

/**
 * Stroke width of a link: ∝ its value of the width measure over the maximum of its level (or of all
 * links), from {@link MIN_LINK} up to `maxWidth`; links without a width measure get `plain`.
 */
export function linkWidth(data: TopologyViewData, link: TopologyViewLink, maxWidth: number, plain = 1.5): number {
  const w = data.width.measure;
  if (w < 0) return plain;
  const share = widthShare(link.values[w]!, rangeOf(data.linkMeasures[w], link.level, data.width.normalise));
  return share > 0 ? Math.max(MIN_LINK, share * maxWidth) : MIN_LINK;
}

/** Share of the widest bar for a containment link (0 when its value is zero or unknown). */
export function linkShare(data: TopologyViewData, link: TopologyViewLink): number {
  const w = data.width.measure;
  if (w < 0) return 0;
  return widthShare(link.values[w]!, rangeOf(data.linkMeasures[w], link.level, data.width.normalise));
}

/** Labels for a mark, longest first (its label, then its short form). */
export function labelTexts(node: TopologyViewNode): string[] {
  return node.short && node.short !== node.label ? [node.label, node.short] : [node.label];
}

/** Pixels between neighbouring arcs (cells). */
export const PAD_PX = 1;
/** Room per leaf for {@link TopologyLayoutResult.capacity}. */
export const COMFORTABLE_LEAF = 4;

/** The labels that fit inside their marks (the longest text that fits), in `style` (by default the root's as a title). */
export function insideLabels(
  marks: LayoutMark[],
  measure: MeasureText,
  style: (m: LayoutMark) => LayoutLabel['style'] = m => (m.node.parent === null ? 'title' : 'detail'),
): LayoutLabel[] {
  const labels: LayoutLabel[] = [];
  for (const m of marks) {
    const s = style(m);
    const fit = fitLabel(m.geom, labelTexts(m.node), s, measure);
    if (fit) labels.push({ of: m.node.id, ...fit, inside: true, style: s });
  }
  return labels;
}

export type LayoutFunction = (
  data: TopologyViewData,
  width: number,
  height: number,
  measure: MeasureText,
) => TopologyLayoutResult;
