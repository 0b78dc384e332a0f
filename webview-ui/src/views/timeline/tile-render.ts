/**
 * Draws one frame of the timeline on a 2D canvas: per visible lane the level-of-detail tiles
 * (runs of equal columns merged into one rectangle) or, for full-detail lanes, the events
 * themselves with their names; depth views, copy markers with their direction, flow arrows, the
 * highlighted events and the selected range. Tiles are mapped through their own window, so while
 * the next tiles are being computed the previous frame is drawn scaled and shifted to the view.
 */
import { colourOf } from '../../../../src/analysis/timeline/colors';
import type {
  TimelineCopyMarker,
  TimelineFlow,
  TimelineTilesPayload,
  TimelineWindow,
} from '../../../../src/shared/timeline-protocol';
import { DEPTH_ROW_HEIGHT, type LaidOutRow, type LaneLayout } from './lane-layout';
import { timeToX } from './viewport';

/** What the drawing uses of a canvas context (a recording fake in tests). */
export type Ctx2D = Pick<
  CanvasRenderingContext2D,
  | 'fillStyle'
  | 'strokeStyle'
  | 'globalAlpha'
  | 'lineWidth'
  | 'font'
  | 'textBaseline'
  | 'textAlign'
  | 'fillRect'
  | 'strokeRect'
  | 'fillText'
  | 'measureText'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'bezierCurveTo'
  | 'closePath'
  | 'stroke'
  | 'fill'
  | 'save'
  | 'restore'
  | 'rect'
  | 'clip'
>;

export interface CanvasTheme {
  background: string;
  foreground: string;
  muted: string;
  border: string;
  groupBand: string;
  selection: string;
  focus: string;
  flow: Record<TimelineFlow['kind'], string>;
  /** Copy direction (DATA_MOVEMENT_KIND_NAMES) → colour. */
  direction: Record<string, string>;
  font: string;
}

export interface TilesFrame {
  tiles: TimelineTilesPayload;
  flows: TimelineFlow[];
  copies: TimelineCopyMarker[];
  depthViews: { track: number; depths: TimelineTilesPayload[] }[];
}

export interface FrameInput {
  /** Plot size in CSS pixels. */
  width: number;
  height: number;
  /** Layout y at the top of the plot. */
  scrollTop: number;
  layout: LaneLayout;
  /** Row indices [from, to) to draw. */
  range: [number, number];
  view: TimelineWindow;
  frame: TilesFrame | null;
  theme: CanvasTheme;
  showFlows: boolean;
  highlight: { tracks: number[]; spans: Float64Array[] } | null;
  selection: TimelineWindow | null;
  /** Colour of a function or module name (colors.ts colourOf unless a test says otherwise). */
  colour?: (name: string) => string;
  /** Iterations of the trace analysis's main loop per lane: shaded alternately, a line at each start. */
  iterations?: readonly { track: number; spans: Float64Array; ids: Int32Array }[] | null;
}

export interface FrameCounts {
  lanes: number;
  groups: number;
  laneLabels: string[];
  /** Tile runs and depth-view runs filled. */
  rects: number;
  events: number;
  flows: number;
  copies: number;
  highlighted: number;
  /** Iteration bands drawn. */
  iterations: number;
}

export interface TileRun {
  c0: number;
  c1: number;
  key: number;
  busy: number;
}

/** Runs of equal columns of one lane (same key, busy within 1/8), so a 2000-px lane is a few rectangles. */
export function tileRuns(key: Int32Array, busy: Float32Array, offset: number, width: number): TileRun[] {
  const runs: TileRun[] = [];
  let c = 0;
  while (c < width) {
    const k = key[offset + c]!;
    const b = busy[offset + c]!;
    let e = c + 1;
    while (e < width && key[offset + e] === k && Math.abs(busy[offset + e]! - b) < 0.125) e++;
    if (k >= 0 && b > 0) {
      let sum = 0;
      for (let j = c; j < e; j++) sum += busy[offset + j]!;
      runs.push({ c0: c, c1: e, key: k, busy: sum / (e - c) });
    }
    c = e;
  }
  return runs;
}

/** The pixel span [x0, x1) of tile columns [c0, c1) of a payload drawn in `view` over `width` px. */
export function columnsToPixels(
  tiles: Pick<TimelineTilesPayload, 'window' | 'width'>,
  c0: number,
  c1: number,
  view: TimelineWindow,
  width: number,
): [number, number] {
  const colW = (tiles.window.end - tiles.window.start) / tiles.width;
  return [timeToX(view, width, tiles.window.start + c0 * colW), timeToX(view, width, tiles.window.start + c1 * colW)];
}

/** Black or white text, whichever reads better on `fill` (a #rrggbb colour). */
export function textColourOn(fill: string): string {
  const m = /^#([0-9a-f]{6})$/i.exec(fill);
  if (!m) return '#000000';
  const v = parseInt(m[1]!, 16);
  const lum = (0.2126 * ((v >> 16) & 255) + 0.7152 * ((v >> 8) & 255) + 0.0722 * (v & 255)) / 255;
  return lum > 0.55 ? '#1e1e1e' : '#ffffff';
}

/** Shortens `text` with an ellipsis to fit `maxWidth` px, or '' when not even one character fits. */
export function fitText(ctx: Pick<Ctx2D, 'measureText'>, text: string, maxWidth: number): string {
  if (maxWidth < 8) return '';
  if (ctx.measureText(text).width <= maxWidth) return text;
  let lo = 0,
    hi = text.length;
  while (lo < hi) {
    const m = (lo + hi + 1) >>> 1;
    if (ctx.measureText(text.slice(0, m) + '…').width <= maxWidth) lo = m;
    else hi = m - 1;
  }
  return lo > 0 ? text.slice(0, lo) + '…' : '';
}

/** Draws the frame; returns what was drawn (for the `rendered` report and the tests). */
export function drawFrame(ctx: Ctx2D, input: FrameInput): FrameCounts {
  const { width, height, scrollTop, layout, range, view, frame, theme } = input;
  const colour = input.colour ?? colourOf;
  const counts: FrameCounts = {
    lanes: 0,
    groups: 0,
    laneLabels: [],
    rects: 0,
    events: 0,
    flows: 0,
    copies: 0,
    highlighted: 0,
    iterations: 0,
  };
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  ctx.font = theme.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const names = new Map(frame?.tiles.names ?? []);
  for (const v of frame?.depthViews ?? []) for (const p of v.depths) for (const [k, n] of p.names) names.set(k, n);
  const colourCache = new Map<number, string>();
  const keyColour = (k: number): string => {
    let c = colourCache.get(k);
    if (c === undefined) colourCache.set(k, (c = colour(names.get(k) ?? String(k))));
    return c;
  };
  const laneIndex = new Map<number, number>();
  frame?.tiles.tracks.forEach((t, i) => laneIndex.set(t, i));
  const depthViewOf = new Map((frame?.depthViews ?? []).map(v => [v.track, v.depths]));

  for (let i = range[0]; i < range[1]; i++) {
    const r = layout.rows[i]!;
    const top = r.y - scrollTop;
    if (top >= height || top + r.height <= 0) continue;
    if (r.row.type === 'group') {
      counts.groups++;
      ctx.fillStyle = theme.groupBand;
      ctx.fillRect(0, top, width, r.height);
      continue;
    }
    counts.lanes++;
    counts.laneLabels.push(r.row.label);
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, top, width, r.height);
    ctx.clip();
    const li = laneIndex.get(r.row.track);
    if (frame && li !== undefined) {
      const dv = r.depthRows ? depthViewOf.get(r.row.track) : undefined;
      if (frame.tiles.detail[li]) counts.events += drawEvents(ctx, input, frame.tiles, li, r, top, keyColour, names);
      else if (dv) counts.rects += drawDepthTiles(ctx, input, dv, top, keyColour);
      else counts.rects += drawTiles(ctx, input, frame.tiles, li, top + 2, r.height - 4, keyColour);
    }
    ctx.restore();
    ctx.globalAlpha = 0.6;
    ctx.fillStyle = theme.border;
    ctx.fillRect(0, top + r.height - 1, width, 1);
    ctx.globalAlpha = 1;
  }
  if (input.iterations) counts.iterations = drawIterations(ctx, input, input.iterations);
  if (frame) counts.copies = drawCopies(ctx, input, frame.copies);
  if (input.highlight) counts.highlighted = drawHighlight(ctx, input, input.highlight);
  if (frame && input.showFlows) counts.flows = drawFlows(ctx, input, frame.flows);
  if (input.selection) {
    const x0 = timeToX(view, width, input.selection.start),
      x1 = timeToX(view, width, input.selection.end);
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = theme.selection;
    ctx.fillRect(x0, 0, x1 - x0, height);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.focus;
    ctx.fillRect(Math.round(x0), 0, 1, height);
    ctx.fillRect(Math.round(x1) - 1, 0, 1, height);
  }
  ctx.restore();
  return counts;
}

function drawTiles(
  ctx: Ctx2D,
  input: FrameInput,
  tiles: TimelineTilesPayload,
  li: number,
  y: number,
  h: number,
  keyColour: (k: number) => string,
): number {
  const runs = tileRuns(tiles.key, tiles.busy, li * tiles.width, tiles.width);
  for (const run of runs) {
    const [x0, x1] = columnsToPixels(tiles, run.c0, run.c1, input.view, input.width);
    if (x1 < 0 || x0 > input.width) continue;
    // Opacity shows how busy the columns are; a fully busy stretch is solid.
    ctx.globalAlpha = 0.3 + 0.7 * run.busy;
    ctx.fillStyle = keyColour(run.key);
    ctx.fillRect(x0, y, Math.max(0.75, x1 - x0), h);
  }
  ctx.globalAlpha = 1;
  return runs.length;
}

/**
 * A zoomed-out depth view: row d shows the frame at depth d. Where the stack is shallower than d
 * the tiles repeat the innermost frame (tiles.ts' rule), so a column is drawn at d only where its
 * key differs from depth d − 1 (a recursive call at the same key is the one thing this hides).
 */
function drawDepthTiles(
  ctx: Ctx2D,
  input: FrameInput,
  depths: TimelineTilesPayload[],
  top: number,
  keyColour: (k: number) => string,
): number {
  let n = 0;
  depths.forEach((p, d) => {
    const above = d > 0 ? depths[d - 1]! : null;
    const key = above ? p.key.map((k, c) => (k === above.key[c] ? -1 : k)) : p.key;
    const runs = tileRuns(key, p.busy, 0, p.width);
    const y = top + 2 + d * DEPTH_ROW_HEIGHT;
    for (const run of runs) {
      const [x0, x1] = columnsToPixels(p, run.c0, run.c1, input.view, input.width);
      ctx.globalAlpha = 0.35 + 0.65 * run.busy;
      ctx.fillStyle = keyColour(run.key);
      ctx.fillRect(x0, y, Math.max(0.75, x1 - x0), DEPTH_ROW_HEIGHT - 1);
    }
    n += runs.length;
  });
  ctx.globalAlpha = 1;
  return n;
}

/**
 * A full-detail lane: slices of depth ≤ the chosen depth drawn outermost first, so the deepest one
 * at each time shows (the tiles' rule); samples as their holds; instants as thin ticks. In a depth
 * view every slice is drawn at its own depth row, like a flame chart.
 */
function drawEvents(
  ctx: Ctx2D,
  input: FrameInput,
  tiles: TimelineTilesPayload,
  li: number,
  r: LaidOutRow,
  top: number,
  keyColour: (k: number) => string,
  names: Map<number, string>,
): number {
  const e = tiles.events;
  const a = e.laneStart[li]!,
    b = e.laneStart[li + 1]!;
  const { view, width, theme } = input;
  const maxDepth = r.depthRows ? r.depthRows - 1 : tiles.depth;
  let drawn = 0;
  const label = (text: string, fill: string, x0: number, x1: number, y: number, h: number) => {
    const visible0 = Math.max(0, x0),
      visible1 = Math.min(width, x1);
    if (visible1 - visible0 < 28 || h < 11) return;
    const t = fitText(ctx, text, visible1 - visible0 - 6);
    if (!t) return;
    ctx.fillStyle = textColourOn(fill);
    ctx.fillText(t, visible0 + 3, y + h / 2 + 0.5);
  };
  for (let d = 0; d <= maxDepth; d++) {
    for (let k = a; k < b; k++) {
      const kind = e.kind[k]!;
      const depth = kind === 2 ? 0 : e.depth[k]!;
      if (kind === 1 || depth !== d) continue;
      const x0 = timeToX(view, width, e.start[k]!),
        x1 = timeToX(view, width, e.start[k]! + e.duration[k]!);
      if (x1 < 0 || x0 > width) continue;
      const y = r.depthRows ? top + 2 + d * DEPTH_ROW_HEIGHT : top + 2;
      const h = r.depthRows ? DEPTH_ROW_HEIGHT - 1 : r.height - 4;
      const fill = e.key[k]! >= 0 ? keyColour(e.key[k]!) : theme.muted;
      ctx.fillStyle = fill;
      ctx.fillRect(x0, y, Math.max(1, x1 - x0), h);
      // A hairline between adjacent slices of the same function keeps them apart.
      if (x1 - x0 > 4) {
        ctx.globalAlpha = 0.35;
        ctx.fillStyle = theme.background;
        ctx.fillRect(x1 - 1, y, 1, h);
        ctx.globalAlpha = 1;
      }
      label(names.get(e.key[k]!) ?? '', fill, x0, x1, y, h);
      drawn++;
    }
  }
  for (let k = a; k < b; k++) {
    if (e.kind[k] !== 1) continue;
    const x = timeToX(view, width, e.start[k]!);
    if (x < -2 || x > width + 2) continue;
    ctx.fillStyle = theme.foreground;
    ctx.beginPath();
    ctx.moveTo(x, top + 2);
    ctx.lineTo(x + 4, top + 7);
    ctx.lineTo(x, top + 12);
    ctx.lineTo(x - 4, top + 7);
    ctx.closePath();
    ctx.fill();
    drawn++;
  }
  return drawn;
}

/** Copy markers: a strip along the lane's bottom in the direction's colour, and a glyph where there is room (▼ host→device, ▲ device→host, ◆ device↔device/peer, ■ memset). */
function drawCopies(ctx: Ctx2D, input: FrameInput, copies: readonly TimelineCopyMarker[]): number {
  const { layout, view, width, scrollTop, theme } = input;
  let n = 0;
  for (const c of copies) {
    const r = layout.byTrack.get(c.track);
    if (!r) continue;
    const top = r.y - scrollTop;
    if (top > input.height || top + r.height < 0) continue;
    const x0 = timeToX(view, width, c.start),
      x1 = Math.max(x0 + 2, timeToX(view, width, c.start + c.duration));
    if (x1 < 0 || x0 > width) continue;
    const colour = theme.direction[c.direction] ?? theme.direction['other'] ?? theme.foreground;
    const y = top + r.height - 5;
    ctx.fillStyle = colour;
    ctx.fillRect(x0, y, x1 - x0, 3);
    if (x1 - x0 >= 9) {
      const cx = (x0 + x1) / 2,
        gy = top + 3;
      ctx.beginPath();
      if (c.direction === 'host-to-device') {
        ctx.moveTo(cx - 4, gy);
        ctx.lineTo(cx + 4, gy);
        ctx.lineTo(cx, gy + 6);
      } else if (c.direction === 'device-to-host') {
        ctx.moveTo(cx - 4, gy + 6);
        ctx.lineTo(cx + 4, gy + 6);
        ctx.lineTo(cx, gy);
      } else if (c.direction === 'memset') {
        ctx.rect(cx - 3, gy, 6, 6);
      } else {
        ctx.moveTo(cx, gy);
        ctx.lineTo(cx + 4, gy + 3);
        ctx.lineTo(cx, gy + 6);
        ctx.lineTo(cx - 4, gy + 3);
      }
      ctx.closePath();
      ctx.fill();
    }
    n++;
  }
  return n;
}

/**
 * Iterations as alternating bands (paper §3.4's iteration view on the timeline): every other
 * iteration identifier shaded, and a boundary line at each iteration's start where it is at
 * least 3 px from the previous one (dense loops stay readable zoomed out).
 */
function drawIterations(ctx: Ctx2D, input: FrameInput, iterations: NonNullable<FrameInput['iterations']>): number {
  const { layout, view, width, scrollTop, theme } = input;
  let n = 0;
  for (const it of iterations) {
    const r = layout.byTrack.get(it.track);
    if (!r) continue;
    const top = r.y - scrollTop;
    if (top > input.height || top + r.height < 0) continue;
    let lastLine = -Infinity;
    for (let k = 0; k < it.ids.length; k++) {
      const x0 = Math.max(0, timeToX(view, width, it.spans[2 * k]!)),
        x1 = Math.min(width, timeToX(view, width, it.spans[2 * k + 1]!));
      if (x1 < 0 || x0 > width) continue;
      n++;
      if (it.ids[k]! % 2 === 1) {
        ctx.globalAlpha = 0.16;
        ctx.fillStyle = theme.foreground;
        ctx.fillRect(x0, top, Math.max(1, x1 - x0), r.height - 1);
      }
      if (x0 - lastLine >= 3) {
        ctx.globalAlpha = 0.7;
        ctx.fillStyle = theme.foreground;
        ctx.fillRect(Math.round(x0), top, 1, r.height - 1);
        lastLine = x0;
      }
    }
  }
  ctx.globalAlpha = 1;
  return n;
}

function drawHighlight(ctx: Ctx2D, input: FrameInput, h: { tracks: number[]; spans: Float64Array[] }): number {
  const { layout, view, width, scrollTop, theme } = input;
  let n = 0;
  ctx.strokeStyle = theme.focus;
  ctx.lineWidth = 1.5;
  h.tracks.forEach((t, i) => {
    const r = layout.byTrack.get(t);
    const spans = h.spans[i];
    if (!r || !spans) return;
    const top = r.y - scrollTop;
    if (top > input.height || top + r.height < 0) return;
    for (let k = 0; k + 1 < spans.length; k += 2) {
      const x0 = timeToX(view, width, spans[k]!),
        x1 = timeToX(view, width, spans[k + 1]!);
      if (x1 < 0 || x0 > width) continue;
      ctx.strokeRect(x0 + 0.75, top + 1.75, Math.max(1.5, x1 - x0 - 1.5), r.height - 3.5);
      n++;
    }
  });
  return n;
}

function drawFlows(ctx: Ctx2D, input: FrameInput, flows: readonly TimelineFlow[]): number {
  const { layout, view, width, scrollTop, theme } = input;
  let n = 0;
  ctx.lineWidth = 1.25;
  for (const f of flows) {
    const a = layout.byTrack.get(f.fromTrack),
      b = layout.byTrack.get(f.toTrack);
    if (!a || !b) continue;
    const x0 = timeToX(view, width, f.fromTime),
      x1 = timeToX(view, width, f.toTime);
    const y0 = a.y - scrollTop + a.height / 2,
      y1 = b.y - scrollTop + b.height / 2;
    if (
      (x0 < 0 && x1 < 0) ||
      (x0 > width && x1 > width) ||
      (y0 < 0 && y1 < 0) ||
      (y0 > input.height && y1 > input.height)
    )
      continue;
    const colour = theme.flow[f.kind];
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    // Dense arrows fade (down to 0.15 at 400+) so the lanes under them stay readable.
    ctx.globalAlpha = Math.max(0.15, Math.min(0.85, 60 / Math.max(1, flows.length)));
    const bend = Math.max(12, Math.abs(x1 - x0) / 2);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.bezierCurveTo(x0 + bend, y0, x1 - bend, y1, x1, y1);
    ctx.stroke();
    // Arrow head pointing along the curve's last tangent (horizontal, into the target).
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - 6, y1 - 3.5);
    ctx.lineTo(x1 - 6, y1 + 3.5);
    ctx.closePath();
    ctx.fill();
    ctx.globalAlpha = 1;
    n++;
  }
  return n;
}

/** Per-key column counts of a payload, largest first: the legend's order. */
export function legendEntries(
  tiles: TimelineTilesPayload,
  limit = 14,
): { key: number; name: string; columns: number }[] {
  const counts = new Map<number, number>();
  for (const k of tiles.key) if (k >= 0) counts.set(k, (counts.get(k) ?? 0) + 1);
  const e = tiles.events;
  for (let i = 0; i < e.key.length; i++)
    if (e.key[i]! >= 0)
      counts.set(
        e.key[i]!,
        (counts.get(e.key[i]!) ?? 0) +
          Math.max(1, (e.duration[i]! / (tiles.window.end - tiles.window.start)) * tiles.width),
      );
  const names = new Map(tiles.names);
  return [...counts]
    .map(([key, columns]) => ({ key, name: names.get(key) ?? String(key), columns }))
    .sort((a, b) => b.columns - a.columns || (a.name < b.name ? -1 : 1))
    .slice(0, limit);
}
