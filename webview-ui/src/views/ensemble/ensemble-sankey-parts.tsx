/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * Pieces of the Ensemble-Sankey without state of their own: the node and link tooltips, the
 * text-guide bin popover, the ordered-ensemble sparkline, the legend strip and the node menu.
 */
import type { ReactNode } from 'react';
import { MAX_RUN_VALUES } from '../../../../src/shared/ensemble-protocol';
import type {
  EnsembleGraphData,
  EnsembleLinkData,
  EnsembleNodeData,
  EnsembleRequest,
  EnsembleSide,
  EnsembleSourceRef,
  EnsembleViewState,
} from '../../../../src/shared/ensemble-protocol';
import { formatSignificant, formatValue } from '../../format';
import { borderClasses, countColour, diffColour, legendGradient, TARGET_COLOUR_CSS } from './ensemble-colours';
import { binRange, hottestEntry, runsInBin } from './ensemble-sankey-layout';

const sideName = (s: EnsembleSide): string => (s === 'inclusive' ? 'inclusive' : 'exclusive');

/** A signed value: `+1.2 s`, `−340 ms`. */
export function formatSigned(v: number, unit: string): string {
  if (!Number.isFinite(v)) return '–';
  if (v === 0) return formatValue(0, unit);
  return (v > 0 ? '+' : '−') + formatValue(Math.abs(v), unit);
}

/** Name of run `index` of the ensemble. */
export function runName(data: EnsembleGraphData, index: number): string {
  return (
    (data.runs[index]?.index === index ? data.runs[index] : data.runs.find(r => r.index === index))?.name ??
    `run ${index}`
  );
}

// ---------------------------------------------------------------------------------------- sparkline

/**
 * The node's value against the levels of the ordered ensemble (gaps where it is missing at every
 * run of a level); drawn in the warning colour when the series does not follow the order.
 */
export function Sparkline({
  values,
  outOfOrder,
  width,
  height,
  className,
}: {
  values: readonly (number | null)[];
  outOfOrder: boolean;
  width: number;
  height: number;
  className?: string;
}) {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0 || values.length === 0) return null;
  const lo = Math.min(...present),
    hi = Math.max(...present);
  const x = (i: number): number => (values.length === 1 ? width / 2 : 1.5 + (i * (width - 3)) / (values.length - 1));
  const y = (v: number): number => (hi > lo ? 1.5 + ((hi - v) * (height - 3)) / (hi - lo) : height / 2);
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    pen = true;
  });
  return (
    <svg
      className={'ens-sparkline' + (outOfOrder ? ' is-out-of-order' : '') + (className ? ` ${className}` : '')}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
    >
      <path className="ens-sparkline-line" d={d} />
      {values.map((v, i) =>
        v === null ? null : <circle key={i} className="ens-sparkline-dot" cx={x(i)} cy={y(v)} r={1.6} />,
      )}
    </svg>
  );
}

// ---------------------------------------------------------------------------------------- tooltips

/** Bars of a node's run histogram with its global-scale colours (the tooltip's text guide). */
function TooltipHistogram({
  node,
  side,
  scale,
  targetBin,
}: {
  node: EnsembleNodeData;
  side: EnsembleSide;
  scale: number;
  targetBin: number | null;
}) {
  const counts = node.gradient[side].counts;
  const max = Math.max(1, ...counts);
  const w = 200,
    h = 34,
    bw = w / counts.length;
  return (
    <svg className="ens-tip-hist" width={w} height={h + 2} viewBox={`0 0 ${w} ${h + 2}`} aria-hidden="true">
      {counts.map((c, i) => (
        <rect
          key={i}
          x={i * bw + 0.3}
          y={h - (c / max) * h}
          width={Math.max(0.6, bw - 0.6)}
          height={(c / max) * h}
          fill={c > 0 ? countColour(c, scale) : 'none'}
          className="ens-tip-bin"
        />
      ))}
      {targetBin !== null && targetBin >= 0 ? (
        <rect x={targetBin * bw} y={0} width={Math.max(1.5, bw)} height={h} className="ens-tip-target-bin" />
      ) : null}
      <line x1={0} x2={w} y1={h + 0.5} y2={h + 0.5} className="ens-tip-axis" />
    </svg>
  );
}

export function NodeTooltip({
  data,
  node,
  state,
  labelOf,
}: {
  data: EnsembleGraphData;
  node: EnsembleNodeData;
  state: EnsembleViewState;
  labelOf: (id: string) => string;
}) {
  const unit = data.metric.unit;
  const side = state.options.gradientSide;
  const selected = data.selectedRuns.length;
  const missing = selected - node.present;
  const h = node.gradient[side];
  const v = (x: number): string => formatValue(x, unit);
  const entries = [...node.entries].sort((a, b) => b.maxInclusive - a.maxInclusive);
  const open = hottestEntry(node);
  return (
    <>
      <div className="tooltip-title">
        <span>{node.label}</span>
      </div>
      <div className="tooltip-subtitle">
        Module {node.module}
        {node.kind !== 'module'
          ? ` · split by ${node.kind === 'caller' ? 'caller' : node.kind === 'entry' ? 'entry function' : 'reveal'}`
          : ''}
      </div>
      <dl className="tooltip-grid">
        <dt>Inclusive</dt>
        <dd>
          {v(node.minInclusive)} – {v(node.maxInclusive)}{' '}
          <span className="tooltip-muted">max in {runName(data, node.maxInclusiveRun)}</span>
        </dd>
        <dt>Exclusive</dt>
        <dd>
          {v(node.minExclusive)} – {v(node.maxExclusive)}{' '}
          <span className="tooltip-muted">max in {runName(data, node.maxExclusiveRun)}</span>
        </dd>
        <dt>Runs</dt>
        <dd>
          present in {node.present} of {selected}
          {missing > 0 ? <span className="is-warning"> · missing in {missing}</span> : null}
        </dd>
      </dl>
      <div className="tooltip-section">
        <div className="tooltip-section-title">
          Runs per bin ({sideName(side)}, {h.counts.length} bins, {v(h.min)} at left → {v(h.max)})
        </div>
        <TooltipHistogram
          node={node}
          side={side}
          scale={data.countScale[side]}
          targetBin={
            state.mode === 'target' && node.target
              ? side === 'inclusive'
                ? node.target.binInclusive
                : node.target.binExclusive
              : null
          }
        />
      </div>
      {state.mode === 'target' && node.target ? <TargetRows data={data} node={node} state={state} /> : null}
      {state.mode === 'diff' && node.diff ? <DiffRows data={data} node={node} state={state} /> : null}
      {data.order && node.sparkline ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">
            {sideName(side)} by {data.order.key} ({String(data.order.levels[0])} →{' '}
            {String(data.order.levels[data.order.levels.length - 1])})
            {node.sparkline.outOfOrder ? <span className="is-warning"> · out of order</span> : null}
          </div>
          <Sparkline values={node.sparkline[side]} outOfOrder={node.sparkline.outOfOrder} width={200} height={36} />
        </div>
      ) : null}
      {node.callers.length ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">Called from (max flow over runs)</div>
          <ul className="tooltip-list">
            {node.callers.slice(0, 5).map(c => (
              <li key={c.id}>
                <span className="tooltip-list-name">{labelOf(c.id)}</span>
                <span className="tooltip-list-value">{v(c.value)}</span>
              </li>
            ))}
            {node.callers.length > 5 ? <li className="tooltip-muted">… {node.callers.length - 5} more</li> : null}
          </ul>
        </div>
      ) : null}
      {entries.length ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">Entry functions ({node.entryCount})</div>
          <ul className="tooltip-list">
            {entries.slice(0, 5).map(e => (
              <li key={e.name}>
                <code className="tooltip-list-name">{e.name}</code>
                <span className="tooltip-list-value">
                  {v(e.maxInclusive)}
                  {e.line !== null ? <span className="tooltip-muted"> · :{e.line}</span> : null}
                </span>
              </li>
            ))}
            {node.entryCount > 5 ? <li className="tooltip-muted">… {node.entryCount - 5} more</li> : null}
          </ul>
        </div>
      ) : null}
      <div className="tooltip-hint">
        Click: select · {open ? `double-click: open ${open.name}` : 'no source location'} · right-click: split
        {state.options.textGuides ? ' · click a bin: its runs' : ''}
      </div>
    </>
  );
}

function TargetRows({
  data,
  node,
  state,
}: {
  data: EnsembleGraphData;
  node: EnsembleNodeData;
  state: EnsembleViewState;
}) {
  const t = node.target!;
  const unit = data.metric.unit;
  const name = state.target !== null ? runName(data, state.target) : 'target';
  if (t.inclusive === null) return <div className="tooltip-section is-warning">Missing in the target run {name}</div>;
  const bins = node.gradient[state.options.gradientSide].counts.length;
  const bin = state.options.gradientSide === 'inclusive' ? t.binInclusive : t.binExclusive;
  return (
    <dl className="tooltip-grid ens-tip-target">
      <dt>
        <span className="ens-swatch is-target" /> {name}
      </dt>
      <dd>
        {formatValue(t.inclusive, unit)} inclusive · {t.exclusive === null ? '–' : formatValue(t.exclusive, unit)}{' '}
        exclusive · bin {bin + 1} of {bins}
      </dd>
    </dl>
  );
}

function DiffRows({
  data,
  node,
  state,
}: {
  data: EnsembleGraphData;
  node: EnsembleNodeData;
  state: EnsembleViewState;
}) {
  const d = node.diff!;
  const unit = data.metric.unit;
  const pair = state.diff;
  const b = pair ? runName(data, pair.baseline) : 'baseline';
  const c = pair ? runName(data, pair.compare) : 'compare';
  const rel =
    d.exclusive !== null && d.baseline !== null && d.baseline > 0
      ? ` (${d.exclusive >= 0 ? '+' : '−'}${formatSignificant(Math.abs(d.exclusive / d.baseline) * 100, 2)}%)`
      : '';
  return (
    <dl className="tooltip-grid">
      <dt>
        {c} − {b}
      </dt>
      <dd
        className={
          d.exclusive !== null && d.exclusive > 0
            ? 'ens-slower'
            : d.exclusive !== null && d.exclusive < 0
              ? 'ens-faster'
              : undefined
        }
      >
        {d.exclusive === null ? 'missing in both runs' : `${formatSigned(d.exclusive, unit)} exclusive${rel}`}
      </dd>
      <dt>Exclusive</dt>
      <dd>
        {d.baseline === null ? 'missing' : formatValue(d.baseline, unit)} →{' '}
        {d.compare === null ? 'missing' : formatValue(d.compare, unit)}
      </dd>
      {d.inclusive !== null ? (
        <>
          <dt>Inclusive Δ</dt>
          <dd>{formatSigned(d.inclusive, unit)}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function LinkTooltip({
  data,
  link,
  state,
  labelOf,
  tapered,
}: {
  data: EnsembleGraphData;
  link: EnsembleLinkData;
  state: EnsembleViewState;
  labelOf: (id: string) => string;
  tapered: boolean;
}) {
  const unit = data.metric.unit;
  return (
    <>
      <div className="tooltip-title">
        <span>{labelOf(link.source)}</span>
        <span className="tooltip-arrow" aria-label="calls">
          →
        </span>
        <span>{labelOf(link.target)}</span>
      </div>
      <dl className="tooltip-grid">
        <dt>Max flow</dt>
        <dd>
          {formatValue(link.value, unit)} <span className="tooltip-muted">over {data.selectedRuns.length} runs</span>
        </dd>
        {state.mode === 'target' && link.targetValue !== undefined ? (
          <>
            <dt>
              <span className="ens-swatch is-target" /> Target
            </dt>
            <dd>
              {formatValue(link.targetValue, unit)}
              {link.value > 0 ? ` · ${formatSignificant((100 * link.targetValue) / link.value, 3)}% of max` : ''}
            </dd>
          </>
        ) : null}
        {state.mode === 'diff' && link.diff !== undefined ? (
          <>
            <dt>Δ flow</dt>
            <dd>{formatSigned(link.diff, unit)}</dd>
          </>
        ) : null}
      </dl>
      {tapered ? (
        <div className="tooltip-hint">
          Tapered: the maxima of different runs exceed a node, so each end is scaled to fit its node.
        </div>
      ) : null}
    </>
  );
}

// ---------------------------------------------------------------------------------------- bin popover

/** Run names listed in a bin popover before "… and N more". */
export const POPOVER_RUNS = 40;

/**
 * The runs of one bin of a node's gradient (a text guide clicked), with "Show only these runs",
 * which restricts every view to them.
 */
export function BinPopover({
  data,
  node,
  side,
  bin,
  onRequest,
  onClose,
  at,
}: {
  data: EnsembleGraphData;
  node: EnsembleNodeData;
  side: EnsembleSide;
  bin: number;
  onRequest(r: EnsembleRequest): void;
  onClose(): void;
  at: { left: number; top: number };
}) {
  const h = node.gradient[side];
  const runs = runsInBin(data, node, side, bin);
  const [lo, hi] = binRange(h, bin);
  const unit = data.metric.unit;
  const count = h.counts[bin] ?? 0;
  return (
    <div
      className="ens-popover"
      role="dialog"
      aria-label={`Runs of bin ${bin + 1} of ${node.label}`}
      style={{ left: at.left, top: at.top }}
      onClick={e => e.stopPropagation()}
      onKeyDown={e => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="ens-popover-title">
        {node.label} · bin {bin + 1} of {h.counts.length}
      </div>
      <div className="ens-popover-range">
        {sideName(side)} {formatValue(lo, unit)} – {formatValue(hi, unit)} · {count} run{count === 1 ? '' : 's'}
      </div>
      {runs === null ? (
        <div className="tooltip-muted">
          Run names are sent for up to {MAX_RUN_VALUES} selected runs ({data.selectedRuns.length} now): narrow the run
          subset to list them.
        </div>
      ) : runs.length === 0 ? (
        <div className="tooltip-muted">No run in this bin.</div>
      ) : (
        <ul className="ens-popover-runs">
          {runs.slice(0, POPOVER_RUNS).map(r => (
            <li key={r} data-run={r}>
              {runName(data, r)}
            </li>
          ))}
          {runs.length > POPOVER_RUNS ? (
            <li className="tooltip-muted">… and {runs.length - POPOVER_RUNS} more</li>
          ) : null}
        </ul>
      )}
      <div className="ens-popover-actions">
        <button
          className="callflow-button"
          data-action="only-these-runs"
          disabled={!runs || runs.length === 0}
          onClick={() => {
            if (runs && runs.length) {
              onRequest({ type: 'ensemble/runs', runs });
              onClose();
            }
          }}
        >
          Show only these runs
        </button>
        <button className="callflow-button" data-action="close" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------- node menu

export interface MenuItem {
  label: string;
  run: () => void;
  disabled?: boolean;
}

/** Actions of a node's context menu. */
export function nodeMenuItems(
  data: EnsembleGraphData,
  node: EnsembleNodeData,
  onRequest: (r: EnsembleRequest) => void,
  onOpenSource: (ref: EnsembleSourceRef) => void,
): MenuItem[] {
  const isSplit =
    node.kind !== 'module' ||
    node.baseId !== node.id ||
    data.splits.some(s => s.node === node.id || s.node === node.baseId);
  const open = hottestEntry(node);
  return [
    { label: 'Select', run: () => onRequest({ type: 'ensemble/select', nodeId: node.id }) },
    {
      label: `Split by entry function (${node.entryCount})`,
      run: () => onRequest({ type: 'ensemble/split', nodeId: node.id, mode: 'entry' }),
      disabled: node.entryCount < 2,
    },
    {
      label: `Split by caller (${node.callers.length})`,
      run: () => onRequest({ type: 'ensemble/split', nodeId: node.id, mode: 'caller' }),
      disabled: node.callers.length < 2,
    },
    ...(isSplit
      ? [{ label: 'Un-split', run: () => onRequest({ type: 'ensemble/unsplit', nodeId: node.baseId }) }]
      : []),
    open
      ? {
          label: `Open source: ${open.name}${open.line !== null ? ` (line ${open.line})` : ''}`,
          run: () => onOpenSource({ kind: 'entry', nodeId: node.id, entry: node.entries.indexOf(open) }),
        }
      : { label: 'Open source (no location recorded)', run: () => undefined, disabled: true },
  ];
}

export function NodeMenu({
  title,
  items,
  at,
  onClose,
}: {
  title: string;
  items: MenuItem[];
  at: { x: number; y: number };
  onClose(): void;
}) {
  return (
    <div
      className="callflow-menu"
      role="menu"
      style={{ left: at.x, top: at.y }}
      onClick={e => e.stopPropagation()}
      onKeyDown={e => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="callflow-menu-title">{title}</div>
      {items.map(i => (
        <button
          key={i.label}
          role="menuitem"
          className="callflow-menu-item"
          disabled={i.disabled}
          onClick={() => {
            onClose();
            i.run();
          }}
        >
          {i.label}
        </button>
      ))}
    </div>
  );
}

// ---------------------------------------------------------------------------------------- legend

/** Legend strip: what fill, border, target and diff colours mean in the current mode. */
export function EnsembleLegend({ data, state }: { data: EnsembleGraphData; state: EnsembleViewState }) {
  const unit = data.metric.unit;
  const side = state.options.gradientSide;
  const border = state.options.borderSide;
  const scale = data.countScale[side];
  const [blo, bhi] = data.borderDomain[border];
  const items: ReactNode[] = [];
  items.push(
    <div key="height" className="ens-legend-item ens-legend-note">
      Height: max inclusive over {data.selectedRuns.length} run{data.selectedRuns.length === 1 ? '' : 's'}
      {state.runs ? ` (subset of ${data.runs.length})` : ''}
    </div>,
  );
  if (state.mode !== 'diff') {
    items.push(
      <div
        key="count"
        className="ens-legend-item"
        role="img"
        aria-label={`Fill: runs per bin of ${side} values, 0 to ${scale}, one scale for every node; lowest values at the top`}
      >
        <div className="ens-legend-title">Fill: runs per bin ({side}, low ↑ high ↓)</div>
        <div className="ens-legend-bar" style={{ background: legendGradient(t => countColour(t * scale, scale)) }} />
        <div className="ens-legend-ticks">
          <span>0</span>
          <span>
            {scale} run{scale === 1 ? '' : 's'}
          </span>
        </div>
      </div>,
    );
  } else {
    const m = data.diffDomain ?? 0;
    const pair = state.diff;
    items.push(
      <div
        key="diff"
        className="ens-legend-item"
        role="img"
        aria-label={`Fill: exclusive of the compare run minus the baseline, from −${formatValue(m, unit)} (faster, green) to +${formatValue(m, unit)} (slower, red)`}
      >
        <div className="ens-legend-title">
          Fill: {pair ? `${runName(data, pair.compare)} − ${runName(data, pair.baseline)}` : 'compare − baseline'},
          exclusive: <span className="ens-faster">faster</span> · <span className="ens-slower">slower</span>
        </div>
        <div
          className="ens-legend-bar is-wide"
          style={{ background: legendGradient(t => diffColour((2 * t - 1) * m, m)) }}
        />
        <div className="ens-legend-ticks is-three is-wide">
          <span>−{formatValue(m, unit)}</span>
          <span>0</span>
          <span>+{formatValue(m, unit)}</span>
        </div>
      </div>,
    );
  }
  const classes = borderClasses();
  items.push(
    <div
      key="border"
      className="ens-legend-item"
      role="img"
      aria-label={`Border: max ${border} over runs, ${formatValue(blo, unit)} to ${formatValue(bhi, unit)}`}
    >
      <div className="ens-legend-title">Border: max {border}</div>
      <div
        className="ens-legend-bar"
        style={{
          background: `linear-gradient(to right, ${classes.map((c, i) => `${c} ${(100 * i) / classes.length}% ${(100 * (i + 1)) / classes.length}%`).join(', ')})`,
        }}
      />
      <div className="ens-legend-ticks">
        <span>{formatValue(blo, unit)}</span>
        <span>{formatValue(bhi, unit)}</span>
      </div>
    </div>,
  );
  if (state.mode === 'target') {
    items.push(
      <div key="target" className="ens-legend-item ens-legend-keys">
        <span>
          <span className="ens-swatch is-target" style={{ background: TARGET_COLOUR_CSS }} />{' '}
          {state.target !== null ? runName(data, state.target) : 'target'}
        </span>
        <span>
          <span className="ens-swatch is-ensemble" /> ensemble max
        </span>
        <span>
          <span className="ens-swatch is-hatch" /> missing in target
        </span>
      </div>,
    );
  }
  if (data.order) {
    const unordered = data.order.unordered ?? [];
    const names = unordered.slice(0, 3).map(r => runName(data, r));
    items.push(
      <div key="order" className="ens-legend-item ens-legend-keys">
        <span>Sparklines by {data.order.key}</span>
        {unordered.length > 0 ? (
          <span
            className="ens-legend-unordered"
            title={`Runs without ${data.order.key}: ${unordered.map(r => runName(data, r)).join(', ')}`}
          >
            {unordered.length} unordered (no {data.order.key}): {names.join(', ')}
            {unordered.length > names.length ? ', …' : ''}
          </span>
        ) : null}
        <span>
          <span className="ens-ooo-mark" aria-hidden="true">
            ↯
          </span>{' '}
          out of order
        </span>
      </div>,
    );
  }
  return (
    <div className="ens-legend" aria-label="Legend">
      {items}
    </div>
  );
}
