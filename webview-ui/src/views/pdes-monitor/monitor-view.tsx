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
import type { BehaviourWindow, CausalityTableRow, MatrixView } from '../../../../src/analysis/pdes/stream/stream-views';
import type { MonitorSourceInfo, MonitorTickPoint } from '../../../../src/shared/pdes-monitor-protocol';
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
  selection: { entities: number[]; reason: string } | null;
  notices: readonly string[];
  failure: string | null;
  endReason: string | null;
  granularity: 'pe' | 'kp';
  direction: 'from' | 'to';
  /** Sizes of the drawings (measured by the app; fixed in tests). */
  sizes: { behaviour: Box; summary: Box; scatter: Box; matrix: number };
  onPause(): void;
  onResume(): void;
  onStop(): void;
  onGranularity(g: 'pe' | 'kp'): void;
  onDirection(d: 'from' | 'to'): void;
  onLasso(polygon: [number, number][]): void;
  onShow(changePoint: number): void;
  onClearSelection(): void;
}

const TEAL = '#14b8a6';
/** Room for the matrix's row labels (`PE 12`, `PE 3 · KP 5` cut to fit). */
const LABEL_WIDTH = 64;
const BROWN = '#a0522d';
const clusterColour = (c: number) => (c < 0 ? 'var(--hl-muted)' : schemeTableau10[c % 10]!);

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
        </div>
      )}
      <div className="monitor-grid">
        <section className="monitor-column">
          <Behaviour title="Behaviour (top)" window={p.top} box={p.sizes.behaviour} selected={selected} />
          <Summary points={p.points} which="top" box={p.sizes.summary} onShow={p.onShow} />
          <Behaviour title="Behaviour (bottom)" window={p.bottom} box={p.sizes.behaviour} selected={selected} />
          <Summary points={p.points} which="bottom" box={p.sizes.summary} onShow={p.onShow} />
        </section>
        <section className="monitor-column">
          <Scatter latest={u} box={p.sizes.scatter} selected={selected} onLasso={p.onLasso} />
          <Causality rows={p.causality} direction={p.direction} onDirection={p.onDirection} />
          <Matrix matrix={p.matrix} side={p.sizes.matrix} granularity={p.granularity} onGranularity={p.onGranularity} />
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
            <text x={2} y={t.y - 2} className="monitor-axis">
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
  onShow,
}: {
  points: readonly MonitorTickPoint[];
  which: 'top' | 'bottom';
  box: Box;
  onShow(n: number): void;
}) {
  const m = summaryMarks(points, box);
  return (
    <figure className="monitor-card monitor-summary" data-points={points.length}>
      <figcaption>History mean since the start ({points.length} ticks)</figcaption>
      <svg width={box.width} height={box.height}>
        <line x1={0} x2={box.width} y1={box.height - 0.5} y2={box.height - 0.5} stroke={BROWN} />
        <path d={m[which]} fill="none" stroke="var(--vscode-charts-blue, #3794ff)" strokeWidth={1.2} />
        {m.changePoints.map(c => (
          <g key={c.number} className="monitor-change-point" onClick={() => onShow(c.number)}>
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

function Scatter({
  latest,
  box,
  selected,
  onLasso,
}: {
  latest: PdesTickUpdate | null;
  box: Box;
  selected: ReadonlySet<number>;
  onLasso(polygon: [number, number][]): void;
}) {
  const [lasso, setLasso] = useState<[number, number][] | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const projection = latest?.projections.top ?? null;
  const clustering = latest?.clustering ?? null;
  if (!projection)
    return (
      <figure className="monitor-card monitor-scatter" data-points={0}>
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
    <figure className="monitor-card monitor-scatter" data-points={m.points.length}>
      <figcaption>
        Similarity of <strong>{projection.metric}</strong> (PC1 × PC2){' '}
        <span className="monitor-badge" title="Entities the progressive projection processed within its budget">
          {projection.processed}/{projection.total} entities
        </span>
        {clustering && (
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

function Causality({
  rows,
  direction,
  onDirection,
}: {
  rows: readonly CausalityTableRow[];
  direction: 'from' | 'to';
  onDirection(d: 'from' | 'to'): void;
}) {
  return (
    <figure className="monitor-card monitor-causality" data-rows={rows.length}>
      <figcaption>
        Causality{' '}
        <button className="monitor-link" onClick={() => onDirection(direction === 'from' ? 'to' : 'from')}>
          {direction === 'from' ? 'what drives the top metric' : 'what the top metric drives'}
        </button>
      </figcaption>
      {rows.length === 0 ? (
        <div className="monitor-empty">Waiting for enough ticks to fit a VAR model…</div>
      ) : (
        <table>
          <thead>
            <tr>
              <th>metric</th>
              <th title="Granger causality p-value">p</th>
              <th title="Orthogonalised impulse response, one step ahead">IR</th>
              <th title="Forecast-error variance decomposition, one step ahead">VD</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(r => (
              <tr key={r.metric} className={r.flagged ? 'monitor-causal' : undefined}>
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

function Matrix({
  matrix,
  side,
  granularity,
  onGranularity,
}: {
  matrix: MatrixView | null;
  side: number;
  granularity: 'pe' | 'kp';
  onGranularity(g: 'pe' | 'kp'): void;
}) {
  const toggle = (
    <button className="monitor-link" onClick={() => onGranularity(granularity === 'pe' ? 'kp' : 'pe')}>
      {granularity === 'pe' ? 'per PE' : 'per KP'}
    </button>
  );
  if (!matrix)
    return (
      <figure className="monitor-card monitor-matrix" data-cells={0}>
        <figcaption>Live communication {toggle}</figcaption>
        <div className="monitor-empty">No event trace beside the stats file: no communication to show.</div>
      </figure>
    );
  const m = matrixMarks(matrix, side);
  return (
    <figure className="monitor-card monitor-matrix" data-cells={m.cells.length} data-size={matrix.size}>
      <figcaption>
        Live communication {toggle}{' '}
        <span className="monitor-muted">· {formatCount(matrix.events)} events · sender rows, receiver columns</span>
      </figcaption>
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
          {m.cells.map(c => (
            <rect
              key={`${c.row},${c.column}`}
              x={c.x}
              y={c.y}
              width={Math.max(1, c.size - (c.size > 4 ? 1 : 0))}
              height={Math.max(1, c.size - (c.size > 4 ? 1 : 0))}
              fill="var(--vscode-foreground)"
              fillOpacity={0.06 + 0.94 * c.shade}
            >
              <title>{`${matrix.labels[c.row]} → ${matrix.columnLabels[c.column]}: ${formatSignificant(c.value, 3)}`}</title>
            </rect>
          ))}
        </g>
      </svg>
    </figure>
  );
}
