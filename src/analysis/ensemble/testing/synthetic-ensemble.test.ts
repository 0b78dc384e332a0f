import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildEnsemble, type Ensemble } from '../ensemble';
import { loadEnsemble } from '../ensemble-runs';
import { orderRuns, outOfOrderNodes } from '../ordered-ensemble';
import { generateSyntheticEnsemble, OUT_OF_ORDER_RANKS, writeSyntheticEnsemble } from './synthetic-ensemble';

function nodeAt(e: Ensemble, path: string[]): number {
  for (let u = 0; u < e.size; u++) if (e.tree.path(u).join('\u0000') === path.join('\u0000')) return u;
  return -1;
}

describe('synthetic ensemble generator', () => {
  it('makes runs with parameters, rank counts, missing subtrees and exactly one out-of-order node', () => {
    const s = generateSyntheticEnsemble({ runs: 42, nodes: 1500 });
    const e = buildEnsemble(s.runs);
    assert.equal(e.runCount, 42);
    assert.ok(e.size > 1000 && e.size <= 1600, `union of ${e.size} nodes`);
    assert.deepEqual(e.runs[3]!.parameters, { compiler: 'gcc10', param1: 1048576, ranks: 64, param2: 1 });
    assert.equal(e.runs[3]!.ranks, 64);
    assert.equal(e.runs[3]!.contexts, 4);
    for (const m of s.missing) {
      const u = nodeAt(e, m.path);
      assert.ok(u >= 0);
      assert.equal(e.missingCount(u), m.runs.length);
      for (const r of m.runs) assert.equal(e.isPresent(u, r), false);
    }
    const o = orderRuns(e, 'ranks');
    const flagged = outOfOrderNodes(e, o, 'exclusive');
    assert.deepEqual(
      flagged.map(f => e.tree.path(f.node)),
      [s.outOfOrderPath],
    );
    assert.equal(o.levels[flagged[0]!.score.inversions[0]!.to], OUT_OF_ORDER_RANKS);
  });

  it('is deterministic for a seed', () => {
    const a = generateSyntheticEnsemble({ runs: 3, nodes: 300, seed: 5 });
    const b = generateSyntheticEnsemble({ runs: 3, nodes: 300, seed: 5 });
    assert.deepEqual(a.runs[2]!.profile.exclusive(0), b.runs[2]!.profile.exclusive(0));
  });

  it('writes Caliper json-split files that load end to end with Adiak-like metadata', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-synthetic-'));
    try {
      const paths = writeSyntheticEnsemble(dir, { runs: 9, nodes: 400 });
      assert.equal(paths.length, 9);
      const { runs, errors } = await loadEnsemble(dir);
      assert.deepEqual(errors, []);
      const e = buildEnsemble(runs);
      assert.equal(e.runCount, 9);
      const mem = buildEnsemble(generateSyntheticEnsemble({ runs: 9, nodes: 400 }).runs);
      assert.equal(e.size, mem.size);
      const byName = new Map(e.runs.map((r, i) => [r.name, i]));
      assert.ok(byName.has('gcc10_1048576/8_ranks_1') && byName.has('clang12_1048576/16_ranks_1'));
      const r16 = e.runs[byName.get('clang12_1048576/16_ranks_1')!]!;
      assert.equal(r16.ranks, 16);
      assert.equal(r16.metadata.compiler, 'clang12');
      assert.deepEqual(r16.parameters, { compiler: 'clang12', param1: 1048576, ranks: 16, param2: 1 });
      // Same totals as the in-memory ensemble (9 significant digits in the file).
      for (let r = 0; r < 9; r++) {
        const name = mem.runs[r]!.name;
        const a = mem.runTotal(r),
          b = e.runTotal(byName.get(name)!);
        assert.ok(Math.abs(a - b) <= 1e-6 * a, `${name}: ${a} vs ${b}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
