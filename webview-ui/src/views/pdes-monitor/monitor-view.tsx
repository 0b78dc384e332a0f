/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The live PDES monitor's drawing (thesis §6.4): status and totals, two behaviour views over the
 * sliding window with numbered change points, the summary views since the start, the similarity
 * scatter coloured by cluster with its quality badge, the causality table and the live matrix.
 * Presentational: the app owns the connection; every view states what it drew in `data-*` facts.
 */
import { schemeTableau10 } from 'd3';
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { PdesTickUpdate } from '../../../../src/analysis/pdes/stream/stream-analyser';
import type {
  BehaviourWindow,
  CausalityTableRow,
  DiffMatrix,
  MatrixView,
} from '../../../../src/analysis/pdes/stream/stream-views';
import type {
  MonitorSourceInfo,
  MonitorTickPoint,
  MonitorViewOptions,
} from '../../../../src/shared/pdes-monitor-protocol';
import { formatCount, formatSignificant } from '../../format';
import { behaviourMarks, matrixMarks, scatterMarks, summaryMarks, type Box } from './monitor-marks';

export type MonitorState = 'waiting' | 'live' | 'paused' | 'ended' | 'failed';

export interface MonitorViewProps {
  info: MonitorSourceInfo | null;
  state: MonitorState;
  points: readonly MonitorTickPoint[];
  latest: PdesTickUpdate | null;
  top: BehaviourWindow | null;
  bottom: BehaviourWindow | null;
  matrix: MatrixView | null;
  causality: readonly CausalityTableRow[];
  selection: MonitorSelection | null;
  notices: readonly string[];
  failure: string | null;
  endReason: string | null;
  options: MonitorViewOptions;
  /** The base-time matrix and each change point's difference from it (after a click on a summary view). */
  base: MatrixView | null;
  diffs: readonly DiffMatrix[];
  /** Sizes of the drawings (measured by the app; fixed in tests). */
  sizes: { behaviour: Box; summary: Box; scatter: Box; matrix: number };
  onPause(): void;
  onResume(): void;
  onStop(): void;
  onOptions(change: Partial<MonitorViewOptions>): void;
  onLasso(view: 'top' | 'bottom', polygon: [number, number][]): void;
  onShow(changePoint: number): void;
  onClearSelection(): void;
}

const TEAL = '#14b8a6';
/** Room for the matrix's row labels (`PE 12`, `PE 3 · KP 5` cut to fit). */
const LABEL_WIDTH = 64;
const BROWN = '#a0522d';
const clusterColour = (c: number) => (c < 0 ? 'var(--hl-muted)' : schemeTableau10[c % 10]!);

/** Entities the views highlight: a lasso's, or a change point's (**Show**, with what the editor shows for them). */
export interface MonitorSelection {
  entities: number[];
  reason: string;
  changePoint: number | null;
  /** The handlers with CodeLenses for these entities, or why there are none (Show only). */
  editor: string | null;
}

export function MonitorView(p: MonitorViewProps) {
  const selected = new Set(p.selection?.entities ?? []);
  const u = p.latest;
  return (
    <div
      className="pdes-monitor"
      data-state={p.state}
      data-ticks={p.points.length}
      data-latest-tick={u?.tick ?? -1}
      data-change-points={p.points.filter(x => x.changePoint).length}
      data-events-processed={u?.totals.eventsProcessed ?? 0}
      data-rollbacks={u?.totals.rollbacks ?? 0}
      data-selected={selected.size}
      data-selected-entities={p.selection?.entities.join(',') ?? ''}
      data-selection-change-point={p.selection?.changePoint ?? ''}
      data-selection-editor={p.selection?.editor ?? ''}
    >
      <header className="monitor-header">
        <div className="monitor-source" title={p.info?.source}>
          <span className={`monitor-dot monitor-dot-${p.state}`} aria-hidden="true" />
          <strong>{p.info ? p.info.source.slice(p.info.source.lastIndexOf('/') + 1) : 'Starting…'}</strong>
          {p.info && (
            <span className="monitor-muted">
              {' '}
              {p.info.kind} · {p.info.mode.toUpperCase()} ticks
              {p.info.expectedPes ? ` · ${p.info.expectedPes} PEs` : ''}
            </span>
          )}
        </div>
        <div className="monitor-totals">
          <Stat label="tick" value={u ? String(u.tick) : '–'} />
          <Stat label={p.info?.mode === 'rt' ? 'seconds' : 'GVT'} value={u ? formatSignificant(u.time, 4) : '–'} />
          <Stat label="events" value={u ? formatCount(u.totals.eventsProcessed) : '–'} />
          <Stat
            label="rollbacks (primary / secondary)"
            value={
              u
                ? `${formatCount(u.totals.rollbacks)} (${formatCount(u.totals.primaryRollbacks)} / ${formatCount(u.totals.secondaryRollbacks)})`
                : '–'
            }
          />
          <Stat label="skipped ticks" value={u ? String(u.skippedTicks) : '–'} />
        </div>
        <div className="monitor-actions">
          {p.state === 'paused' ? (
            <button onClick={p.onResume} title="Resume: jump to now">
              Resume
            </button>
          ) : (
            <button onClick={p.onPause} disabled={p.state !== 'live'} title="Pause: stop drawing; ingest goes on">
              Pause
            </button>
          )}
          <button onClick={p.onStop} disabled={p.state === 'ended' || p.state === 'failed'}>
            Stop
          </button>
        </div>
      </header>
      {p.failure && (
        <div className="monitor-banner monitor-failure" role="alert">
          {p.failure}
        </div>
      )}
      {p.endReason && !p.failure && <div className="monitor-banner">Ended: {p.endReason}</div>}
      {p.selection && (
        <div className="monitor-banner monitor-selection">
          {p.selection.entities.length} entities highlighted — {p.selection.reason}{' '}
          <button className="monitor-link" onClick={p.onClearSelection}>
            Clear
          </button>
          {p.selection.editor && <div className="monitor-muted monitor-selection-editor">{p.selection.editor}</div>}
        </div>
      )}
      <div className="monitor-grid">
        <section className="monitor-column">
          <Behaviour title="Behaviour (top)" window={p.top} box={p.sizes.behaviour} selected={selected} />
          <Summary
            points={p.points}
            which="top"
            box={p.sizes.summary}
            baseTick={p.options.baseTick}
            onShow={p.onShow}
            onBase={tick => p.onOptions({ baseTick: tick })}
          />
          <Behaviour title="Behaviour (bottom)" window={p.bottom} box={p.sizes.behaviour} selected={selected} />
          <Summary
            points={p.points}
            which="bottom"
            box={p.sizes.summary}
            baseTick={p.options.baseTick}
            onShow={p.onShow}
            onBase={tick => p.onOptions({ baseTick: tick })}
          />
        </section>
        <section className="monitor-column">
          <div className="monitor-scatters">
            {(['top', 'bottom'] as const).map(which => (
              <Scatter
                key={which}
                which={which}
                latest={u}
                box={p.sizes.scatter}
                selected={selected}
                onLasso={polygon => p.onLasso(which, polygon)}
              />
            ))}
          </div>
          <Causality rows={p.causality} options={p.options} onOptions={p.onOptions} />
          <Matrix matrix={p.matrix} side={p.sizes.matrix} options={p.options} onOptions={p.onOptions} />
          <DiffMatrices
            base={p.base}
            diffs={p.diffs}
            side={p.sizes.matrix}
            onClear={() => p.onOptions({ baseTick: null })}
          />
        </section>
      </div>
      {p.notices.length > 0 && (
        <footer className="monitor-notices">
          {p.notices.slice(-3).map((n, i) => (
            <div key={i}>{n}</div>
          ))}
        </footer>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <span className="monitor-stat">
      <span className="monitor-muted">{label}</span> {value}
    </span>
  );
}

function Behaviour({
  title,
  window: w,
  box,
  selected,
}: {
  title: string;
  window: BehaviourWindow | null;
  box: Box;
  selected: ReadonlySet<number>;
}) {
  if (!w || w.toTick <= w.fromTick)
    return (
      <figure className="monitor-card monitor-behaviour" data-lines={0}>
        <figcaption>{title}</figcaption>
        <div className="monitor-empty" style={{ height: box.height }}>
          Waiting for complete ticks…
        </div>
      </figure>
    );
  const m = behaviourMarks(w, box, selected);
  return (
    <figure className="monitor-card monitor-behaviour" data-lines={m.drawn} data-metric={w.metric}>
      <figcaption>
        {title}: <strong>{w.metric}</strong> per {w.level.toUpperCase()}, ticks {w.fromTick}–{w.toTick - 1}
        {m.drawn < m.entities && (
          <span className="monitor-muted">
            {' '}
            · {m.drawn} of {m.entities} lines drawn
          </span>
        )}
      </figcaption>
      <svg width={box.width} height={box.height} role="img" aria-label={`${w.metric} per entity`}>
        {m.yTicks.map(t => (
          <g key={t.value}>
            <line x1={0} x2={box.width} y1={t.y} y2={t.y} className="monitor-grid-line" />
            <text x={2} y={t.labelY} className="monitor-axis">
              {formatSignificant(t.value, 3)}
            </text>
          </g>
        ))}
        {m.lines.map(l => (
          <path
            key={l.entity}
            d={l.d}
            fill="none"
            stroke={selected.size && !selected.has(l.entity) ? 'var(--hl-muted)' : clusterColour(l.cluster)}
            strokeOpacity={selected.size && !selected.has(l.entity) ? 0.15 : 0.7}
            strokeWidth={selected.has(l.entity) ? 1.6 : 1}
          />
        ))}
        {m.changePoints.map(c => (
          <g key={c.number} className="monitor-change-point">
            <line x1={c.x} x2={c.x} y1={0} y2={box.height} stroke={TEAL} strokeWidth={1.5} />
            <text x={c.x + 3} y={12} fill={TEAL}>
              {c.number}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

function Summary({
  points,
  which,
  box,
  baseTick,
  onShow,
  onBase,
}: {
  points: readonly MonitorTickPoint[];
  which: 'top' | 'bottom';
  box: Box;
  baseTick: number | null;
  onShow(n: number): void;
  onBase(tick: number): void;
}) {
  const m = summaryMarks(points, box);
  return (
    <figure className="monitor-card monitor-summary" data-points={points.length} data-base-tick={baseTick ?? ''}>
      <figcaption>
        History mean since the start ({points.length} ticks)
        <span className="monitor-muted"> · click to set the base time of the diff matrices</span>
      </figcaption>
      <svg
        width={box.width}
        height={box.height}
        className="monitor-summary-area"
        onClick={e => {
          if ((e.target as Element).closest('.monitor-change-point') || !points.length) return;
          onBase(m.tickAt(e.clientX - e.currentTarget.getBoundingClientRect().left));
        }}
      >
        <line x1={0} x2={box.width} y1={box.height - 0.5} y2={box.height - 0.5} className="monitor-grid-line" />
        <path d={m[which]} fill="none" stroke="var(--vscode-charts-blue, #3794ff)" strokeWidth={1.2} />
        {baseTick !== null && points.length > 0 && (
          <g className="monitor-base-time">
            <line x1={m.xOf(baseTick)} x2={m.xOf(baseTick)} y1={0} y2={box.height} stroke={BROWN} strokeWidth={2} />
            <text x={m.xOf(baseTick) + 3} y={box.height - 3} fill={BROWN}>
              base
            </text>
          </g>
        )}
        {m.changePoints.map(c => (
          <g
            key={c.number}
            className="monitor-change-point"
            data-change-point={c.number}
            onClick={() => onShow(c.number)}
          >
            <title>{`Change point ${c.number} at tick ${c.tick}: click to show the entities behind it`}</title>
            <line x1={c.x} x2={c.x} y1={0} y2={box.height} stroke={TEAL} strokeWidth={1.5} />
            <text x={c.x + 3} y={11} fill={TEAL}>
              {c.number}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** The similarity view of one behaviour view's metric (thesis §6.4: one per behaviour view), coloured by the clusters. */
function Scatter({
  which,
  latest,
  box,
  selected,
  onLasso,
}: {
  which: 'top' | 'bottom';
  latest: PdesTickUpdate | null;
  box: Box;
  selected: ReadonlySet<number>;
  onLasso(polygon: [number, number][]): void;
}) {
  const [lasso, setLasso] = useState<[number, number][] | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const projection = latest?.projections[which] ?? null;
  const clustering = latest?.clustering ?? null;
  if (!projection)
    return (
      <figure className="monitor-card monitor-scatter" data-points={0} data-view={which}>
        <figcaption>Similarity (PC1 × PC2)</figcaption>
        <div className="monitor-empty" style={{ height: box.height }}>
          {latest?.skipped.length ? latest.skipped.join('; ') : 'Waiting for the first projection…'}
        </div>
      </figure>
    );
  const m = scatterMarks(projection.coordinates, clustering?.labels ?? null, box);
  const at = (e: ReactPointerEvent): [number, number] => {
    const r = svg.current!.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  return (
    <figure className="monitor-card monitor-scatter" data-points={m.points.length} data-view={which}>
      <figcaption>
        Similarity of <strong>{projection.metric}</strong> (PC1 × PC2){' '}
        <span className="monitor-badge" title="Entities the progressive projection processed within its budget">
          {projection.processed}/{projection.total} entities
        </span>
        {clustering && which === 'top' && (
          <span className="monitor-muted"> · {clustering.sizes.map((s, i) => `Cluster-${i} (${s})`).join(' · ')}</span>
        )}
      </figcaption>
      <svg
        ref={svg}
        width={box.width}
        height={box.height}
        className="monitor-lasso-area"
        onPointerDown={e => {
          (e.target as Element).setPointerCapture?.(e.pointerId);
          setLasso([at(e)]);
        }}
        onPointerMove={e => lasso && setLasso([...lasso, at(e)])}
        onPointerUp={() => {
          if (lasso && lasso.length > 2) onLasso(lasso.map(([x, y]) => m.invert(x, y)));
          setLasso(null);
        }}
      >
        {m.points.map(pt => (
          <circle
            key={pt.entity}
            cx={pt.cx}
            cy={pt.cy}
            r={selected.has(pt.entity) ? 4 : 3}
            fill={clusterColour(pt.cluster)}
            fillOpacity={selected.size && !selected.has(pt.entity) ? 0.2 : 0.85}
          />
        ))}
        {lasso && (
          <polyline points={lasso.map(([x, y]) => `${x},${y}`).join(' ')} className="monitor-lasso" fill="none" />
        )}
      </svg>
    </figure>
  );
}

const SORTS: { key: MonitorViewOptions['causalitySort']; label: string; title: string }[] = [
  { key: 'metric', label: 'metric', title: 'Sort by metric' },
  { key: 'pValue', label: 'p', title: 'Granger causality p-value (sort ascending)' },
  { key: 'impulse', label: 'IR', title: 'Orthogonalised impulse response, one step ahead (sort by magnitude)' },
  {
    key: 'varianceShare',
    label: 'VD',
    title: 'Forecast-error variance decomposition, one step ahead (sort descending)',
  },
];

function Causality({
  rows,
  options,
  onOptions,
}: {
  rows: readonly CausalityTableRow[];
  options: MonitorViewOptions;
  onOptions(change: Partial<MonitorViewOptions>): void;
}) {
  const direction = options.causalityDirection;
  return (
    <figure className="monitor-card monitor-causality" data-rows={rows.length} data-sort={options.causalitySort}>
      <figcaption>
        Causality{' '}
        <button
          className="monitor-link"
          onClick={() => onOptions({ causalityDirection: direction === 'from' ? 'to' : 'from' })}
        >
          {direction === 'from' ? 'what drives the top metric' : 'what the top metric drives'}
        </button>
        <span className="monitor-muted"> · a row sets the bottom view&apos;s metric</span>
      </figcaption>
      {rows.length === 0 ? (
        <div className="monitor-empty">Waiting for enough ticks to fit a VAR model…</div>
      ) : (
        <table>
          <thead>
            <tr>
              {SORTS.map(c => (
                <th
                  key={c.key}
                  title={c.title}
                  className={options.causalitySort === c.key ? 'monitor-sorted' : undefined}
                  onClick={() => onOptions({ causalitySort: c.key })}
                >
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(r => (
              <tr
                key={r.metric}
                className={`${r.flagged ? 'monitor-causal' : ''}${options.bottomMetric === r.metric ? ' monitor-row-selected' : ''}`}
                data-metric={r.metric}
                onClick={() => onOptions({ bottomMetric: r.metric })}
              >
                <td>{r.label}</td>
                <td>{Number.isNaN(r.pValue) ? '–' : formatSignificant(r.pValue, 2)}</td>
                <td>{formatSignificant(r.impulse, 3)}</td>
                <td>{formatSignificant(r.varianceShare, 3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}

/** One matrix as square cells with row labels and the cluster strip; `colour` maps a cell to its fill and opacity. */
function MatrixDrawing({
  matrix,
  side,
  colour,
  onCellDoubleClick,
}: {
  matrix: MatrixView;
  side: number;
  colour(value: number, max: number): { fill: string; opacity: number };
  onCellDoubleClick?(row: number, column: number): void;
}) {
  const m = matrixMarks(matrix, side);
  return (
    <svg width={LABEL_WIDTH + m.cell * matrix.columns + 4} height={m.cell * matrix.size + 4}>
      {matrix.labels.map((label, r) =>
        r % m.labelEvery === 0 ? (
          <text
            key={`l${r}`}
            x={LABEL_WIDTH - 4}
            y={r * m.cell + m.cell / 2}
            textAnchor="end"
            dominantBaseline="middle"
            className="monitor-axis"
          >
            {label.length > 12 ? `${label.slice(0, 11)}…` : label}
          </text>
        ) : null,
      )}
      {matrix.strip.length === matrix.size &&
        Array.from(matrix.strip, (c, r) => (
          <rect key={`s${r}`} x={LABEL_WIDTH} y={r * m.cell} width={3} height={m.cell} fill={clusterColour(c)} />
        ))}
      <g transform={`translate(${LABEL_WIDTH + 4},0)`}>
        {m.cells.map(c => {
          const { fill, opacity } = colour(c.value, matrix.max);
          return (
            <rect
              key={`${c.row},${c.column}`}
              className="monitor-cell"
              x={c.x}
              y={c.y}
              width={Math.max(1, c.size - (c.size > 4 ? 1 : 0))}
              height={Math.max(1, c.size - (c.size > 4 ? 1 : 0))}
              fill={fill}
              fillOpacity={opacity}
              onDoubleClick={onCellDoubleClick && (() => onCellDoubleClick(c.row, c.column))}
            >
              <title>{`${matrix.labels[c.row]} → ${matrix.columnLabels[c.column]}: ${formatSignificant(c.value, 3)}`}</title>
            </rect>
          );
        })}
      </g>
    </svg>
  );
}

/** Grey by value (thesis §6.4's live and base matrices). */
const greys = (value: number, max: number) => ({
  fill: 'var(--vscode-foreground)',
  opacity: 0.06 + 0.94 * (max > 0 ? value / max : 0),
});
/** Red where a change point has more than the base time, blue where less (diverging, symmetric). */
const diverging = (value: number, max: number) => ({
  fill: value >= 0 ? '#d6604d' : '#4393c3',
  opacity: 0.08 + 0.92 * (max > 0 ? Math.abs(value) / max : 0),
});

function Matrix({
  matrix,
  side,
  options,
  onOptions,
}: {
  matrix: MatrixView | null;
  side: number;
  options: MonitorViewOptions;
  onOptions(change: Partial<MonitorViewOptions>): void;
}) {
  const toggle = (
    <button
      className="monitor-link"
      onClick={() => onOptions({ granularity: options.granularity === 'pe' ? 'kp' : 'pe', drill: null })}
    >
      {options.granularity === 'pe' ? 'per PE' : 'per KP'}
    </button>
  );
  if (!matrix)
    return (
      <figure className="monitor-card monitor-matrix" data-cells={0}>
        <figcaption>Live communication {toggle}</figcaption>
        <div className="monitor-empty">No event trace beside the stats file: no communication to show.</div>
      </figure>
    );
  const drill = options.drill;
  return (
    <figure
      className="monitor-card monitor-matrix"
      data-cells={matrix.size * matrix.columns}
      data-size={matrix.size}
      data-level={matrix.level}
      data-drill={drill ? `${drill.rowPe},${drill.colPe}` : ''}
    >
      <figcaption>
        Live communication {toggle}{' '}
        {drill ? (
          <button className="monitor-link" onClick={() => onOptions({ drill: null })}>
            back to all PEs
          </button>
        ) : (
          <span className="monitor-muted">
            · {formatCount(matrix.events)} events · sender rows
            {matrix.level === 'pe' ? ' · double-click a cell for its KPs' : ''}
          </span>
        )}
      </figcaption>
      <MatrixDrawing
        matrix={matrix}
        side={side}
        colour={greys}
        onCellDoubleClick={
          matrix.level === 'pe' && !drill
            ? (row, column) =>
                onOptions({ drill: { rowPe: matrix.entities[row]!, colPe: matrix.columnEntities[column]! } })
            : undefined
        }
      />
    </figure>
  );
}

function DiffMatrices({
  base,
  diffs,
  side,
  onClear,
}: {
  base: MatrixView | null;
  diffs: readonly DiffMatrix[];
  side: number;
  onClear(): void;
}) {
  if (!base) return null;
  const small = Math.max(60, Math.floor(side / 2) - 8);
  return (
    <figure className="monitor-card monitor-diffs" data-diffs={diffs.length}>
      <figcaption>
        Base time and change points{' '}
        <button className="monitor-link" onClick={onClear}>
          clear
        </button>
      </figcaption>
      <div className="monitor-small-multiples">
        <div>
          <div className="monitor-muted">base</div>
          <MatrixDrawing matrix={base} side={small} colour={greys} />
        </div>
        {diffs.map(d => (
          <div key={d.changePoint} className="monitor-diff" data-change-point={d.changePoint}>
            <div style={{ color: TEAL }}>
              {d.changePoint} − base <span className="monitor-muted">(tick {d.tick})</span>
            </div>
            <MatrixDrawing matrix={d} side={small} colour={diverging} />
          </div>
        ))}
        {diffs.length === 0 && (
          <div className="monitor-muted">No change point yet: nothing to compare with the base.</div>
        )}
      </div>
    </figure>
  );
}
