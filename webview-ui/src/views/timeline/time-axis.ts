/**
 * The time axis: "nice" tick steps (1, 2, 5 × 10ⁿ ns) and labels in the unit that suits the step
 * (ns, µs, ms, s), relative to the trace origin, so a zoomed-in axis reads `12.3455 ms`, not a
 * long run of digits in ns.
 */
import { timeUnitFor } from '../../../../src/shared/timeline-protocol';
import type { TimelineWindow } from '../../../../src/shared/timeline-protocol';

export interface TimeTick {
  time: number;
  x: number;
  label: string;
}
export interface TimeTicks {
  step: number;
  unit: string;
  ticks: TimeTick[];
}

/** The smallest 1/2/5 × 10ⁿ step (ns, at least 1) with at least `minSpacing` px between ticks. */
export function niceStep(spanNs: number, widthPx: number, minSpacing: number): number {
  const raw = (spanNs * minSpacing) / Math.max(1, widthPx);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return Math.max(1, m * p);
  return Math.max(1, 10 * p);
}

/** Decimals needed to tell ticks `step` apart in `scale` units (0 when the step is a whole number of them). */
function decimalsFor(step: number, scale: number): number {
  const s = step / scale;
  return s >= 1 ? 0 : Math.min(9, Math.ceil(-Math.log10(s) - 1e-9));
}

/** A time relative to the origin in `unit` with the given decimals: `12.35 ms`. */
export function formatTime(ns: number, unit: { unit: string; scale: number }, decimals: number): string {
  return `${(ns / unit.scale).toFixed(decimals)} ${unit.unit}`;
}

/** Ticks of a window drawn over `widthPx` pixels, at least `minSpacing` px apart. */
export function timeTicks(window: TimelineWindow, widthPx: number, minSpacing = 90): TimeTicks {
  const span = window.end - window.start;
  const step = niceStep(span, widthPx, minSpacing);
  // The unit suits the ticks' magnitude (at 12.3 ms with 0.5 µs steps: ms with 4 decimals).
  const unit = timeUnitFor(Math.max(Math.abs(window.start), Math.abs(window.end), step));
  const decimals = decimalsFor(step, unit.scale);
  const ticks: TimeTick[] = [];
  const first = Math.ceil(window.start / step) * step;
  for (let t = first, i = 0; t <= window.end && i < 1000; t = first + ++i * step) {
    ticks.push({ time: t, x: ((t - window.start) / span) * widthPx, label: formatTime(t, unit, decimals) });
  }
  return { step, unit: unit.unit, ticks };
}

/** A duration for tooltips and the stats panel: `1.23 ms`, `450 ns`. */
export function formatDuration(ns: number): string {
  if (!(ns > 0)) return ns === 0 ? '0 ns' : '–';
  const u = timeUnitFor(ns);
  const v = ns / u.scale;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${u.unit}`;
}
