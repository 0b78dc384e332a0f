import { quoteContent } from '../errors/format-error';
import type { Profile } from '../model/profile';
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
  data.metrics.forEach((metric, m) => {
    for (const [side, matrix, headroom] of [
      ['exclusive', data.exclusive[m], 1],
      ['inclusive', data.inclusive[m], 2],
    ] as const) {
      if (!matrix) continue;
      let sum = 0;
      for (let i = 0; i < matrix.length; i++) sum += Math.abs(matrix[i]!);
      if (Number.isFinite(sum * headroom)) continue;
      const bad = matrix.findIndex(v => !Number.isFinite(v));
      const node = Math.floor((bad >= 0 ? bad : matrix.findIndex(v => Math.abs(v) > 1e300)) / profile.contextCount);
      const where = node >= 0 ? ` (e.g. at ${quoteContent(profile.tree.name(node))})` : '';
      throw new ProfileReadError(
        profile.path,
        bad >= 0
          ? `the ${side} values of metric "${metric.name}" include ${matrix[bad]}${where}: the file is corrupt`
          : `the ${side} values of metric "${metric.name}" add up beyond 1.8e308, the largest number HPC Lens can hold${where}: the file is corrupt`,
      );
    }
  });
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
