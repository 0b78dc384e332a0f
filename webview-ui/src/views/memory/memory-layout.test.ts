import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryHistogram } from '../../../../src/shared/memory-protocol';
import {
  axisEndLabels,
  binAt,
  binRange,
  binsOfRange,
  clusterSpan,
  histogramAxes,
  levelSegments,
  moveAxis,
  orderedHistograms,
  stripCells,
} from './memory-layout';

const numbers = (min: number, max: number, counts: number[]): MemoryHistogram => ({
  attribute: 'latency',
  kind: 'quantitative',
  min,
  max,
  visible: Float64Array.from(counts),
  selected: null,
});

describe('memory layout', () => {
  test('a brush over bins gives their value range, and the range gives the bins back', () => {
    const h = numbers(0, 100, new Array<number>(10).fill(1));
    assert.deepEqual(binRange(h, 2, 4), { min: 20, max: 50 });
    assert.deepEqual(binRange(h, 9, 7), { min: 70, max: 100 }, 'either drag direction; the last bin ends at max');
    assert.deepEqual(binsOfRange(h, { min: 20, max: 50 }), [2, 4]);
    assert.deepEqual(binsOfRange(h, { min: 70, max: 100 }), [7, 9]);
    const names: MemoryHistogram = { ...h, kind: 'qualitative', categories: ['a', 'b', 'c'], min: 0, max: 2 };
    assert.deepEqual(binRange({ ...names, visible: Float64Array.of(1, 1, 1) }, 1, 2), { min: 1, max: 2 });
  });

  test('pointer y to bin: bin 0 at the bottom, clamped to the axis', () => {
    const [axis] = histogramAxes([numbers(0, 10, [1, 2, 3, 4])], 200, 234);
    assert.equal(binAt(axis!, axis!.bottom - 1, 4), 0);
    assert.equal(binAt(axis!, axis!.top + 1, 4), 3);
    assert.equal(binAt(axis!, -50, 4), 3);
    assert.equal(binAt(axis!, 1e6, 4), 0);
  });

  test('bars: visible by the axis maximum, the selection by its own', () => {
    const h = { ...numbers(0, 10, [10, 5, 0, 1]), selected: Float64Array.of(1, 2, 0, 0) };
    const [axis] = histogramAxes([h], 114, 234);
    assert.deepEqual(
      axis!.bars.map(b => b.bin),
      [0, 1, 3],
      'empty bins draw nothing',
    );
    const space = 114 - 14;
    assert.equal(axis!.bars[0]!.visibleWidth, space);
    assert.equal(axis!.bars[1]!.visibleWidth, space / 2);
    assert.equal(axis!.bars[1]!.selectedWidth, space, 'the largest selected bin spans the column');
    assert.equal(axis!.bars[0]!.selectedWidth, space / 2);
  });

  test('axis order: moves swap neighbours; unknown attributes go last', () => {
    assert.deepEqual(moveAxis(['a', 'b', 'c'], 'b', -1), ['b', 'a', 'c']);
    assert.deepEqual(moveAxis(['a', 'b', 'c'], 'c', 1), ['a', 'b', 'c']);
    const hs = ['x', 'y', 'z'].map(a => ({ ...numbers(0, 1, [1]), attribute: a }));
    assert.deepEqual(
      orderedHistograms(hs, ['z', 'x']).map(h => h.attribute),
      ['z', 'x', 'y'],
    );
  });

  test('axis ends that print alike show the span instead', () => {
    assert.deepEqual(axisEndLabels(0, 2985), ['0', '2985']);
    const [lo, hi] = axisEndLabels(3.6123e15, 3.6123e15 + 2.5e8);
    assert.equal(lo, '3.61e+15');
    assert.equal(hi, '+2.50e+8');
  });

  test('level segments tile the bar in level order, scaled to the largest row', () => {
    const row = { cycles: 100, samples: 4, levelSamples: [1, 1, 1, 1, 0], levelCycles: [10, 20, 30, 40, 0] };
    const s = levelSegments(row, 200, 160);
    assert.deepEqual(
      s.map(x => x.level),
      [1, 2, 3, 0],
    );
    assert.equal(
      s.reduce((a, x) => a + x.width, 0),
      80,
    );
    for (let k = 1; k < s.length; k++) assert.equal(s[k]!.x, s[k - 1]!.x + s[k - 1]!.width, 'no gaps, no overlap');
  });

  test('strip cells: equal widths; empty windows have no colour; clusters stay inside', () => {
    const c = stripCells(
      [
        { samples: 5, value: 1 },
        { samples: 0, value: NaN },
        { samples: 5, value: 3 },
      ],
      300,
    );
    assert.deepEqual(
      c.map(x => [x.x, x.width, x.t]),
      [
        [0, 100, 0],
        [100, 100, null],
        [200, 100, 1],
      ],
    );
    assert.deepEqual(clusterSpan({ min: 0, max: 50 }, 0, 100, 200), { x: 0, width: 100 });
    assert.ok(
      clusterSpan({ min: 90, max: 120 }, 0, 100, 200).x + clusterSpan({ min: 90, max: 120 }, 0, 100, 200).width <= 200,
    );
  });
});
