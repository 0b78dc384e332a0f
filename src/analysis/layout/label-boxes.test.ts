import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boxCorners, boxesOverlap, type LabelBox } from './label-boxes';

const box = (cx: number, cy: number, w: number, h: number, angle = 0): LabelBox => ({ cx, cy, w, h, angle });

describe('label boxes', () => {
  it('rotates corners about the centre', () => {
    const c = boxCorners(box(10, 10, 4, 2, 90)).map(([x, y]) => [Math.round(x * 1e9) / 1e9, Math.round(y * 1e9) / 1e9]);
    assert.deepEqual(c, [
      [11, 8],
      [11, 12],
      [9, 12],
      [9, 8],
    ]);
  });

  it('finds overlap of axis-aligned and rotated boxes, and touching boxes do not overlap', () => {
    assert.equal(boxesOverlap(box(0, 0, 10, 4), box(9, 0, 10, 4)), true);
    assert.equal(boxesOverlap(box(0, 0, 10, 4), box(10, 0, 10, 4)), false, 'edges touch');
    assert.equal(boxesOverlap(box(0, 0, 10, 4), box(0, 5, 10, 4)), false);
    // A thin box rotated 45° passes diagonally near a corner without touching it.
    assert.equal(boxesOverlap(box(0, 0, 2, 2), box(4, 4, 8, 1, -45)), false);
    assert.equal(boxesOverlap(box(0, 0, 2, 2), box(2, 2, 8, 1, 45)), true);
  });
});
