/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's metric timeline (thesis §7.4, view C): one row per metric over the window — utilisation
 * derived from the trace, the allocator's running totals per device, the trace's counters and an
 * nvidia-smi file's GPU metrics — ordered by their variance in the window (what changes most comes
 * first). Each row is a step line, with a min–max band where the host bucketed many samples. Below,
 * the utilisation glyph plots any two metrics over the window, one above the axis and one below.
 */
import type { DmvMetricInfo, DmvMetricRow } from '../../../../src/analysis/dmv/panel-data';
import type { UtilisationGlyph } from '../../../../src/analysis/dmv/metrics';
import { formatValue } from '../../../../src/analysis/stats/format';
import type { DmvWindow } from '../../../../src/shared/dmv-protocol';

/** Width of the rows' labels, px. */
export const METRIC_LABEL_WIDTH = 190;
export const METRIC_ROW_HEIGHT = 30;

/** Range of a row's values (mins and maxes), NaN-free; [0, 1] when it has none. */
export function rowRange(row: Pick<DmvMetricRow, 'series'>): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  const { min, max } = row.series;
  for (let i = 0; i < min.length; i++) {
    if (min[i]! < lo) lo = min[i]!;
    if (max[i]! > hi) hi = max[i]!;
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi === lo) return lo === 0 ? [0, 1] : [Math.min(0, lo), Math.max(0, hi)];
  // Values that stay well above zero keep their own floor; those near it start at zero.
  return [lo >= 0 && lo < hi * 0.2 ? 0 : lo, hi];
}

/**
 * The step line of a row in a plot of `width` × `height`: each sample holds until the next (the
 * first one holds from the window's start, the last to its end); the band joins mins and maxes.
 */
export function rowPaths(
  row: Pick<DmvMetricRow, 'series'>,
  window: DmvWindow,
  width: number,
  height: number,
): { line: string; band: string | null } {
  const { time, min, max } = row.series;
  const span = window.end - window.start;
  const [lo, hi] = rowRange(row);
  const x = (t: number) => Math.max(0, Math.min(width, ((t - window.start) / (span || 1)) * width));
  const y = (v: number) => height - 2 - ((v - lo) / (hi - lo || 1)) * (height - 4);
  const r = (v: number) => Math.round(v * 10) / 10;
  let line = '';
  let band = '';
  let banded = false;
  for (let i = 0; i < time.length; i++) {
    if (Number.isNaN(max[i]!)) continue;
    const x0 = x(time[i]!),
      x1 = i + 1 < time.length ? x(time[i + 1]!) : width;
    const yv = y(max[i]!);
    line += `${line ? 'L' : 'M'}${r(x0)},${r(yv)}L${r(x1)},${r(yv)}`;
    if (min[i] !== max[i]) {
      banded = true;
      band += `M${r(x0)},${r(y(max[i]!))}H${r(x1)}V${r(y(min[i]!))}H${r(x0)}Z`;
    }
  }
  return { line, band: banded ? band : null };
}

export function MetricsView({ rows, window, width }: { rows: DmvMetricRow[]; window: DmvWindow; width: number }) {
  const plot = Math.max(60, width - METRIC_LABEL_WIDTH - 8);
  if (rows.length === 0)
    return (
      <div className="dmv-hint">This trace has no metric tracks (no counters, allocator events or utilisation).</div>
    );
  return (
    <div className="dmv-metrics" data-order={rows.map(r => r.id).join('\n')}>
      {rows.map(row => {
        const [lo, hi] = rowRange(row);
        const paths = rowPaths(row, window, plot, METRIC_ROW_HEIGHT);
        return (
          <div key={row.id} className="dmv-metric-row" data-metric={row.id} data-variance={row.variance}>
            <div
              className="dmv-metric-label"
              style={{ width: METRIC_LABEL_WIDTH }}
              title={`${row.name}: variance ${formatValue(row.variance, '')} in the window`}
            >
              <div className="dmv-metric-name">{row.name}</div>
              <div className="dmv-metric-range">
                {formatValue(lo, row.unit)} – {formatValue(hi, row.unit)}
              </div>
            </div>
            <svg width={plot} height={METRIC_ROW_HEIGHT} className="dmv-metric-plot">
              {paths.band ? <path className="dmv-metric-band" d={paths.band} /> : null}
              <path className={`dmv-metric-line is-${row.source}`} d={paths.line} />
            </svg>
          </div>
        );
      })}
    </div>
  );
}

/** The utilisation glyph's bars: left metric up from the axis, right metric down, each on its own scale. */
export function glyphBars(
  g: UtilisationGlyph,
  width: number,
  height: number,
): { up: { x: number; w: number; h: number }[]; down: { x: number; w: number; h: number }[] } {
  const n = g.time.length;
  const w = width / Math.max(1, n);
  const half = height / 2 - 2;
  const side = (v: Float64Array, max: number) =>
    Array.from(v, (x, k) => ({ x: k * w, w: Math.max(1, w - 1), h: max > 0 && x > 0 ? (x / max) * half : 0 })).filter(
      b => b.h > 0,
    );
  return { up: side(g.left.value, g.left.max), down: side(g.right.value, g.right.max) };
}

export function GlyphView({
  glyph,
  metrics,
  width,
  onPick,
}: {
  glyph: UtilisationGlyph | null;
  metrics: DmvMetricInfo[];
  width: number;
  onPick: (left: string, right: string) => void;
}) {
  const height = 96;
  const plot = Math.max(60, width - 16);
  const left = glyph?.left.id ?? metrics[0]?.id ?? '';
  const right = glyph?.right.id ?? metrics[1]?.id ?? metrics[0]?.id ?? '';
  const bars = glyph ? glyphBars(glyph, plot, height) : null;
  return (
    <div className="dmv-glyph" data-left={glyph?.left.id ?? ''} data-right={glyph?.right.id ?? ''}>
      <div className="dmv-glyph-controls">
        <label>
          <span className="dmv-swatch is-glyph-left" /> above
          <select value={left} onChange={e => onPick(e.target.value, right)} aria-label="metric above the axis">
            {metrics.map(m => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="dmv-swatch is-glyph-right" /> below
          <select value={right} onChange={e => onPick(left, e.target.value)} aria-label="metric below the axis">
            {metrics.map(m => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {glyph ? (
        <div className="dmv-glyph-max" data-side="above">
          {glyph.left.name}: max {formatValue(glyph.left.max, glyph.left.unit)}
        </div>
      ) : null}
      {glyph && bars ? (
        <svg width={plot} height={height} className="dmv-glyph-plot" data-bars={bars.up.length + bars.down.length}>
          {bars.up.map((b, i) => (
            <rect key={`u${i}`} className="dmv-glyph-up" x={b.x} y={height / 2 - b.h} width={b.w} height={b.h} />
          ))}
          {bars.down.map((b, i) => (
            <rect key={`d${i}`} className="dmv-glyph-down" x={b.x} y={height / 2} width={b.w} height={b.h} />
          ))}
          <line className="dmv-axis" x1={0} x2={plot} y1={height / 2} y2={height / 2} />
        </svg>
      ) : (
        <div className="dmv-hint">Pick two metrics to plot them against each other.</div>
      )}
      {glyph ? (
        <div className="dmv-glyph-max" data-side="below">
          {glyph.right.name}: max {formatValue(glyph.right.max, glyph.right.unit)}
        </div>
      ) : null}
    </div>
  );
}
