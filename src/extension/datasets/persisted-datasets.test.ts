import assert from 'node:assert/strict';
import { test } from 'node:test';
import { datasetKey, parsePersistedDatasets, startupPlan, type PersistedDatasets } from './persisted-datasets';

const a = 'file:///w/profiles/a.json';
const b = 'file:///w/profiles/b.json';

test('a remembered list round-trips through the parser unchanged', () => {
  const state: PersistedDatasets = {
    version: 1,
    datasets: [
      { source: 'file', uri: a, metric: 'time' },
      { source: 'diff', baseline: a, comparison: b, metric: 'sum#time.duration' },
      { source: 'file', uri: b },
      { source: 'ensemble', uris: ['file:///w/runs'], metric: 'time' },
    ],
    active: 1,
  };
  const { state: back, problems } = parsePersistedDatasets(JSON.parse(JSON.stringify(state)));
  assert.deepEqual(problems, []);
  assert.deepEqual(back, state);
});

test('an ensemble is keyed by its folder or files, distinct from a file dataset of the same URI', () => {
  const folder = 'file:///w/runs';
  assert.notEqual(datasetKey({ source: 'ensemble', uris: [folder] }), datasetKey({ source: 'file', uri: folder }));
  assert.notEqual(datasetKey({ source: 'ensemble', uris: [a, b] }), datasetKey({ source: 'ensemble', uris: [a] }));
  const { problems } = parsePersistedDatasets({
    version: 1,
    datasets: [{ source: 'ensemble', uris: [a, 7] }],
    active: 0,
  });
  assert.deepEqual(problems, ['dataset 1: an ensemble without its folder or files']);
});

test('nothing remembered is an empty list without complaints', () => {
  assert.deepEqual(parsePersistedDatasets(undefined), {
    state: { version: 1, datasets: [], active: -1 },
    problems: [],
  });
});

test('malformed entries are dropped with a reason, the rest is kept and the active index follows', () => {
  const { state, problems } = parsePersistedDatasets({
    version: 1,
    datasets: [
      { source: 'file' },
      { source: 'file', uri: a },
      { source: 'diff', baseline: a },
      'x',
      { source: 'file', uri: a },
      { source: 'ensemble', uris: [] },
      { source: 'file', uri: b, metric: 3 },
      { source: 'file', uri: b },
    ],
    active: 7,
  });
  assert.deepEqual(state.datasets, [
    { source: 'file', uri: a },
    { source: 'file', uri: b },
  ]);
  assert.equal(state.active, 1);
  assert.deepEqual(problems, [
    'dataset 1: a file dataset without a URI',
    'dataset 3: a comparison without both URIs',
    'dataset 4: not an object',
    'dataset 5: a duplicate',
    'dataset 6: an ensemble without its folder or files',
    'dataset 7: its metric is not a name',
  ]);
});

test('an active index pointing at a dropped entry leaves nothing active', () => {
  const { state } = parsePersistedDatasets({
    version: 1,
    datasets: [{ source: 'file', uri: a }, { source: 'file' }],
    active: 1,
  });
  assert.equal(state.active, -1);
});

test('storage of another shape or version is ignored as a whole, with the reason', () => {
  assert.deepEqual(parsePersistedDatasets([a]).problems, ['the remembered datasets are not an object']);
  assert.deepEqual(parsePersistedDatasets({ version: 2, datasets: [] }).problems, [
    'unknown version 2 of the remembered datasets',
  ]);
  assert.deepEqual(parsePersistedDatasets({ version: 1 }).problems, ['the remembered datasets have no list']);
});

test('a diff is identified by both runs in order, a file by its URI', () => {
  assert.notEqual(
    datasetKey({ source: 'diff', baseline: a, comparison: b }),
    datasetKey({ source: 'diff', baseline: b, comparison: a }),
  );
  assert.equal(datasetKey({ source: 'file', uri: a, metric: 'x' }), datasetKey({ source: 'file', uri: a }));
});

test('startup files already remembered are not opened twice and the remembered active one wins', () => {
  const remembered: PersistedDatasets = {
    version: 1,
    datasets: [
      { source: 'file', uri: b },
      { source: 'file', uri: a, metric: 'm' },
    ],
    active: 0,
  };
  const plan = startupPlan(remembered, [a, 'file:///w/c.json', 'file:///w/c.json']);
  assert.deepEqual(
    plan.datasets.map(d => (d.source === 'file' ? d.uri : '')),
    [b, a, 'file:///w/c.json'],
  );
  assert.equal(plan.datasets[1]!.metric, 'm', 'the remembered metric is kept');
  assert.equal(plan.active, 0);
});

test('without memory the last startup file is active, as before datasets were remembered', () => {
  const plan = startupPlan({ version: 1, datasets: [], active: -1 }, [a, b]);
  assert.equal(plan.active, 1);
  assert.deepEqual(startupPlan({ version: 1, datasets: [], active: -1 }, []), { version: 1, datasets: [], active: -1 });
});
