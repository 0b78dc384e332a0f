import { functionInclusiveByContext, type FunctionTotals } from '../model/aggregates';
import type { Profile } from '../model/profile';
import { addSparseRow } from './context-summary';

/**
 * Index of a function given by name or by index into `totals.names`: -1 for a name the profile
 * does not have, a RangeError for an index out of range (a caller's bug, not a user's typo).
 */
export function functionIndex(totals: FunctionTotals, fn: string | number): number {
  if (typeof fn === 'string') return totals.names.indexOf(fn);
  if (!(Number.isInteger(fn) && fn >= 0 && fn < totals.names.length))
    throw new RangeError(`function ${fn} does not exist`);
  return fn;
}

/**
 * Per-context values of the given functions (row r = functions[r], `contexts` wide): exclusive
 * sums every node the function owns, inclusive its outermost frames (aggregates' rules). O(n × C).
 */
export function functionRows(
  profile: Profile,
  m: number,
  totals: FunctionTotals,
  functions: readonly number[],
  side: 'exclusive' | 'inclusive',
): Float64Array {
  const C = profile.contextCount;
  const rows = new Float64Array(functions.length * C);
  if (side === 'inclusive') {
    const byFunction = functionInclusiveByContext(profile, m, totals);
    functions.forEach((f, r) => rows.set(byFunction.subarray(f * C, (f + 1) * C), r * C));
    return rows;
  }
  const rowOf = new Int32Array(totals.names.length).fill(-1);
  functions.forEach((f, r) => (rowOf[f] = r));
  const excl = profile.sparse('exclusive', m);
  for (let i = 0; i < profile.tree.size; i++) {
    const f = totals.functionOfNode[i]!;
    if (f >= 0 && rowOf[f]! >= 0) addSparseRow(rows, rowOf[f]!, excl, i, C);
  }
  return rows;
}
