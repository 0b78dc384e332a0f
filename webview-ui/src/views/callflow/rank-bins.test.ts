import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rankHistogram } from '../../../../src/analysis/graph/rank-histogram';
import {
  binOfRanks,
  binsUnderBrush,
  formatRankRanges,
  rankRangesByBin,
  ranksInBins,
  shadowBands,
  shadowClutter,
} from './rank-bins';

/** Deterministic permutation (LCG-driven Fisher–Yates). */
function shuffled(n: number, seed = 7): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

describe('rank ranges and shadow lines', () => {
  test('groups each bin into maximal contiguous rank ranges', () => {
    const ranges = rankRangesByBin([0, 0, 1, 0, 0, 0, 2, 1], 3);
    assert.deepEqual(ranges, [
      [
        { start: 0, end: 1 },
        { start: 3, end: 5 },
      ],
      [
        { start: 2, end: 2 },
        { start: 7, end: 7 },
      ],
      [{ start: 6, end: 6 }],
    ]);
    assert.equal(formatRankRanges(ranges[0]!), '0–1, 3–5');
    assert.equal(formatRankRanges(ranges[1]!, ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']), 'r2, r7');
    assert.match(
      formatRankRanges(
        Array.from({ length: 20 }, (_, i) => ({ start: 2 * i, end: 2 * i })),
        undefined,
        3,
      ),
      /^0, 2, 4, … \(17 more ranges\)$/,
    );
  });

  test('AT-6: time decreasing with rank gives one band per bin; a random permutation clutters', () => {
    const n = 256;
    const ordered = Array.from({ length: n }, (_, r) => 100 - r * 0.3);
    const h = rankHistogram(ordered, 20);
    const clean = rankRangesByBin(h.binOf, 20);
    assert.ok(
      clean.every(r => r.length <= 1),
      'each bin maps to one contiguous rank range',
    );
    assert.equal(shadowClutter(clean), 0);
    const perm = shuffled(n);
    const random = rankHistogram(
      perm.map(p => ordered[p]!),
      20,
    );
    const cluttered = rankRangesByBin(random.binOf, 20);
    assert.ok(shadowClutter(cluttered) > 0.7, `clutter ${shadowClutter(cluttered)}`);
    assert.ok(cluttered.some(r => r.length > 3));
  });

  test('bands split each bin edge among its ranges by rank count and land on the rank axis', () => {
    const ranges = rankRangesByBin([0, 0, 1, 0], 2);
    const bands = shadowBands(ranges, 10, 40, p => p * 5, 5);
    assert.deepEqual(
      bands.map(b => [b.bin, b.x0, b.x1, b.r0, b.r1]),
      [
        [0, 10, 10 + (40 * 2) / 3, 0, 10],
        [0, 10 + (40 * 2) / 3, 50, 15, 20],
        [1, 50, 90, 10, 15],
      ],
    );
  });

  test('a brush over bins selects the ranks in them', () => {
    assert.deepEqual(binsUnderBrush(25, 61, 10, 10, 20), [1, 5]);
    assert.deepEqual(binsUnderBrush(0, 5, 10, 10, 20), null);
    assert.deepEqual(binsUnderBrush(0, 500, 10, 10, 20), [0, 19]);
    assert.deepEqual(ranksInBins([3, 0, 1, 2, 1], 1, 2), [2, 3, 4]);
  });

  test('binOf is recomputed from the edges when the host left it out', () => {
    const values = [1, 5, 9, 3, 10];
    const h = rankHistogram(values, 4);
    const { binOf, ...noBinOf } = h;
    assert.deepEqual(binOfRanks(noBinOf, values), binOf);
  });
});
