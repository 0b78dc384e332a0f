/** @jsxRuntime automatic */
/**
 * Metric correlation (seed-callflow §4.5): inclusive (x) against exclusive (y) time of the selected
 * supernode's call sites, one dot per call site × run (each the run's mean over its ranks). Dots on
 * the diagonal spend all their time in their own code; far below it, in their callees. Ensemble
 * dots are grey; in target mode the target run's dots are green and on top. Hovering a dot
 * highlights every dot of its call site and names it. Beyond `CANVAS_THRESHOLD` dots the dots go
 * to a canvas (the axes and the highlighted call site stay SVG).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { quadtree, scaleLinear, type Quadtree, type ScaleLinear } from 'd3';
import type { EnsembleDetailData, MetricCorrelationData } from '../../../../src/shared/ensemble-protocol';
import { formatValue } from '../../format';
import { resolvedTargetColour } from './ensemble-colours';
import {
  BottomAxis,
  LeftAxis,
  plural,
  pointerInView,
  runName,
  tipPosition,
  viewStyle,
  ViewHeader,
  type LinkedViewProps,
  VIEW_FOOTER,
  VIEW_HEADER,
} from './linked-view-parts';

export interface MetricCorrelationViewProps extends LinkedViewProps {
  detail: EnsembleDetailData;
}

/** Above this many dots they are drawn on a canvas instead of as SVG circles. */
export const CANVAS_THRESHOLD = 2000;
const M = { left: 58, right: 14, top: 8, bottom: 34 };
const HEADER = VIEW_HEADER;
const FOOTER = VIEW_FOOTER;
/** How far (px) from a dot the pointer still picks it. */
const PICK_RADIUS = 14;

export interface CorrelationLayout {
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  /** Pixel position of each point. */
  px: Float64Array;
  py: Float64Array;
  /** Point indices in drawing order: the target run's last (on top). */
  order: number[];
}

/** Scales from 0 to the largest value (nice), the points' pixels and their drawing order. */
export function correlationLayout(
  c: MetricCorrelationData,
  width: number,
  height: number,
  target: number | null,
): CorrelationLayout {
  const n = Math.min(c.inclusive.length, c.exclusive.length);
  let xMax = 0,
    yMax = 0;
  for (let i = 0; i < n; i++) {
    xMax = Math.max(xMax, c.inclusive[i]!);
    yMax = Math.max(yMax, c.exclusive[i]!);
  }
  const x = scaleLinear()
    .domain([0, xMax > 0 ? xMax : 1])
    .nice()
    .range([M.left, Math.max(M.left + 20, width - M.right)]);
  const y = scaleLinear()
    .domain([0, yMax > 0 ? yMax : 1])
    .nice()
    .range([Math.max(M.top + 20, height - M.bottom), M.top]);
  const px = new Float64Array(n),
    py = new Float64Array(n);
  const rest: number[] = [],
    top: number[] = [];
  for (let i = 0; i < n; i++) {
    px[i] = x(c.inclusive[i]!);
    py[i] = y(c.exclusive[i]!);
    (target !== null && c.run[i] === target ? top : rest).push(i);
  }
  return { x, y, px, py, order: rest.concat(top) };
}

/** A spatial index of the points, for picking under the pointer. */
export function pointTree(layout: CorrelationLayout): Quadtree<number> {
  return quadtree<number>()
    .x(i => layout.px[i]!)
    .y(i => layout.py[i]!)
    .addAll(layout.order);
}

/** The point nearest to (x, y) in plot pixels within `radius`, or null. */
export function pickPoint(tree: Quadtree<number>, x: number, y: number, radius = PICK_RADIUS): number | null {
  return tree.find(x, y, radius) ?? null;
}

export interface CorrelationPlotProps {
  correlation: MetricCorrelationData;
  layout: CorrelationLayout;
  width: number;
  height: number;
  unit: string;
  metricName: string;
  target: number | null;
  /** The hovered call site: its dots are drawn on top, enlarged; the others are dimmed. */
  highlight: number | null;
  /** Dots on a canvas (drawn by the caller); the SVG keeps the axes and the highlighted dots. */
  canvas: boolean;
}

/** The SVG part of the plot, without state: axes, the diagonal, and the dots (all, or only the highlighted ones on canvas). */
export function CorrelationPlot({
  correlation: c,
  layout,
  width,
  height,
  unit,
  metricName,
  target,
  highlight,
  canvas,
}: CorrelationPlotProps) {
  const { x, y, px, py, order } = layout;
  const [x0, x1] = x.range() as [number, number];
  const [y0, y1] = y.range() as [number, number];
  const diagonalEnd = Math.min(x.domain()[1]!, y.domain()[1]!);
  const highlighted = highlight === null ? [] : order.filter(i => c.callSite[i] === highlight);
  const dot = (i: number, extra: string) => (
    <circle
      key={i}
      className={'ensemble-dot' + (target !== null && c.run[i] === target ? ' is-target' : '') + extra}
      cx={px[i]}
      cy={py[i]}
      r={extra ? 4.5 : 3}
      data-call-site={c.callSite[i]}
      data-run={c.run[i]}
    />
  );
  return (
    <svg
      width={width}
      height={height}
      className={'callflow-svg ensemble-correlation-svg' + (highlight !== null ? ' has-highlight' : '')}
      role="img"
      aria-label={`Scatter of exclusive against inclusive ${metricName}, ${plural(order.length, 'dot')}: one per call site and run`}
    >
      <BottomAxis scale={x} top={y1} bottom={y0} unit={unit} ticks={Math.max(2, Math.floor((x1 - x0) / 80))} />
      <LeftAxis scale={y} left={x0} right={x1} unit={unit} ticks={Math.max(2, Math.floor((y0 - y1) / 40))} />
      <line className="ensemble-diagonal" x1={x(0)} y1={y(0)} x2={x(diagonalEnd)} y2={y(diagonalEnd)} />
      <text className="callflow-axis-title" x={(x0 + x1) / 2} y={height - 4} textAnchor="middle">
        inclusive {metricName}
      </text>
      <text
        className="callflow-axis-title"
        x={11}
        y={(y0 + y1) / 2}
        textAnchor="middle"
        transform={`rotate(-90 11 ${(y0 + y1) / 2})`}
      >
        exclusive {metricName}
      </text>
      {canvas ? null : <g className="ensemble-dots">{order.map(i => dot(i, ''))}</g>}
      {highlighted.length ? (
        <g className="ensemble-dots-highlight">{highlighted.map(i => dot(i, ' is-highlighted'))}</g>
      ) : null}
    </svg>
  );
}

/** Draws the dots on a canvas in the theme's colours (grey, the target's green on top, dimmed under a highlight). */
function drawDots(
  canvas: HTMLCanvasElement,
  c: MetricCorrelationData,
  layout: CorrelationLayout,
  target: number | null,
  dimmed: boolean,
  width: number,
  height: number,
) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const style = getComputedStyle(canvas);
  const grey = style.getPropertyValue('--vscode-descriptionForeground').trim() || '#9d9d9d';
  const targetColour = resolvedTargetColour(style);
  let fill = '';
  for (const i of layout.order) {
    const isTarget = target !== null && c.run[i] === target;
    const next = isTarget ? targetColour : grey;
    if (next !== fill) {
      fill = next;
      ctx.fillStyle = fill;
    }
    ctx.globalAlpha = (isTarget ? 0.95 : 0.5) * (dimmed ? 0.35 : 1);
    ctx.beginPath();
    ctx.arc(layout.px[i]!, layout.py[i]!, isTarget ? 2.5 : 2, 0, 2 * Math.PI);
    ctx.fill();
  }
}

export function MetricCorrelationView({ data, state, detail, width, height }: MetricCorrelationViewProps) {
  const c = detail.correlation;
  const target = state.mode === 'target' ? state.target : null;
  const plotH = Math.max(80, height - HEADER - FOOTER);
  const layout = useMemo(() => correlationLayout(c, width, plotH, target), [c, width, plotH, target]);
  const useCanvas = layout.order.length > CANVAS_THRESHOLD;
  const [hover, setHover] = useState<{ point: number; x: number; y: number } | null>(null);
  const highlight = hover !== null ? c.callSite[hover.point]! : null;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (useCanvas && canvasRef.current)
      drawDots(canvasRef.current, c, layout, target, highlight !== null, width, plotH);
  }, [useCanvas, c, layout, target, highlight, width, plotH]);
  const tree = useMemo(() => pointTree(layout), [layout]);

  const unit = data.metric.unit;
  const n = layout.order.length;
  const name = highlight !== null ? (c.callSites[highlight] ?? `call site ${highlight}`) : null;
  return (
    <div
      className="ensemble-view ensemble-correlation"
      data-ensemble-view="correlation"
      data-drawn={n}
      style={viewStyle(width, height)}
    >
      <ViewHeader
        title={
          name !== null ? (
            <>
              Call site <strong>{name}</strong>{' '}
              <span className="callflow-muted">· {plural(c.callSite.filter(k => k === highlight).length, 'run')}</span>
            </>
          ) : (
            <>
              Inclusive vs exclusive <span className="callflow-muted">· one dot per call site × run</span>
            </>
          )
        }
      />
      {n === 0 ? (
        <div className="callflow-empty">No call-site values for {detail.label}.</div>
      ) : (
        <div
          className="ensemble-plot"
          style={{ height: plotH }}
          onMouseMove={e => {
            const box = e.currentTarget.getBoundingClientRect();
            const i = pickPoint(tree, e.clientX - box.left, e.clientY - box.top);
            const p = pointerInView(e);
            setHover(i === null ? null : { point: i, ...p });
          }}
          onMouseLeave={() => setHover(null)}
        >
          {useCanvas ? (
            <canvas
              ref={canvasRef}
              className="ensemble-dot-canvas"
              style={{ width, height: plotH }}
              aria-hidden="true"
            />
          ) : null}
          <CorrelationPlot
            correlation={c}
            layout={layout}
            width={width}
            height={plotH}
            unit={unit}
            metricName={data.metric.name}
            target={target}
            highlight={highlight}
            canvas={useCanvas}
          />
        </div>
      )}
      <div className="ensemble-footnote">
        {c.truncated > 0 ? <span className="ensemble-note">{plural(c.truncated, 'dot')} not shown · </span> : null}
        {target !== null ? (
          <span>
            <span className="ensemble-swatch is-target" />
            target {runName(data, target)} ·{' '}
          </span>
        ) : null}
        <span title="On the dashed diagonal a call site spends all its time in its own code. Hover a dot to highlight every run of its call site.">
          Dashed: inclusive = exclusive · hover to highlight
        </span>
      </div>
      {hover !== null ? (
        <div className="callflow-tip" style={tipPosition(hover.x, hover.y, width, height, 260, 80)}>
          <strong>{name}</strong>
          <div>
            {runName(data, c.run[hover.point]!)}
            {target !== null && c.run[hover.point] === target ? ' (target)' : ''}
          </div>
          <div>
            inclusive {formatValue(c.inclusive[hover.point]!, unit)} · exclusive{' '}
            {formatValue(c.exclusive[hover.point]!, unit)}
          </div>
        </div>
      ) : null}
    </div>
  );
}
