/** @jsxRuntime automatic */
/**
 * The histogram view of the selected node (CallFlow §3.2): the per-rank distribution of its
 * inclusive or exclusive value in equal-width bins, a linear/log count axis, and shadow lines from
 * each bin down to its ranks on an ordered rank axis (clean bands = cost follows rank id). Hovering
 * a bin lists its ranks; brushing bins (d3-brush) selects their ranks for the correlation view and
 * the brush split.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { brushX, select, scaleLinear, scaleSymlog } from 'd3';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { rankHistogram } from '../../../../src/analysis/graph/rank-histogram';
import { formatValue } from '../../format';
import {
  binsUnderBrush,
  formatRankRanges,
  rankRangesByBin,
  ranksInBins,
  shadowBands,
  shadowClutter,
} from './rank-bins';

export interface HistogramViewProps {
  data: CallflowData;
  node: CallflowNodeData;
  metric: 'inclusive' | 'exclusive';
  yScale: 'linear' | 'log';
  bins: number;
  width: number;
  height: number;
  /** Brushed contexts (profile context indices). */
  brushed: ReadonlySet<number>;
  onBrush: (contexts: number[] | null) => void;
}

const M = { left: 44, right: 14, top: 10 };
const AXIS_GAP = 22;
const SHADOW_HEIGHT = 46;
const RANK_AXIS = 30;

/** Bins and each rank's bin for the node's per-rank values (recomputed with the chosen bin count). */
export function nodeHistogram(node: CallflowNodeData, metric: 'inclusive' | 'exclusive', bins: number) {
  const values = node.contextValues?.[metric];
  if (values) return { ...rankHistogram(values, bins, 'linear'), values };
  const sent = node.histogram?.[metric];
  return sent ? { ...sent, binOf: sent.binOf ?? [], values: undefined } : null;
}

export function HistogramView(props: HistogramViewProps) {
  const { data, node, metric, yScale, bins, width, height, brushed, onBrush } = props;
  const unit = data.metric.unit;
  const hist = useMemo(() => nodeHistogram(node, metric, bins), [node, metric, bins]);
  const contexts = data.contexts?.indices ?? [];
  const labels = data.contexts?.labels ?? [];
  const [hoverBin, setHoverBin] = useState<number | null>(null);
  const brushRef = useRef<SVGGElement>(null);

  const K = hist?.binOf.length ?? 0;
  const plotW = Math.max(40, width - M.left - M.right);
  const barsH = Math.max(30, height - M.top - AXIS_GAP - SHADOW_HEIGHT - RANK_AXIS);
  const barsBottom = M.top + barsH;
  const shadowTop = barsBottom + AXIS_GAP;
  const rankY = shadowTop + SHADOW_HEIGHT;
  const binW = hist && hist.counts.length ? plotW / hist.counts.length : 0;
  const maxCount = hist ? Math.max(1, ...hist.counts) : 1;
  const y = useMemo(
    () => (yScale === 'log' ? scaleSymlog() : scaleLinear()).domain([0, maxCount]).range([barsBottom, M.top]),
    [yScale, maxCount, barsBottom],
  );
  const rankStep = K > 0 ? plotW / K : 0;
  const ranges = useMemo(() => (hist ? rankRangesByBin(hist.binOf, hist.counts.length) : []), [hist]);
  const bands = useMemo(
    () => shadowBands(ranges, M.left, binW, p => M.left + p * rankStep, rankStep),
    [ranges, binW, rankStep],
  );
  const clutter = useMemo(() => shadowClutter(ranges), [ranges]);

  // d3-brush over the bins; a brush ending selects the ranks of the bins it touches.
  const onBrushRef = useRef(onBrush);
  useEffect(() => {
    onBrushRef.current = onBrush;
  });
  useEffect(() => {
    const g = brushRef.current;
    if (!g || !hist || binW <= 0) return;
    const b = brushX<unknown>()
      .extent([
        [M.left, M.top],
        [M.left + plotW, barsBottom],
      ])
      .on('end', e => {
        if (!e.sourceEvent) return; // programmatic moves
        const sel = e.selection as [number, number] | null;
        if (!sel) {
          onBrushRef.current(null);
          return;
        }
        const span = binsUnderBrush(sel[0], sel[1], M.left, binW, hist.counts.length);
        if (!span) {
          onBrushRef.current(null);
          return;
        }
        // Snap to whole bins.
        select(g).call(b.move, [M.left + span[0] * binW, M.left + (span[1] + 1) * binW]);
        onBrushRef.current(ranksInBins(hist.binOf, span[0], span[1]).map(p => contexts[p] ?? p));
      });
    select(g).call(b);
    return () => {
      select(g).on('.brush', null).selectAll('*').remove();
    };
  }, [hist, binW, plotW, barsBottom, contexts]);

  if (!hist || K === 0) {
    return (
      <div className="callflow-empty">
        No per-rank values for {node.label}: the profile has a single context or the values were not sent.
      </div>
    );
  }
  const positionOf = new Map(contexts.map((c, p) => [c, p]));
  const brushedPos = new Set([...brushed].map(c => positionOf.get(c)).filter((p): p is number => p !== undefined));
  const rankTicks =
    K <= 16
      ? Array.from({ length: K }, (_, p) => p)
      : Array.from({ length: 9 }, (_, i) => Math.round((i * (K - 1)) / 8));
  const tip =
    hoverBin !== null
      ? {
          bin: hoverBin,
          text: formatRankRanges(ranges[hoverBin] ?? [], labels),
          lo: hist.edges[hoverBin]!,
          hi: hist.edges[hoverBin + 1]!,
        }
      : null;
  const valueTicks = [0, Math.floor(hist.counts.length / 2), hist.counts.length];
  return (
    <div className="callflow-histogram" data-clutter={clutter.toFixed(3)}>
      {/* Hover by pointer position: the brush overlay sits on top of the bins and takes the events. */}
      <svg
        width={width}
        height={height}
        className="callflow-svg"
        role="img"
        onMouseMove={e => {
          const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
          const b = Math.floor((x - M.left) / binW);
          setHoverBin(b >= 0 && b < hist.counts.length ? b : null);
        }}
        onMouseLeave={() => setHoverBin(null)}
        aria-label={`Histogram of ${node.label} ${metric} per rank, ${hist.counts.length} bins, with shadow lines to ${K} ranks`}
      >
        <text
          className="callflow-axis-title"
          x={6}
          y={M.top + 4}
          transform={`rotate(-90 6 ${M.top + 4})`}
          textAnchor="end"
        >
          ranks
        </text>
        {y
          .ticks(3)
          .filter(t => Number.isInteger(t))
          .map(t => (
            <g key={t} className="callflow-grid">
              <line x1={M.left} x2={M.left + plotW} y1={y(t)} y2={y(t)} />
              <text x={M.left - 6} y={y(t) + 4} textAnchor="end">
                {t}
              </text>
            </g>
          ))}
        <g className="callflow-shadows">
          {bands.map((b, i) => (
            <path
              key={i}
              className={
                'callflow-shadow' +
                (hoverBin === b.bin ? ' is-active' : hoverBin !== null ? ' is-dimmed' : '') +
                ([...Array(b.range.end - b.range.start + 1)].some((_, j) => brushedPos.has(b.range.start + j))
                  ? ' is-brushed'
                  : '')
              }
              d={`M${b.x0},${shadowTop}L${b.x1},${shadowTop}L${b.r1},${rankY}L${b.r0},${rankY}Z`}
            />
          ))}
        </g>
        <g className="callflow-bins">
          {hist.counts.map((c, i) => {
            const isBrushed = hist.binOf.some((b, p) => b === i && brushedPos.has(p));
            return (
              <g key={i}>
                {c > 0 ? (
                  <rect
                    className={'callflow-bin' + (isBrushed ? ' is-brushed' : '') + (hoverBin === i ? ' is-active' : '')}
                    x={M.left + i * binW + 0.5}
                    y={y(c)}
                    width={Math.max(1, binW - 1)}
                    height={barsBottom - y(c)}
                    data-bin={i}
                    data-count={c}
                  />
                ) : null}
                <rect
                  className="callflow-bin-foot"
                  x={M.left + i * binW + 0.5}
                  y={shadowTop - 3}
                  width={Math.max(1, binW - 1)}
                  height={3}
                />
              </g>
            );
          })}
        </g>
        <line className="callflow-axis" x1={M.left} x2={M.left + plotW} y1={barsBottom + 0.5} y2={barsBottom + 0.5} />
        {valueTicks.map(i => (
          <text
            key={i}
            className="callflow-tick"
            x={M.left + i * binW}
            y={barsBottom + 14}
            textAnchor={i === 0 ? 'start' : i === hist.counts.length ? 'end' : 'middle'}
          >
            {formatValue(hist.edges[i] ?? 0, unit)}
          </text>
        ))}
        <g className="callflow-rank-axis">
          {Array.from({ length: K }, (_, p) => (
            <rect
              key={p}
              className={
                'callflow-rank' +
                (brushedPos.has(p) ? ' is-brushed' : '') +
                (hoverBin !== null && hist.binOf[p] === hoverBin ? ' is-active' : '')
              }
              x={M.left + p * rankStep}
              y={rankY}
              width={Math.max(0.5, rankStep - (rankStep > 3 ? 1 : 0))}
              height={5}
            />
          ))}
          {rankTicks.map(p => (
            <text
              key={p}
              className="callflow-tick"
              x={M.left + (p + 0.5) * rankStep}
              y={rankY + 18}
              textAnchor="middle"
            >
              {labels[p] ?? p}
            </text>
          ))}
        </g>
        <g ref={brushRef} className="callflow-brush" />
      </svg>
      {tip ? (
        <div
          className="callflow-tip"
          style={{ left: Math.min(width - 220, Math.max(4, M.left + tip.bin * binW)), top: 4 }}
        >
          <div>
            <strong>
              {hist.counts[tip.bin]} rank{hist.counts[tip.bin] === 1 ? '' : 's'}
            </strong>{' '}
            · {formatValue(tip.lo, unit)} – {formatValue(tip.hi, unit)}
          </div>
          <div className="callflow-tip-ranks">Ranks: {tip.text || '–'}</div>
        </div>
      ) : null}
      <div className="callflow-footnote">
        Shadow lines{' '}
        {clutter < 0.05
          ? 'are clean: cost follows rank order'
          : clutter > 0.5
            ? 'are cluttered: cost is not tied to rank id'
            : 'are partly ordered'}{' '}
        (clutter {clutter.toFixed(2)}). Drag across bins to brush their ranks.
      </div>
    </div>
  );
}
