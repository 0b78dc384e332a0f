/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The Ensemble CallFlow panel's toolbar (seed-callflow §4.8–4.9): the analytic mode, the target run
 * or the diff pair, the gradient and border sides, the bin count, text guides, the ordering
 * parameter, the run subset with a way back to all runs, and the metric. Every control sends the
 * matching `EnsembleRequest`; the host answers with the new state, which the controls show (they
 * hold no state of their own).
 */
import type {
  EnsembleGraphData,
  EnsembleMode,
  EnsembleRequest,
  EnsembleSide,
  EnsembleViewState,
} from '../../../../src/shared/ensemble-protocol';
import { formatValue } from '../../format';
import { Segmented } from '../../components/segmented';

export interface EnsembleToolbarProps {
  data: EnsembleGraphData;
  state: EnsembleViewState;
  onRequest(r: EnsembleRequest): void;
}

export const BIN_CHOICES: (number | 'auto')[] = [5, 10, 20, 40, 'auto'];

const MODES: [EnsembleMode, string][] = [
  ['summary', 'Ensemble'],
  ['target', 'Target vs ensemble'],
  ['diff', 'Diff of two runs'],
];
const SIDES: [EnsembleSide, string][] = [
  ['inclusive', 'Inclusive'],
  ['exclusive', 'Exclusive'],
];

/** `name · 12.3 s` for the run lists. */
function runLabel(data: EnsembleGraphData, run: EnsembleGraphData['runs'][number]): string {
  return `${run.name} · ${formatValue(run.total, data.metric.unit)}`;
}

export function EnsembleToolbar({ data, state, onRequest }: EnsembleToolbarProps) {
  const options = state.options;
  const setOptions = (o: Partial<EnsembleViewState['options']>): void =>
    onRequest({ type: 'ensemble/options', options: o });
  const runs = data.runs;
  const canCompare = runs.length >= 2;
  const bins: (number | 'auto')[] = BIN_CHOICES.includes(options.bins)
    ? BIN_CHOICES
    : [...BIN_CHOICES, options.bins].sort(binOrder);
  const pair = state.diff;
  // A pair picked from one list keeps the other end, or takes the first other run.
  const otherThan = (run: number): number => runs.find(r => r.index !== run)?.index ?? run;
  return (
    <div className="callflow-toolbar ens-toolbar" role="toolbar" aria-label="Ensemble options">
      <Segmented
        label="Mode"
        value={state.mode}
        choices={MODES}
        disabled={m => m === 'diff' && !canCompare}
        onChange={mode => onRequest({ type: 'ensemble/mode', mode })}
      />
      {state.mode === 'target' ? (
        <label className="callflow-select">
          Target
          <select
            aria-label="Target run"
            value={state.target ?? ''}
            onChange={e => onRequest({ type: 'ensemble/target', run: Number(e.target.value) })}
          >
            {state.target === null ? (
              <option value="" disabled>
                Pick a run
              </option>
            ) : null}
            {runs.map(r => (
              <option key={r.index} value={r.index}>
                {runLabel(data, r)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {state.mode === 'diff' ? (
        <span className="ens-toolbar-pair">
          <label className="callflow-select">
            Baseline
            <select
              aria-label="Baseline run"
              value={pair?.baseline ?? ''}
              onChange={e => {
                const baseline = Number(e.target.value);
                onRequest({
                  type: 'ensemble/diff',
                  baseline,
                  compare: pair && pair.compare !== baseline ? pair.compare : otherThan(baseline),
                });
              }}
            >
              {pair ? null : (
                <option value="" disabled>
                  Pick a run
                </option>
              )}
              {runs.map(r => (
                <option key={r.index} value={r.index}>
                  {runLabel(data, r)}
                </option>
              ))}
            </select>
          </label>
          <button
            className="callflow-button ens-swap"
            aria-label="Swap baseline and compare"
            title="Swap baseline and compare"
            disabled={!pair}
            onClick={() => {
              if (pair) onRequest({ type: 'ensemble/diff', baseline: pair.compare, compare: pair.baseline });
            }}
          >
            ⇄
          </button>
          <label className="callflow-select">
            Compare
            <select
              aria-label="Compare run"
              value={pair?.compare ?? ''}
              onChange={e => {
                const compare = Number(e.target.value);
                onRequest({
                  type: 'ensemble/diff',
                  baseline: pair && pair.baseline !== compare ? pair.baseline : otherThan(compare),
                  compare,
                });
              }}
            >
              {pair ? null : (
                <option value="" disabled>
                  Pick a run
                </option>
              )}
              {runs.map(r => (
                <option key={r.index} value={r.index}>
                  {runLabel(data, r)}
                </option>
              ))}
            </select>
          </label>
        </span>
      ) : null}
      <Segmented
        label="Gradient"
        value={options.gradientSide}
        choices={SIDES}
        onChange={gradientSide => setOptions({ gradientSide })}
      />
      <Segmented
        label="Border"
        value={options.borderSide}
        choices={SIDES}
        onChange={borderSide => setOptions({ borderSide })}
      />
      <label className="callflow-select">
        Bins
        <select
          aria-label="Histogram bins"
          value={String(options.bins)}
          onChange={e => setOptions({ bins: e.target.value === 'auto' ? 'auto' : Number(e.target.value) })}
        >
          {bins.map(b => (
            <option
              key={String(b)}
              value={String(b)}
              title={b === 'auto' ? 'Freedman–Diaconis rule, per node' : undefined}
            >
              {b === 'auto' ? 'auto' : b}
            </option>
          ))}
        </select>
      </label>
      <label className="callflow-check">
        <input
          type="checkbox"
          aria-label="Text guides"
          checked={options.textGuides}
          onChange={e => setOptions({ textGuides: e.target.checked })}
        />{' '}
        Text guides
      </label>
      <label className="callflow-select">
        Order by
        <select
          aria-label="Order runs by"
          value={options.orderBy ?? ''}
          disabled={data.orderKeys.length === 0 && options.orderBy === null}
          title={
            data.orderKeys.length === 0
              ? 'No run parameter takes two or more values'
              : 'Sparklines of each node against this parameter'
          }
          onChange={e => setOptions({ orderBy: e.target.value === '' ? null : e.target.value })}
        >
          <option value="">none</option>
          {[...new Set([...data.orderKeys, ...(options.orderBy ? [options.orderBy] : [])])].map(k => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <span className="callflow-toolbar-spacer" />
      {state.runs ? (
        <span className="ens-subset" role="status">
          <span className="ens-subset-count">
            {state.runs.length} of {runs.length} runs
          </span>
          <button className="callflow-button" onClick={() => onRequest({ type: 'ensemble/runs', runs: null })}>
            All runs
          </button>
        </span>
      ) : (
        <span className="callflow-muted">{runs.length} runs</span>
      )}
      <span className="ens-metric" title={`Each run's value is the mean over its ranks`}>
        {data.metric.name}
        {data.metric.unit.trim() ? <span className="callflow-muted"> ({data.metric.unit.trim()})</span> : null}
      </span>
      {data.warnings.length || data.unmatched.length ? (
        <span
          className="ens-warnings"
          role="note"
          title={[...data.warnings, ...data.unmatched.map(u => `split or reveal no longer matches: ${u}`)].join('\n')}
        >
          ⚠ {data.warnings.length + data.unmatched.length}
        </span>
      ) : null}
    </div>
  );
}

function binOrder(a: number | 'auto', b: number | 'auto'): number {
  return (a === 'auto' ? Infinity : a) - (b === 'auto' ? Infinity : b);
}
