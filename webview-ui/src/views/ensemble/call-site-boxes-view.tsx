/** @jsxRuntime automatic */
/**
 * Call-site correspondence (seed-callflow §4.4): one horizontal box plot per call site of the
 * selected supernode over every rank of every selected run, on one shared value axis — whiskers to
 * the last values inside the fences, the Q1–Q3 box, the median line, the values beyond the fences
 * as dots, and min / median / max as text. In target mode the target run's box is drawn green over
 * the grey ensemble box. Sortable; the IQR fence factor is adjustable (the host recomputes).
 */
import { useMemo, useState, type KeyboardEvent } from 'react';
import { scaleLinear, type ScaleLinear } from 'd3';
import type {
  BoxStatistics,
  CallSiteBox,
  CallSiteSort,
  EnsembleDetailData,
  EnsembleRequest,
  EnsembleViewState,
} from '../../../../src/shared/ensemble-protocol';
import { formatSignificant, formatValue } from '../../format';
import { truncateText, type MeasureText } from '../../text-measure';
import {
  BottomAxis,
  plural,
  pointerInView,
  runName,
  tipPosition,
  useMeasureText,
  viewStyle,
  ViewHeader,
  type LinkedViewProps,
  type OpenSource,
  VIEW_FOOTER,
  VIEW_HEADER,
} from './linked-view-parts';

export interface CallSiteBoxesViewProps extends LinkedViewProps {
  detail: EnsembleDetailData;
  onOpenSource: OpenSource;
}

export const CALL_SITE_SORTS: readonly { value: CallSiteSort; label: string }[] = [
  { value: 'mean', label: 'mean' },
  { value: 'max', label: 'max' },
  { value: 'imbalance', label: 'imbalance' },
  { value: 'variance', label: 'variance' },
  { value: 'name', label: 'name' },
];

/** Call sites in the chosen order: the largest first for numbers, alphabetical for names. */
export function sortCallSites(boxes: readonly CallSiteBox[], sort: CallSiteSort): CallSiteBox[] {
  const key = (b: CallSiteBox): number => (sort === 'name' ? 0 : b.ensemble[sort]);
  return [...boxes].sort((a, b) =>
    sort === 'name' ? a.name.localeCompare(b.name) : key(b) - key(a) || a.name.localeCompare(b.name),
  );
}

/** Pixel positions of a box plot's parts on a value scale. */
export function boxGeometry(b: BoxStatistics, x: (v: number) => number) {
  return {
    whisker: [x(b.whiskerLow), x(b.whiskerHigh)] as const,
    box: [x(b.q1), x(b.q3)] as const,
    median: x(b.median),
    outliers: b.outliers.map(o => x(o.value)),
    min: x(b.min),
    max: x(b.max),
  };
}

/** The value domain shared by every box (ensemble and target), padded when it has no width. */
export function sharedDomain(boxes: readonly CallSiteBox[]): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const b of boxes)
    for (const s of [b.ensemble, b.target]) {
      if (!s || s.count === 0) continue;
      lo = Math.min(lo, s.min);
      hi = Math.max(hi, s.max);
    }
  if (!(hi >= lo)) return [0, 1];
  if (hi === lo) {
    const pad = Math.abs(hi) * 0.1 || 1;
    return [lo - pad, hi + pad];
  }
  return [lo, hi];
}

/** Parses the IQR factor input: a positive number up to 10, else null. */
export function parseIqrFactor(text: string): number | null {
  const v = Number(text.trim().replace(',', '.'));
  return Number.isFinite(v) && v > 0 && v <= 10 ? v : null;
}

/** The sort dropdown and IQR factor input (no hooks: the tests call it to reach the handlers). */
export function CallSiteControls({
  state,
  onRequest,
}: {
  state: EnsembleViewState;
  onRequest(r: EnsembleRequest): void;
}) {
  const commit = (input: HTMLInputElement) => {
    const v = parseIqrFactor(input.value);
    input.setAttribute('aria-invalid', v === null ? 'true' : 'false');
    input.title =
      v === null
        ? 'The fence factor must be a number in (0, 10]'
        : 'Values beyond Q1 − k·IQR or Q3 + k·IQR are outliers';
    if (v !== null && v !== state.options.iqrFactor) onRequest({ type: 'ensemble/options', options: { iqrFactor: v } });
  };
  return (
    <>
      <label className="callflow-select">
        Sort
        <select
          value={state.options.callSiteSort}
          aria-label="Sort call sites by"
          onChange={e =>
            onRequest({ type: 'ensemble/options', options: { callSiteSort: e.currentTarget.value as CallSiteSort } })
          }
        >
          {CALL_SITE_SORTS.map(s => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label className="callflow-select ensemble-iqr">
        Outliers beyond
        <input
          key={state.options.iqrFactor}
          type="number"
          min={0.1}
          max={10}
          step={0.5}
          defaultValue={state.options.iqrFactor}
          aria-label="Outlier fence factor (times IQR)"
          title="Values beyond Q1 − k·IQR or Q3 + k·IQR are outliers"
          onBlur={e => commit(e.currentTarget)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
            if (e.key === 'Enter') commit(e.currentTarget);
          }}
        />
        × IQR
      </label>
    </>
  );
}

const HEADER = VIEW_HEADER;
const AXIS = 22;
const FOOTER = VIEW_FOOTER;
const ROW = 40;

/** One box plot drawn around a row centre `cy`, `h` pixels tall. */
function BoxPlot({
  stats,
  x,
  cy,
  h,
  className,
}: {
  stats: BoxStatistics;
  x: ScaleLinear<number, number>;
  cy: number;
  h: number;
  className: string;
}) {
  const g = boxGeometry(stats, x);
  return (
    <g className={className}>
      <line className="ensemble-box-whisker" x1={g.whisker[0]} x2={g.whisker[1]} y1={cy} y2={cy} />
      <line className="ensemble-box-whisker" x1={g.whisker[0]} x2={g.whisker[0]} y1={cy - h / 3} y2={cy + h / 3} />
      <line className="ensemble-box-whisker" x1={g.whisker[1]} x2={g.whisker[1]} y1={cy - h / 3} y2={cy + h / 3} />
      <rect
        className="ensemble-box-iqr"
        x={g.box[0]}
        y={cy - h / 2}
        width={Math.max(1, g.box[1] - g.box[0])}
        height={h}
      />
      <line className="ensemble-box-median" x1={g.median} x2={g.median} y1={cy - h / 2} y2={cy + h / 2} />
      {g.outliers.map((ox, k) => (
        <circle key={k} className="ensemble-box-outlier" cx={ox} cy={cy} r={2.5} />
      ))}
    </g>
  );
}

export function CallSiteBoxesView({
  data,
  state,
  detail,
  width,
  height,
  onRequest,
  onOpenSource,
}: CallSiteBoxesViewProps) {
  const measure: MeasureText = useMeasureText();
  const unit = data.metric.unit;
  const boxes = useMemo(
    () => sortCallSites(detail.callSites, state.options.callSiteSort),
    [detail.callSites, state.options.callSiteSort],
  );
  const targetMode = state.mode === 'target' && state.target !== null;
  const [hover, setHover] = useState<{ row: number; x: number; y: number } | null>(null);

  const nameW = Math.round(Math.max(90, Math.min(220, width * 0.26)));
  const plotLeft = nameW + 8,
    plotRight = Math.max(plotLeft + 60, width - 12);
  // Room for the min label left of the lowest value and the max label right of the highest.
  const labelW = (v: number) => measure(formatValue(v, unit), 'detail') + 6;
  const padL = Math.min(80, Math.max(16, ...boxes.map(b => labelW(b.ensemble.min))));
  const padR = Math.min(80, Math.max(16, ...boxes.map(b => labelW(b.ensemble.max))));
  const domain = useMemo(() => sharedDomain(detail.callSites), [detail.callSites]);
  const x = useMemo(
    () =>
      scaleLinear()
        .domain(domain)
        .range([plotLeft + padL, Math.max(plotLeft + padL + 20, plotRight - padR)]),
    [domain, plotLeft, plotRight, padL, padR],
  );
  const rowsH = boxes.length * ROW;
  const open = (b: CallSiteBox) => {
    if (b.file) onOpenSource({ kind: 'callSite', index: detail.callSites.indexOf(b) });
  };
  const hovered = hover !== null ? boxes[hover.row] : undefined;

  return (
    <div
      className="ensemble-view ensemble-boxes"
      data-ensemble-view="boxes"
      data-drawn={boxes.length}
      style={viewStyle(width, height)}
    >
      <ViewHeader
        title={
          <>
            Call sites of <strong>{detail.label}</strong>{' '}
            <span className="callflow-muted">
              · {detail.side} per rank over {plural(data.selectedRuns.length, 'run')}
            </span>
          </>
        }
      >
        <CallSiteControls state={state} onRequest={onRequest} />
      </ViewHeader>
      {boxes.length === 0 ? (
        <div className="callflow-empty">No call sites inside {detail.label}.</div>
      ) : (
        <>
          <svg width={width} height={AXIS} className="callflow-svg ensemble-boxes-axis" aria-hidden="true">
            <BottomAxis
              scale={x}
              top={AXIS - 1}
              bottom={AXIS - 1}
              unit={unit}
              labelDy={-7}
              ticks={Math.max(2, Math.floor((plotRight - plotLeft) / 90))}
            />
          </svg>
          <div className="ensemble-scroll" style={{ height: Math.max(ROW, height - HEADER - AXIS - FOOTER) }}>
            <svg
              width={width}
              height={rowsH}
              className="callflow-svg"
              role="img"
              aria-label={`Box plots of ${boxes.length} call sites of ${detail.label}, ${detail.side} per rank`}
              onMouseLeave={() => setHover(null)}
            >
              {x.ticks(Math.max(2, Math.floor((plotRight - plotLeft) / 90))).map(t => (
                <line key={t} className="ensemble-box-grid" x1={x(t)} x2={x(t)} y1={0} y2={rowsH} />
              ))}
              {boxes.map((b, i) => {
                const y0 = i * ROW,
                  cy = y0 + 23;
                const e = b.ensemble,
                  g = boxGeometry(e, x);
                const medianLabel = formatValue(e.median, unit);
                const mw = measure(medianLabel, 'detail');
                const missingInTarget = targetMode && b.target === null;
                return (
                  <g
                    key={b.name + i}
                    className={'ensemble-box-row' + (hover?.row === i ? ' is-hover' : '')}
                    data-row={i}
                    onMouseMove={ev => setHover({ row: i, ...pointerInView(ev) })}
                  >
                    <rect className="ensemble-box-row-bg" x={0} y={y0} width={width} height={ROW} />
                    <text
                      className={'ensemble-box-name' + (b.file ? ' is-link' : '')}
                      x={8}
                      y={y0 + 17}
                      role={b.file ? 'link' : undefined}
                      tabIndex={b.file ? 0 : undefined}
                      onClick={() => open(b)}
                      onKeyDown={ev => {
                        if (ev.key === 'Enter') open(b);
                      }}
                    >
                      {truncateText(b.name, nameW - 8, 'detail', measure)}
                    </text>
                    <text className="ensemble-box-sub" x={8} y={y0 + 31}>
                      {truncateText(
                        `${b.present.toLocaleString('en-US')}/${plural(data.selectedRuns.length, 'run')}${missingInTarget ? ' · ∅ in target' : ''}`,
                        nameW - 8,
                        'detail',
                        measure,
                      )}
                    </text>
                    <BoxPlot stats={e} x={x} cy={cy} h={14} className="ensemble-box is-ensemble" />
                    {targetMode && b.target ? (
                      <BoxPlot stats={b.target} x={x} cy={cy} h={8} className="ensemble-box is-target" />
                    ) : null}
                    <text
                      className="ensemble-box-label"
                      x={Math.max(plotLeft + mw / 2, Math.min(plotRight - mw / 2, g.median))}
                      y={y0 + 11}
                      textAnchor="middle"
                    >
                      {medianLabel}
                    </text>
                    <text className="ensemble-box-label" x={g.min - 5} y={cy + 4} textAnchor="end">
                      {formatValue(e.min, unit)}
                    </text>
                    <text className="ensemble-box-label" x={g.max + 5} y={cy + 4} textAnchor="start">
                      {formatValue(e.max, unit)}
                    </text>
                  </g>
                );
              })}
            </svg>
          </div>
        </>
      )}
      <div className="ensemble-footnote">
        {detail.callSitesTruncated > 0 ? (
          <span className="ensemble-note">{plural(detail.callSitesTruncated, 'more call site')} · </span>
        ) : null}
        {targetMode ? (
          <span>
            <span className="ensemble-swatch is-target" />
            target {runName(data, state.target!)} <span className="ensemble-swatch is-ensemble" />
            ensemble ·{' '}
          </span>
        ) : null}
        <span title="Box Q1–Q3, line at the median, whiskers to the last values within the fences, dots beyond them. Click a name to open its source.">
          Whiskers to {state.options.iqrFactor}×IQR · click a name for its source
        </span>
      </div>
      {hovered ? (
        <BoxTooltip
          box={hovered}
          data={data}
          targetMode={targetMode}
          unit={unit}
          position={tipPosition(hover!.x, hover!.y + 12, width, height, 330, 210)}
        />
      ) : null}
    </div>
  );
}

function statsLine(s: BoxStatistics, unit: string): string {
  return `median ${formatValue(s.median, unit)} · Q1 ${formatValue(s.q1, unit)} · Q3 ${formatValue(s.q3, unit)} · min ${formatValue(s.min, unit)} · max ${formatValue(s.max, unit)}`;
}

const moment = (v: number | null): string => (v === null || !Number.isFinite(v) ? 'n/a' : v.toFixed(2));

function BoxTooltip({
  box,
  data,
  targetMode,
  unit,
  position,
}: {
  box: CallSiteBox;
  data: LinkedViewProps['data'];
  targetMode: boolean;
  unit: string;
  position: { left: number; top: number };
}) {
  const e = box.ensemble;
  const shown = e.outliers.slice(0, 6);
  return (
    <div className="callflow-tip ensemble-box-tip" style={position}>
      <strong>{box.name}</strong>
      <div className="callflow-muted ensemble-tip-path">{box.path}</div>
      <div>{statsLine(e, unit)}</div>
      <div>
        mean {formatValue(e.mean, unit)} · variance {formatSignificant(e.variance)} {unit}² · std{' '}
        {formatValue(Math.sqrt(e.variance), unit)}
      </div>
      <div>
        imbalance (max − mean)/mean {formatSignificant(e.imbalance)} · skewness {moment(e.skewness)} · kurtosis{' '}
        {moment(e.kurtosis)}
      </div>
      <div>
        {plural(e.count, 'rank')} in {box.present} of {plural(data.selectedRuns.length, 'run')}
      </div>
      {e.outlierCount > 0 ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">{plural(e.outlierCount, 'outlier')}</div>
          {shown.map((o, k) => (
            <div key={k}>
              {runName(data, o.run)}, rank {o.rank}: {formatValue(o.value, unit)}
            </div>
          ))}
          {e.outlierCount > shown.length ? (
            <div className="callflow-muted">+{e.outlierCount - shown.length} more</div>
          ) : null}
        </div>
      ) : (
        <div className="callflow-muted">no outliers</div>
      )}
      {targetMode ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">target</div>
          <div>{box.target ? statsLine(box.target, unit) : 'missing in the target run'}</div>
        </div>
      ) : null}
    </div>
  );
}
