import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  communicationMatrix,
  communicationPairs,
  intervalMatrices,
  intervalPairs,
  matrixRows,
  sameProcessShare,
  sumMatrices,
  tickEdges,
  weighted,
} from './communication';
import { PdesEntities } from './entities';
import { EventTrace } from './event-trace';
import { placeLps } from './placement';

/** 2 PEs × 2 KPs × 1 LP (linear): LP 0 → PE 0 KP 0, LP 1 → PE 0 KP 1, LP 2 → PE 1 KP 0, LP 3 → PE 1 KP 1. */
function fixture() {
  const entities = new PdesEntities();
  placeLps(entities, { mapping: 'linear', totalPe: 2, totalLp: 4, kpsPerPe: 2 });
  entities.sort();
  const trace = new EventTrace();
  // src, dst, receive time
  for (const [s, d, t] of [
    [0, 1, 1],
    [0, 2, 2],
    [0, 2, 3],
    [2, 0, 4],
    [3, 3, 5],
    [1, 3, 6],
    [9, 0, 6], // LP 9 does not exist
  ] as const)
    trace.append(s, d, t - 0.5, t, t / 10);
  return { entities, trace };
}

describe('communication matrices', () => {
  it('counts events sender → receiver at PE, KP and LP level', () => {
    const { entities, trace } = fixture();
    const pe = communicationMatrix(trace, entities, 'pe');
    assert.deepEqual(matrixRows(pe.counts, 2), [
      [1, 3],
      [1, 1],
    ]);
    assert.equal(pe.events, 6, 'the event from the unknown LP is left out');
    const kp = communicationMatrix(trace, entities, 'kp');
    assert.equal(kp.size, 4);
    assert.deepEqual(matrixRows(kp.counts, 4), [
      [0, 1, 2, 0],
      [0, 0, 0, 1],
      [1, 0, 0, 0],
      [0, 0, 0, 1],
    ]);
    assert.equal(communicationMatrix(trace, entities, 'lp').counts[0 * 4 + 2], 2);
  });

  it('weights cells by sends, receives, their sum or their maximum', () => {
    const { entities, trace } = fixture();
    const pe = communicationMatrix(trace, entities, 'pe');
    assert.deepEqual([...weighted(pe, 'sends')], [1, 3, 1, 1]);
    assert.deepEqual([...weighted(pe, 'receives')], [1, 1, 3, 1]);
    assert.deepEqual([...weighted(pe, 'sum')], [2, 4, 4, 2]);
    assert.deepEqual([...weighted(pe, 'max')], [1, 3, 3, 1]);
  });

  it('cuts the trace into intervals (lo, hi] of an event time', () => {
    const { entities, trace } = fixture();
    // Ticks at receive times 2 and 4: intervals (−∞, 2], (2, 4]; times 5 and 6 are after the last tick.
    const edges = tickEdges([2, 4]);
    assert.deepEqual([...edges], [-Infinity, 2, 4]);
    const [a, b] = intervalMatrices(trace, entities, 'pe', edges, 'receive');
    assert.deepEqual([...a!.counts], [1, 1, 0, 0]);
    assert.deepEqual([...b!.counts], [0, 1, 1, 0]);
    assert.deepEqual([...sumMatrices([a!, b!]).counts], [1, 2, 1, 0]);
    assert.equal(sumMatrices([a!, b!]).events, 4);
    // By wall-clock time (t/10) and by send time (t − 0.5).
    const [real] = intervalMatrices(trace, entities, 'pe', [0, 0.25], 'real');
    assert.equal(real!.events, 2);
    const [send] = intervalMatrices(trace, entities, 'pe', [1, 3], 'send');
    assert.equal(send!.events, 2, 'sent at 1.5 and 2.5');
    assert.equal(
      communicationMatrix(trace, entities, 'pe', { axis: 'receive', from: 3, to: 6 }).events,
      3,
      'receive times 4, 5, 6',
    );
    assert.deepEqual(intervalMatrices(trace, entities, 'pe', [1]), []);
  });

  it('gives the share of events that stay on their PE, and sparse pairs', () => {
    const { entities, trace } = fixture();
    assert.equal(sameProcessShare(trace, entities), 2 / 6);
    const pairs = communicationPairs(trace, entities, 'kp');
    assert.deepEqual(
      [...pairs.src].map((s, i) => [s, pairs.dst[i], pairs.counts[i]]),
      [
        [0, 1, 1],
        [0, 2, 2],
        [1, 3, 1],
        [2, 0, 1],
        [3, 3, 1],
      ],
    );
    assert.ok(Number.isNaN(sameProcessShare(new EventTrace(), entities)));
  });
  it('gives sparse pairs per interval that add up to the dense interval matrices', () => {
    const { entities, trace } = fixture();
    const edges = tickEdges([2, 4, 6]);
    const pairs = intervalPairs(trace, entities, 'kp', edges);
    const dense = intervalMatrices(trace, entities, 'kp', edges);
    assert.equal(pairs.length, 3);
    pairs.forEach((p, k) => {
      const cells = new Float64Array(16);
      p.src.forEach((s, i) => (cells[s * 4 + p.dst[i]!] = p.counts[i]!));
      assert.deepEqual([...cells], [...dense[k]!.counts], `interval ${k}`);
    });
    // (4, 6] holds the KP 3 → KP 3 event at 5 and the KP 1 → KP 3 event at 6, sorted by sender.
    assert.deepEqual([...pairs[2]!.src], [1, 3]);
    // Counting in hash maps (large LP levels) gives the same pairs.
    assert.deepEqual(intervalPairs(trace, entities, 'kp', edges, 'receive', 0), pairs);
    assert.deepEqual(intervalPairs(trace, entities, 'kp', [0]), []);
  });
});
