/** @jsxRuntime automatic */
/**
 * The PDES panel's time and similarity charts (thesis §5.3.1–5.3.3, Fig 5.7 (a)–(c)): the overview
 * of a statistic across the selected entities with its range brush and the segments (bounds can be
 * removed by a click on their handle and added by a double click), the two detail views of one line
 * per entity coloured by cluster (a freeform stroke picks the lines it crosses; right-click a line or
 * a legend entry for the cluster filter; a value filter per view) and the two similarity scatters
 * (a lasso picks the points it encloses). Each states what it drew in `data-*` facts.
 */
import { ticks as niceTicks } from 'd3';
import { useRef, useState, type DOMAttributes, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import type {
  ClusterLegendEntry,
  DetailViewData,
  OverviewData,
  SegmentMarker,
  SimilarityViewData,
} from '../../../../src/analysis/pdes/view-data';
import { formatCount } from '../../format';
import { brushRange, clusterColour, linearScale, linePath, MARGIN, nearestSample, type Scale } from './pdes-geometry';

type Point = [number, number];

/** Pointer position in the element's own pixels. */
function localPoint(e: ReactPointerEvent<Element>): Point {
  const r = e.currentTarget.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

/**
 * A freehand path drawn with the primary button (the detail views' stroke, the similarity views'
 * lasso): the points so far while drawing, and the finished path to `onDone` when it has at least
 * `minPoints` points. The handlers go on the plot's root element, so a path may start on a mark.
 */
function usePointerPath(
  minPoints: number,
  onDone: (points: Point[]) => void,
): {
  path: Point[] | null;
  handlers: Pick<DOMAttributes<Element>, 'onPointerDown' | 'onPointerMove' | 'onPointerUp'>;
} {
  const [path, setPath] = useState<Point[] | null>(null);
  const points = useRef<Point[]>([]);
  return {
    path,
    handlers: {
      onPointerDown: e => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture?.(e.pointerId);
        points.current = [localPoint(e)];
        setPath(points.current);
      },
      onPointerMove: e => {
        if (!path) return;
        points.current = [...points.current, localPoint(e)];
        setPath(points.current);
      },
      onPointerUp: () => {
        const done = points.current;
        setPath(null);
        points.current = [];
        if (done.length >= minPoints) onDone(done);
      },
    },
  };
}

/** Axes with a few ticks each, and their titles. */
function Axes({
  sx,
  sy,
  width,
  height,
  xTitle,
  yTitle,
}: {
  sx: Scale;
  sy: Scale;
  width: number;
  height: number;
  xTitle: string;
  yTitle: string;
}) {
  const [x0, x1] = [sx.invert(MARGIN.left), sx.invert(width - MARGIN.right)];
  const [y0, y1] = [sy.invert(height - MARGIN.bottom), sy.invert(MARGIN.top)];
  const xt = niceTicks(Math.min(x0, x1), Math.max(x0, x1), Math.max(2, Math.floor(width / 90)));
  const yt = niceTicks(Math.min(y0, y1), Math.max(y0, y1), Math.max(2, Math.floor(height / 40)));
  return (
    <g className="pdes-axes">
      <line x1={MARGIN.left} x2={width - MARGIN.right} y1={height - MARGIN.bottom} y2={height - MARGIN.bottom} />
      <line x1={MARGIN.left} x2={MARGIN.left} y1={MARGIN.top} y2={height - MARGIN.bottom} />
      {xt.map(t => (
        <text key={`x${t}`} x={sx(t)} y={height - MARGIN.bottom + 12} textAnchor="middle">
          {formatCount(t)}
        </text>
      ))}
      {yt.map(t => (
        <text key={`y${t}`} x={MARGIN.left - 4} y={sy(t) + 3} textAnchor="end">
          {formatCount(t)}
        </text>
      ))}
      <text className="pdes-axis-title" x={width - MARGIN.right} y={height - 2} textAnchor="end">
        {xTitle}
      </text>
      <text className="pdes-axis-title" x={MARGIN.left + 4} y={MARGIN.top - 5}>
        {yTitle}
      </text>
    </g>
  );
}

/** Segment bands (alternate shading) and their labels over a time plot. */
function Segments({ segments, sx, height }: { segments: readonly SegmentMarker[]; sx: Scale; height: number }) {
  return (
    <g className="pdes-segments">
      {segments.map((s, i) => {
        const x0 = sx(s.x0),
          x1 = Math.max(sx(s.x1), x0 + 1);
        return (
          <g key={s.label}>
            {i % 2 ? (
              <rect
                className="pdes-segment-band"
                x={x0}
                y={MARGIN.top}
                width={x1 - x0}
                height={height - MARGIN.top - MARGIN.bottom}
              />
            ) : null}
            <text className="pdes-segment-label" x={(x0 + x1) / 2} y={MARGIN.top + 10} textAnchor="middle">
              {s.label}
            </text>
          </g>
        );
      })}
    </g>
  );
}

export interface OverviewProps {
  data: OverviewData;
  time: Float64Array;
  width: number;
  height: number;
  edited: boolean;
  onRange: (range: { from: number; to: number } | null) => void;
  onChangePoints: (starts: number[] | null) => void;
}

/** The overview with its brush (the analysed range) and editable segment bounds. */
export function OverviewChart({ data, time, width, height, edited, onRange, onChangePoints }: OverviewProps) {
  const t0 = time.length ? time[0]! : 0;
  const t1 = time.length ? time[time.length - 1]! : 1;
  const sx = linearScale([t0, t1], [MARGIN.left, width - MARGIN.right]);
  const sy = linearScale(data.yDomain, [height - MARGIN.bottom, MARGIN.top]);
  const [drag, setDrag] = useState<[number, number] | null>(null);
  const starts = data.changePoints.map(c => c.index);
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const brushX0 = drag ? Math.min(...drag) : sx(data.brush.x0);
  const brushX1 = drag ? Math.max(...drag) : sx(data.brush.x1);
  const whole = data.brush.from === 0 && data.brush.to >= time.length;
  return (
    <svg
      className="pdes-overview"
      width={width}
      height={height}
      data-points={data.points.length / 2}
      data-samples={data.samples}
      data-statistic={data.statistic}
      data-metric={data.metric.id}
      data-brush-from={data.brush.from}
      data-brush-to={data.brush.to}
      data-change-points={starts.join(',')}
      data-edited={edited}
    >
      <Segments segments={data.segments} sx={sx} height={height} />
      <Axes
        sx={sx}
        sy={sy}
        width={width}
        height={height}
        xTitle={data.timeLabel}
        yTitle={`${data.statistic} ${data.metric.shortLabel}`}
      />
      <path className="pdes-overview-line" d={linePath(data.points, sx, sy)} />
      {!whole || drag ? (
        <rect className="pdes-brush" x={brushX0} y={MARGIN.top} width={Math.max(1, brushX1 - brushX0)} height={plotH} />
      ) : null}
      <rect
        className="pdes-brush-area"
        x={MARGIN.left}
        y={MARGIN.top}
        width={Math.max(1, width - MARGIN.left - MARGIN.right)}
        height={plotH}
        onPointerDown={e => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          const [x] = localPoint(e);
          setDrag([x + MARGIN.left, x + MARGIN.left]);
        }}
        onPointerMove={e => {
          if (!drag) return;
          const [x] = localPoint(e);
          setDrag([drag[0], x + MARGIN.left]);
        }}
        onPointerUp={() => {
          if (!drag) return;
          setDrag(null);
          // A click (no drag) is not a brush; the double click adds a bound.
          if (Math.abs(drag[1] - drag[0]) < 4) return;
          onRange(brushRange(time, sx.invert(drag[0]), sx.invert(drag[1])));
        }}
        onDoubleClick={e => {
          const r = e.currentTarget.getBoundingClientRect();
          const at = nearestSample(time, sx.invert(e.clientX - r.left + MARGIN.left));
          if (at > 0 && !starts.includes(at)) onChangePoints([...starts, at].sort((a, b) => a - b));
        }}
      >
        <title>Drag to analyse a range; double-click to add a segment bound</title>
      </rect>
      {data.changePoints.map(c => (
        <g
          key={c.index}
          className="pdes-change-point"
          data-index={c.index}
          transform={`translate(${sx(c.x)},0)`}
          onClick={() => onChangePoints(starts.filter(s => s !== c.index))}
        >
          <line y1={MARGIN.top} y2={height - MARGIN.bottom} />
          <path d={`M-5,${MARGIN.top - 8}h10l-5,7z`} />
          <title>
            {`Segment bound at sample ${c.index}${c.pValue !== null ? ` (p = ${c.pValue.toPrecision(2)})` : ' (edited)'} — click to remove`}
          </title>
        </g>
      ))}
    </svg>
  );
}

/** The cluster legend (`Cluster-0 (16)`), entries clickable for the cluster filter. */
export function ClusterLegend({
  legend,
  shown,
  onCluster,
}: {
  legend: readonly ClusterLegendEntry[];
  shown: readonly number[] | null | undefined;
  onCluster: (cluster: number, e: { clientX: number; clientY: number }) => void;
}) {
  return (
    <div className="pdes-legend">
      {legend.map(l => (
        <button
          key={l.cluster}
          type="button"
          className={'pdes-legend-entry' + (shown && !shown.includes(l.cluster) ? ' is-off' : '')}
          data-cluster={l.cluster}
          title={`${l.label}: ${l.shown} of ${l.members} selected. Click or right-click for the cluster filter.`}
          onClick={e => onCluster(l.cluster, e)}
          onContextMenu={e => {
            e.preventDefault();
            onCluster(l.cluster, e);
          }}
        >
          <span className="pdes-swatch" style={{ background: clusterColour(l.cluster) }} />
          {l.label}
        </button>
      ))}
    </div>
  );
}

export interface DetailProps {
  data: DetailViewData;
  width: number;
  height: number;
  title: ReactNode;
  onStroke: (points: Point[]) => void;
  onClusterMenu: (cluster: number, e: { clientX: number; clientY: number }) => void;
}

/** A detail view: one polyline per entity over the analysed range, coloured by cluster; a stroke picks lines. */
export function DetailChart({ data, width, height, onStroke, onClusterMenu }: DetailProps) {
  const sx = linearScale(
    [data.segments[0]?.x0 ?? 0, data.segments[data.segments.length - 1]?.x1 ?? 1],
    [MARGIN.left, width - MARGIN.right],
  );
  const sy = linearScale(data.yDomain, [height - MARGIN.bottom, MARGIN.top]);
  const { path: stroke, handlers: strokeHandlers } = usePointerPath(2, pts =>
    onStroke(pts.map(([x, y]) => [sx.invert(x), sy.invert(y)])),
  );
  // Dimmed (unselected) lines first, so selected lines stay on top.
  const lines = [...data.lines].sort((a, b) => Number(a.selected) - Number(b.selected));
  const selected = data.lines.filter(l => l.selected).length;
  return (
    <svg
      className="pdes-detail"
      width={width}
      height={height}
      data-view={data.view}
      data-metric={data.metric.id}
      data-lines={data.lines.length}
      data-selected-lines={selected}
      data-decimated={data.decimated}
      data-range={`${data.range.from}-${data.range.to}`}
      // The stroke starts anywhere on the plot, on a line too (its events bubble here).
      {...strokeHandlers}
    >
      <Segments segments={data.segments} sx={sx} height={height} />
      <rect
        className="pdes-stroke-area"
        x={MARGIN.left}
        y={MARGIN.top}
        width={Math.max(1, width - MARGIN.left - MARGIN.right)}
        height={Math.max(1, height - MARGIN.top - MARGIN.bottom)}
      >
        <title>Draw a stroke across lines to select them; right-click a line for the cluster filter</title>
      </rect>
      <Axes
        sx={sx}
        sy={sy}
        width={width}
        height={height}
        xTitle={data.timeLabel}
        yTitle={`${data.metric.label} (${data.metric.unit})`}
      />
      <g className="pdes-lines">
        {lines.map(l => (
          <path
            key={l.entity}
            className={'pdes-line' + (l.selected ? '' : ' is-dimmed')}
            d={linePath(l.points, sx, sy)}
            stroke={clusterColour(l.cluster)}
            data-entity={l.entity}
            data-cluster={l.cluster}
            onContextMenu={e => {
              e.preventDefault();
              onClusterMenu(l.cluster, e);
            }}
          >
            <title>{`${l.label} · Cluster-${l.cluster}`}</title>
          </path>
        ))}
      </g>
      {data.changePoints.map(c => (
        <line
          key={c.index}
          className="pdes-change-line"
          x1={sx(c.x)}
          x2={sx(c.x)}
          y1={MARGIN.top}
          y2={height - MARGIN.bottom}
        />
      ))}
      {stroke ? <polyline className="pdes-stroke" points={stroke.map(p => p.join(',')).join(' ')} /> : null}
    </svg>
  );
}

export interface SimilarityProps {
  data: SimilarityViewData;
  size: number;
  onLasso: (points: Point[]) => void;
}

/** A similarity view: the entities projected (MDS or t-SNE) from the view's metric; a lasso picks points. */
export function SimilarityChart({ data, size, onLasso }: SimilarityProps) {
  const pad = 10;
  const sx = linearScale(data.xDomain, [pad, size - pad]);
  const sy = linearScale(data.yDomain, [size - pad, pad]);
  const { path: lasso, handlers: lassoHandlers } = usePointerPath(3, pts =>
    onLasso(pts.map(([x, y]) => [sx.invert(x), sy.invert(y)])),
  );
  const n = data.entities.length;
  const r = n > 2000 ? 1.5 : n > 300 ? 2.5 : 3.5;
  return (
    <svg
      className="pdes-similarity"
      width={size}
      height={size}
      data-view={data.view}
      data-metric={data.metric.id}
      data-method={data.method}
      data-points={n}
      {...lassoHandlers}
    >
      <rect className="pdes-frame" x={0.5} y={0.5} width={size - 1} height={size - 1} />
      {Array.from(data.entities, (e, k) => (
        <circle
          key={e}
          className="pdes-point"
          cx={sx(data.points[2 * k]!)}
          cy={sy(data.points[2 * k + 1]!)}
          r={r}
          fill={clusterColour(data.clusters[k]!)}
          data-entity={e}
        />
      ))}
      {lasso ? <polygon className="pdes-lasso" points={lasso.map(p => p.join(',')).join(' ')} /> : null}
      <text className="pdes-axis-title" x={6} y={size - 6}>
        {`${data.method === 'tsne' ? 't-SNE' : 'MDS'} of ${data.metric.shortLabel}`}
      </text>
    </svg>
  );
}
