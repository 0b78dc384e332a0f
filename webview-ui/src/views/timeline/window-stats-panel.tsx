/** @jsxRuntime automatic */
/**
 * Statistics of a selected time range: per-function time in the window (table with a horizontal
 * bar per row), busy and idle per lane, bytes moved per direction, and the buttons that make the
 * editor overlays follow the window (or the whole run again).
 */
import { colourOf } from '../../../../src/analysis/timeline/colors';
import type { TimelineWindow, TimelineWindowStatsMessage } from '../../../../src/shared/timeline-protocol';
import { formatWindow } from '../../../../src/shared/timeline-protocol';
import { formatBytes } from '../../format';
import { formatDuration } from './time-axis';

const FUNCTION_ROWS = 25;
const LANE_ROWS = 16;

export function WindowStatsPanel({
  window,
  stats,
  laneLabel,
  overlayWindow,
  onUse,
  onWholeRun,
  onZoom,
  onClose,
}: {
  window: TimelineWindow;
  stats: TimelineWindowStatsMessage | null;
  laneLabel(track: number): string;
  overlayWindow: TimelineWindow | null;
  onUse(): void;
  onWholeRun(): void;
  onZoom(): void;
  onClose(): void;
}) {
  const span = window.end - window.start;
  const using = overlayWindow !== null && overlayWindow.start === window.start && overlayWindow.end === window.end;
  const fns = stats?.functions.slice(0, FUNCTION_ROWS) ?? [];
  const maxIncl = Math.max(1, ...fns.map(f => f.inclusive));
  const lanes = stats ? [...stats.lanes].sort((a, b) => b.busy - a.busy).slice(0, LANE_ROWS) : [];
  const bytes = stats ? Object.entries(stats.bytes).filter(([, v]) => v.count > 0) : [];
  return (
    <section className="timeline-stats" aria-label="Window statistics">
      <header className="timeline-stats-header">
        <h2>
          Window {formatWindow(window)}{' '}
          <span className="timeline-sub">
            ({formatDuration(span)}
            {stats ? ` · ${stats.eventCount.toLocaleString('en-US')} events` : ''})
          </span>
        </h2>
        <div className="timeline-buttons">
          <button
            type="button"
            className="primary"
            onClick={onUse}
            disabled={using}
            data-action="use-window"
            title="Re-weight the editor heat, CodeLens, side-bar views and Sankey to this window"
          >
            {using ? 'Overlays use this window' : 'Use This Window for Overlays'}
          </button>
          {overlayWindow ? (
            <button type="button" onClick={onWholeRun}>
              Use Whole Run
            </button>
          ) : null}
          <button type="button" onClick={onZoom} data-action="zoom-to-window">
            Zoom to Window
          </button>
          <button type="button" onClick={onClose} aria-label="Close window statistics">
            ✕
          </button>
        </div>
      </header>
      {!stats ? (
        <div className="timeline-stats-loading" role="status">
          Computing…
        </div>
      ) : (
        <div className="timeline-stats-body">
          <table className="timeline-stats-functions">
            <caption>Time per function in the window</caption>
            <thead>
              <tr>
                <th scope="col">Function</th>
                <th scope="col" className="num">
                  Inclusive
                </th>
                <th scope="col" className="num">
                  Exclusive
                </th>
                <th scope="col" className="num">
                  Count
                </th>
                <th scope="col" className="bar-col">
                  <span className="visually-hidden">Inclusive time as a bar</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {fns.map(f => (
                <tr key={f.nameId} data-function={f.name}>
                  <th scope="row" title={f.name}>
                    <span className="timeline-chip" style={{ background: colourOf(f.name) }} />
                    {f.name}
                  </th>
                  <td className="num">
                    {f.inclusive > 0 ? formatDuration(f.inclusive) : f.samples ? `${f.samples} samples` : '–'}
                  </td>
                  <td className="num">
                    {f.exclusive > 0
                      ? formatDuration(f.exclusive)
                      : f.samplesExclusive
                        ? `${f.samplesExclusive} samples`
                        : '–'}
                  </td>
                  <td className="num">{f.count || f.samples}</td>
                  <td className="bar-col">
                    <div
                      className="timeline-bar"
                      style={{ width: `${(f.inclusive / maxIncl) * 100}%`, background: colourOf(f.name) }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="timeline-stats-side">
            <table className="timeline-stats-lanes">
              <caption>Busy per lane</caption>
              <tbody>
                {lanes.map(l => (
                  <tr key={l.track}>
                    <th scope="row" title={laneLabel(l.track)}>
                      {laneLabel(l.track)}
                    </th>
                    <td className="bar-col">
                      <div
                        className="timeline-busy"
                        title={`${formatDuration(l.busy)} busy, ${formatDuration(l.idle)} idle`}
                      >
                        <div style={{ width: `${(l.busy / span) * 100}%` }} />
                      </div>
                    </td>
                    <td className="num">{((l.busy / span) * 100).toFixed(0)}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {bytes.length ? (
              <table className="timeline-stats-bytes">
                <caption>Bytes moved</caption>
                <tbody>
                  {bytes.map(([k, v]) => (
                    <tr key={k}>
                      <th scope="row">{k}</th>
                      <td className="num">{formatBytes(v.bytes)}</td>
                      <td className="num">{v.count}×</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </div>
        </div>
      )}
    </section>
  );
}
