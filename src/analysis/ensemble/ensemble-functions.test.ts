import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEnsemble } from './ensemble';
import { ensembleCallGraph, functionSpreads } from './ensemble-functions';
import { runsFromOutlines } from './testing/outline-runs';

describe('ensemble call graph', () => {
  const e = buildEnsemble(
    runsFromOutlines({
      a: 'main = 1\n  solve = 2\n    mpi = 3\n  io = 4\n    mpi = 5\n    solve.c:12 = 6',
      b: 'main = 1\n  solve = 1\n    mpi = 1\n  io = 1',
      c: 'main = 1\n  fib = 1\n    fib = 2\n      fib = 4',
    }),
  );
  const g = ensembleCallGraph(e);
  const fn = (name: string) => g.names.indexOf(name);
  const vec = (m: Float64Array, f: number) => [...m.subarray(f * g.runCount, (f + 1) * g.runCount)].map(String);

  it('merges nodes by function name and adds vectors element-wise, skipping missing runs', () => {
    assert.deepEqual(vec(g.exclusive, fn('mpi')), ['8', '1', 'NaN']);
    assert.deepEqual(vec(g.inclusive, fn('mpi')), ['8', '1', 'NaN']);
    // The statement under io is io's own cost.
    assert.deepEqual(vec(g.exclusive, fn('io')), ['10', '1', 'NaN']);
    assert.deepEqual(vec(g.inclusive, fn('io')), ['15', '1', 'NaN']);
    assert.deepEqual(
      [...g.present],
      g.names.map(n => (n === 'main' ? 3 : n === 'fib' ? 1 : 2)),
    );
  });

  it('counts recursion once in inclusive time, every level in exclusive time', () => {
    assert.deepEqual(vec(g.inclusive, fn('fib')), ['NaN', 'NaN', '7']);
    assert.deepEqual(vec(g.exclusive, fn('fib')), ['NaN', 'NaN', '7']);
  });

  it("has caller → callee edges with the callee's inclusive time per run", () => {
    const edges = Array.from(g.edges.caller, (c, k) => `${g.names[c]}→${g.names[g.edges.callee[k]!]}`);
    assert.deepEqual(edges.sort(), ['fib→fib', 'io→mpi', 'main→fib', 'main→io', 'main→solve', 'solve→mpi']);
    const k = Array.from(g.edges.caller.keys()).find(
      i => g.names[g.edges.caller[i]!] === 'io' && g.names[g.edges.callee[i]!] === 'mpi',
    )!;
    assert.deepEqual([...g.edges.inclusive.subarray(k * 3, k * 3 + 3)].map(String), ['5', 'NaN', 'NaN']);
  });

  it('gives per-function run-to-run spread for CodeLens and hovers', () => {
    const spreads = functionSpreads(e, g);
    const solve = spreads.find(s => s.name === 'solve')!;
    assert.equal(solve.present, 2);
    assert.equal(solve.missing, 1);
    assert.equal(solve.min, 2);
    assert.equal(solve.minRun, 'b');
    assert.equal(solve.max, 5);
    assert.equal(solve.maxRun, 'a');
    assert.equal(solve.median, 3.5);
    assert.ok(Math.abs(solve.cv - Math.sqrt(4.5) / 3.5) < 1e-12);
    const excl = functionSpreads(e, g, 'exclusive').find(s => s.name === 'io')!;
    assert.equal(excl.max, 10);
  });
});
