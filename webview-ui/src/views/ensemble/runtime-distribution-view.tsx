/** @jsxRuntime automatic */
/**
 * Runtime distribution (seed-callflow §4.6): a histogram of the selected supernode's chosen metric
 * counting call sites, runs or ranks per value bin (all three are sent, so the switch only redraws
 * once the host confirms it). In target mode the target's counts, binned on the same edges, are
 * green bars over the grey ensemble bars.
 */
import { useMemo, useState } from 'react';
import { scaleLinear } from 'd3';
import type {
  DistributionHistogram,
  DistributionMode,
  EnsembleDetailData,
  EnsembleRequest,
  EnsembleViewState,
} from '../../../../src/shared/ensemble-protocol';
import { formatValue } from '../../format';
import {
  BottomAxis,
  LeftAxis,
  plural,
  pointerInView,
  runName,
  Segmented,
  tipPosition,
  viewStyle,
  ViewHeader,
  type LinkedViewProps,
  VIEW_FOOTER,
  VIEW_HEADER,
} from './linked-view-parts';

export interface RuntimeDistributionViewProps extends LinkedViewProps {
  detail: EnsembleDetailData;
}

export const DISTRIBUTION_MODES: readonly { value: DistributionMode; label: string; title: string }[] = [
  { value: 'callsite', label: 'Call sites', title: 'How many call sites of the node fall in each bin' },
  { value: 'run', label: 'Runs', title: 'How many runs fall in each bin (each run = mean over its ranks)' },
  { value: 'rank', label: 'Ranks', title: 'How many ranks of all selected runs fall in each bin' },
];

/** The y-axis mode switch (no hooks: the tests call it to reach the handlers). */
export function DistributionModeSwitch({
  state,
  onRequest,
}: {
  state: EnsembleViewState;
  onRequest(r: EnsembleRequest): void;
}) {
  return (
    <Segmented
      label="Count"
      value={state.options.distributionMode}
      options={DISTRIBUTION_MODES}
      onChange={mode => onRequest({ type: 'ensemble/options', options: { distributionMode: mode } })}
    />
  );
}

const M = { left: 46, right: 14, top: 10, bottom: 34 };
const HEADER = VIEW_HEADER;
const FOOTER = VIEW_FOOTER;

/** Pixel extent of each bin on a plot `left`..`right` (the edges are equal-width). */
export function binExtents(h: DistributionHistogram, left: number, right: number): { x0: number; x1: number }[] {
  const k = h.counts.length;
  const w = k > 0 ? (right - left) / k : 0;
  return h.counts.map((_, i) => ({ x0: left + i * w, x1: left + (i + 1) * w }));
}

export function RuntimeDistributionView({
  data,
  state,
  detail,
  width,
  height,
  onRequest,
}: RuntimeDistributionViewProps) {
  const mode = state.options.distributionMode;
  const h = detail.distribution[mode];
  const targetMode = state.mode === 'target' && state.target !== null;
  const targetCounts = targetMode ? h.targetCounts : null;
  const unit = data.metric.unit;
  const plotH = Math.max(80, height - HEADER - FOOTER);
  const left = M.left,
    right = Math.max(M.left + 40, width - M.right),
    bottom = plotH - M.bottom;
  const lo = h.edges[0] ?? 0,
    hi = h.edges[h.edges.length - 1] ?? 1;
  const x = useMemo(
    () =>
      scaleLinear()
        .domain(hi > lo ? [lo, hi] : [lo - 0.5, hi + 0.5])
        .range([left, right]),
    [lo, hi, left, right],
  );
  const maxCount = Math.max(1, ...h.counts, ...(targetCounts ?? []));
  const y = useMemo(() => scaleLinear().domain([0, maxCount]).nice().range([bottom, M.top]), [maxCount, bottom]);
  const bins = binExtents(h, left, right);
  const [hover, setHover] = useState<{ bin: number; x: number; y: number } | null>(null);
  const drawn = h.counts.filter(c => c > 0).length;
  const total = h.counts.reduce((a, b) => a + b, 0);

  return (
    <div
      className="ensemble-view ensemble-distribution"
      data-ensemble-view="distribution"
      data-drawn={drawn}
      style={viewStyle(width, height)}
    >
      <ViewHeader
        title={
          <>
            {detail.side} <span className="callflow-muted">· {plural(total, h.unit.replace(/s$/, ''), h.unit)}</span>
          </>
        }
      >
        <DistributionModeSwitch state={state} onRequest={onRequest} />
      </ViewHeader>
      {total === 0 ? (
        <div className="callflow-empty">No values for {detail.label} in this mode.</div>
      ) : (
        <svg
          width={width}
          height={plotH}
          className={'callflow-svg ensemble-distribution-svg' + (targetCounts ? ' has-target' : '')}
          role="img"
          aria-label={`Histogram of ${detail.label} ${detail.side}: ${h.unit} per bin, ${h.counts.length} bins`}
          onMouseMove={e => {
            const box = e.currentTarget.getBoundingClientRect();
            const px = e.clientX - box.left;
            const b = bins.findIndex(r => px >= r.x0 && px < r.x1);
            setHover(b >= 0 ? { bin: b, ...pointerInView(e) } : null);
          }}
          onMouseLeave={() => setHover(null)}
        >
          <LeftAxis
            scale={y}
            left={left}
            right={right}
            unit=""
            integer
            ticks={Math.max(2, Math.floor((bottom - M.top) / 30))}
          />
          <text
            className="callflow-axis-title"
            x={10}
            y={(bottom + M.top) / 2}
            textAnchor="middle"
            transform={`rotate(-90 10 ${(bottom + M.top) / 2})`}
          >
            {h.unit}
          </text>
          <g className="ensemble-bars">
            {h.counts.map((c, i) =>
              c > 0 ? (
                <rect
                  key={i}
                  className={'ensemble-bar' + (hover?.bin === i ? ' is-active' : '')}
                  data-bin={i}
                  data-count={c}
                  x={bins[i]!.x0 + 0.5}
                  width={Math.max(1, bins[i]!.x1 - bins[i]!.x0 - 1)}
                  y={y(c)}
                  height={bottom - y(c)}
                />
              ) : null,
            )}
          </g>
          {targetCounts ? (
            <g className="ensemble-target-bars">
              {targetCounts.map((c, i) => {
                if (!(c > 0)) return null;
                const w = bins[i]!.x1 - bins[i]!.x0;
                // At least 3 px tall, and a marker on the axis: one target run among hundreds is otherwise invisible.
                const top = Math.min(y(c), bottom - 3),
                  mid = (bins[i]!.x0 + bins[i]!.x1) / 2;
                return (
                  <g key={i}>
                    <rect
                      className="ensemble-target-bar"
                      data-bin={i}
                      data-count={c}
                      x={bins[i]!.x0 + w * 0.25}
                      width={Math.max(1, w * 0.5)}
                      y={top}
                      height={bottom - top}
                    />
                    <path className="ensemble-target-marker" d={`M${mid},${bottom + 1}l-4,6h8z`} />
                  </g>
                );
              })}
            </g>
          ) : null}
          <BottomAxis
            scale={x}
            top={bottom}
            bottom={bottom}
            unit={unit}
            ticks={Math.max(2, Math.floor((right - left) / 90))}
          />
          <text className="callflow-axis-title" x={(left + right) / 2} y={plotH - 4} textAnchor="middle">
            {detail.side} {data.metric.name} ({unit})
          </text>
        </svg>
      )}
      <div className="ensemble-footnote">
        {targetCounts ? (
          <span>
            <span className="ensemble-swatch is-target" />
            target {runName(data, state.target!)} <span className="ensemble-swatch is-ensemble" />
            ensemble ·{' '}
          </span>
        ) : null}
        {mode === 'run'
          ? 'each run at its mean over its ranks'
          : mode === 'rank'
            ? 'every rank of every selected run'
            : 'each call site at its mean over the runs'}
      </div>
      {hover !== null ? (
        <div className="callflow-tip" style={tipPosition(hover.x, hover.y, width, height, 240, 64)}>
          <div>
            <strong>{plural(h.counts[hover.bin]!, h.unit.replace(/s$/, ''), h.unit)}</strong>
            {targetCounts ? <> · target {targetCounts[hover.bin]}</> : null}
          </div>
          <div>
            {formatValue(h.edges[hover.bin]!, unit)} – {formatValue(h.edges[hover.bin + 1]!, unit)}
          </div>
        </div>
      ) : null}
    </div>
  );
}
