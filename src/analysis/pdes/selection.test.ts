import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdesBehaviour } from './behaviour';
import { METRIC } from './model/metrics';
import { lassoSelection, segmentsMeet, selectEntities, selectionMask, strokeSelection } from './selection';
import { smallRun } from './testing/small-run';

/** n flat lines at y = 1, 2, …, n over x = 0 … t − 1. */
function flatLines(n: number, t: number) {
  const values = new Float64Array(n * t);
  for (let i = 0; i < n; i++) values.fill(i + 1, i * t, (i + 1) * t);
  return { x: Float64Array.from({ length: t }, (_, s) => s), series: { values, entities: n, timePoints: t } };
}
const all = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe('segment intersection', () => {
  it('finds proper crossings, touching ends and collinear overlaps, and nothing else', () => {
    assert.ok(segmentsMeet(0, 0, 2, 2, 0, 2, 2, 0), 'an X');
    assert.ok(!segmentsMeet(0, 0, 1, 1, 2, 2, 3, 0), 'apart');
    assert.ok(segmentsMeet(0, 0, 2, 0, 1, 0, 1, 5), 'a T: the end of one on the other');
    assert.ok(segmentsMeet(0, 0, 2, 0, 2, 0, 3, 3), 'sharing an end point');
    assert.ok(segmentsMeet(0, 0, 2, 0, 1, 0, 3, 0), 'collinear and overlapping');
    assert.ok(!segmentsMeet(0, 0, 1, 0, 2, 0, 3, 0), 'collinear and apart');
    assert.ok(!segmentsMeet(0, 0, 2, 0, 1, 0.001, 1, 5), 'just above');
  });
});

describe('freeform stroke selection', () => {
  it('selects exactly the lines a stroke crosses', () => {
    const { x, series } = flatLines(6, 10);
    // A vertical stroke at x = 4.5 from y = 1.5 to 4.5 crosses the lines at 2, 3 and 4.
    assert.deepEqual(
      [
        ...strokeSelection(x, series, all(6), [
          [4.5, 1.5],
          [4.5, 4.5],
        ]),
      ],
      [1, 2, 3],
    );
    // A zigzag: the first part crosses y = 5 and 6, the second goes back down to y = 0.5.
    assert.deepEqual(
      [
        ...strokeSelection(x, series, all(6), [
          [1, 4.5],
          [2, 6.5],
          [3, 0.5],
        ]),
      ],
      [0, 1, 2, 3, 4, 5],
    );
    // Touching a line's end counts; strokes beside the data or between lines select nothing.
    assert.deepEqual(
      [
        ...strokeSelection(x, series, all(6), [
          [9, 3],
          [12, 3],
        ]),
      ],
      [2],
    );
    assert.deepEqual(
      [
        ...strokeSelection(x, series, all(6), [
          [10, 0],
          [12, 9],
        ]),
      ],
      [],
    );
    assert.deepEqual(
      [
        ...strokeSelection(x, series, all(6), [
          [0, 2.2],
          [9, 2.8],
        ]),
      ],
      [],
    );
    assert.deepEqual([...strokeSelection(x, series, all(6), [[4, 3]])], [], 'a click selects nothing');
  });

  it('only picks among the candidates, and follows lines that go up and down', () => {
    const x = Float64Array.of(0, 1, 2, 3);
    // Line 0 is a spike at x = 1; line 1 rises; line 2 stays at 0.
    const series = { values: Float64Array.of(0, 10, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0), entities: 3, timePoints: 4 };
    const stroke: [number, number][] = [
      [0.5, 5],
      [2.5, 5],
    ];
    assert.deepEqual([...strokeSelection(x, series, all(3), stroke)], [0], 'the spike, not the line that stays below');
    assert.deepEqual([...strokeSelection(x, series, Int32Array.of(1, 2), stroke)], []);
    // Non-monotone x (a real-time axis with a late round) is searched in full: line 1 goes back from
    // (2, 1) to (1, 2), crossing x = 1.5 at y = 1.5.
    const back = Float64Array.of(0, 2, 1, 3);
    assert.deepEqual(
      [
        ...strokeSelection(back, series, all(3), [
          [1.5, 1.2],
          [1.5, 1.8],
        ]),
      ],
      [1],
    );
    assert.deepEqual(
      [
        ...strokeSelection(back, series, all(3), [
          [1.5, -1],
          [1.5, 0.5],
        ]),
      ],
      [0, 2],
    );
  });
});

describe('selection of entities', () => {
  const run = smallRun({
    pes: 2,
    kpsPerPe: 2,
    ticks: 3,
    kp: (k, t) => ({ secondary: k * (t + 1), processed: 10 - k }),
  });
  const b = pdesBehaviour(run, 'kp', 'gvt').behaviour!;
  const range = { from: 0, to: 3 };
  const labels = Int32Array.of(0, 0, 1, 2);

  it('intersects cluster filters, value filters and a pick', () => {
    assert.deepEqual([...selectEntities(b, range, labels)], [0, 1, 2, 3]);
    assert.deepEqual([...selectEntities(b, range, labels, { clusters: [0, 2] })], [0, 1, 3]);
    // Secondary rollbacks reach 0, 3, 6, 9 (max over the range) and average 0, 2, 4, 6.
    const f = { metric: METRIC.secondaryRollbacks };
    assert.deepEqual([...selectEntities(b, range, labels, { valueFilters: [{ ...f, min: 4 }] })], [2, 3]);
    assert.deepEqual(
      [...selectEntities(b, range, labels, { valueFilters: [{ ...f, statistic: 'mean', min: 2, max: 4 }] })],
      [1, 2],
    );
    assert.deepEqual(
      [...selectEntities(b, { from: 0, to: 1 }, labels, { valueFilters: [{ ...f, min: 2 }] })],
      [2, 3],
      'over the range',
    );
    assert.deepEqual(
      [
        ...selectEntities(b, range, labels, {
          clusters: [0, 1],
          entities: [1, 2, 3, 99],
          valueFilters: [{ ...f, min: 1 }],
        }),
      ],
      [1, 2],
    );
    assert.deepEqual([...selectionMask(4, [1, 3])], [0, 1, 0, 1]);
  });

  it('lassos the points inside a polygon', () => {
    const points = Float64Array.of(0, 0, 1, 1, 5, 5, 1.5, 0.5);
    const square: [number, number][] = [
      [0.5, 0],
      [2, 0],
      [2, 2],
      [0.5, 2],
    ];
    assert.deepEqual([...lassoSelection(points, all(4), square)], [1, 3]);
    assert.deepEqual([...lassoSelection(points, Int32Array.of(0, 3), square)], [3]);
    assert.deepEqual([...lassoSelection(points, all(4), square.slice(0, 2))], [], 'two points are no polygon');
  });
});
