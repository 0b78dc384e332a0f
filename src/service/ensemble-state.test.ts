import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import type { EnsembleGraphData, EnsembleNodeData } from '../shared/ensemble-protocol';
import {
  applyEnsembleRequest,
  changeScope,
  initialEnsembleState,
  type EnsembleContext,
  type EnsemblePanelState,
} from './ensemble-state';

const node = (id: string, over: Partial<EnsembleNodeData> = {}): EnsembleNodeData => ({
  id,
  label: id,
  module: id,
  kind: 'module',
  baseId: id,
  occurrence: 1,
  maxInclusive: 1,
  maxExclusive: 1,
  minInclusive: 1,
  minExclusive: 1,
  maxInclusiveRun: 0,
  maxExclusiveRun: 0,
  present: 4,
  gradient: { inclusive: { min: 0, max: 1, counts: [4] }, exclusive: { min: 0, max: 1, counts: [4] } },
  entries: [{ name: `${id}_main`, maxInclusive: 1, file: null, line: null }],
  entryCount: 1,
  callers: [],
  memberCount: 1,
  functionCount: 1,
  ...over,
});

const data = {
  nodes: [
    node('app'),
    node('MPI', {
      entryCount: 3,
      callers: [
        { id: 'app', value: 1 },
        { id: 'lib', value: 1 },
      ],
    }),
    node('lib'),
  ],
  orderKeys: ['cores'],
} as unknown as EnsembleGraphData;
const ctx: EnsembleContext = { runCount: 4, slowestRun: 3, fastestRun: 1, runName: r => `run${r}`, data };

function apply(
  state: EnsemblePanelState,
  ...requests: Parameters<typeof applyEnsembleRequest>[1][]
): EnsemblePanelState {
  for (const r of requests) {
    const next = applyEnsembleRequest(state, r, ctx);
    if ('error' in next) throw new Error(next.error);
    state = next;
  }
  return state;
}

const errorOf = (r: Parameters<typeof applyEnsembleRequest>[1], state = initialEnsembleState()) => {
  const next = applyEnsembleRequest(state, r, ctx);
  return 'error' in next ? next.error : undefined;
};

test('entering target mode picks the slowest run; diff mode the fastest as baseline and the slowest to compare', () => {
  const t = apply(initialEnsembleState(), { type: 'ensemble/mode', mode: 'target' });
  assert.equal(t.view.mode, 'target');
  assert.equal(t.view.target, 3);
  const d = apply(initialEnsembleState(), { type: 'ensemble/mode', mode: 'diff' });
  assert.deepEqual(d.view.diff, { baseline: 1, compare: 3 });
  // Back to summary and into target again keeps the user's target.
  const again = apply(
    t,
    { type: 'ensemble/target', run: 0 },
    { type: 'ensemble/mode', mode: 'summary' },
    { type: 'ensemble/mode', mode: 'target' },
  );
  assert.equal(again.view.target, 0);
});

test('bad runs, pairs, subsets and options are refused with a reason', () => {
  assert.match(errorOf({ type: 'ensemble/target', run: 4 })!, /run 4 is not one of the ensemble's 4 runs/);
  assert.match(errorOf({ type: 'ensemble/diff', baseline: 2, compare: 2 })!, /two different runs \(both are run2\)/);
  assert.match(errorOf({ type: 'ensemble/runs', runs: [] })!, /at least one/);
  assert.match(errorOf({ type: 'ensemble/runs', runs: [1, -1] })!, /run -1/);
  assert.match(errorOf({ type: 'ensemble/options', options: { bins: 0 } })!, /bins must be/);
  assert.match(
    errorOf({ type: 'ensemble/options', options: { gradientSide: 'both' as never } })!,
    /gradientSide must be one of inclusive, exclusive/,
  );
  assert.match(
    errorOf({ type: 'ensemble/options', options: { orderBy: 'compiler' } })!,
    /cannot be ordered by compiler \(parameters: cores\)/,
  );
  assert.match(errorOf({ type: 'ensemble/select', nodeId: 'nope' })!, /no node nope/);
  assert.match(errorOf({ type: 'ensemble/split', nodeId: 'app', mode: 'entry' })!, /single entry function/);
  assert.match(errorOf({ type: 'ensemble/unsplit', nodeId: 'app' })!, /app is not split/);
});

test('a subset is sorted and deduplicated; all runs means no subset', () => {
  assert.deepEqual(apply(initialEnsembleState(), { type: 'ensemble/runs', runs: [3, 1, 3] }).view.runs, [1, 3]);
  assert.equal(apply(initialEnsembleState(), { type: 'ensemble/runs', runs: [0, 1, 2, 3] }).view.runs, null);
});

test('split, reveal and unsplit by base id; a selection on a split part falls back to its base', () => {
  let s = apply(
    initialEnsembleState(),
    { type: 'ensemble/split', nodeId: 'MPI', mode: 'caller' },
    { type: 'ensemble/reveal', nodeId: 'MPI', function: 'MPI_Allreduce' },
  );
  assert.deepEqual(s.splits, [{ node: 'MPI', mode: 'caller' }]);
  assert.deepEqual(s.reveal, [{ node: 'MPI', function: 'MPI_Allreduce' }]);
  s = { ...s, view: { ...s.view, selected: 'MPI' } };
  s = apply(s, { type: 'ensemble/unsplit', nodeId: 'MPI' });
  assert.deepEqual(s.splits, []);
  assert.deepEqual(s.reveal, []);
  assert.equal(s.view.selected, 'MPI');
});

test('a reveal with its path reveals every function on it once (the component path chain)', () => {
  let s = apply(initialEnsembleState(), {
    type: 'ensemble/reveal',
    nodeId: 'MPI',
    function: 'MPI_Allreduce',
    via: ['wrapper', 'inner', 'wrapper'],
  });
  assert.deepEqual(
    s.reveal.map(r => r.function),
    ['wrapper', 'inner', 'MPI_Allreduce'],
  );
  s = apply(s, { type: 'ensemble/reveal', nodeId: 'MPI', function: 'inner' });
  assert.equal(s.reveal.length, 3);
  assert.match(
    errorOf({ type: 'ensemble/reveal', nodeId: 'MPI', function: 'x', via: [3] as unknown as string[] })!,
    /path of x must be a list of function names/,
  );
});

test('what each request invalidates', () => {
  assert.equal(changeScope({ type: 'ensemble/select', nodeId: 'app' }), 'detail');
  assert.equal(changeScope({ type: 'ensemble/options', options: { textGuides: true } }), 'state');
  assert.equal(
    changeScope({ type: 'ensemble/options', options: { iqrFactor: 3, distributionMode: 'rank' } }),
    'detail',
  );
  assert.equal(changeScope({ type: 'ensemble/options', options: { bins: 10 } }), 'graph');
  assert.equal(changeScope({ type: 'ensemble/target', run: 1 }), 'graph');
});

test('the projection’s cluster count is a whole number from 2 to 8, refused otherwise with the range', () => {
  const five = apply(initialEnsembleState(), { type: 'ensemble/options', options: { clusters: 5 } });
  assert.equal(five.view.options.clusters, 5);
  assert.equal(initialEnsembleState().view.options.clusters, 3);
  for (const bad of [1, 9, 2.5, '4'])
    assert.match(
      errorOf({ type: 'ensemble/options', options: { clusters: bad as number } })!,
      /clusters must be a whole number from 2 to 8/,
    );
  assert.equal(changeScope({ type: 'ensemble/options', options: { clusters: 4 } }), 'graph');
});
