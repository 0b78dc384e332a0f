import assert from 'node:assert/strict';
import { it } from 'node:test';
import { functionTotals } from '../model/aggregates';
import { CallGraphBuilder } from '../model/call-graph';
import { NodeKind } from '../model/call-tree';
import { ProfileBuilder } from '../model/profile-builder';
import { functionCallCounts } from './call-counts';
import { callLineProfile, twoRankProfile } from './test-fixtures';

const countsByName = (p: ReturnType<typeof twoRankProfile>) => {
  const t = functionTotals(p, p.primaryMetric);
  const c = functionCallCounts(p, t);
  return Object.fromEntries(t.names.map((n, f) => [n, c[f]]));
};

it('counts calls from the arcs into a function when the call graph states no per-function count (callgrind)', () => {
  // Arcs main → work: 2 + 1 calls, work → work: 3 recursive calls; nothing calls main.
  const c = countsByName(callLineProfile({ statedCost: true }));
  assert.equal(c['work'], 6);
  assert.ok(Number.isNaN(c['main']));
});

it('prefers the per-function count the file states (gprof)', () => {
  const b = new ProfileBuilder('test', '<gprof>');
  const ctx = b.context({ rank: 0 });
  const m = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: ['time'],
    unit: 's',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const main = b.tree.add(-1, 'main', NodeKind.Function);
  b.addExclusive(m, b.tree.add(main, 'work', NodeKind.Function), ctx, 1);
  const g = new CallGraphBuilder(b.tree.strings, 1);
  const gm = g.function('main', { name: 'main' }),
    gw = g.function('work', { name: 'work' });
  g.addCalls(gw, 1024);
  g.addArc(gm, gw, 1000, 0, [1]);
  b.callGraph = g.finish();
  assert.equal(countsByName(b.build(m))['work'], 1024);
});

it("sums a calls metric over the function's frames (TAU), and says nothing without one", () => {
  const b = new ProfileBuilder('test', '<tau>');
  const ctx = [b.context({ rank: 0 }), b.context({ rank: 1 })];
  const time = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: ['t'],
    unit: 's',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const calls = b.addMetric({
    name: 'calls',
    label: 'Calls',
    sourceKeys: ['Calls'],
    unit: 'count',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const main = b.tree.add(-1, 'main', NodeKind.Function, { file: 'a.c', line: 1 });
  const a = b.tree.add(main, 'solve', NodeKind.Function, { file: 'a.c', line: 10 });
  const s = b.tree.add(a, 'a.c:12', NodeKind.Statement, { file: 'a.c', line: 12 });
  const again = b.tree.add(main, 'solve', NodeKind.Function, { file: 'a.c', line: 10 });
  for (const c of ctx) {
    b.addExclusive(calls, main, c, 1);
    b.addExclusive(calls, a, c, 10);
    b.addExclusive(calls, again, c, 5);
    b.addExclusive(calls, s, c, 99); // a statement is no call
    b.addExclusive(time, s, c, 1);
  }
  const c = countsByName(b.build(time));
  assert.equal(c['solve'], 30);
  assert.equal(c['main'], 2);
  assert.ok(Object.values(countsByName(twoRankProfile())).every(Number.isNaN));
});
