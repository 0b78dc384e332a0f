import type { SparseMatrix } from '../model/sparse-matrix';
import { contextStats } from './context-stats';

/** How one entry's value spreads over the execution contexts (ranks, threads, streams). */
export interface ContextSummary {
  min: number;
  mean: number;
  max: number;
  /** The middle value (the mean of the two middle ones for an even count): an ensemble's "median per run". */
  median: number;
  /** max / mean; 1 when balanced, 0 when the mean is 0. */
  imbalance: number;
  /** Index into `profile.contexts` of the context holding the max (the lowest one on ties). */
  maxContext: number;
}

/**
 * Summaries of the rows of a row-major matrix (`rows × contexts`), from context-stats so the
 * numbers match the rest of HPC Lens; only the arg-max is added here.
 */
export function summarizeRows(matrix: Float64Array, contexts: number): ContextSummary[] {
  const s = contextStats(matrix, contexts);
  return Array.from(s.min, (min, r) => {
    let maxContext = 0;
    for (let c = 1; c < contexts; c++)
      if (matrix[r * contexts + c]! > matrix[r * contexts + maxContext]!) maxContext = c;
    return { min, mean: s.mean[r]!, max: s.max[r]!, median: s.median[r]!, imbalance: s.imbalance[r]!, maxContext };
  });
}

/**
 * Adds row `from` of a node-major matrix into row `to` of `into` (both `contexts` wide): how a
 * list entry made of several nodes gets its per-context values.
 */
export function addRow(into: Float64Array, to: number, matrix: Float64Array, from: number, contexts: number): void {
  for (let c = 0; c < contexts; c++) into[to * contexts + c]! += matrix[from * contexts + c]!;
}

/** addRow from the sparse form: node `from`'s stored values only. */
export function addSparseRow(into: Float64Array, to: number, s: SparseMatrix, from: number, contexts: number): void {
  const base = to * contexts;
  for (let k = s.offsets[from]!, end = s.offsets[from + 1]!; k < end; k++) into[base + s.contexts[k]!]! += s.values[k]!;
}
