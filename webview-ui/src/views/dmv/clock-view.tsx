/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's clock glyph (thesis §7.4, Fig. 7.6): the run's range in 12 sectors, each a stack of radial
 * bars of busy time per class (data movement innermost, then GPU compute, runtime and CPU compute),
 * the bytes copied written outside, the window as an arc inside, runtime and bytes in the middle. A
 * sector click selects it as the window; hovering tells the sector's time per class, bytes per
 * direction and occupancy. The compact form is the ensemble grid's glyph (inner disc = runtime
 * percentile).
 */
import { useState } from 'react';
import type { BinSummary, DmvClock } from '../../../../src/analysis/dmv/clock';
import { formatBytes, formatCount, formatSeconds, formatShare } from '../../../../src/analysis/stats/format';
import type { DmvWindow } from '../../../../src/shared/dmv-protocol';
import { tooltipPlacement } from '../../components/tooltip-placement';
import {
  annularSector,
  CLASS_COLOURS,
  CLASS_KEYS,
  CLASS_LABELS,
  clockBars,
  clockLayout,
  polar,
  sectorAngles,
  sectorLabelPosition,
  windowArcAngles,
} from './dmv-geometry';

export interface ClockViewProps {
  clock: DmvClock;
  /** Side of the square, px. */
  size: number;
  window?: DmvWindow | null;
  /** The sector the window is (null when the window is not one sector). */
  selectedSector?: number | null;
  onSector?: (sector: number) => void;
  /** The ensemble grid's glyph: no sector labels, a coloured inner disc. */
  compact?: boolean;
  /** Bar scale shared by several clocks (busy ns of a full bar); default the clock's fullest sector. */
  maxTotal?: number;
  /** Fill of the inner disc (compact). */
  discFill?: string;
}

const ns = (v: number) => formatSeconds(v * 1e-9);

/** The text of a sector's tooltip, line by line. */
export function sectorTooltip(s: BinSummary, k: number): string[] {
  const lines = [`Sector ${k} · ${ns(s.start)} – ${ns(s.end)}`];
  for (const key of CLASS_KEYS) lines.push(`${CLASS_LABELS[key]}: ${ns(s.busy[key])}`);
  const d = s.bytesByDirection;
  const dirs = (
    [
      ['H→D', d.hostToDevice],
      ['D→H', d.deviceToHost],
      ['D→D', d.deviceToDevice],
      ['P2P', d.peer],
      ['unknown direction', d.other],
    ] as const
  ).filter(([, b]) => b > 0);
  lines.push(
    dirs.length
      ? `copied: ${dirs.map(([l, b]) => `${l} ${formatBytes(b)}`).join(', ')} (${formatCount(s.copies)} ${s.copies === 1 ? 'copy starts' : 'copies start'} here)`
      : 'copied: nothing',
  );
  if (s.memsetBytes > 0) lines.push(`memset: ${formatBytes(s.memsetBytes)}`);
  if (s.migrationBytes > 0) lines.push(`unified-memory migrations: ${formatBytes(s.migrationBytes)}`);
  if (s.faults > 0) lines.push(`unified-memory page faults: ${formatCount(s.faults)}`);
  lines.push(`occupancy: CPU ${formatShare(s.occupancy.cpu)} · GPU ${formatShare(s.occupancy.gpu)}`);
  return lines;
}

/** The label outside a sector: its bytes, and its page faults when there are any. */
export function sectorLabel(s: BinSummary): string {
  return sectorLabelLines(s).join(' ');
}

/**
 * The label's lines: bytes, then page faults on a line of their own (one line of both is too wide
 * for the room beside the bars at 3 and 9 o'clock).
 */
export function sectorLabelLines(s: BinSummary): string[] {
  const lines: string[] = [];
  if (s.bytes > 0) lines.push(formatBytes(s.bytes));
  if (s.faults > 0) lines.push(`⚡${formatCount(s.faults)}`);
  return lines;
}

/** Line height of the sector labels (10.5 px font), px. */
const LABEL_LINE = 12;

export function ClockView({
  clock,
  size,
  window = null,
  selectedSector = null,
  onSector,
  compact = false,
  maxTotal,
  discFill,
}: ClockViewProps) {
  const [hover, setHover] = useState<number | null>(null);
  const layout = clockLayout(size, compact);
  const n = clock.sectors.length;
  const bars = clockBars(clock, layout, maxTotal);
  const arc = windowArcAngles(clock, window);
  const { cx, cy } = layout;
  return (
    <div className="dmv-clock" style={{ width: size, height: size }}>
      <svg
        width={size}
        height={size}
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={`Clock of ${clock.labels.runtime}, ${clock.labels.bytes} copied`}
        data-dmv-clock=""
        data-sectors={n}
        data-bars={bars.length}
        data-selected={selectedSector ?? ''}
        data-arc={arc ? `${arc.a0.toFixed(4)}-${arc.a1.toFixed(4)}` : ''}
        data-bytes={clock.bytes}
      >
        {/* Sector backgrounds: the hit areas, and the hours of the clock. */}
        {clock.sectors.map((s, k) => {
          const { a0, a1 } = sectorAngles(k, n, 0.01);
          return (
            <path
              key={`bg${k}`}
              className={'dmv-sector' + (k === selectedSector ? ' is-selected' : '') + (k === hover ? ' is-hover' : '')}
              d={annularSector(cx, cy, layout.barInner - 2, layout.barOuter + 2, a0, a1)}
              data-sector={k}
              data-bytes={Math.round(s.bytes)}
              data-faults={s.faults}
              onClick={onSector ? () => onSector(k) : undefined}
              onMouseEnter={() => setHover(k)}
              onMouseLeave={() => setHover(h => (h === k ? null : h))}
            >
              {compact ? <title>{sectorTooltip(s, k).join('\n')}</title> : null}
            </path>
          );
        })}
        {bars.map(b => (
          <path
            key={`${b.sector}:${b.key}`}
            className="dmv-bar"
            d={b.path}
            fill={CLASS_COLOURS[b.key]}
            data-sector={b.sector}
            data-class={b.key}
            pointerEvents="none"
          />
        ))}
        <circle
          className="dmv-clock-disc"
          cx={cx}
          cy={cy}
          r={layout.discRadius}
          style={discFill ? { fill: discFill } : undefined}
        />
        {arc ? (
          <path
            className="dmv-window-arc"
            d={annularSector(cx, cy, layout.arcRadius - 2, layout.arcRadius + 2, arc.a0, arc.a1)}
            pointerEvents="none"
          />
        ) : null}
        {!compact
          ? clock.sectors.map((s, k) => {
              const lines = sectorLabelLines(s);
              if (!lines.length) return null;
              const p = sectorLabelPosition(k, n, layout);
              // Lines stack away from the centre: upwards in the upper half, downwards in the lower.
              const up = Math.cos(sectorAngles(k, n, 0).mid) > 0;
              return lines.map((text, i) => (
                <text
                  key={`l${k}:${i}`}
                  className={i === 0 ? 'dmv-sector-label' : 'dmv-sector-label-more'}
                  x={p.x}
                  y={p.y + (up ? i - (lines.length - 1) : i) * LABEL_LINE}
                  textAnchor={p.anchor}
                  data-sector={k}
                  pointerEvents="none"
                >
                  {text}
                </text>
              ));
            })
          : null}
        {!compact ? (
          <>
            <text className="dmv-clock-runtime" x={cx} y={cy - 2} textAnchor="middle" pointerEvents="none">
              {clock.labels.runtime}
            </text>
            <text className="dmv-clock-bytes" x={cx} y={cy + 15} textAnchor="middle" pointerEvents="none">
              {clock.labels.bytes}
            </text>
          </>
        ) : null}
      </svg>
      {!compact && hover !== null && clock.sectors[hover] ? (
        <div
          className="dmv-tooltip dmv-clock-tooltip"
          role="tooltip"
          data-sector={hover}
          style={tooltipAt(hover, n, layout)}
        >
          {sectorTooltip(clock.sectors[hover]!, hover).map((l, i) => (
            <div key={i} className={i === 0 ? 'dmv-tooltip-title' : undefined}>
              {l}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

const TOOLTIP = { width: 250, height: 170 };

/** Beside the hovered sector, inside the clock's square. */
function tooltipAt(k: number, n: number, layout: ReturnType<typeof clockLayout>): { left: number; top: number } {
  const [x, y] = polar(layout.cx, layout.cy, layout.barOuter, sectorAngles(k, n, 0).mid);
  const box = { width: Math.max(layout.size, TOOLTIP.width + 8), height: Math.max(layout.size, TOOLTIP.height + 8) };
  return tooltipPlacement(x, y, TOOLTIP, box, x > layout.cx ? 'left' : 'right');
}

/** The clock's legend: one swatch per class. */
export function ClassLegend() {
  return (
    <div className="dmv-legend" aria-label="classes">
      {CLASS_KEYS.map(k => (
        <span key={k} className="dmv-legend-item">
          <span className="dmv-swatch" style={{ background: CLASS_COLOURS[k] }} />
          {CLASS_LABELS[k]}
        </span>
      ))}
    </div>
  );
}
