/** @jsxRuntime automatic */
/**
 * Parameter projection (seed-callflow §2.11, §4.7; experimental): the runs as points of a 2-D MDS
 * of their min–max scaled parameters and runtimes — or of distances between their call trees —
 * coloured by k-means cluster. The target run is ringed, a diff pair is marked, runs outside the
 * current subset are dimmed. Dragging draws a lasso: the runs inside it become the subset every
 * view is computed over; a click on a run makes it the target.
 */
import { useMemo, useRef, useState, type PointerEvent } from 'react';
import { polygonContains } from 'd3';
import type {
  EnsembleProjectionData,
  EnsembleRequest,
  EnsembleViewState,
  ProjectionInput,
} from '../../../../src/shared/ensemble-protocol';
import { formatValue } from '../../format';
import {
  plural,
  pointerInView,
  runName,
  Segmented,
  tipPosition,
  viewStyle,
  ViewHeader,
  type LinkedViewProps,
  VIEW_HEADER,
} from './linked-view-parts';

export interface ParameterProjectionViewProps extends LinkedViewProps {
  projection: EnsembleProjectionData;
}

export type Point2 = [number, number];

export interface ProjectionLayout {
  /** Pixel position of each projection point (same order as `projection.points`). */
  px: number[];
  py: number[];
}

const PAD = 18;
const HEADER = VIEW_HEADER;
const FOOTER = 34;
/** Cluster colour classes (themed in CSS); green is kept for the target. */
const CLUSTER_CLASSES = 5;

/**
 * Points in a `width` × `height` plot, one scale for both axes (MDS distances mean the same in
 * every direction), centred.
 */
export function projectionLayout(p: EnsembleProjectionData, width: number, height: number): ProjectionLayout {
  const xs = p.points.map(q => q.x),
    ys = p.points.map(q => q.y);
  const x0 = Math.min(...xs),
    x1 = Math.max(...xs),
    y0 = Math.min(...ys),
    y1 = Math.max(...ys);
  const w = Math.max(1, width - 2 * PAD),
    h = Math.max(1, height - 2 * PAD);
  const dx = x1 - x0,
    dy = y1 - y0;
  const s = dx > 0 || dy > 0 ? Math.min(dx > 0 ? w / dx : Infinity, dy > 0 ? h / dy : Infinity) : 0;
  const cx = width / 2,
    cy = height / 2,
    mx = (x0 + x1) / 2,
    my = (y0 + y1) / 2;
  return {
    px: p.points.map(q => cx + (q.x - mx) * s),
    // Screen y grows downwards.
    py: p.points.map(q => cy - (q.y - my) * s),
  };
}

/** Runs (ascending) whose points lie inside the lasso polygon. */
export function lassoRuns(p: EnsembleProjectionData, layout: ProjectionLayout, polygon: readonly Point2[]): number[] {
  if (polygon.length < 3) return [];
  const ring = polygon as Point2[];
  return p.points
    .filter((_, i) => polygonContains(ring, [layout.px[i]!, layout.py[i]!]))
    .map(q => q.run)
    .sort((a, b) => a - b);
}

/** The request a finished lasso posts: the runs inside it, or null when it holds none (or is too small to be a lasso). */
export function lassoRequest(
  p: EnsembleProjectionData,
  layout: ProjectionLayout,
  polygon: readonly Point2[],
): EnsembleRequest | null {
  const xs = polygon.map(q => q[0]),
    ys = polygon.map(q => q[1]);
  if (polygon.length < 3 || Math.max(...xs) - Math.min(...xs) + Math.max(...ys) - Math.min(...ys) < 8) return null;
  const runs = lassoRuns(p, layout, polygon);
  return runs.length ? { type: 'ensemble/runs', runs } : null;
}

export const PROJECTION_INPUTS: readonly { value: ProjectionInput; label: string; title: string }[] = [
  { value: 'parameters', label: 'Parameters', title: 'Run parameters and runtimes, min–max scaled (CallFlow)' },
  { value: 'structure', label: 'Call-tree structure', title: 'Distances between the runs\u2019 call trees' },
];

/** The projection's k-means cluster counts (CallFlow §4.9: 2–8). */
export const CLUSTER_COUNTS: readonly number[] = [2, 3, 4, 5, 6, 7, 8];

/** The input switch, the cluster count and the Clear button (no hooks: the tests call it to reach the handlers). */
export function ProjectionControls({
  state,
  projection,
  onRequest,
}: {
  state: EnsembleViewState;
  projection: EnsembleProjectionData;
  onRequest(r: EnsembleRequest): void;
}) {
  return (
    <>
      <Segmented
        label="From"
        value={projection.input}
        options={PROJECTION_INPUTS}
        onChange={input => onRequest({ type: 'ensemble/options', options: { projectionInput: input } })}
      />
      <label className="callflow-select" title="k-means clusters of the projection (needs at least k + 1 runs)">
        Clusters
        <select
          value={projection.k}
          aria-label="k-means clusters"
          data-action="clusters"
          onChange={e => onRequest({ type: 'ensemble/options', options: { clusters: Number(e.currentTarget.value) } })}
        >
          {CLUSTER_COUNTS.map(k => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="callflow-button"
        disabled={state.runs === null}
        data-action="clear"
        title={
          state.runs === null
            ? 'All runs are selected'
            : `Use all runs again (${plural(state.runs.length, 'run')} selected)`
        }
        onClick={() => onRequest({ type: 'ensemble/runs', runs: null })}
      >
        Clear
      </button>
    </>
  );
}

/** A pointer drag: its path, whether it moved, and the run under the pointer when it began. */
type Drag = { points: Point2[]; moved: boolean; run: number | null };

export function ParameterProjectionView({
  data,
  state,
  projection,
  width,
  height,
  onRequest,
}: ParameterProjectionViewProps) {
  const plotH = Math.max(80, height - HEADER - FOOTER);
  const layout = useMemo(() => projectionLayout(projection, width, plotH), [projection, width, plotH]);
  const [lasso, setLasso] = useState<Point2[] | null>(null);
  const [hover, setHover] = useState<{ point: number; x: number; y: number } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const drag = useRef<Drag | null>(null);
  const subset = state.runs ? new Set(state.runs) : null;
  const target = state.mode === 'target' ? state.target : null;
  const diff = state.mode === 'diff' ? state.diff : null;
  const n = projection.points.length;
  const r = n > 300 ? 3 : n > 60 ? 4 : 5;

  const local = (e: PointerEvent<SVGSVGElement>): Point2 => {
    const box = e.currentTarget.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top];
  };
  const onDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    // Before the capture retargets the events to the svg: was the press on a run?
    const hit = (e.target as Element).closest?.('[data-run]');
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { points: [local(e)], moved: false, run: hit ? Number(hit.getAttribute('data-run')) : null };
    setNote(null);
  };
  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (!d) return;
    const p = local(e),
      last = d.points[d.points.length - 1]!;
    if (Math.hypot(p[0] - last[0], p[1] - last[1]) < 3) return;
    d.points.push(p);
    d.moved = true;
    setLasso([...d.points]);
  };
  const onUp = () => {
    const d = drag.current;
    drag.current = null;
    setLasso(null);
    if (!d) return;
    if (!d.moved) {
      // A click on a run makes it the target.
      if (d.run !== null) {
        onRequest({ type: 'ensemble/target', run: d.run });
        if (state.mode !== 'target') onRequest({ type: 'ensemble/mode', mode: 'target' });
      }
      return;
    }
    const request = lassoRequest(projection, layout, d.points);
    if (request) onRequest(request);
    else setNote('No runs inside the lasso.');
  };

  const clusterSizes = new Map<number, number>();
  for (const q of projection.points) clusterSizes.set(q.cluster, (clusterSizes.get(q.cluster) ?? 0) + 1);
  const hovered = hover !== null ? projection.points[hover.point] : undefined;
  const hoveredRun = hovered ? data.runs[hovered.run] : undefined;

  return (
    <div
      className="ensemble-view ensemble-projection"
      data-ensemble-view="projection"
      data-drawn={projection.unavailable ? 0 : n}
      style={viewStyle(width, height)}
    >
      <ViewHeader
        title={
          <>
            Runs{' '}
            <span
              className="ensemble-experimental"
              title="Experimental: the projection of run parameters is hard to interpret"
            >
              experimental
            </span>
          </>
        }
      >
        <ProjectionControls state={state} projection={projection} onRequest={onRequest} />
      </ViewHeader>
      {projection.unavailable ? (
        <div className="callflow-empty" role="status">
          No projection: {projection.unavailable}
        </div>
      ) : (
        <svg
          width={width}
          height={plotH}
          className="callflow-svg ensemble-projection-svg"
          role="img"
          aria-label={`MDS projection of ${plural(n, 'run')} from ${projection.input === 'parameters' ? 'parameters' : 'call-tree structure'}, ${projection.k} clusters`}
          onPointerDown={onDown}
          onPointerMove={onMove}
          onPointerUp={onUp}
          onPointerCancel={() => {
            drag.current = null;
            setLasso(null);
          }}
        >
          <rect className="ensemble-projection-bg" x={0} y={0} width={width} height={plotH} />
          {projection.points.map((q, i) => {
            const dimmed = subset !== null && !subset.has(q.run);
            return (
              <circle
                key={q.run}
                className={
                  `ensemble-run-point ensemble-cluster-${q.cluster % CLUSTER_CLASSES}` +
                  (dimmed ? ' is-dimmed' : '') +
                  (hover?.point === i ? ' is-hover' : '')
                }
                cx={layout.px[i]}
                cy={layout.py[i]}
                r={r}
                data-run={q.run}
                data-cluster={q.cluster}
                onPointerEnter={e => setHover({ point: i, ...pointerInView(e) })}
                onPointerLeave={() => setHover(null)}
              />
            );
          })}
          {projection.points.map((q, i) => {
            const role =
              q.run === target
                ? 'target'
                : diff && q.run === diff.baseline
                  ? 'baseline'
                  : diff && q.run === diff.compare
                    ? 'compare'
                    : null;
            if (!role) return null;
            const label = role === 'target' ? 'target' : role;
            const onLeft = layout.px[i]! > width - 70;
            return (
              <g key={`m${q.run}`} className={`ensemble-run-mark is-${role}`} pointerEvents="none">
                <circle cx={layout.px[i]} cy={layout.py[i]} r={r + 3.5} />
                <text
                  x={layout.px[i]! + (onLeft ? -(r + 6) : r + 6)}
                  y={layout.py[i]! + 4}
                  textAnchor={onLeft ? 'end' : 'start'}
                >
                  {label}
                </text>
              </g>
            );
          })}
          {lasso ? <path className="ensemble-lasso" d={`M${lasso.map(p => p.join(',')).join('L')}Z`} /> : null}
        </svg>
      )}
      <div className="ensemble-footnote ensemble-projection-legend">
        {[...clusterSizes.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([c, size]) => (
            <span key={c} className="ensemble-legend-item">
              <span className={`ensemble-swatch ensemble-cluster-${c % CLUSTER_CLASSES}`} />
              cluster {c + 1} ({size})
            </span>
          ))}
        {state.runs ? <span className="ensemble-legend-item">{plural(state.runs.length, 'run')} selected</span> : null}
        {note ? <span className="ensemble-note">{note}</span> : null}
        {projection.unavailable ? null : (
          <div className="ensemble-features" title={projection.features.join(', ')}>
            {projection.input === 'parameters'
              ? `MDS of ${projection.features.join(', ') || 'no features'} (min–max scaled), k-means k = ${projection.k}.`
              : `MDS of ${projection.features.join(', ') || 'call-tree distances'}, k-means k = ${projection.k}.`}{' '}
            Drag a lasso to select runs; click a run to make it the target.
          </div>
        )}
      </div>
      {hovered && hover ? (
        <div className="callflow-tip" style={tipPosition(hover.x, hover.y, width, height, 260, 140)}>
          <strong>{runName(data, hovered.run)}</strong>
          {hoveredRun ? (
            <div>
              runtime {formatValue(hoveredRun.total, data.metric.unit)} · {plural(hoveredRun.ranks, 'rank')}
            </div>
          ) : null}
          <div>cluster {hovered.cluster + 1}</div>
          {hoveredRun
            ? Object.entries(hoveredRun.parameters).map(([k, v]) => (
                <div key={k} className="callflow-muted">
                  {k} = {String(v)}
                </div>
              ))
            : null}
        </div>
      ) : null}
    </div>
  );
}
