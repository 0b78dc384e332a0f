/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The Trace Analysis panel (Wei & Mellor-Crummey, seed 001): what the automated analysis of a trace
 * found — the rank/thread clusters as bands (height ∝ log₂(size + 1), §3.4), the loops with their
 * accepted and rejected iteration identifiers and iteration-cluster strip (§2.3), the lanes ×
 * iterations matrix of a loop, the diagnosed inefficient segments (§2.10, Table 2) with a what-if
 * sum of their projected savings (§2.11), and the significant call paths (§2.9) attributed to
 * source lines. Every item links to the timeline (its window) or the editor (its line).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type {
  IterationMatrix,
  LoopView,
  PathView,
  SegmentView,
  TraceAnalysisResultMessage,
  TraceAnalysisViewToHost,
} from '../../../../src/shared/trace-analysis-protocol';
import { formatLocation, formatSeconds, formatShare } from '../../format';
import { classColourOf, classColours, type ClassKey } from './class-colours';
import {
  clusterBands,
  clusterColour,
  matrixCellAt,
  matrixLayout,
  matrixResolution,
  stripRects,
  type MatrixLayout,
} from './trace-analysis-layout';

export interface TraceAnalysisViewProps {
  result: TraceAnalysisResultMessage;
  matrix: IterationMatrix | null;
  selectedPath: number | null;
  /** Whether the timeline groups its lanes by cluster. */
  timelineByCluster: boolean;
  post(m: TraceAnalysisViewToHost): void;
  selectPath(path: number | null): void;
  setTimelineByCluster(on: boolean): void;
  /** Width of the content (measured in the page; fixed in tests). */
  width: number;
}

const ns = (v: number) => formatSeconds(v / 1e9);

function when(start: number | null, end: number | null): string {
  return start === null || end === null ? 'whole run' : `${ns(start)} – ${ns(end)}`;
}

function ClassChip({ name, colours }: { name: string; colours: Record<ClassKey, string> }) {
  return <span className="ta-chip" style={{ background: classColourOf(colours, name) }} aria-hidden="true" />;
}

export function TraceAnalysisPanelView(props: TraceAnalysisViewProps) {
  const { result, post } = props;
  const v = result.view;
  const colours = useMemo(() => classColours(), []);
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set(v.segments.map(s => s.index)));
  useEffect(() => setChecked(new Set(v.segments.map(s => s.index))), [v]);
  const whatIf = v.segments.reduce((s, g) => (checked.has(g.index) ? s + g.projectedSaving : s), 0);
  const paths = useMemo(() => [...v.paths].sort((a, b) => b.saving - a.saving), [v]);
  const width = Math.max(320, props.width);
  const bands = clusterBands(v.clusters);
  const mainLoop = v.loops.find(l => l.accepted && l.acceptedIds > 0) ?? null;

  return (
    <div
      className="trace-analysis-app"
      data-state="result"
      data-clusters={v.clusters.length}
      data-loops={v.loops.length}
      data-what-if={whatIf}
    >
      <header className="ta-header">
        <div className="ta-title">
          <span className="ta-name">{result.title}</span>
          <span className="ta-sub">
            {v.lanes} lanes · run {formatSeconds(v.runTime)} ·{' '}
            {v.samplingPeriod !== null ? `sampled, V = ${formatSeconds(v.samplingPeriod)}` : 'instrumented'} · analysed
            in {formatSeconds(result.ms / 1e3)}
            {result.split ? ' on two workers' : ''}
          </span>
        </div>
        <div className="ta-buttons">
          <label className="ta-check" title="Group and order the timeline's lanes by cluster, representative on top">
            <input
              type="checkbox"
              checked={props.timelineByCluster}
              onChange={e => props.setTimelineByCluster(e.target.checked)}
            />{' '}
            Timeline by cluster
          </label>
          <button type="button" onClick={() => post({ type: 'traceAnalysis/analyse' })}>
            Analyse again
          </button>
          <button type="button" onClick={() => post({ type: 'traceAnalysis/openSettings' })}>
            Settings…
          </button>
        </div>
      </header>
      {result.changedOptions.length ? (
        <p className="ta-note">Settings changed from the paper&apos;s: {result.changedOptions.join(', ')}.</p>
      ) : null}

      <section className="ta-summary" aria-label="Summary">
        <Figure label="clusters" value={String(v.clusters.length)} />
        <Figure label="loops" value={String(v.loops.filter(l => l.accepted).length)} />
        <Figure label="significant paths" value={String(v.paths.length)} />
        <Figure label="segments" value={String(v.segments.length)} />
        <Figure
          label="projected saving"
          value={`${formatSeconds(v.totalSaving)} (${formatShare(v.runTime > 0 ? v.totalSaving / v.runTime : 0)})`}
        />
      </section>

      {v.notes.length || v.skipped.length ? (
        <ul className="ta-notes" aria-label="Notes">
          {v.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}

      <section className="ta-section" aria-labelledby="ta-clusters">
        <h2 id="ta-clusters">Clusters of lanes</h2>
        {v.oneCluster.map(o => (
          <p key={o.role} className="ta-one-cluster" data-one-cluster={o.text}>
            {v.roles.length > 1 ? <strong>{v.roles[o.role]?.name}: </strong> : null}
            {o.text}
          </p>
        ))}
        <div className="ta-bands" style={{ height: bands.height }}>
          {bands.bands.map(b => {
            const c = v.clusters[b.cluster]!;
            return (
              <div
                key={b.cluster}
                className="ta-band"
                data-cluster-band={b.cluster}
                data-height={b.height}
                style={{ top: b.y, height: b.height, borderLeftColor: clusterColour(b.cluster) }}
                title={c.label.text}
              >
                <span className="ta-band-label">
                  #{c.index} {c.label.short}
                </span>
                <span className="ta-band-detail">
                  {c.size} lane{c.size === 1 ? '' : 's'}
                  {v.roles.length > 1 ? ` · ${c.roleName}` : ''} · representative {c.representative.name}
                  {c.size > 1 ? ` (diffRatio ${c.representativeDistance.toFixed(3)} to the average)` : ''}
                  {c.nearestDistance !== null ? ` · nearest cluster at ${c.nearestDistance.toFixed(3)}` : ''}
                </span>
              </div>
            );
          })}
        </div>
      </section>

      <section className="ta-section" aria-labelledby="ta-loops">
        <h2 id="ta-loops">Loops and iterations</h2>
        {v.loops.length === 0 ? <p className="ta-empty">No loops in this trace (see the notes above).</p> : null}
        {v.loops.map(l => (
          <LoopRow
            key={l.index}
            loop={l}
            width={width}
            post={post}
            matrix={props.matrix?.loop === l.index ? props.matrix : null}
            isMain={l === mainLoop}
          />
        ))}
      </section>

      <section className="ta-section" aria-labelledby="ta-segments">
        <h2 id="ta-segments">Diagnosed segments</h2>
        {v.segments.length === 0 ? (
          <p className="ta-empty">No inefficient segment: no significant imbalance or waiting.</p>
        ) : (
          <p className="ta-what-if" role="status">
            Fixing the checked segments would save about <strong>{formatSeconds(whatIf)}</strong> (
            {formatShare(v.runTime > 0 ? whatIf / v.runTime : 0)} of the run).
          </p>
        )}
        <ol className="ta-segments">
          {v.segments.map(s => (
            <SegmentRow
              key={s.index}
              segment={s}
              paths={v.paths}
              checked={checked.has(s.index)}
              toggle={() =>
                setChecked(c => {
                  const n = new Set(c);
                  if (n.has(s.index)) n.delete(s.index);
                  else n.add(s.index);
                  return n;
                })
              }
              post={post}
              runTime={v.runTime}
              roleName={v.roles.length > 1 ? s.roleName : null}
            />
          ))}
        </ol>
      </section>

      <section className="ta-section" aria-labelledby="ta-paths">
        <h2 id="ta-paths">Significant call paths, by projected saving</h2>
        {paths.length === 0 ? <p className="ta-empty">None above the significance thresholds.</p> : null}
        <table className="ta-paths">
          <thead>
            <tr>
              <th>Call path</th>
              <th>Source</th>
              <th className="num">Imbalance</th>
              <th className="num">Waiting</th>
              <th className="num">Saving</th>
              <th>Max in</th>
            </tr>
          </thead>
          <tbody>
            {paths.map(p => (
              <PathRow
                key={p.index}
                path={p}
                v={v}
                colours={colours}
                selected={props.selectedPath === p.index}
                onSelect={() => {
                  props.selectPath(p.index);
                  post({ type: 'traceAnalysis/openSource', path: p.index });
                }}
                onShow={
                  p.startNs !== null && p.endNs !== null
                    ? () =>
                        post({
                          type: 'traceAnalysis/showWindow',
                          start: p.startNs!,
                          end: p.endNs!,
                          tracks: null,
                          label: p.name,
                        })
                    : null
                }
              />
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="ta-figure">
      <span className="ta-figure-value">{value}</span>
      <span className="ta-figure-label">{label}</span>
    </div>
  );
}

function LoopRow({
  loop: l,
  width,
  post,
  matrix,
  isMain,
}: {
  loop: LoopView;
  width: number;
  post: TraceAnalysisViewProps['post'];
  matrix: IterationMatrix | null;
  isMain: boolean;
}) {
  const stripWidth = Math.max(120, width - 32);
  const rects = stripRects(l, stripWidth);
  const durations = Number.isFinite(l.meanIteration)
    ? ` · iterations ${ns(l.minIteration)}–${ns(l.maxIteration)} (mean ${ns(l.meanIteration)})`
    : '';
  const status = l.accepted
    ? `${l.acceptedIds} of ${l.ids} identifiers accepted`
    : `a profile node: ${l.rejectedIds} of ${l.ids} identifiers rejected (too few or too short children)`;
  return (
    <div className="ta-loop" data-loop={l.index} data-accepted={l.accepted}>
      <div className="ta-loop-head">
        <button
          type="button"
          className="ta-link"
          disabled={!l.file}
          title={l.file ? formatLocation(l.file, l.line) : 'no source location recorded'}
          onClick={() => l.file && post({ type: 'traceAnalysis/openSourceLocation', file: l.file, line: l.line })}
        >
          {l.name}
        </button>
        {isMain ? <span className="ta-badge">banded in the timeline</span> : null}
        <span className="ta-loop-detail">
          {l.iterations} iterations on {l.lanes} lanes · {status} · {formatShare(l.share)} of the run{durations}
          {l.iterationClusters > 0 ? ` · ${l.iterationClusters} iteration clusters` : ''}
        </span>
      </div>
      {rects.length ? (
        <svg
          className="ta-strip"
          width={stripWidth}
          height={14}
          data-loop-strip={l.index}
          role="img"
          aria-label="Iteration clusters"
        >
          {rects.map((r, i) => (
            <rect key={i} x={r.x} y={0} width={r.width} height={14} fill={clusterColour(r.cluster)}>
              <title>
                iterations {r.from}–{r.to}: iteration cluster {r.cluster}
              </title>
            </rect>
          ))}
        </svg>
      ) : null}
      {l.accepted && l.acceptedIds > 0 ? (
        matrix ? (
          <MatrixView matrix={matrix} width={stripWidth} post={post} />
        ) : (
          <button
            type="button"
            className="ta-link"
            onClick={() => {
              const r = matrixResolution(stripWidth, 420);
              post({ type: 'traceAnalysis/requestIterations', loop: l.index, rows: r.rows, columns: r.columns });
            }}
          >
            Show lanes × iterations
          </button>
        )
      ) : null}
    </div>
  );
}

/**
 * Cell colour: duration on a light-to-strong ramp of the theme's blue (longer = stronger). The ramp
 * spans at least a tenth of the longest cell, so jitter of a few per cent between alike iterations
 * does not read as a pattern.
 */
export function cellAlpha(m: Pick<IterationMatrix, 'min' | 'max'>, d: number): number {
  if (!Number.isFinite(d)) return 0;
  const span = Math.max(m.max - m.min, 0.1 * Math.abs(m.max));
  return 0.15 + 0.85 * (span > 0 ? Math.min(1, Math.max(0, (d - m.min) / span)) : 0.5);
}

function MatrixView({
  matrix: m,
  width,
  post,
}: {
  matrix: IterationMatrix;
  width: number;
  post: TraceAnalysisViewProps['post'];
}) {
  const layout: MatrixLayout = matrixLayout(m, width, 420);
  const ref = useRef<HTMLCanvasElement>(null);
  const plotWidth = width - layout.labelWidth;
  const [hover, setHover] = useState<{ row: number; column: number } | null>(null);
  useLayoutEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(plotWidth * dpr);
    canvas.height = Math.round(layout.plotHeight * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, plotWidth, layout.plotHeight);
    const fill = classColours().computation;
    const C = m.columns.length;
    for (let r = 0; r < m.rows.length; r++)
      for (let c = 0; c < C; c++) {
        const a = cellAlpha(m, m.duration[r * C + c]!);
        if (!a) continue;
        ctx.globalAlpha = a;
        ctx.fillStyle = fill;
        ctx.fillRect(
          c * layout.cellWidth,
          r * layout.cellHeight,
          Math.max(1, layout.cellWidth - 0.5),
          Math.max(1, layout.cellHeight - 0.5),
        );
      }
    ctx.globalAlpha = 1;
  }, [m, layout, plotWidth]);
  const cell = hover;
  const C = m.columns.length;
  return (
    <div className="ta-matrix" style={{ width, height: layout.headerHeight + layout.plotHeight }}>
      {layout.columnLabels.map(c => (
        <span key={c.column} className="ta-matrix-col" style={{ left: c.x, top: 0 }}>
          {c.text}
        </span>
      ))}
      {layout.rowLabels.map(r => (
        <span
          key={r.row}
          className="ta-matrix-row"
          style={{ top: r.y, width: layout.labelWidth - 18, borderLeftColor: clusterColour(m.rows[r.row]!.cluster) }}
          title={m.rows[r.row]!.label}
        >
          {r.text}
        </span>
      ))}
      {m.rows.map((r, i) =>
        i === 0 || m.rows[i - 1]!.cluster !== r.cluster ? (
          <span
            key={`s${i}`}
            className="ta-matrix-stripe"
            style={{
              top: layout.headerHeight + i * layout.cellHeight,
              left: layout.labelWidth - 6,
              height: m.rows.filter(x => x.cluster === r.cluster).length * layout.cellHeight,
              background: clusterColour(r.cluster),
            }}
          />
        ) : null,
      )}
      <canvas
        ref={ref}
        className="ta-matrix-canvas"
        data-rows={m.rows.length}
        data-columns={m.columns.length}
        data-loop={m.loop}
        style={{ left: layout.labelWidth, top: layout.headerHeight, width: plotWidth, height: layout.plotHeight }}
        onMouseMove={e => {
          const rect = (e.target as HTMLCanvasElement).getBoundingClientRect();
          setHover(
            matrixCellAt(
              layout,
              m,
              e.clientX - rect.left + layout.labelWidth,
              e.clientY - rect.top + layout.headerHeight,
            ),
          );
        }}
        onMouseLeave={() => setHover(null)}
        onClick={() => {
          if (!cell) return;
          const col = m.columns[cell.column]!;
          post({
            type: 'traceAnalysis/showWindow',
            start: col.start,
            end: col.end,
            tracks: m.rows[cell.row]!.tracks,
            label: `iteration ${col.iteration}`,
          });
        }}
      />
      {cell ? (
        <div className="ta-matrix-tip" role="tooltip">
          {m.rows[cell.row]!.label} · iteration {m.columns[cell.column]!.iteration}
          {m.columns[cell.column]!.to - m.columns[cell.column]!.from > 1 ? '+' : ''}:{' '}
          {Number.isFinite(m.duration[cell.row * C + cell.column]!)
            ? ns(m.duration[cell.row * C + cell.column]!)
            : 'absent'}
          {m.cluster[cell.row * C + cell.column]! >= 0
            ? ` · iteration cluster ${m.cluster[cell.row * C + cell.column]}`
            : ''}{' '}
          (click: show in the timeline)
        </div>
      ) : null}
    </div>
  );
}

function SegmentRow({
  segment: s,
  paths,
  checked,
  toggle,
  post,
  runTime,
  roleName,
}: {
  segment: SegmentView;
  paths: readonly PathView[];
  checked: boolean;
  toggle(): void;
  post: TraceAnalysisViewProps['post'];
  runTime: number;
  roleName: string | null;
}) {
  const hasWindow = s.startNs !== null && s.endNs !== null;
  const sync = s.sync !== null ? paths[s.sync] : undefined;
  return (
    <li className="ta-segment" data-segment-row={s.index} data-table-row={s.row}>
      <label className="ta-check">
        <input
          type="checkbox"
          checked={checked}
          onChange={toggle}
          aria-label={`Count segment ${s.index + 1} in the what-if`}
        />
        <span className="ta-segment-title">
          {roleName ? `${roleName} · ` : ''}
          {when(s.startNs, s.endNs)}
          {sync ? ` · ends at ${sync.name}` : ''}
        </span>
      </label>
      <p className="ta-diagnosis">{s.diagnosis}</p>
      <p className="ta-segment-figures">
        imbalance at the sync {formatSeconds(s.imbS)} · Σ imbalance {formatSeconds(s.sumImb)} · Σ waiting{' '}
        {formatSeconds(s.sumWait)} · projected saving <strong>{formatSeconds(s.projectedSaving)}</strong> (
        {formatShare(runTime > 0 ? s.projectedSaving / runTime : 0)})
      </p>
      {hasWindow ? (
        <div className="ta-segment-actions">
          <button
            type="button"
            onClick={() =>
              post({
                type: 'traceAnalysis/showWindow',
                start: s.startNs!,
                end: s.endNs!,
                tracks: null,
                label: `segment ${s.index + 1}`,
              })
            }
          >
            Show in Timeline
          </button>
          <button
            type="button"
            onClick={() => post({ type: 'traceAnalysis/useWindowForOverlays', start: s.startNs!, end: s.endNs! })}
          >
            Use This Window for Overlays
          </button>
        </div>
      ) : null}
    </li>
  );
}

function PathRow({
  path: p,
  v,
  colours,
  selected,
  onSelect,
  onShow,
}: {
  path: PathView;
  v: TraceAnalysisResultMessage['view'];
  colours: Record<ClassKey, string>;
  selected: boolean;
  onSelect(): void;
  onShow: (() => void) | null;
}) {
  const cluster = v.clusters[p.maxCluster];
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);
  return (
    <tr
      ref={ref}
      className={`ta-path${selected ? ' is-selected' : ''}`}
      data-path-row={p.index}
      data-selected={selected}
      data-class={p.class}
      aria-selected={selected}
      onClick={onSelect}
      title={`${p.path.join(' › ')}\nmin ${formatSeconds(p.min)} (${p.minLane ?? '–'}) · avg ${formatSeconds(p.avg)} · max ${formatSeconds(p.max)} (${p.maxLane ?? '–'})`}
    >
      <td className="ta-path-name">
        <ClassChip name={p.class} colours={colours} />
        <span className="ta-path-text">
          {p.path.length > 3 ? '… › ' : ''}
          {p.path.slice(-3).join(' › ')}
          {p.iteration !== null ? ` (iteration ${p.iteration + 1})` : ''}
        </span>
        {onShow ? (
          <button
            type="button"
            className="ta-link ta-path-show"
            onClick={e => {
              e.stopPropagation();
              onShow();
            }}
          >
            timeline
          </button>
        ) : null}
      </td>
      <td className="ta-path-source">{p.file ? formatLocation(p.file.split('/').pop()!, p.line) : '–'}</td>
      <td className="num">{p.byImbalance || p.imbalance > 0 ? formatSeconds(p.imbalance) : '–'}</td>
      <td className="num">{p.byWait || p.wait > 0 ? formatSeconds(p.wait) : '–'}</td>
      <td className="num">
        <strong>{formatSeconds(p.saving)}</strong>
      </td>
      <td className="ta-path-max">
        {cluster ? (cluster.size === 1 ? cluster.label.short : `cluster ${cluster.label.short}`) : (p.maxLane ?? '–')}
      </td>
    </tr>
  );
}
