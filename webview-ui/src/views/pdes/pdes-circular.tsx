/** @jsxRuntime automatic */
/**
 * The per-segment circular views (thesis §5.3.4, Fig 5.7 (d)) and a segment's communication matrix
 * (§6 Fig 6.5 (e)). A circular view puts the PEs around a circle, each with its selected entities;
 * ribbons join PEs by their mean weighted events per sample in the segment on a blue → red scale
 * (above the threshold); the inner ring shows the inner metric (primary rollbacks) and the outer
 * ring the outer metric (secondary rollbacks) of each entity, as bars coloured by cluster or as a
 * heatmap. Every segment's view uses the same scales, so segments compare at a glance.
 */
import type { MatrixViewData } from '../../../../src/analysis/pdes/panel-views';
import type { CircularSegmentView, CircularViewData } from '../../../../src/analysis/pdes/view-data';
import { formatCount } from '../../format';
import {
  circularLayout,
  clusterColour,
  heatColour,
  polar,
  ribbonColour,
  ribbonPath,
  sectorPath,
} from './pdes-geometry';

/** Ribbons drawn per segment at most (largest first); the rest are counted in the facts. */
export const MAX_RIBBONS = 400;

export interface CircularProps {
  data: CircularViewData;
  view: CircularSegmentView;
  size: number;
  /** Click on a segment's view: show its matrix. */
  onSegment?: (segment: number) => void;
  active: boolean;
}

/** Label of a ribbon's PEs, `PE 7–PE 8`. */
export function ribbonLabel(data: CircularViewData, r: { source: number; target: number }): string {
  const name = (pe: number) => data.groups.find(g => g.pe === pe)?.label ?? `PE ${pe}`;
  return `${name(r.source)}–${name(r.target)}`;
}

export function CircularView({ data, view, size, onSegment, active }: CircularProps) {
  const c = size / 2;
  const title = 16;
  const outerR = c - 6 - title / 2;
  const ringW = Math.max(6, outerR * 0.16);
  const outer0 = outerR - ringW,
    inner1 = outer0 - 2,
    inner0 = inner1 - ringW,
    ribbonR = inner0 - 3;
  const layout = circularLayout(data.groups, data.items.length);
  const halfItem = Math.max(0.002, layout.itemWidth * 0.42);
  const ring = (values: Float64Array, [lo, hi]: [number, number], r0: number, r1: number, key: string) =>
    Array.from(data.items, (_, k) => {
      const v = values[k]!;
      if (!Number.isFinite(v)) return null;
      const a = layout.itemAngle[k]!;
      if (data.encoding === 'heatmap')
        return (
          <path key={`${key}${k}`} d={sectorPath(a - halfItem, a + halfItem, r0, r1)} fill={heatColour(v, lo, hi)} />
        );
      const t = hi > 0 ? Math.max(0, v) / hi : 0;
      if (t <= 0) return null;
      return (
        <path
          key={`${key}${k}`}
          d={sectorPath(a - halfItem, a + halfItem, r0, r0 + Math.max(0.5, t * (r1 - r0)))}
          fill={clusterColour(data.clusters[k]!)}
        />
      );
    });
  const groupOf = new Map(layout.groups.map(g => [g.pe, g]));
  const ribbons = view.ribbons.slice(0, MAX_RIBBONS);
  // Each PE arc is shared among its ribbons in proportion to their values.
  const perPe = new Map<number, number>();
  for (const r of ribbons) {
    perPe.set(r.source, (perPe.get(r.source) ?? 0) + r.value);
    perPe.set(r.target, (perPe.get(r.target) ?? 0) + r.value);
  }
  const cursor = new Map<number, number>();
  const span = (pe: number, value: number): [number, number] => {
    const g = groupOf.get(pe)!;
    const width = ((g.end - g.start) * value) / (perPe.get(pe) || 1);
    const a = cursor.get(pe) ?? g.start;
    cursor.set(pe, a + width);
    return [a, a + width];
  };
  const top = view.ribbons[0];
  return (
    <svg
      className={'pdes-circular' + (active ? ' is-active' : '')}
      width={size}
      height={size}
      data-segment={view.segment.label}
      data-ribbons={view.ribbons.length}
      data-hidden={view.hidden}
      data-items={data.items.length}
      data-encoding={data.encoding}
      data-top-ribbon={top ? ribbonLabel(data, top) : ''}
      onClick={() => onSegment?.(view.segment.index)}
    >
      <text className="pdes-circular-title" x={c} y={12} textAnchor="middle">
        {`Segment ${view.segment.label} · samples ${view.segment.start}–${view.segment.end - 1}`}
      </text>
      <g transform={`translate(${c},${c + title / 2})`}>
        {layout.groups.map(g => (
          <path key={`g${g.pe}`} className="pdes-pe-arc" d={sectorPath(g.start, g.end, ribbonR, inner0 - 1)} />
        ))}
        <g className="pdes-ribbons">
          {ribbons.map(r => {
            if (!groupOf.has(r.source) || !groupOf.has(r.target)) return null;
            const [a0, a1] = span(r.source, r.value);
            const [b0, b1] = span(r.target, r.value);
            return (
              <path
                key={`${r.source}-${r.target}`}
                className="pdes-ribbon"
                d={ribbonPath(a0, a1, b0, b1, ribbonR)}
                fill={ribbonColour(r.value, data.scales.ribbon)}
                data-ribbon={ribbonLabel(data, r)}
              >
                <title>{`${ribbonLabel(data, r)}: ${formatCount(r.forward)} → / ${formatCount(r.backward)} ← events per sample`}</title>
              </path>
            );
          })}
        </g>
        <g className="pdes-ring pdes-ring-inner" data-metric={data.innerMetric.id}>
          {ring(view.inner, data.scales.inner, inner0, inner1, 'i')}
        </g>
        <g className="pdes-ring pdes-ring-outer" data-metric={data.outerMetric.id}>
          {ring(view.outer, data.scales.outer, outer0, outerR, 'o')}
        </g>
        {layout.groups.length <= 32
          ? layout.groups.map(g => {
              const [x, y] = polar((g.start + g.end) / 2, (ribbonR + inner0) / 2);
              return g.end - g.start > 0.12 ? (
                <text key={`l${g.pe}`} className="pdes-pe-label" x={x} y={y + 3} textAnchor="middle">
                  {g.label.replace(/^PE\s*/, '')}
                </text>
              ) : null;
            })
          : null}
      </g>
    </svg>
  );
}

export interface MatrixProps {
  data: MatrixViewData;
  size: number;
}

/** A segment's communication matrix: rows send, columns receive, grouped by PE. */
export function MatrixView({ data, size }: MatrixProps) {
  const label = 40;
  const n = data.rows.length;
  const plot = Math.max(10, size - label - 4);
  const cell = n > 0 ? plot / n : plot;
  const cells = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = data.values[i * n + j]!;
      if (!(v > 0)) continue;
      cells.push(
        <rect
          key={i * n + j}
          x={label + j * cell}
          y={label + i * cell}
          width={Math.max(0.6, cell)}
          height={Math.max(0.6, cell)}
          fill={ribbonColour(v, data.max)}
        />,
      );
    }
  return (
    <svg
      className="pdes-matrix"
      width={size}
      height={size}
      data-segment={data.label}
      data-rows={n}
      data-level={data.level}
      data-cells={cells.length}
    >
      <rect className="pdes-frame" x={label} y={label} width={plot} height={plot} />
      {cells}
      {data.groups.map(g => (
        <g key={g.label + g.first} className="pdes-matrix-group">
          <line x1={label} x2={label + plot} y1={label + g.first * cell} y2={label + g.first * cell} />
          <line x1={label + g.first * cell} x2={label + g.first * cell} y1={label} y2={label + plot} />
          {g.count * cell >= 12 ? (
            <>
              <text x={label - 3} y={label + (g.first + g.count / 2) * cell + 3} textAnchor="end">
                {g.label.replace(/^PE\s*/, 'PE')}
              </text>
              <text x={label + (g.first + g.count / 2) * cell} y={label - 4} textAnchor="middle">
                {g.label.replace(/^PE\s*/, '')}
              </text>
            </>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
