/** @jsxRuntime automatic */
/**
 * Parallel histograms (MemAxes §6.3): one vertical axis per sample attribute with its 100 bins
 * (one per category for names), the visible samples' counts as bars and the selection's on top.
 * Dragging along an axis brushes a range; brushes on several axes select the samples inside every
 * range (the host applies them with the current mode). The selection's bars (orange, thinner) use
 * their own scale, so a selection of a few samples stays visible beside all of them. Axes reorder with ‹ ›; double-click or
 * Escape on an axis clears its brush. Facts: `.memory-histogram[data-attribute][data-bins][data-brushed]`.
 */
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { MemoryHistogram } from '../../../../src/shared/memory-protocol';
import {
  axisEndLabels,
  binAt,
  binLabel,
  binRange,
  binsOfRange,
  formatAxisValue,
  histogramAxes,
  type AxisGeometry,
} from './memory-layout';

export type Brushes = Record<string, { min: number; max: number }>;

export interface ParallelHistogramsProps {
  histograms: MemoryHistogram[];
  brushes: Brushes;
  width: number;
  height: number;
  onBrush: (attribute: string, range: { min: number; max: number } | null) => void;
  onMove: (attribute: string, by: -1 | 1) => void;
}

export function ParallelHistograms({ histograms, brushes, width, height, onBrush, onMove }: ParallelHistogramsProps) {
  const axes = histogramAxes(histograms, width, height);
  const total = axes.length ? axes[axes.length - 1]!.x + axes[axes.length - 1]!.width : width;
  const [drag, setDrag] = useState<{ attribute: string; from: number; to: number } | null>(null);
  const dragRef = useRef(drag);
  dragRef.current = drag;

  const local = (e: PointerEvent<SVGElement>) => {
    const svg = (e.currentTarget as SVGElement).ownerSVGElement ?? (e.currentTarget as SVGSVGElement);
    const r = svg.getBoundingClientRect();
    return e.clientY - r.top;
  };

  return (
    <div className="memory-histograms-scroll">
      <svg
        className="memory-histograms"
        width={total}
        height={height}
        role="group"
        aria-label="Parallel histograms of the sample attributes"
      >
        {axes.map((axis, k) => {
          const h = histograms[k]!;
          const bins = h.visible.length;
          const brush = brushes[h.attribute];
          const [b0, b1] = brush ? binsOfRange(h, brush) : [0, -1];
          const live =
            drag?.attribute === h.attribute ? [Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)] : null;
          const lineX = axis.x + 8;
          return (
            <g
              key={h.attribute}
              className="memory-histogram"
              data-attribute={h.attribute}
              data-bins={axis.bars.length}
              data-brushed={brush ? 'true' : 'false'}
            >
              <AxisHead axis={axis} h={h} first={k === 0} last={k === axes.length - 1} onMove={onMove} />
              <line className="memory-axis-line" x1={lineX} x2={lineX} y1={axis.top} y2={axis.bottom} />
              {axis.bars.map(b => (
                <g key={b.bin}>
                  <rect
                    className={'memory-bin' + (brush && b.bin >= b0 && b.bin <= b1 ? ' is-brushed' : '')}
                    x={lineX}
                    y={b.y}
                    width={b.visibleWidth}
                    height={Math.max(1, b.height - (b.height > 3 ? 0.5 : 0))}
                  >
                    <title>{`${h.attribute} ${binLabel(h, b.bin)}: ${b.visible} samples${h.selected ? `, ${b.selected} selected` : ''}`}</title>
                  </rect>
                  {b.selectedWidth > 0 ? (
                    <rect
                      className="memory-bin-selected"
                      x={lineX}
                      y={b.y + b.height * 0.2}
                      width={b.selectedWidth}
                      height={Math.max(1, b.height * 0.6)}
                      pointerEvents="none"
                    />
                  ) : null}
                </g>
              ))}
              {brush && b1 >= b0 ? (
                <rect
                  className="memory-brush"
                  x={axis.x + 2}
                  y={axis.bottom - (b1 + 1) * axis.binHeight}
                  width={axis.width - 6}
                  height={(b1 - b0 + 1) * axis.binHeight}
                  pointerEvents="none"
                />
              ) : null}
              {live ? (
                <rect
                  className="memory-brush is-live"
                  x={axis.x + 2}
                  y={axis.bottom - (live[1]! + 1) * axis.binHeight}
                  width={axis.width - 6}
                  height={(live[1]! - live[0]! + 1) * axis.binHeight}
                  pointerEvents="none"
                />
              ) : null}
              {/* The brushing surface: the whole plot area of the axis. */}
              <rect
                className="memory-axis-hit"
                data-axis-hit={h.attribute}
                x={axis.x}
                y={axis.top}
                width={axis.width - 2}
                height={axis.bottom - axis.top}
                tabIndex={0}
                aria-label={`Brush ${h.attribute}${brush ? ` (brushed ${formatAxisValue(brush.min)} – ${formatAxisValue(brush.max)})` : ''}`}
                onPointerDown={e => {
                  if (bins === 0) return;
                  (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
                  const b = binAt(axis, local(e), bins);
                  setDrag({ attribute: h.attribute, from: b, to: b });
                }}
                onPointerMove={e => {
                  const d = dragRef.current;
                  if (!d || d.attribute !== h.attribute) return;
                  const b = binAt(axis, local(e), bins);
                  if (b !== d.to) setDrag({ ...d, to: b });
                }}
                onPointerUp={e => {
                  const d = dragRef.current;
                  if (!d || d.attribute !== h.attribute) return;
                  const b = binAt(axis, local(e), bins);
                  setDrag(null);
                  onBrush(h.attribute, binRange(h, d.from, b));
                }}
                onDoubleClick={() => onBrush(h.attribute, null)}
                onKeyDown={(e: KeyboardEvent) => {
                  if (e.key === 'Escape' && brush) onBrush(h.attribute, null);
                }}
              />
            </g>
          );
        })}
      </svg>
    </div>
  );
}

function AxisHead({
  axis,
  h,
  first,
  last,
  onMove,
}: {
  axis: AxisGeometry;
  h: MemoryHistogram;
  first: boolean;
  last: boolean;
  onMove: (attribute: string, by: -1 | 1) => void;
}) {
  // Titles longer than the column are cut; the full name is in the tooltip.
  const chars = Math.max(3, Math.floor((axis.width - 30) / 6.6));
  const title = h.attribute.length > chars ? h.attribute.slice(0, chars - 1) + '…' : h.attribute;
  const empty = !(h.min === h.min);
  const [lo, hi] = axisEndLabels(h.min, h.max);
  const top = h.categories ? (h.categories[h.categories.length - 1] ?? '') : hi;
  const bottom = h.categories ? (h.categories[0] ?? '') : lo;
  const cut = (s: string) => (s.length > chars + 2 ? s.slice(0, chars + 1) + '…' : s);
  return (
    <g className="memory-axis-head">
      <text className="memory-axis-title" x={axis.x + 4} y={13}>
        <title>{`${h.attribute} (${h.kind}${h.categories ? `, ${h.categories.length} categories` : ''})`}</title>
        {title}
      </text>
      {first ? null : (
        <text
          className="memory-axis-move"
          data-move-left={h.attribute}
          x={axis.x + axis.width - 24}
          y={13}
          role="button"
          aria-label={`Move ${h.attribute} left`}
          onClick={() => onMove(h.attribute, -1)}
        >
          ‹
        </text>
      )}
      {last ? null : (
        <text
          className="memory-axis-move"
          data-move-right={h.attribute}
          x={axis.x + axis.width - 12}
          y={13}
          role="button"
          aria-label={`Move ${h.attribute} right`}
          onClick={() => onMove(h.attribute, 1)}
        >
          ›
        </text>
      )}
      <text className="memory-axis-value" x={axis.x + 4} y={axis.top - 5}>
        {empty ? 'no values' : cut(top)}
      </text>
      <text className="memory-axis-value" x={axis.x + 4} y={axis.bottom + 13}>
        {empty ? '' : cut(bottom)}
      </text>
    </g>
  );
}
