/** @jsxRuntime automatic */
/**
 * What the five linked ensemble views share (seed-callflow §4.3–4.7): their common props, value
 * axes with unit-formatted ticks, tooltip placement that stays inside the view, the target colour
 * as a CSS variable, and small controls (segmented switch, run names).
 */
import type { CSSProperties, ReactNode } from 'react';
import type { ScaleLinear } from 'd3';
import type {
  EnsembleGraphData,
  EnsembleRequest,
  EnsembleSourceRef,
  EnsembleViewState,
} from '../../../../src/shared/ensemble-protocol';
import { formatValue } from '../../format';
import { estimateText } from '../../text-measure';
import { TARGET_COLOUR_CSS } from './ensemble-colours';

/** Heights (px) of a view's header row and footnote; ensemble-views.css uses the same. */
export const VIEW_HEADER = 28;
export const VIEW_FOOTER = 18;

/** Props every linked view takes; the host's graph data and panel state, and a way to post requests. */
export interface LinkedViewProps {
  data: EnsembleGraphData;
  state: EnsembleViewState;
  width: number;
  height: number;
  onRequest(r: EnsembleRequest): void;
}

/** Asks the host to open a location the view was sent, by reference (the host looks the file up). */
export type OpenSource = (ref: EnsembleSourceRef) => void;

/** Root style of a view: its box, and the target colour for the CSS (one constant for every view). */
export function viewStyle(width: number, height: number): CSSProperties {
  return { width, height, ['--ensemble-target' as string]: TARGET_COLOUR_CSS };
}

/** A run's name, or `run N` when the index is unknown. */
export function runName(data: EnsembleGraphData, run: number): string {
  return data.runs[run]?.name ?? `run ${run}`;
}

export { useMeasureText } from '../../text-measure';

/** Top-left of a tooltip of about `tipW` × `tipH` next to (x, y), kept inside a `width` × `height` box. */
export function tipPosition(
  x: number,
  y: number,
  width: number,
  height: number,
  tipW = 260,
  tipH = 120,
): { left: number; top: number } {
  const left = x + 12 + tipW <= width ? x + 12 : Math.max(4, x - 12 - tipW);
  const top = Math.max(4, Math.min(y - 8, height - tipH - 4));
  return { left, top };
}

/** Pointer position relative to the view's root (tooltips are placed in it, whatever is scrolled). */
export function pointerInView(e: { clientX: number; clientY: number; currentTarget: Element }): {
  x: number;
  y: number;
} {
  const root = e.currentTarget.closest('.ensemble-view') ?? e.currentTarget;
  const r = root.getBoundingClientRect();
  return { x: e.clientX - r.left, y: e.clientY - r.top };
}

/**
 * Up to `count` ticks of a horizontal scale whose unit-formatted labels do not overlap (d3's tick
 * count is only a hint, and labels like `540 ms` are wide).
 */
export function fittingTicks(scale: ScaleLinear<number, number>, unit: string, count: number, gap = 10): number[] {
  for (let c = Math.max(1, count); c >= 1; c--) {
    const ticks = scale.ticks(c);
    const half = ticks.map(t => estimateText(formatValue(t, unit), 'detail') / 2);
    if (ticks.every((t, i) => i === 0 || Math.abs(scale(t) - scale(ticks[i - 1]!)) >= half[i]! + half[i - 1]! + gap))
      return ticks;
  }
  return scale.ticks(1).slice(0, 1);
}

/**
 * A horizontal value axis: grid lines over [top, bottom] and unit-formatted tick labels `labelDy`
 * below `bottom` (negative: above it).
 */
export function BottomAxis({
  scale,
  top,
  bottom,
  unit,
  ticks = 5,
  labelDy = 13,
}: {
  scale: ScaleLinear<number, number>;
  top: number;
  bottom: number;
  unit: string;
  ticks?: number;
  labelDy?: number;
}) {
  const [r0, r1] = scale.range() as [number, number];
  return (
    <g className="ensemble-axis">
      {fittingTicks(scale, unit, ticks).map(t => (
        <g key={t} className="callflow-grid">
          <line x1={scale(t)} x2={scale(t)} y1={top} y2={bottom} />
          <text
            x={scale(t)}
            y={bottom + labelDy}
            textAnchor={scale(t) - r0 < 16 ? 'start' : r1 - scale(t) < 16 ? 'end' : 'middle'}
          >
            {formatValue(t, unit)}
          </text>
        </g>
      ))}
      <line className="callflow-axis" x1={r0} x2={r1} y1={bottom + 0.5} y2={bottom + 0.5} />
    </g>
  );
}

/** A vertical value axis: grid lines over [left, right] and tick labels left of `left`. */
export function LeftAxis({
  scale,
  left,
  right,
  unit,
  ticks = 4,
  integer = false,
}: {
  scale: ScaleLinear<number, number>;
  left: number;
  right: number;
  unit: string;
  ticks?: number;
  integer?: boolean;
}) {
  const values = scale.ticks(ticks).filter(t => !integer || Number.isInteger(t));
  return (
    <g className="ensemble-axis">
      {values.map(t => (
        <g key={t} className="callflow-grid">
          <line x1={left} x2={right} y1={scale(t)} y2={scale(t)} />
          <text x={left - 5} y={scale(t) + 4} textAnchor="end">
            {integer ? String(t) : formatValue(t, unit)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** A row of mutually exclusive buttons (the distribution mode, the projection input). */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string; title?: string }[];
  onChange(v: T): void;
}) {
  return (
    <span className="callflow-segmented" role="group" aria-label={label}>
      <span className="callflow-segmented-label">{label}</span>
      {options.map(o => (
        <button
          key={o.value}
          type="button"
          className={'callflow-segment' + (o.value === value ? ' is-on' : '')}
          aria-pressed={o.value === value}
          title={o.title}
          data-value={o.value}
          onClick={() => {
            if (o.value !== value) onChange(o.value);
          }}
        >
          {o.label}
        </button>
      ))}
    </span>
  );
}

/** The one-line header of a view: a title, then controls pushed right. */
export function ViewHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="ensemble-view-header">
      <span className="ensemble-view-title">{title}</span>
      {children ? <span className="ensemble-view-controls">{children}</span> : null}
    </div>
  );
}

/** `1 call site` / `3 call sites`. */
export function plural(n: number, one: string, many = one + 's'): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
