/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The CallFlow filter in a toolbar (thesis §3.2.1): the threshold in percent of the total — a
 * preset (0, 0.01, 0.1, 0.5, 1, 5 %) or a typed value — and whether functions are compared by
 * inclusive or exclusive value. A typed value outside 0–100 % or not a number is refused on the spot
 * (the field says why) and the filter in force stays. Both CallFlow panels use it.
 */
import { useEffect, useId, useState } from 'react';
import {
  FILTER_THRESHOLD_PRESETS,
  parseThresholdPercent,
  percentText,
} from '../../../src/analysis/graph/callflow-filter-settings';
import { Segmented } from './segmented';

export interface FilterValue {
  /** Share of the total, 0 … 1. */
  threshold: number;
  by: 'inclusive' | 'exclusive';
}

/** `0.001` → `0.1` (the field shows percent without the sign). */
const percentField = (share: number): string => percentText(share).replace(/ %$/, '');

export function FilterControl({ value, onChange }: { value: FilterValue; onChange: (f: FilterValue) => void }) {
  const listId = `filter-presets-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const [text, setText] = useState(percentField(value.threshold));
  const [error, setError] = useState<string | null>(null);
  // The filter in force changed (the host answered, another dataset): show it.
  useEffect(() => {
    setText(percentField(value.threshold));
    setError(null);
  }, [value.threshold]);
  const commit = (typed: string): void => {
    const percent = parseThresholdPercent(typed);
    if (percent === null) {
      setError(`"${typed}" is not a threshold: type a number of percent from 0 to 100`);
      return;
    }
    setError(null);
    const threshold = percent / 100;
    if (Math.abs(threshold - value.threshold) > 1e-15) onChange({ threshold, by: value.by });
    else setText(percentField(value.threshold));
  };
  return (
    <div className="callflow-filter" role="group" aria-label="Filter">
      <label className="callflow-select" title="Functions below this share of the total are folded into their callers">
        Filter
        <input
          className={'callflow-filter-input' + (error ? ' is-invalid' : '')}
          type="text"
          inputMode="decimal"
          list={listId}
          value={text}
          size={5}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${listId}-error` : undefined}
          title={error ?? 'A preset, or type a share of the total in percent and press Enter'}
          data-filter-input=""
          onChange={e => {
            setText(e.target.value);
            // A preset picked from the list commits at once; typing waits for Enter or leaving the field.
            if ((FILTER_THRESHOLD_PRESETS as readonly number[]).map(String).includes(e.target.value.trim()))
              commit(e.target.value);
          }}
          onKeyDown={e => {
            if (e.key === 'Enter') commit(text);
            if (e.key === 'Escape') {
              setText(percentField(value.threshold));
              setError(null);
            }
          }}
          onBlur={() => {
            if (text.trim() !== percentField(value.threshold)) commit(text);
          }}
        />
        %
        <datalist id={listId}>
          {FILTER_THRESHOLD_PRESETS.map(p => (
            <option key={p} value={String(p)}>
              {p} %
            </option>
          ))}
        </datalist>
      </label>
      {error ? (
        <span className="callflow-filter-error" id={`${listId}-error`} role="alert">
          {error}
        </span>
      ) : null}
      <Segmented
        label="by"
        value={value.by}
        choices={[
          ['inclusive', 'Inclusive'],
          ['exclusive', 'Exclusive'],
        ]}
        onChange={by => onChange({ threshold: value.threshold, by })}
      />
    </div>
  );
}
