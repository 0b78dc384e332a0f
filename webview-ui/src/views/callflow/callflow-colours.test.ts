import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { divergingColour, exclusiveDifference, sequentialPosition, sharedDomain } from './callflow-colours';

const node = (id: string, inclusive: number, exclusive: number): CallflowNodeData => ({
  id,
  label: id,
  module: id,
  inclusive,
  exclusive,
  share: 0,
  imbalance: 1,
  entry: { name: id, file: null, line: null },
});
const graph = (nodes: CallflowNodeData[], ranks: number[]): CallflowData => ({
  title: 't',
  metric: { name: 'time', unit: 's' },
  total: nodes[0]!.inclusive,
  nodes,
  links: [],
  contexts: { count: 8, indices: ranks, labels: ranks.map(String) },
});

describe('CallFlow colour scales', () => {
  test('one sequential domain over every graph on screen', () => {
    const a = graph([node('r', 10, 2), node('m', 6, 6)], [0]);
    const b = graph([node('r', 20, 1), node('m', 9, 9)], [0]);
    assert.equal(sharedDomain([a, b], 'exclusive'), 9);
    assert.equal(sharedDomain([a, b], 'inclusive'), 20);
    assert.equal(sequentialPosition(6, 9), 6 / 9);
    assert.equal(sequentialPosition(6, 0), 0);
  });

  test('difference per rank, brushed minus rest, with a symmetric domain', () => {
    const top = graph([node('r', 8, 0), node('mpi', 4, 4), node('app', 4, 4)], [0, 1]); // 2 ranks
    const bottom = graph([node('r', 24, 0), node('mpi', 18, 18), node('app', 6, 6)], [2, 3, 4, 5, 6, 7]); // 6 ranks
    const { byId, bound } = exclusiveDifference(top, bottom);
    assert.equal(byId.get('mpi'), 2 - 3);
    assert.equal(byId.get('app'), 2 - 1);
    assert.equal(bound, 1);
    assert.equal(divergingColour(0, bound), divergingColour(0, 5), 'zero is the neutral middle');
    assert.notEqual(divergingColour(1, 1), divergingColour(-1, 1));
    const red = divergingColour(1, 1).match(/\d+/g)!.map(Number);
    assert.ok(red[0]! > red[2]!, 'positive (slower in the brushed ranks) is red');
  });
});
