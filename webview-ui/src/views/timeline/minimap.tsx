/** @jsxRuntime automatic */
/**
 * The mini-map: the whole run as an activity profile (per column, the mean busy fraction over all
 * lanes as the bar height, coloured by the key that dominates the column across lanes), with the
 * visible window drawn on it. Click or drag to move the window there; ←/→ when focused.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent, KeyboardEvent as ReactKeyboardEvent } from 'react';
import { colourOf } from '../../../../src/analysis/timeline/colors';
import type {
  TimelineInitMessage,
  TimelineTilesPayload,
  TimelineWindow,
} from '../../../../src/shared/timeline-protocol';
import type { CanvasTheme } from './tile-render';

export const MINIMAP_HEIGHT = 44;

export interface MinimapColumn {
  busy: number;
  key: number;
}

/** Per column of the mini-map tiles: mean busy over lanes and the key with the most busy time across lanes. */
export function minimapColumns(m: TimelineTilesPayload): MinimapColumn[] {
  const lanes = m.tracks.length,
    W = m.width;
  const out: MinimapColumn[] = [];
  const weight = new Map<number, number>();
  for (let c = 0; c < W; c++) {
    weight.clear();
    let busy = 0;
    for (let i = 0; i < lanes; i++) {
      const at = i * W + c;
      busy += m.busy[at]!;
      const k = m.key[at]!;
      if (k >= 0) weight.set(k, (weight.get(k) ?? 0) + m.share[at]!);
    }
    let best = -1,
      bw = 0;
    for (const [k, w] of weight)
      if (w > bw || (w === bw && k < best)) {
        best = k;
        bw = w;
      }
    out.push({ busy: lanes ? busy / lanes : 0, key: best });
  }
  return out;
}

export function Minimap({
  init,
  view,
  theme,
  width,
  offset,
  onPan,
}: {
  init: TimelineInitMessage;
  view: TimelineWindow;
  theme: CanvasTheme;
  width: number;
  offset: number;
  onPan(centre: number): void;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const plot = Math.max(1, width - offset);
  const columns = useMemo(() => minimapColumns(init.minimap), [init]);
  const names = useMemo(() => new Map(init.minimap.names), [init]);
  const [lo, hi] = [init.minimap.window.start, init.minimap.window.end];
  const [dragging, setDragging] = useState(false);

  useLayoutEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(plot * dpr);
    canvas.height = Math.round(MINIMAP_HEIGHT * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, plot, MINIMAP_HEIGHT);
    const colW = plot / Math.max(1, columns.length);
    columns.forEach((c, i) => {
      if (c.key < 0 || c.busy <= 0) return;
      const h = Math.max(1, c.busy * (MINIMAP_HEIGHT - 4));
      ctx.fillStyle = colourOf(names.get(c.key) ?? '');
      // Whole device pixels per column: fractional edges would leave light seams between bars.
      const x0 = Math.floor(i * colW),
        x1 = Math.max(x0 + 1, Math.floor((i + 1) * colW));
      ctx.fillRect(x0, MINIMAP_HEIGHT - 2 - h, x1 - x0, h);
    });
  }, [columns, names, plot, theme]);

  const x0 = ((view.start - lo) / (hi - lo)) * plot,
    x1 = ((view.end - lo) / (hi - lo)) * plot;
  const timeAt = (clientX: number) => {
    const rect = ref.current!.getBoundingClientRect();
    return lo + ((clientX - rect.left) / Math.max(1, rect.width)) * (hi - lo);
  };
  const down = (e: ReactPointerEvent) => {
    (e.target as Element).setPointerCapture?.(e.pointerId);
    setDragging(true);
    onPan(timeAt(e.clientX));
  };
  const move = (e: ReactPointerEvent) => {
    if (dragging) onPan(timeAt(e.clientX));
  };
  const key = (e: ReactKeyboardEvent) => {
    const c = (view.start + view.end) / 2,
      step = (view.end - view.start) / 2;
    if (e.key === 'ArrowLeft') onPan(c - step);
    else if (e.key === 'ArrowRight') onPan(c + step);
    else return;
    e.preventDefault();
  };
  return (
    <div className="timeline-minimap" style={{ height: MINIMAP_HEIGHT }}>
      <div className="timeline-minimap-corner" style={{ width: offset }}>
        Whole run
      </div>
      <div
        className="timeline-minimap-plot"
        style={{ width: plot, height: MINIMAP_HEIGHT }}
        tabIndex={0}
        role="slider"
        aria-label="Mini-map of the whole run: drag to move the visible window"
        aria-valuemin={lo}
        aria-valuemax={hi}
        aria-valuenow={Math.round((view.start + view.end) / 2)}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={() => setDragging(false)}
        onKeyDown={key}
      >
        <canvas ref={ref} style={{ width: plot, height: MINIMAP_HEIGHT }} />
        <div className="timeline-minimap-shade" style={{ left: 0, width: Math.max(0, x0) }} />
        <div className="timeline-minimap-shade" style={{ left: Math.min(plot, x1), width: Math.max(0, plot - x1) }} />
        <div
          className="timeline-minimap-window"
          style={{ left: Math.max(0, x0), width: Math.max(2, Math.min(plot, x1) - Math.max(0, x0)) }}
        />
      </div>
    </div>
  );
}
