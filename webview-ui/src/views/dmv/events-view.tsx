/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's event view of the window: one lane per track with its events coloured by class. Above 1,000
 * events the host groups them by correlation context (a CPU call with the calls nested in it and
 * the GPU work it launched; thesis §7.4); a group is drawn hatched with its count on every lane it
 * covers, and a double click expands it. A click on an event opens its source line.
 */
import { useState } from 'react';
import type { DmvEventItem, DmvEvents, DmvTrackInfo } from '../../../../src/analysis/dmv/panel-data';
import { formatBytes, formatCount, formatSeconds } from '../../../../src/analysis/stats/format';
import type { DmvWindow } from '../../../../src/shared/dmv-protocol';
import { timeTicks } from '../timeline/time-axis';
import { categoryColour, CLASS_KEYS, CLASS_LABELS } from './dmv-geometry';

export const EVENT_LABEL_WIDTH = 150;
export const EVENT_LANE_HEIGHT = 20;
const AXIS = 20;

export interface EventRect {
  item: number;
  lane: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Rectangles of the items: an event on its lane, a group on each lane it covers; at least 1 px wide. */
export function eventRects(events: DmvEvents, window: DmvWindow, plotWidth: number): EventRect[] {
  const laneOf = new Map(events.tracks.map((t, i) => [t, i]));
  const span = window.end - window.start || 1;
  const x = (t: number) => Math.max(0, Math.min(plotWidth, ((t - window.start) / span) * plotWidth));
  const out: EventRect[] = [];
  events.items.forEach((it, k) => {
    const x0 = x(it.start),
      x1 = Math.max(x0 + 1, x(it.end));
    const tracks = it.type === 'event' ? [it.track] : it.tracks;
    for (const t of tracks) {
      const lane = laneOf.get(t);
      if (lane === undefined) continue;
      out.push({ item: k, lane, x: x0, y: AXIS + lane * EVENT_LANE_HEIGHT + 2, w: x1 - x0, h: EVENT_LANE_HEIGHT - 4 });
    }
  });
  return out;
}

/** Approximate width of the group counts' text (10 px digits). */
const countWidth = (text: string) => text.length * 6.2 + 6;

/** Counts on group rectangles wide enough for them, never two overlapping on one lane. */
export function groupLabels(
  events: DmvEvents,
  rects: EventRect[],
): { rect: number; x: number; y: number; text: string }[] {
  const out: { rect: number; x: number; y: number; text: string }[] = [];
  const laneEnd = new Map<number, number>();
  rects
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.x - b.r.x)
    .forEach(({ r, i }) => {
      const it = events.items[r.item]!;
      if (it.type !== 'group') return;
      const text = formatCount(it.count);
      const w = countWidth(text);
      if (r.w < w || r.x < (laneEnd.get(r.lane) ?? -Infinity)) return;
      laneEnd.set(r.lane, r.x + w);
      out.push({ rect: i, x: r.x + 3, y: r.y + r.h - 4, text });
    });
  return out;
}

function describe(it: DmvEventItem): string {
  const time = formatSeconds((it.end - it.start) * 1e-9);
  if (it.type === 'event')
    return `${it.name} · ${time}${it.bytes > 0 ? ` · ${formatBytes(it.bytes)}` : ''} (click to open its source)`;
  const classes = CLASS_KEYS.map((k, c) =>
    it.classes[c]! > 0 ? `${formatCount(it.classes[c]!)} ${CLASS_LABELS[k]}` : '',
  )
    .filter(Boolean)
    .join(', ');
  return `${it.kind === 'span' ? it.label : `${it.label}: ${formatCount(it.count)} events`} · ${time}${classes ? ` (${classes})` : ''} — double-click to expand`;
}

export function EventsView({
  events,
  tracks,
  window,
  width,
  onOpen,
  onExpand,
}: {
  events: DmvEvents;
  tracks: DmvTrackInfo[];
  window: DmvWindow;
  width: number;
  onOpen: (row: number) => void;
  onExpand: (key: number) => void;
}) {
  const [hover, setHover] = useState<number | null>(null);
  const plot = Math.max(80, width - EVENT_LABEL_WIDTH - 6);
  const rects = eventRects(events, window, plot);
  const height = AXIS + events.tracks.length * EVENT_LANE_HEIGHT + 2;
  const groups = events.items.filter(i => i.type === 'group').length;
  const ticks = timeTicks(window, plot, 110).ticks;
  const hovered = hover !== null ? events.items[hover] : undefined;
  return (
    <div
      className="dmv-events"
      data-items={events.items.length}
      data-groups={groups}
      data-lanes={events.tracks.length}
      data-total={events.total}
    >
      <div className="dmv-hint">
        {events.grouped
          ? `${formatCount(events.total)} events in the window, grouped by correlation context into ${formatCount(events.items.length)} items (double-click a hatched group to expand it)`
          : `${formatCount(events.total)} events in the window`}
        {events.truncated > 0 ? `; ${formatCount(events.truncated)} more not drawn` : ''}
      </div>
      <div className="dmv-scroll" style={{ maxHeight: 340 }}>
        <div className="dmv-events-body" style={{ height }}>
          <div className="dmv-lane-labels" style={{ width: EVENT_LABEL_WIDTH, paddingTop: AXIS }}>
            {events.tracks.map(t => {
              const info = tracks[t];
              return (
                <div
                  key={t}
                  className="dmv-lane-label"
                  style={{ height: EVENT_LANE_HEIGHT }}
                  title={info ? `${info.process} · ${info.name}` : String(t)}
                >
                  {info?.name ?? `track ${t}`}
                </div>
              );
            })}
          </div>
          <svg width={plot} height={height} className="dmv-events-plot">
            {ticks.map(t => (
              <g key={t.time}>
                <line className="dmv-gridline" x1={t.x} x2={t.x} y1={AXIS - 4} y2={height} />
                <text className="dmv-axis-label" x={t.x + 3} y={AXIS - 7}>
                  {t.label}
                </text>
              </g>
            ))}
            {rects.map((r, i) => {
              const it = events.items[r.item]!;
              const group = it.type === 'group';
              return (
                <rect
                  key={i}
                  className={'dmv-event' + (group ? ' is-group' : '') + (hover === r.item ? ' is-hover' : '')}
                  x={r.x}
                  y={r.y}
                  width={r.w}
                  height={r.h}
                  style={{ fill: categoryColour(it.category), stroke: group ? categoryColour(it.category) : undefined }}
                  data-item={r.item}
                  data-row={it.type === 'event' ? it.row : undefined}
                  data-group={group ? it.key : undefined}
                  onClick={it.type === 'event' ? () => onOpen(it.row) : undefined}
                  onDoubleClick={group ? () => onExpand(it.key) : undefined}
                  onMouseEnter={() => setHover(r.item)}
                  onMouseLeave={() => setHover(h => (h === r.item ? null : h))}
                />
              );
            })}
            {groupLabels(events, rects).map(l => (
              <text key={`t${l.rect}`} className="dmv-group-count" x={l.x} y={l.y} pointerEvents="none">
                {l.text}
              </text>
            ))}
          </svg>
        </div>
      </div>
      <div className="dmv-hint dmv-hover-line" data-hover-item={hover ?? ''}>
        {hovered ? describe(hovered) : '\u00a0'}
      </div>
    </div>
  );
}
