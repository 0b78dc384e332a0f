import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { EnsembleProfile } from '../analysis/ensemble/ensemble-profile';
import { generateSyntheticEnsemble } from '../analysis/ensemble/testing/synthetic-ensemble';
import { EnsembleSession } from './ensemble-session';

function session(): EnsembleSession {
  const syn = generateSyntheticEnsemble({ runs: 12, nodes: 300, seed: 7 });
  const ep = new EnsembleProfile(syn.runs, { path: '/syn' });
  return new EnsembleSession(ep, { title: 'syn', metric: () => ep.profile.metrics[ep.profile.primaryMetric]!.name });
}

const applied = (s: EnsembleSession, r: Parameters<EnsembleSession['apply']>[0]) => {
  const a = s.apply(r);
  if ('error' in a) throw new Error(a.error);
  return a.scope;
};

test('a selection recomputes only the detail; the graph object stays the same', () => {
  const s = session();
  const first = s.compute('graph');
  assert.equal(first.detail, null);
  const node = [...first.data.nodes].sort((a, b) => b.maxExclusive - a.maxExclusive)[0]!;
  assert.equal(applied(s, { type: 'ensemble/select', nodeId: node.id }), 'detail');
  const next = s.compute('detail');
  assert.equal(next.data, first.data, 'the graph message is reused');
  assert.equal(next.detail?.nodeId, node.id);
  assert.ok(s.timings.detail! >= 0 && s.timings.graph === undefined);
});

test('target mode picks the slowest run, and the graph and detail carry its values', () => {
  const s = session();
  s.compute('graph');
  const node = s.computed!.data.nodes[1]!;
  applied(s, { type: 'ensemble/select', nodeId: node.id });
  assert.equal(applied(s, { type: 'ensemble/mode', mode: 'target' }), 'graph');
  const c = s.compute('graph');
  const totals = c.data.runs.map(r => r.total);
  assert.equal(s.state.view.target, totals.indexOf(Math.max(...totals)));
  assert.ok(c.data.nodes.every(n => n.target !== undefined));
  assert.ok(
    c.detail!.callSites.every(b => b.target !== undefined),
    'target boxes in target mode',
  );
});

test('the projection is reused while the runs and input are unchanged, and recomputed for a subset', () => {
  const s = session();
  const first = s.compute('graph').projection;
  applied(s, { type: 'ensemble/diff', baseline: 0, compare: 3 });
  assert.equal(s.compute('graph').projection, first);
  applied(s, { type: 'ensemble/runs', runs: [0, 1, 2, 3, 4, 5] });
  const subset = s.compute('graph').projection;
  assert.notEqual(subset, first);
  assert.deepEqual(
    subset.points.map(p => p.run),
    [0, 1, 2, 3, 4, 5],
  );
});

test('a CodeLens focus selects the supernode holding the function, and a refused request leaves the state', () => {
  const s = session();
  const graph = s.compute('graph');
  const target = graph.data.nodes.find(
    n => n.entries.length > 0 && n.kind === 'module' && n.id !== graph.data.nodes[0]!.id,
  )!;
  s.focusFunction = target.entries[0]!.name;
  s.compute('graph');
  assert.equal(s.state.view.selected, target.id);
  const before = s.state;
  const refused = s.apply({ type: 'ensemble/target', run: 99 });
  assert.ok('error' in refused && /run 99/.test(refused.error));
  assert.equal(s.state, before);
});

test('the filter: the settings’ until the panel picks one; repopulation shows a folded function again and Hide again undoes it', () => {
  const syn = generateSyntheticEnsemble({ runs: 6, nodes: 300, seed: 7 });
  const ep = new EnsembleProfile(syn.runs, { path: '/syn' });
  let setting = { threshold: 0.02, by: 'inclusive' as const };
  const s = new EnsembleSession(ep, {
    title: 'syn',
    metric: () => ep.profile.metrics[ep.profile.primaryMetric]!.name,
    filter: () => setting,
  });
  const first = s.respond(null, true).graph!.data;
  assert.equal(first.filter.threshold, 0.02, 'the settings’ filter');
  setting = { threshold: 0.05, by: 'inclusive' };
  assert.equal(s.respond(null, false).graph!.data.filter.threshold, 0.05, 'a new setting recomputes the graph');
  const own = s.respond({ type: 'ensemble/filter', threshold: 0.01, by: 'exclusive' }, false).graph!.data;
  assert.deepEqual([own.filter.threshold, own.filter.by], [0.01, 'exclusive']);
  setting = { threshold: 0.5, by: 'inclusive' };
  assert.equal(s.respond(null, true).graph!.data.filter.threshold, 0.01, 'the panel’s own filter outlasts the setting');
  const folding = own.nodes.find(n => n.filteredCallees?.length)!;
  assert.ok(folding, 'a node with folded callees');
  const fn = folding.filteredCallees![0]!.name;
  const shown = s.respond({ type: 'ensemble/repopulate', nodeId: folding.id, function: fn }, false).graph!.data;
  assert.deepEqual(shown.repopulate, [{ node: folding.id, function: fn }]);
  assert.ok(shown.filter.repopulatedNodes! > 0);
  assert.ok(!shown.nodes.find(n => n.id === folding.id)?.filteredCallees?.some(c => c.name === fn));
  const refused = s.respond({ type: 'ensemble/repopulate', nodeId: folding.id, function: 'no such function' }, false);
  assert.match(refused.error!, /the filter folded/);
  const hidden = s.respond({ type: 'ensemble/unrepopulate', nodeId: folding.id, function: fn }, false).graph!.data;
  assert.equal(hidden.repopulate, undefined);
  assert.deepEqual(
    hidden.nodes.map(n => [n.id, n.maxInclusive]),
    own.nodes.map(n => [n.id, n.maxInclusive]),
  );
});
