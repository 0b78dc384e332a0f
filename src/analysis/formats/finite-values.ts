import { quoteContent } from '../errors/escape-control';
import type { Profile } from '../model/profile';
import { isSparse, type SparseMatrix } from '../model/sparse-matrix';
import { ProfileReadError } from './reader';

/**
 * Rejects a profile whose numbers cannot be summed: a value that is not finite, or values whose
 * magnitudes add up beyond the largest double (~1.8e308), so that every total, inclusive value and
 * share derived later is finite. Such numbers are never measurements (1e308 samples, a duration of
 * 10^300 ns): the file is corrupt or hostile, and "total Infinity, NaN%" would say nothing useful.
 * Inclusive values derived from exclusive ones are bounded by the sum checked here, and exclusive
 * values derived from inclusive ones by twice it.
 */
export function checkFiniteValues(profile: Profile): void {
  const { data } = profile;
  // Index loops, not forEach and destructured [side, values] pairs: every read in a fresh process runs
  // this once, in the interpreter, where the iterator protocol is a cost of its first read.
  for (let m = 0; m < data.metrics.length; m++) {
    const metric = data.metrics[m]!;
    for (let s = 0; s < 2; s++) {
      const side = s === 0 ? 'exclusive' : 'inclusive';
      const given = data[side][m];
      const headroom = s === 0 ? 1 : 2;
      if (!given) continue;
      const values = isSparse(given) ? given.values : given;
      let sum = 0;
      // |v| without a Math.abs call per value, which a cold process makes one by one.
      for (let i = 0; i < values.length; i++) {
        const v = values[i]!;
        sum += v < 0 ? -v : v;
      }
      if (Number.isFinite(sum * headroom)) continue;
      const bad = values.findIndex(v => !Number.isFinite(v));
      const at = bad >= 0 ? bad : values.findIndex(v => Math.abs(v) > 1e300);
      const node = at < 0 ? -1 : isSparse(given) ? nodeOfEntry(given, at) : Math.floor(at / profile.contextCount);
      const where = node >= 0 ? ` (e.g. at ${quoteContent(profile.tree.name(node))})` : '';
      throw new ProfileReadError(
        profile.path,
        bad >= 0
          ? `the ${side} values of metric "${metric.name}" include ${values[bad]}${where}: the file is corrupt`
          : `the ${side} values of metric "${metric.name}" add up beyond 1.8e308, the largest number HPC Lens can hold${where}: the file is corrupt`,
      );
    }
  }
  const trace = data.trace;
  if (trace) {
    const [first, last] = trace.timeRange;
    if (!Number.isFinite(first) || !Number.isFinite(last) || !Number.isFinite(last - first))
      throw new ProfileReadError(
        profile.path,
        `the trace's time range [${first}, ${last}] is not finite: the file is corrupt`,
      );
    let bytes = 0;
    for (const b of trace.dataMovement.bytes) bytes += Math.abs(b);
    if (!Number.isFinite(bytes))
      throw new ProfileReadError(
        profile.path,
        'the bytes of the data-movement records add up beyond 1.8e308: the file is corrupt',
      );
  }
}

/** The node whose row holds entry k of a sparse matrix (the last row starting at or before k). */
function nodeOfEntry(s: SparseMatrix, k: number): number {
  let lo = 0,
    hi = s.offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (s.offsets[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
