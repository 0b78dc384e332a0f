import {
  DEFAULT_ENSEMBLE_OPTIONS,
  type EnsembleOptions,
  type EnsembleViewState,
} from '../../../shared/ensemble-protocol';

/** An Ensemble CallFlow view state for tests: summary mode over every run, the default options, with overrides. */
export function ensembleViewState(
  over: Partial<Omit<EnsembleViewState, 'options'>> & { options?: Partial<EnsembleOptions> } = {},
): EnsembleViewState {
  return {
    mode: 'summary',
    target: null,
    diff: null,
    runs: null,
    selected: null,
    ...over,
    options: { ...DEFAULT_ENSEMBLE_OPTIONS, ...over.options },
  };
}
