import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { functionTotals } from '../model/aggregates';
import { contextNoun } from '../model/context';
import { EnsembleProfile } from './ensemble-profile';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';
import { runsFromOutlines } from './testing/outline-runs';

const close = (a: number, b: number, msg?: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${msg ?? ''} ${a} ≠ ${b}`);

describe('ensemble as a profile', () => {
  // Run a has 2 ranks (values are per rank), b and c one; `io` is missing in c.
  const runs = runsFromOutlines(
    {
      a: 'main = 1 3\n  solve = 2 6\n  io = 4 4',
      b: 'main = 1\n  solve = 3',
      c: 'main = 2\n  solve = 9',
    },
    { a: 2 },
  );
  const ep = new EnsembleProfile(runs, { path: '/runs' });
  const p = ep.profile;
  const node = (name: string) => Array.from({ length: p.tree.size }, (_, i) => i).find(i => p.tree.name(i) === name)!;

  it('has one context per run, labelled with the run name, called "runs"', () => {
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['a', 'b', 'c'],
    );
    assert.equal(contextNoun(p.contexts), 'runs');
    assert.equal(p.format, 'ensemble');
  });

  it('holds per-run means over ranks, with 0 where a node is missing', () => {
    const exc = p.exclusive(0);
    assert.deepEqual([...exc.subarray(node('solve') * 3, node('solve') * 3 + 3)], [4, 3, 9]);
    assert.deepEqual([...exc.subarray(node('io') * 3, node('io') * 3 + 3)], [4, 0, 0]);
    assert.deepEqual([...p.inclusive(0).subarray(node('main') * 3, node('main') * 3 + 3)], [10, 4, 11]);
  });

  it("keeps Σ invariants: each run's total is its runtime, the profile total the sum over runs", () => {
    let sum = 0;
    runs.forEach((r, run) => {
      const runtime = r.profile.total(0) / r.profile.contextCount;
      close(ep.ensemble.runTotal(run), runtime, r.run.name);
      let exclusiveSum = 0;
      for (let i = 0; i < p.tree.size; i++) exclusiveSum += p.exclusive(0)[i * 3 + run]!;
      close(exclusiveSum, runtime, `Σ exclusive of ${r.run.name}`);
      sum += runtime;
    });
    close(p.total(0), sum);
  });

  it('excludes missing runs from the spread (no zero minimum)', () => {
    const io = ep.spreads(p.metrics[0]!.name).get('io')!;
    assert.equal(io.present, 1);
    assert.equal(io.missing, 2);
    assert.equal(io.min, 4);
    const solve = ep.spreads(p.metrics[0]!.name).get('solve')!;
    assert.deepEqual([solve.min, solve.median, solve.max, solve.minRun, solve.maxRun], [3, 4, 9, 'b', 'c']);
    assert.deepEqual([...ep.functionValues(p.metrics[0]!.name, 'io')!].map(String), ['4', 'NaN', 'NaN']);
    assert.equal(ep.functionValues(p.metrics[0]!.name, 'no_such_function'), null);
  });

  it('rejects fewer than 2 runs with the reason', () => {
    assert.throws(
      () => new EnsembleProfile(runs.slice(0, 1), { path: '/runs' }),
      /at least 2 runs, only a could be read/,
    );
    assert.throws(() => new EnsembleProfile([], { path: '/runs' }), /at least 2 runs/);
  });

  it('matches the ensemble on a synthetic ensemble with missing subtrees, for every run and node', () => {
    const syn = generateSyntheticEnsemble({ runs: 9, nodes: 400, seed: 3 });
    const big = new EnsembleProfile(syn.runs, {
      path: '/syn',
      errors: [{ path: '/syn/x', name: 'x', reason: 'truncated' }],
    });
    const e = big.ensemble,
      R = e.runCount;
    assert.equal(big.profile.contextCount, R);
    const inc = big.profile.inclusive(big.profile.primaryMetric);
    let missing = 0;
    for (let u = 0; u < e.size; u++) {
      for (let r = 0; r < R; r++) {
        const v = e.value(u, r, 'inclusive');
        if (v !== v) {
          missing++;
          assert.equal(inc[u * R + r], 0);
        } else close(inc[u * R + r]!, v);
      }
    }
    assert.ok(missing > 0, 'the synthetic ensemble has missing subtrees');
    assert.ok(big.profile.warnings.some(w => w.includes('x could not be read: truncated')));
    // Function totals over the profile (what CodeLens shares read) add up the runs' function values.
    const totals = functionTotals(big.profile, big.profile.primaryMetric);
    const spreads = big.spreads(big.profile.metrics[big.profile.primaryMetric]!.name);
    for (const name of totals.names.slice(0, 20)) {
      const vals = [...big.functionValues(big.profile.metrics[big.profile.primaryMetric]!.name, name)!].filter(
        v => v === v,
      );
      close(
        totals.inclusive[totals.names.indexOf(name)]!,
        vals.reduce((a, b) => a + b, 0),
        name,
      );
      assert.equal(spreads.get(name)!.present, vals.length);
    }
  });
});
