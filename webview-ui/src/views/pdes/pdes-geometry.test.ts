import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  brushRange,
  circularLayout,
  clusterColour,
  linearScale,
  linePath,
  nearestSample,
  ribbonColour,
} from './pdes-geometry';

describe('PDES view geometry', () => {
  it('maps and inverts linear scales, a degenerate domain to the middle', () => {
    const s = linearScale([0, 10], [100, 200]);
    assert.equal(s(5), 150);
    assert.equal(s.invert(150), 5);
    assert.equal(linearScale([3, 3], [0, 10])(3), 5);
  });

  it('breaks a line at non-finite values', () => {
    const id = linearScale([0, 1], [0, 1]);
    assert.equal(linePath([0, 0, 1, 1, 2, NaN, 3, 3], id, id), 'M0.0,0.0L1.0,1.0M3.0,3.0');
  });

  it('finds the nearest sample and turns a brush into sample indices [from, to), null for the whole axis', () => {
    const time = [0, 10, 20, 30, 40];
    assert.equal(nearestSample(time, 14), 1);
    assert.equal(nearestSample(time, 16), 2);
    assert.equal(nearestSample(time, -5), 0);
    assert.equal(nearestSample(time, 99), 4);
    assert.deepEqual(brushRange(time, 31, 9), { from: 1, to: 4 });
    assert.deepEqual(brushRange(time, 20, 21), { from: 2, to: 4 }, 'at least two samples');
    assert.deepEqual(brushRange(time, 40, 40), { from: 3, to: 5 });
    assert.equal(brushRange(time, -1, 50), null);
  });

  it('shares the circle among PE arcs by their items, each PE at least one slot, with gaps', () => {
    const groups = [
      { pe: 0, label: 'PE 0', first: 0, count: 3 },
      { pe: 1, label: 'PE 1', first: 3, count: 0 },
      { pe: 2, label: 'PE 2', first: 3, count: 1 },
    ];
    const l = circularLayout(groups, 4, 0.1);
    assert.equal(l.groups.length, 3);
    const width = (g: { start: number; end: number }) => g.end - g.start;
    assert.ok(Math.abs(width(l.groups[0]!) - 3 * width(l.groups[1]!)) < 1e-9);
    assert.ok(Math.abs(width(l.groups[1]!) - width(l.groups[2]!)) < 1e-9, 'an empty PE keeps one slot');
    for (let g = 1; g < 3; g++) assert.ok(l.groups[g]!.start - l.groups[g - 1]!.end >= 0.1 - 1e-9);
    assert.ok(l.groups[2]!.end <= 2 * Math.PI + 1e-9);
    assert.ok(l.itemAngle[3]! > l.groups[2]!.start && l.itemAngle[3]! < l.groups[2]!.end);
  });

  it('colours clusters distinctly and ribbons from blue (low) to red (high)', () => {
    assert.notEqual(clusterColour(0), clusterColour(1));
    assert.equal(clusterColour(-1), '#8c8c8c');
    const low = ribbonColour(0, 10),
      high = ribbonColour(10, 10);
    const rgb = (h: string) => [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16));
    assert.ok(rgb(low)[2]! > rgb(low)[0]!, 'blue end');
    assert.ok(rgb(high)[0]! > rgb(high)[2]!, 'red end');
  });
});
