/**
 * DMV (thesis ch. 7) as a system of the analysis service: it analyses trace datasets (Kineto,
 * Nsight, Chrome traces with copies). The index of a trace is built once per category-rule set and
 * kept with the dataset in its home worker.
 */
import { compileCategoryRules } from '../../analysis/dmv/categories';
import { DmvIndex } from '../../analysis/dmv/dmv-index';
import { dataMovementReport, type DataMovementReport } from '../../analysis/dmv/report';
import type { Profile } from '../../analysis/model/profile';
import type { AnalysisSystem } from './analysis-system';

export type DataMovementRequest =
  /** The `hpc-lens data-movement --json` summary; `rules` as the setting hpcLens.dmv.categoryRules holds them. */
  { kind: 'report'; rules?: unknown };

export interface DataMovementShape {
  open: never;
  opened: never;
  request: DataMovementRequest;
  results: { report: DataMovementReport };
  event: never;
}

interface DataMovementState {
  profile: Profile;
  /** The index for the last rule set asked for (rules change rarely: one is kept). */
  index?: { rules: string; index: DmvIndex };
}

function indexFor(state: DataMovementState, rules: unknown): DmvIndex {
  const key = JSON.stringify(rules ?? null);
  if (state.index?.rules === key) return state.index.index;
  if (!state.profile.trace) throw new Error(`a ${state.profile.format} profile has no timeline of events`);
  const compiled = rules === undefined ? undefined : compileCategoryRules(rules);
  if (compiled?.errors.length) throw new Error(`category rules: ${compiled.errors.join('; ')}`);
  const index = new DmvIndex(state.profile, compiled ? { rules: compiled } : {});
  state.index = { rules: key, index };
  return index;
}

export const dataMovementSystem: AnalysisSystem<DataMovementShape, DataMovementState> = {
  attach: profile => ({ profile }),
  answer(state, request) {
    switch (request.kind) {
      case 'report':
        return dataMovementReport(indexFor(state, request.rules));
    }
  },
};
