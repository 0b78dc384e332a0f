/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The DMV panel's page for one trace: a toolbar (the window, play, Use This Window for Overlays, the
 * added nvidia-smi files) over cards for every view — clock, flags, communication matrix, hardware,
 * metric timeline with the utilisation glyph, events and application view. Every view shows the
 * same window; the layout is computed from the page's width (so tests render it at real sizes).
 */
import type { ReactNode } from 'react';
import { sectorOf, sectorWindow } from '../../../../src/analysis/dmv/clock';
import type { DmvFlag } from '../../../../src/analysis/dmv/flags';
import type { DmvCellCopies, DmvOverviewResult, DmvWindowData } from '../../../../src/analysis/dmv/panel-data';
import { formatBytes, formatSeconds, formatShare } from '../../../../src/analysis/stats/format';
import type { DmvWindow } from '../../../../src/shared/dmv-protocol';
import { formatWindow } from '../../../../src/shared/timeline-protocol';
import { ApplicationPane } from './application-view';
import { ClassLegend, ClockView } from './clock-view';
import { EventsView } from './events-view';
import { FlagsView } from './flags-view';
import { HardwareDevices } from './hardware-view';
import { CellCopiesView, MatrixView } from './matrix-view';
import { GlyphView, MetricsView } from './metrics-view';

export const CARD_GAP = 12;
/** Narrow cards (clock, flags, matrix, hardware) are at least this wide; below two of them, one column. */
export const MIN_CARD = 380;

export interface DmvLayout {
  columns: 1 | 2;
  /** Content widths (inside the card's padding), px. */
  narrow: number;
  wide: number;
  clock: number;
}

const CARD_PADDING = 12;

/** Card widths for a page `width` px wide: two columns of narrow cards when they fit, wide cards across. */
export function dmvLayout(width: number): DmvLayout {
  const inner = Math.max(MIN_CARD, width - 2 * CARD_GAP);
  const columns = inner >= 2 * MIN_CARD + CARD_GAP ? 2 : 1;
  const narrowCard = columns === 2 ? (inner - CARD_GAP) / 2 : inner;
  const narrow = Math.floor(narrowCard - 2 * CARD_PADDING);
  return { columns, narrow, wide: Math.floor(inner - 2 * CARD_PADDING), clock: Math.min(420, narrow) };
}

/** The sector a window is exactly (a sector click or play step), else null. */
export function windowSector(overview: DmvOverviewResult, window: DmvWindow | null): number | null {
  if (!window) return null;
  const k = sectorOf(overview.clock, window.start);
  const w = sectorWindow(overview.clock, k);
  const eps = Math.max(1, overview.clock.sectorWidth * 1e-9);
  return Math.abs(w.start - window.start) <= eps && Math.abs(w.end - window.end) <= eps ? k : null;
}

export interface DmvTraceViewProps {
  title: string;
  overview: DmvOverviewResult;
  /** The selected window (null: whole run). */
  window: DmvWindow | null;
  data: DmvWindowData | null;
  cell: { src: number; dst: number } | null;
  cellData: DmvCellCopies | null;
  selectedFlag: string | null;
  playing: boolean;
  overlayWindow: DmvWindow | null;
  width: number;
  error: string | null;
  onWindow: (window: DmvWindow | null) => void;
  onPlay: (playing: boolean) => void;
  onCell: (src: number, dst: number) => void;
  onFlag: (flag: DmvFlag) => void;
  onOpen: (file: string, line: number | null, name: string) => void;
  onOpenEvent: (row: number) => void;
  onExpand: (key: number) => void;
  onGlyph: (left: string, right: string) => void;
  onUseForOverlays: (window: DmvWindow | null) => void;
  onFile: (kind: 'topology' | 'nvidiaSmi', action: 'add' | 'remove') => void;
  onDismissError: () => void;
  /** The hardware drawing's capacity (device boxes it holds) changed with its size. */
  onHardwareCapacity?: (capacity: number) => void;
}

function Card({
  view,
  title,
  drawn,
  wide,
  children,
  extra,
}: {
  view: string;
  title: string;
  drawn: number;
  wide?: boolean;
  children: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <section
      className={'dmv-card' + (wide ? ' is-wide' : '')}
      data-dmv-view={view}
      data-drawn={drawn}
      aria-label={title}
    >
      <header className="dmv-card-title">
        <span>{title}</span>
        {extra}
      </header>
      {children}
    </section>
  );
}

function windowSummary(d: DmvWindowData): string {
  const s = d.summary;
  const parts = [`${formatBytes(s.bytes)} copied`];
  if (s.memsetBytes > 0) parts.push(`${formatBytes(s.memsetBytes)} set`);
  if (s.faults > 0) parts.push(`${s.faults} page faults`);
  parts.push(`CPU ${formatShare(s.occupancy.cpu)} · GPU ${formatShare(s.occupancy.gpu)} busy`);
  return parts.join(' · ');
}

export function DmvTraceView(p: DmvTraceViewProps) {
  const { overview, data } = p;
  const layout = dmvLayout(p.width);
  const range = overview.range;
  const sector = windowSector(overview, p.window);
  const followsWindow =
    p.overlayWindow !== null &&
    p.window !== null &&
    p.overlayWindow.start === p.window.start &&
    p.overlayWindow.end === p.window.end;
  const files = overview.files;
  return (
    <div
      className="dmv-page"
      data-window-start={p.window?.start ?? ''}
      data-window-end={p.window?.end ?? ''}
      data-sector={sector ?? ''}
      data-playing={p.playing ? 'true' : 'false'}
      data-overlay-window={p.overlayWindow ? `${p.overlayWindow.start}-${p.overlayWindow.end}` : ''}
      data-request-window={data ? `${data.window.start}-${data.window.end}` : ''}
    >
      <div className="dmv-toolbar dmv-main-toolbar">
        <span className="dmv-title" title={overview.path}>
          {p.title}
        </span>
        <span className="dmv-window-label" data-window-label="">
          {p.window
            ? `Window ${formatWindow(p.window)}${sector !== null ? ` (sector ${sector})` : ''}`
            : `Whole run · ${formatSeconds((range.end - range.start) * 1e-9)}`}
        </span>
        <button
          className="dmv-button"
          data-control="play"
          onClick={() => p.onPlay(!p.playing)}
          title="Step the window one sector every 2 s"
        >
          {p.playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button className="dmv-button" data-control="whole-run" disabled={!p.window} onClick={() => p.onWindow(null)}>
          Whole Run
        </button>
        {p.overlayWindow ? (
          <button className="dmv-button" data-control="whole-run-overlays" onClick={() => p.onUseForOverlays(null)}>
            Use Whole Run for Overlays
          </button>
        ) : null}
        <button
          className="dmv-button"
          data-control="use-window"
          disabled={!p.window || followsWindow}
          onClick={() => p.onUseForOverlays(p.window)}
          title="CodeLens, heat, hovers and the side bar show only this window"
        >
          Use This Window for Overlays
        </button>
        <span className="dmv-spacer" />
        <button
          className="dmv-button is-secondary"
          data-control="topology"
          onClick={() => p.onFile('topology', files.topology ? 'remove' : 'add')}
          title={
            files.topology ? `Remove ${files.topology.path}` : 'Add the output of nvidia-smi topo -m for link types'
          }
        >
          {files.topology ? 'Remove Link Types' : 'Link Types…'}
        </button>
        <button
          className="dmv-button is-secondary"
          data-control="nvidia-smi"
          onClick={() => p.onFile('nvidiaSmi', files.nvidiaSmi ? 'remove' : 'add')}
          title={files.nvidiaSmi ? `Remove ${files.nvidiaSmi.path}` : 'Add GPU metrics from nvidia-smi --format=csv'}
        >
          {files.nvidiaSmi ? 'Remove nvidia-smi Metrics' : 'nvidia-smi Metrics…'}
        </button>
      </div>
      {overview.warnings.length || p.error ? (
        <div className="dmv-warnings">
          {overview.warnings.map((w, i) => (
            <div key={i} className="dmv-warning" data-warning="">
              {w}
            </div>
          ))}
          {p.error ? (
            <div className="dmv-warning is-error" data-error="">
              {p.error}{' '}
              <button className="dmv-link" onClick={p.onDismissError}>
                dismiss
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      <div className="dmv-cards" style={{ gridTemplateColumns: `repeat(${layout.columns}, minmax(0, 1fr))` }}>
        <Card view="clock" title="Clock" drawn={overview.clock.sectors.length} extra={<ClassLegend />}>
          <div className="dmv-clock-wrap">
            <ClockView
              clock={overview.clock}
              size={layout.clock}
              window={p.window}
              selectedSector={sector}
              onSector={k => p.onWindow(sectorWindow(overview.clock, k))}
            />
          </div>
          <div className="dmv-hint" data-window-summary="">
            {data ? windowSummary(data) : 'Computing the window…'}
          </div>
        </Card>
        <Card view="flags" title={`Flags (${overview.flags.length})`} drawn={overview.flags.length}>
          <FlagsView flags={overview.flags} selected={p.selectedFlag} onSelect={p.onFlag} onOpen={p.onOpen} />
        </Card>
        <Card view="matrix" title="Communication matrix" drawn={data?.matrix.cells.length ?? 0}>
          {data ? (
            <>
              <MatrixView matrix={data.matrix} width={layout.narrow} selected={p.cell} onCell={p.onCell} />
              {p.cellData ? <CellCopiesView data={p.cellData} onOpen={p.onOpen} /> : null}
            </>
          ) : null}
        </Card>
        <Card view="hardware" title="Hardware" drawn={data ? data.hardware.gpus.length + 1 : 0}>
          {data ? (
            <HardwareDevices
              hw={data.hardware}
              drawing={data.hardwareDrawing}
              width={layout.narrow}
              cell={p.cell}
              {...(p.onHardwareCapacity ? { onCapacity: p.onHardwareCapacity } : {})}
            />
          ) : null}
        </Card>
        <Card view="metrics" title="Metric timeline (by variance in the window)" drawn={data?.metrics.length ?? 0} wide>
          {data ? (
            <>
              <MetricsView rows={data.metrics} window={data.window} width={layout.wide} />
              <GlyphView glyph={data.glyph} metrics={overview.metrics} width={layout.wide} onPick={p.onGlyph} />
            </>
          ) : null}
        </Card>
        <Card view="events" title="Events" drawn={data?.events.items.length ?? 0} wide>
          {data ? (
            <EventsView
              events={data.events}
              tracks={overview.tracks}
              window={data.window}
              width={layout.wide}
              onOpen={p.onOpenEvent}
              onExpand={p.onExpand}
            />
          ) : null}
        </Card>
        <Card view="application" title="Application" drawn={data?.application.nodes.length ?? 0} wide>
          {data ? <ApplicationPane app={data.application} window={data.window} onOpen={p.onOpen} /> : null}
        </Card>
      </div>
    </div>
  );
}
