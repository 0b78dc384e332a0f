/**
 * Geometry and colour of DMV's drawings, kept apart from React so tests can check it: the clock
 * glyph's sectors and stacked radial bars (thesis Fig. 7.6), the inner arc of the window, the
 * communication matrix's white → red scale and the ensemble grid's percentile disc.
 */
import { interpolateLab } from 'd3';
import { CATEGORY_COLOURS, DMV_CLASSES } from '../../../../src/analysis/dmv/categories';
import type { DmvClock } from '../../../../src/analysis/dmv/clock';
import type { DmvWindow } from '../../../../src/shared/dmv-protocol';

/** The four classes' keys in stacking order (data movement innermost, CPU compute outermost). */
export const CLASS_KEYS = ['dataMovement', 'gpuCompute', 'runtime', 'cpuCompute'] as const;
export type ClassKey = (typeof CLASS_KEYS)[number];
export const CLASS_LABELS: Record<ClassKey, string> = {
  dataMovement: 'data movement',
  gpuCompute: 'GPU compute',
  runtime: 'CUDA runtime',
  cpuCompute: 'CPU compute',
};
/** DMVis' colours by class key: data movement red, GPU green, runtime yellow, CPU purple. */
export const CLASS_COLOURS: Record<ClassKey, string> = Object.fromEntries(
  CLASS_KEYS.map((k, i) => [k, CATEGORY_COLOURS[DMV_CLASSES[i]!]!]),
) as Record<ClassKey, string>;
/** Colour of a DmvCategory number (0–3 the classes, 4–5 other/ignored). */
export function categoryColour(category: number): string {
  return CATEGORY_COLOURS[category] ?? CATEGORY_COLOURS[4]!;
}

/** Angle of a point on the clock: 0 at 12 o'clock, growing clockwise, in radians. */
export function polar(cx: number, cy: number, r: number, angle: number): [number, number] {
  return [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
}

const f = (x: number) => Math.round(x * 100) / 100;

/** An annular sector from angle a0 to a1 (clockwise) between radii r0 < r1, as an SVG path. */
export function annularSector(cx: number, cy: number, r0: number, r1: number, a0: number, a1: number): string {
  const large = a1 - a0 > Math.PI ? 1 : 0;
  if (a1 - a0 >= 2 * Math.PI - 1e-9) {
    // A full ring: two half arcs each way (one arc cannot start and end at the same point).
    const [ox, oy] = polar(cx, cy, r1, 0),
      [px, py] = polar(cx, cy, r1, Math.PI);
    const [ix, iy] = polar(cx, cy, r0, 0),
      [qx, qy] = polar(cx, cy, r0, Math.PI);
    return (
      `M${f(ox)},${f(oy)}A${f(r1)},${f(r1)} 0 1 1 ${f(px)},${f(py)}A${f(r1)},${f(r1)} 0 1 1 ${f(ox)},${f(oy)}Z` +
      (r0 > 0
        ? `M${f(ix)},${f(iy)}A${f(r0)},${f(r0)} 0 1 0 ${f(qx)},${f(qy)}A${f(r0)},${f(r0)} 0 1 0 ${f(ix)},${f(iy)}Z`
        : '')
    );
  }
  const [x0, y0] = polar(cx, cy, r1, a0),
    [x1, y1] = polar(cx, cy, r1, a1);
  if (r0 <= 0) return `M${f(cx)},${f(cy)}L${f(x0)},${f(y0)}A${f(r1)},${f(r1)} 0 ${large} 1 ${f(x1)},${f(y1)}Z`;
  const [x2, y2] = polar(cx, cy, r0, a1),
    [x3, y3] = polar(cx, cy, r0, a0);
  return `M${f(x0)},${f(y0)}A${f(r1)},${f(r1)} 0 ${large} 1 ${f(x1)},${f(y1)}L${f(x2)},${f(y2)}A${f(r0)},${f(r0)} 0 ${large} 0 ${f(x3)},${f(y3)}Z`;
}

/** Where the clock's parts go in a square of `size` px. */
export interface ClockLayout {
  size: number;
  cx: number;
  cy: number;
  /** The bars grow from `barInner` to at most `barOuter`. */
  barInner: number;
  barOuter: number;
  /** The window's arc runs on this radius, inside the bars. */
  arcRadius: number;
  /** The inner disc (runtime percentile in the ensemble grid; the labels in the single clock). */
  discRadius: number;
  /** Sector labels (bytes) sit on this radius, outside the bars (0: no labels, a compact clock). */
  labelRadius: number;
}

export function clockLayout(size: number, compact = false): ClockLayout {
  const c = size / 2;
  // Room outside the bars for the bytes labels (`889 GB`, about 4 em), none in the compact grid glyph.
  const labelRoom = compact ? 2 : Math.max(30, Math.min(46, size * 0.12));
  const barOuter = c - labelRoom;
  const discRadius = compact ? barOuter * 0.34 : barOuter * 0.36;
  return {
    size,
    cx: c,
    cy: c,
    barInner: discRadius + (compact ? 5 : 9),
    barOuter,
    arcRadius: discRadius + (compact ? 2.5 : 4.5),
    discRadius,
    // Close to the bars: at 3 and 9 o'clock a label runs outwards from here and needs the room.
    labelRadius: compact ? 0 : barOuter + 9,
  };
}

/** One stacked piece of a sector's bar. */
export interface ClockBar {
  sector: number;
  key: ClassKey;
  /** Busy time of the class in the sector (ns, summed over tracks). */
  value: number;
  r0: number;
  r1: number;
  a0: number;
  a1: number;
  path: string;
}

/** Angles of sector k of n (a small gap either side, so neighbouring bars stay apart). */
export function sectorAngles(k: number, n: number, gap = 0.035): { a0: number; a1: number; mid: number } {
  const w = (2 * Math.PI) / n;
  return { a0: k * w + gap, a1: (k + 1) * w - gap, mid: (k + 0.5) * w };
}

/**
 * The stacked radial bars of a clock: per sector the four classes outward from data movement, each as
 * long as its busy time over `maxTotal` (default: the clock's fullest sector) of the bar space. Empty
 * pieces are left out.
 */
export function clockBars(clock: DmvClock, layout: ClockLayout, maxTotal?: number): ClockBar[] {
  const n = clock.sectors.length;
  const totals = clock.sectors.map(s => CLASS_KEYS.reduce((t, k) => t + s.busy[k], 0));
  const max = maxTotal ?? Math.max(0, ...totals);
  const out: ClockBar[] = [];
  if (!(max > 0)) return out;
  const span = layout.barOuter - layout.barInner;
  clock.sectors.forEach((s, k) => {
    const { a0, a1 } = sectorAngles(k, n);
    let r = layout.barInner;
    for (const key of CLASS_KEYS) {
      const v = s.busy[key];
      if (!(v > 0)) continue;
      const r1 = Math.min(layout.barOuter, r + (v / max) * span);
      out.push({
        sector: k,
        key,
        value: v,
        r0: r,
        r1,
        a0,
        a1,
        path: annularSector(layout.cx, layout.cy, r, r1, a0, a1),
      });
      r = r1;
    }
  });
  return out;
}

/** The window's inner arc as angles (null when the window misses the clock). */
export function windowArcAngles(clock: DmvClock, window: DmvWindow | null): { a0: number; a1: number } | null {
  if (!window) return null;
  const span = clock.sectorWidth * clock.sectors.length;
  if (!(span > 0)) return null;
  const from = Math.max(0, (window.start - clock.start) / span),
    to = Math.min(1, (window.end - clock.start) / span);
  if (!(to > from)) return null;
  return { a0: from * 2 * Math.PI, a1: to * 2 * Math.PI };
}

/** The label of a sector's bytes and where it goes; null for a sector that copied nothing. */
export function sectorLabelPosition(
  k: number,
  n: number,
  layout: ClockLayout,
): { x: number; y: number; anchor: 'start' | 'middle' | 'end' } {
  const { mid } = sectorAngles(k, n, 0);
  const [x, y] = polar(layout.cx, layout.cy, layout.labelRadius, mid);
  // Labels left of the centre line end at their point, those right of it start there.
  const s = Math.sin(mid);
  // The baseline: text above the point at 12 o'clock, below it at 6, centred on it at 3 and 9.
  return { x, y: y + 4 - 5 * Math.cos(mid), anchor: Math.abs(s) < 0.3 ? 'middle' : s > 0 ? 'start' : 'end' };
}

const WHITE = '#fff5f0';
const RED = '#b2182b';
const toRed = interpolateLab(WHITE, RED);

/** The matrix's white → red scale: bytes as a share of the largest cell (a cell without bytes is not coloured). */
export function matrixFill(bytes: number, maxBytes: number): string | null {
  if (!(bytes > 0) || !(maxBytes > 0)) return null;
  return toRed(Math.min(1, bytes / maxBytes));
}

/** Text on a matrix cell: dark on light fills, light on dark ones. */
export function matrixText(bytes: number, maxBytes: number): string {
  return maxBytes > 0 && bytes / maxBytes > 0.55 ? '#ffffff' : '#1a1a1a';
}

/** The inner disc of a run's clock in the ensemble grid: its runtime percentile, fastest white → slowest red. */
export function percentileFill(percentile: number): string {
  return toRed(Math.max(0, Math.min(1, percentile)));
}
