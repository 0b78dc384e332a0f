import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileFromOutline } from '../model/test-profiles';
import type { Profile } from '../model/profile';
import { filterCallTree, functionIndex, type FilterBy } from './callflow-filter';
import { randomCallTree, WRAPPED_CLOCK } from './test-fixtures/synthetic-runs';

function run(p: Profile, threshold: number, by: FilterBy = 'inclusive') {
  return filterCallTree(p.tree, p.inclusiveTotals(0), p.exclusiveTotals(0), p.total(0), threshold, by);
}
const drawnNames = (p: Profile, drawn: Uint8Array) => [...drawn.keys()].filter(i => drawn[i]).map(i => p.tree.name(i));

describe('CallFlow filter (thesis §3.2.1)', () => {
  const p = profileFromOutline(WRAPPED_CLOCK);

  it('keeps a function by the total of its instances, but draws an instance only under kept functions', () => {
    const f = run(p, 0.01);
    const { fnKey } = functionIndex(p.tree);
    const kept = (name: string) => f.functionKept[fnKey[nodeOf(p, name)]!];
    assert.ok(Math.abs(f.absolute - 1) < 1e-12, `${f.absolute}`);
    assert.equal(kept('now'), 1, 'now: 0.2 + 0.2 + 0.2 + 0.6 = 1.2 ≥ 1');
    assert.equal(kept('wrapA'), 0);
    assert.deepEqual(drawnNames(p, f.drawn), ['main', 'solve', 'kernel', 'now']);
    assert.equal(p.tree.parent(p.tree.size - 1), 0, 'the drawn `now` is the one main calls directly');
  });

  it('counts recursion once: only outermost instances add to a function total', () => {
    const r = profileFromOutline(`
main @app = 90
  fib @m = 2
    fib @m = 3
      fib @m = 5`);
    const f = run(r, 0);
    const { fnKey } = functionIndex(r.tree);
    assert.equal(f.functionValue[fnKey[1]!], 10, 'the outer fib only (2 + 3 + 5)');
  });

  it('by exclusive value keeps the ancestor paths of kept call sites', () => {
    // At 1.3 %: kernel (1.5) and solve (4) pass, the wrappers (0.2) and now (Σ 1.2) do not.
    assert.deepEqual(drawnNames(p, run(p, 0.013, 'exclusive').drawn), ['main', 'solve', 'kernel']);
    // At 1 % now passes (Σ exclusive 1.2), but the wrappers matter by neither value (0.2 and 0.4):
    // the call sites below them fold into main, the direct one is drawn.
    assert.deepEqual(drawnNames(p, run(p, 0.01, 'exclusive').drawn), ['main', 'solve', 'kernel', 'now']);
    // At 0.3 % the wrappers' inclusive value (0.4) makes them significant callers: drawn as paths.
    assert.equal(drawnNames(p, run(p, 0.003, 'exclusive').drawn).length, p.tree.size);
    const deep = profileFromOutline(`
main @app = 90
  thin @app = 0.001
    hot @lib = 9.999`);
    assert.deepEqual(drawnNames(deep, run(deep, 0.05, 'exclusive').drawn), ['main', 'thin', 'hot']);
    assert.deepEqual(drawnNames(deep, run(deep, 0.05, 'inclusive').drawn), ['main', 'thin', 'hot']);
  });

  it('threshold 0 draws every node, even zero and negative ones', () => {
    const z = profileFromOutline(`
main @app = 1
  idle @app = 0
  odd @app = -1`);
    assert.deepEqual([...run(z, 0).drawn], [1, 1, 1]);
    assert.deepEqual([...run(z, 0, 'exclusive').drawn], [1, 1, 1]);
  });

  it('matches the rule computed naively on random trees at every threshold (AT-17)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = randomCallTree(seed, 500);
      const tree = r.tree;
      const inc = r.inclusiveTotals(0);
      const exc = r.exclusiveTotals(0);
      const { owner, fnKey } = functionIndex(tree);
      // Naive totals per function: outermost instances (no ancestor of the same function), or every instance.
      const outermost = new Map<number, number>();
      const everywhere = new Map<number, number>();
      for (let i = 0; i < tree.size; i++) {
        const k = fnKey[i]!;
        everywhere.set(k, (everywhere.get(k) ?? 0) + exc[i]!);
        if (owner[i] !== i) continue;
        let nested = false;
        for (let a = tree.parent(i); a >= 0; a = tree.parent(a)) if (owner[a] === a && fnKey[a] === k) nested = true;
        if (!nested) outermost.set(k, (outermost.get(k) ?? 0) + inc[i]!);
      }
      for (const threshold of [0, 0.0001, 0.001, 0.01, 0.05, 0.2])
        for (const by of ['inclusive', 'exclusive'] as const) {
          const f = run(r, threshold, by);
          const T = threshold * r.total(0);
          const passes = (totals: Map<number, number>, i: number) =>
            threshold === 0 || (totals.get(fnKey[i]!) ?? 0) >= T;
          const keptFn = (i: number) => passes(by === 'inclusive' ? outermost : everywhere, i);
          const pathOf = (i: number) => {
            const out: number[] = [];
            for (let a = i; a >= 0; a = tree.parent(a)) out.push(a);
            return out;
          };
          // By exclusive: kept call sites below significant callers (kept by either value), their ancestors, what they own.
          const significant = (v: number) => passes(everywhere, v) || passes(outermost, v);
          const site = (v: number) => owner[v] === v && keptFn(v) && pathOf(v).every(significant);
          const leadsToSite = (v: number): boolean => site(v) || [...tree.children(v)].some(c => leadsToSite(c));
          for (let i = 0; i < tree.size; i++) {
            assert.equal(f.functionKept[fnKey[i]!] === 1, keptFn(i), `seed ${seed} ${by} ${threshold} fn of ${i}`);
            const expected = threshold === 0 || (by === 'inclusive' ? pathOf(i).every(keptFn) : leadsToSite(owner[i]!));
            assert.equal(f.drawn[i] === 1, expected, `seed ${seed} ${by} ${threshold} node ${i}`);
          }
        }
    }
  });
});

function nodeOf(p: Profile, name: string): number {
  for (let i = 0; i < p.tree.size; i++) if (p.tree.name(i) === name) return i;
  return -1;
}
