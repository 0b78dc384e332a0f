import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { asCallflowData } from './ensemble-sankey-layout';
import { ensembleGraphFixture } from './testing/graph-fixture';

test('shares are of the longest run, so a function under two roots (threads) stays within 100 %', () => {
  const { data } = ensembleGraphFixture({ runs: 4 });
  // Two roots of 3 and 1 in the longest run, and a callee of both worth 4 in that run.
  const roots = data.nodes.filter(n => !data.links.some(l => l.target === n.id));
  const callee = data.nodes.find(n => !roots.includes(n))!;
  const twoRoots = {
    ...data,
    nodes: [
      { ...roots[0]!, id: 'clone3', maxInclusive: 3 },
      { ...roots[0]!, id: '_start', maxInclusive: 1 },
      { ...callee, id: 'heat', maxInclusive: 4 },
    ],
    links: [
      { source: 'clone3', target: 'heat', value: 3 },
      { source: '_start', target: 'heat', value: 1 },
    ],
    runs: data.runs.map((r, i) => ({ ...r, total: i === 2 ? 4 : 2 })),
    selectedRuns: data.runs.map(r => r.index),
  };
  const sankey = asCallflowData(twoRoots);
  assert.equal(sankey.total, 4);
  assert.deepEqual(
    sankey.nodes.map(n => [n.id, n.share]),
    [
      ['clone3', 0.75],
      ['_start', 0.25],
      ['heat', 1],
    ],
  );
});
