/** @jsxRuntime automatic */
/**
 * The correlation view of the selected node (CallFlow §3.3): one point per rank for two chosen
 * per-rank series (two metrics, or inclusive vs exclusive), the least-squares line and, on hover of
 * the line, slope, intercept, r, r² and the p-value of r. Linked to the histogram: brushed ranks
 * are highlighted, and a rectangle dragged over points brushes their ranks.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { brush as d3brush, scaleLinear, select } from 'd3';
import { formatSignificant, formatValue } from '../../format';
import { correlationFit } from './correlation-stats';

export interface Series {
  key: string;
  label: string;
  unit: string;
  values: readonly number[];
}

export interface CorrelationViewProps {
  x: Series;
  y: Series;
  /** Profile context index and label of each point. */
  contexts: readonly number[];
  labels: readonly string[];
  brushed: ReadonlySet<number>;
  onBrush: (contexts: number[] | null) => void;
  width: number;
  height: number;
}

const M = { left: 64, right: 16, top: 12, bottom: 40 };

/** `p < 0.001` style text for a p-value. */
export function formatP(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

export function CorrelationView({ x, y, contexts, labels, brushed, onBrush, width, height }: CorrelationViewProps) {
  const fit = useMemo(() => correlationFit(x.values, y.values), [x.values, y.values]);
  const plotW = Math.max(40, width - M.left - M.right);
  const plotH = Math.max(40, height - M.top - M.bottom);
  const ext = (v: readonly number[]) => {
    const lo = Math.min(...v),
      hi = Math.max(...v);
    const pad = hi > lo ? (hi - lo) * 0.06 : Math.abs(hi) * 0.05 || 1;
    return [lo - pad, hi + pad] as const;
  };
  const sx = useMemo(
    () =>
      scaleLinear()
        .domain(ext(x.values))
        .range([M.left, M.left + plotW]),
    [x.values, plotW],
  );
  const sy = useMemo(
    () =>
      scaleLinear()
        .domain(ext(y.values))
        .range([M.top + plotH, M.top]),
    [y.values, plotH],
  );
  const [hover, setHover] = useState<{ kind: 'line' } | { kind: 'point'; i: number } | null>(null);
  const brushRef = useRef<SVGGElement>(null);
  const onBrushRef = useRef(onBrush);
  useEffect(() => {
    onBrushRef.current = onBrush;
  });
  useEffect(() => {
    const g = brushRef.current;
    if (!g) return;
    const b = d3brush<unknown>()
      .extent([
        [M.left, M.top],
        [M.left + plotW, M.top + plotH],
      ])
      .on('end', e => {
        if (!e.sourceEvent) return;
        const sel = e.selection as [[number, number], [number, number]] | null;
        if (!sel) {
          onBrushRef.current(null);
          return;
        }
        const [[x0, y0], [x1, y1]] = sel;
        const picked: number[] = [];
        x.values.forEach((v, i) => {
          const px = sx(v),
            py = sy(y.values[i]!);
          if (px >= x0 && px <= x1 && py >= y0 && py <= y1) picked.push(contexts[i] ?? i);
        });
        select(g).call(b.move, null);
        onBrushRef.current(picked.length ? picked : null);
      });
    select(g).call(b);
    return () => {
      select(g).on('.brush', null).selectAll('*').remove();
    };
  }, [sx, sy, plotW, plotH, x.values, y.values, contexts]);

  const n = Math.min(x.values.length, y.values.length);
  if (n < 2)
    return <div className="callflow-empty">The correlation needs at least two ranks; this profile has {n}.</div>;
  const [d0, d1] = sx.domain() as [number, number];
  const stats = fit
    ? `slope ${formatSignificant(fit.slope)} · intercept ${formatValue(fit.intercept, y.unit)} · r = ${Number.isFinite(fit.r) ? fit.r.toFixed(3) : 'n/a'} · r² = ${Number.isFinite(fit.r2) ? fit.r2.toFixed(3) : 'n/a'} · ${formatP(fit.p)} · n = ${fit.n}`
    : '';
  const pointTip = hover?.kind === 'point' ? hover.i : null;
  return (
    <div className="callflow-correlation">
      <svg
        width={width}
        height={height}
        className="callflow-svg"
        role="img"
        aria-label={`Scatter of ${y.label} against ${x.label}, one point per rank. ${stats}`}
      >
        {sx.ticks(5).map(t => (
          <g key={`x${t}`} className="callflow-grid">
            <line x1={sx(t)} x2={sx(t)} y1={M.top} y2={M.top + plotH} />
            <text x={sx(t)} y={M.top + plotH + 14} textAnchor="middle">
              {formatValue(t, x.unit)}
            </text>
          </g>
        ))}
        {sy.ticks(4).map(t => (
          <g key={`y${t}`} className="callflow-grid">
            <line x1={M.left} x2={M.left + plotW} y1={sy(t)} y2={sy(t)} />
            <text x={M.left - 6} y={sy(t) + 4} textAnchor="end">
              {formatValue(t, y.unit)}
            </text>
          </g>
        ))}
        <text className="callflow-axis-title" x={M.left + plotW / 2} y={height - 6} textAnchor="middle">
          {x.label}
        </text>
        <text
          className="callflow-axis-title"
          x={12}
          y={M.top + plotH / 2}
          textAnchor="middle"
          transform={`rotate(-90 12 ${M.top + plotH / 2})`}
        >
          {y.label}
        </text>
        <g ref={brushRef} className="callflow-brush" />
        {x.values.slice(0, n).map((v, i) => (
          <circle
            key={i}
            className={'callflow-point' + (brushed.has(contexts[i] ?? i) ? ' is-brushed' : '')}
            cx={sx(v)}
            cy={sy(y.values[i]!)}
            r={brushed.has(contexts[i] ?? i) ? 4.5 : 3.5}
            data-rank={contexts[i] ?? i}
            onMouseEnter={() => setHover({ kind: 'point', i })}
            onMouseLeave={() => setHover(null)}
          />
        ))}
        {fit && Number.isFinite(fit.slope) ? (
          <g onMouseEnter={() => setHover({ kind: 'line' })} onMouseLeave={() => setHover(null)}>
            <line
              className="callflow-fit-hit"
              x1={sx(d0)}
              x2={sx(d1)}
              y1={sy(fit.intercept + fit.slope * d0)}
              y2={sy(fit.intercept + fit.slope * d1)}
            />
            <line
              className={'callflow-fit' + (hover?.kind === 'line' ? ' is-active' : '')}
              x1={sx(d0)}
              x2={sx(d1)}
              y1={sy(fit.intercept + fit.slope * d0)}
              y2={sy(fit.intercept + fit.slope * d1)}
            />
          </g>
        ) : null}
      </svg>
      {hover?.kind === 'line' ? (
        <div className="callflow-tip" style={{ left: M.left + 8, top: M.top + 4 }}>
          <strong>Least-squares fit</strong>
          <div>{stats}</div>
        </div>
      ) : null}
      {pointTip !== null ? (
        <div
          className="callflow-tip"
          style={{
            left: Math.min(width - 200, sx(x.values[pointTip]!) + 8),
            top: Math.max(4, sy(y.values[pointTip]!) - 40),
          }}
        >
          <strong>Rank {labels[pointTip] ?? pointTip}</strong>
          <div>
            {x.label}: {formatValue(x.values[pointTip]!, x.unit)}
          </div>
          <div>
            {y.label}: {formatValue(y.values[pointTip]!, y.unit)}
          </div>
        </div>
      ) : null}
      <div className="callflow-footnote">
        {fit ? (
          <>
            r = {Number.isFinite(fit.r) ? fit.r.toFixed(3) : 'n/a'}, r² ={' '}
            {Number.isFinite(fit.r2) ? fit.r2.toFixed(3) : 'n/a'}, {formatP(fit.p)} — hover the line for the fit; drag a
            rectangle to brush ranks.
          </>
        ) : null}
      </div>
    </div>
  );
}
