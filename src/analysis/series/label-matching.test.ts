import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { hungarianAssignment, matchLabels } from './label-matching';

/** Brute force over all permutations (small sizes only). */
function bruteForce(cost: number[], n: number): number {
  let best = Infinity;
  const perm = Array.from({ length: n }, (_, i) => i);
  const visit = (i: number, acc: number) => {
    if (i === n) return void (best = Math.min(best, acc));
    for (let j = i; j < n; j++) {
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
      visit(i + 1, acc + cost[i * n + perm[i]!]!);
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
    }
  };
  visit(0, 0);
  return best;
}

describe('Hungarian assignment and stable labels', () => {
  it('finds the known optimum of a textbook 3 × 3 and of random matrices', () => {
    // Rows pick columns 1, 0, 2 for 1 + 2 + 2 = 5.
    assert.deepEqual([...hungarianAssignment([4, 1, 3, 2, 0, 5, 3, 2, 2], 3, 3)], [1, 0, 2]);
    const rand = seededRandom(4);
    for (let trial = 0; trial < 30; trial++) {
      const n = 1 + (trial % 6);
      const cost = Array.from({ length: n * n }, () => Math.round(rand() * 20) - 5);
      const cols = hungarianAssignment(cost, n, n);
      assert.equal(new Set(cols).size, n);
      const total = [...cols].reduce((s, c, i) => s + cost[i * n + c]!, 0);
      assert.equal(total, bruteForce(cost, n));
    }
  });

  it('handles rectangular matrices both ways', () => {
    // 2 rows, 3 columns: rows take columns 2 and 0.
    assert.deepEqual([...hungarianAssignment([5, 9, 1, 2, 8, 7], 2, 3)], [2, 0]);
    // 3 rows, 2 columns: the costliest row is left over.
    assert.deepEqual([...hungarianAssignment([1, 9, 9, 1, 50, 50], 3, 2)], [0, 1, -1]);
  });

  it('renames permuted clusters back to their previous identities', () => {
    const previous = Int32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    // The same partition numbered differently, with one entity moved from cluster "2" to "0".
    const next = Int32Array.from([2, 2, 2, 0, 0, 1, 1, 1, 1]);
    const { labels, mapping } = matchLabels(previous, next, 3);
    assert.deepEqual([...mapping], [1, 2, 0]);
    assert.deepEqual([...labels], [0, 0, 0, 1, 1, 2, 2, 2, 2]);
  });

  it('gives clusters without a previous partner fresh labels; entities without labels are ignored', () => {
    const previous = Int32Array.from([0, 0, -1, -1]);
    const next = Int32Array.from([1, 1, 0, 2]);
    const { labels } = matchLabels(previous, next, 3);
    assert.deepEqual([...labels], [0, 0, 1, 2]);
    assert.deepEqual([...matchLabels([-1, -1], [1, 0], 2).labels], [1, 0]);
  });
});
