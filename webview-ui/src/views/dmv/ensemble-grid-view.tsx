/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's trace ensemble (thesis §7.4, view G): a grid of clock glyphs, one per run, the inner disc
 * coloured by the run's runtime percentile (fastest white, slowest red), runtime and bytes below.
 * **Sort** orders the runs by runtime; **Compare** gives every clock the longest run's sectors (its
 * runtime / 12), so a shorter run fills fewer hours. A click opens the run with all its views.
 */
import { useState } from 'react';
import type { DmvEnsembleResult } from '../../../../src/analysis/dmv/panel-data';
import { formatSeconds } from '../../../../src/analysis/stats/format';
import type { DmvEnsembleMode } from '../../../../src/shared/dmv-protocol';
import { Segmented } from '../../components/segmented';
import { ClassLegend, ClockView } from './clock-view';
import { CLASS_KEYS, percentileFill } from './dmv-geometry';

/** Clocks drawn at first; the rest on request (a 1,000-run grid stays responsive). */
export const FIRST_CLOCKS = 120;
export const GRID_CLOCK_SIZE = 150;

/** In compare mode one bar scale for every clock (same sector width, so the same busy time is the same bar). */
export function sharedMaxTotal(grid: DmvEnsembleResult): number | undefined {
  if (grid.mode !== 'compare') return undefined;
  let max = 0;
  for (const r of grid.runs)
    for (const s of r.clock.sectors)
      max = Math.max(
        max,
        CLASS_KEYS.reduce((t, k) => t + s.busy[k], 0),
      );
  return max > 0 ? max : undefined;
}

/** A run's name without the folders it was found in (the tooltip has its path). */
export function runLabel(name: string): string {
  return name.split('/').pop() || name;
}

export function EnsembleGridView({
  grid,
  mode,
  sort,
  onMode,
  onSort,
  onOpen,
}: {
  grid: DmvEnsembleResult;
  mode: DmvEnsembleMode;
  sort: boolean;
  onMode: (mode: DmvEnsembleMode) => void;
  onSort: (sort: boolean) => void;
  onOpen: (path: string) => void;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? grid.runs : grid.runs.slice(0, FIRST_CLOCKS);
  const maxTotal = sharedMaxTotal(grid);
  return (
    <div
      className="dmv-ensemble"
      data-runs={grid.runs.length}
      data-mode={grid.mode}
      data-sector-width={grid.sectorWidth ?? ''}
    >
      <div className="dmv-toolbar">
        <Segmented
          label="Clocks"
          value={mode}
          choices={[
            ['own', 'Each run'],
            ['compare', 'Compare'],
          ]}
          onChange={onMode}
        />
        <label className="dmv-check">
          <input type="checkbox" checked={sort} onChange={e => onSort(e.target.checked)} data-control="sort" /> Sort by
          runtime
        </label>
        <span className="dmv-muted">
          {grid.runs.length} runs
          {grid.sectorWidth !== null
            ? ` · sectors of ${formatSeconds(grid.sectorWidth * 1e-9)} (longest run / 12)`
            : ''}
        </span>
        <ClassLegend />
      </div>
      <div className="dmv-grid">
        {shown.map(r => (
          <button
            key={r.path}
            className="dmv-grid-run"
            data-run={r.name}
            data-runtime={r.runtime}
            data-percentile={r.percentile}
            title={`${r.path}\nruntime ${r.clock.labels.runtime} · ${r.clock.labels.bytes} copied · percentile ${(r.percentile * 100).toFixed(0)}\nClick to open this run.`}
            onClick={() => onOpen(r.path)}
          >
            <ClockView
              clock={r.clock}
              size={GRID_CLOCK_SIZE}
              compact
              discFill={percentileFill(r.percentile)}
              {...(maxTotal !== undefined ? { maxTotal } : {})}
            />
            <span className="dmv-grid-name">{runLabel(r.name)}</span>
            <span className="dmv-grid-labels">
              {r.clock.labels.runtime} · {r.clock.labels.bytes}
            </span>
          </button>
        ))}
      </div>
      {!all && grid.runs.length > FIRST_CLOCKS ? (
        <button className="dmv-button" onClick={() => setAll(true)}>
          Show all {grid.runs.length} runs
        </button>
      ) : null}
    </div>
  );
}
