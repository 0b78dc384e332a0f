import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clampWindow,
  MIN_SPAN_NS,
  panBy,
  selectionToWindow,
  timeToX,
  windowAroundEvent,
  xToTime,
  zoomAt,
} from './viewport';

const run: [number, number] = [0, 1_000_000];

describe('viewport', () => {
  test('pixels and times map both ways', () => {
    const w = { start: 1000, end: 3000 };
    assert.equal(timeToX(w, 400, 2000), 200);
    assert.equal(xToTime(w, 400, 100), 1500);
    assert.equal(xToTime(w, 400, timeToX(w, 400, 2777)), 2777);
  });

  test('zoom keeps the time under the pointer in place', () => {
    const w = { start: 0, end: 1_000_000 };
    const z = zoomAt(w, 1000, 250, 0.5, run);
    assert.ok(Math.abs(xToTime(z, 1000, 250) - 250_000) < 1e-6);
    assert.equal(z.end - z.start, 500_000);
    assert.equal(
      zoomAt({ start: 0, end: 300 }, 1000, 500, 0.01, run).end -
        zoomAt({ start: 0, end: 300 }, 1000, 500, 0.01, run).start,
      MIN_SPAN_NS,
    );
  });

  test('pan and clamp stay within the run (plus a 5 % margin)', () => {
    const p = panBy({ start: 0, end: 100_000 }, 1000, -5000, run);
    assert.equal(p.start, -50_000);
    assert.equal(p.end - p.start, 100_000);
    assert.deepEqual(clampWindow({ start: -5e9, end: 5e9 }, run), { start: -50_000, end: 1_050_000 });
    const right = panBy({ start: 900_000, end: 1_000_000 }, 100, 1e6, run);
    assert.equal(right.end, 1_050_000);
  });

  test('a drag becomes a window in either direction, clipped; a click is no selection', () => {
    const w = { start: 0, end: 1_000_000 };
    assert.deepEqual(selectionToWindow(300, 100, w, 1000, run), { start: 100_000, end: 300_000 });
    assert.deepEqual(selectionToWindow(-50, 100, w, 1000, run), { start: 0, end: 100_000 });
    assert.equal(selectionToWindow(10, 11, w, 1000, run), null);
    // Beyond the run's end (the margin) is clipped to the run.
    assert.deepEqual(selectionToWindow(900, 1000, { start: 500_000, end: 1_050_000 }, 1100, run), {
      start: 950_000,
      end: 1_000_000,
    });
  });

  test('double-click zoom: the event with 10 % either side, at least 1 µs', () => {
    assert.deepEqual(windowAroundEvent(10_000, 5_000), { start: 9_500, end: 15_500 });
    assert.deepEqual(windowAroundEvent(10_000, 0), { start: 9_900, end: 11_100 });
  });
});
