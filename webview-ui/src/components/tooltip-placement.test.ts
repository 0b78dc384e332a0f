import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { tooltipPlacement } from './tooltip-placement';

const box = { width: 400, height: 300 };
const tip = { width: 100, height: 50 };

test('beside and below the pointer when it fits', () => {
  assert.deepEqual(tooltipPlacement(50, 40, tip, box), { left: 64, top: 56 });
});

test('flips to the other side and above near the right and bottom edges, and stays inside the box', () => {
  assert.deepEqual(tooltipPlacement(350, 280, tip, box), { left: 236, top: 220 });
  const p = tooltipPlacement(395, 5, { width: 380, height: 290 }, box);
  assert.ok(p.left >= 4 && p.left + 380 <= 396 && p.top >= 4 && p.top + 290 <= 296, JSON.stringify(p));
});

test('prefers the left side when asked and it fits', () => {
  assert.equal(tooltipPlacement(200, 40, tip, box, 'left').left, 86);
  assert.equal(tooltipPlacement(50, 40, tip, box, 'left').left, 64);
});
