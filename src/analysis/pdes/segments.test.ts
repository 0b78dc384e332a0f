import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdesBehaviour } from './behaviour';
import { METRIC } from './model/metrics';
import {
  peSegmentMatrices,
  segmentCommunication,
  segmentEdges,
  segmentLabel,
  segmentMetricMeans,
  segmentsFromStarts,
  segmentSummaries,
  traceScope,
} from './segments';
import { fourKpRun } from './testing/small-run';

describe('segments', () => {
  it('are labelled like spreadsheet columns', () => {
    assert.deepEqual([0, 1, 25, 26, 27, 51, 52, 701, 702].map(segmentLabel), [
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('cover a range from its change points, with the p-values of detected ones; bad starts are refused', () => {
    const s = segmentsFromStarts([12, 15], { from: 10, to: 20 }, new Map([[15, 0.01]]));
    assert.deepEqual(s, [
      { index: 0, label: 'A', start: 10, end: 12, pValue: null },
      { index: 1, label: 'B', start: 12, end: 15, pValue: null },
      { index: 2, label: 'C', start: 15, end: 20, pValue: 0.01 },
    ]);
    assert.deepEqual(segmentsFromStarts([], { from: 0, to: 4 }), [
      { index: 0, label: 'A', start: 0, end: 4, pValue: null },
    ]);
    for (const bad of [[10], [20], [15, 12], [12, 12], [12.5]])
      assert.throws(
        () => segmentsFromStarts(bad, { from: 10, to: 20 }),
        /segment starts must be increasing sample indices inside \(10, 20\)/,
      );
  });
});

// LP k on KP k; see fourKpRun.
const run = fourKpRun();
const b = pdesBehaviour(run, 'kp', 'gvt').behaviour!;
const segments = segmentsFromStarts([2], { from: 0, to: 4 });

describe('per-segment summaries', () => {
  it('average every entity in each segment, with one scale over all segments', () => {
    const m = segmentMetricMeans(b, METRIC.secondaryRollbacks, segments);
    // KP k: k·10 + t; segment A holds t = 0, 1 (mean k·10 + 0.5), B holds t = 2, 3 (k·10 + 2.5).
    assert.deepEqual([...m.means], [0.5, 2.5, 10.5, 12.5, 20.5, 22.5, 30.5, 32.5]);
    assert.deepEqual([m.min, m.max, m.segments], [0.5, 32.5, 2]);
    assert.deepEqual([...segmentMetricMeans(b, METRIC.primaryRollbacks, segments).means], [1, 3, 1, 3, 1, 3, 1, 3]);
    const every = segmentSummaries(b, segments);
    assert.deepEqual(
      every.map(s => s.metric),
      b.metrics.map(x => x.id),
    );
    assert.deepEqual(
      every.find(s => s.metric === METRIC.totalRollbacks)!.means.subarray(0, 2),
      Float64Array.of(1.5, 5.5),
    );
  });

  it('cut the trace at the samples: a segment covers (sample before it, its last sample]', () => {
    assert.deepEqual([...segmentEdges(b, segments)], [-Infinity, 20, 40]);
    assert.deepEqual([...segmentEdges(b, segmentsFromStarts([3], { from: 1, to: 4 }))], [10, 30, 40]);
    assert.equal(traceScope(run), 'all events');
    const c = segmentCommunication(run, b, segments)!;
    assert.equal(c.level, 'kp');
    const cells = (s: number) =>
      [...c.segments[s]!.src].map((src, i) => [src, c.segments[s]!.dst[i], c.segments[s]!.counts[i]]);
    // Per sample of the segment (2 samples each).
    assert.deepEqual(cells(0), [
      [0, 1, 0.5],
      [0, 2, 1],
    ]);
    assert.deepEqual(cells(1), [
      [1, 2, 0.5],
      [2, 3, 0.5],
      [3, 1, 0.5],
    ]);
    assert.equal(segmentCommunication({ ...run, eventTrace: null }, b, segments), null);
  });

  it('add the pairs up to PE matrices of selected entities, weighted as the ribbons show them', () => {
    const c = segmentCommunication(run, b, segments)!;
    const all = Uint8Array.of(1, 1, 1, 1);
    const sends = peSegmentMatrices(c, b, 2, all, 'sends');
    assert.deepEqual(
      sends.matrices.map(m => [...m]),
      [
        [0.5, 1, 0, 0],
        [0, 0.5, 0.5, 0.5],
      ],
    );
    assert.equal(sends.max, 1, 'the largest off-diagonal cell of any segment');
    // A PE's own events count as sent and as received.
    assert.deepEqual([...peSegmentMatrices(c, b, 2, all, 'sum').matrices[1]!], [0, 1, 1, 1]);
    assert.deepEqual([...peSegmentMatrices(c, b, 2, all, 'receives').matrices[0]!], [0.5, 0, 1, 0]);
    // Without KP 2 its events leave the matrices.
    const noKp2 = peSegmentMatrices(c, b, 2, Uint8Array.of(1, 1, 0, 1), 'sends');
    assert.deepEqual(
      noKp2.matrices.map(m => [...m]),
      [
        [0.5, 0, 0, 0],
        [0, 0, 0.5, 0],
      ],
    );
  });
});
