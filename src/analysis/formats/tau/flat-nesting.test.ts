import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferNesting, type FlatTimers } from './flat-nesting';

/** Timers as [calls, subrs, excl, incl] rows, one metric. */
function timers(rows: [number, number, number, number][], second?: [number, number][]): FlatTimers {
  const col = (k: number) => Float64Array.from(rows, r => r[k]!);
  const exclusive = [col(2)],
    inclusive = [col(3)];
  if (second) {
    exclusive.push(Float64Array.from(second, r => r[0]));
    inclusive.push(Float64Array.from(second, r => r[1]));
  }
  return { count: rows.length, calls: col(0), subrs: col(1), exclusive, inclusive };
}

describe('inferring the nesting of flat TAU timers', () => {
  it('finds the nesting the inclusive times and Subrs counts prove', () => {
    // root → main → {init, work → {compute ×3}, finalize}
    const t = timers([
      [1, 1, 5, 100],
      [1, 3, 10, 95],
      [1, 0, 5, 5],
      [1, 3, 10, 70],
      [3, 0, 60, 60],
      [1, 0, 10, 10],
    ]);
    assert.deepEqual([...inferNesting(t)!], [-1, 0, 1, 1, 3, 1]);
  });

  it('backtracks when the most recent timer with room is the wrong parent', () => {
    // B fits under A by calls and time, but would leave 10 of A's time unexplained.
    const t = timers([
      [1, 2, 0, 100],
      [1, 1, 10, 60],
      [1, 0, 40, 40],
      [1, 0, 50, 50],
    ]);
    assert.deepEqual([...inferNesting(t)!], [-1, 0, 0, 1]);
  });

  it('requires every metric to fit', () => {
    const rows: [number, number, number, number][] = [
      [1, 2, 0, 100],
      [1, 0, 40, 40],
      [1, 0, 60, 60],
    ];
    assert.deepEqual(
      [
        ...inferNesting(
          timers(rows, [
            [0, 10],
            [4, 4],
            [6, 6],
          ]),
        )!,
      ],
      [-1, 0, 0],
    );
    assert.equal(
      inferNesting(
        timers(rows, [
          [0, 10],
          [4, 4],
          [7, 7],
        ]),
      ),
      null,
    );
  });

  it('fails for recursion, several callers and inconsistent numbers', () => {
    assert.equal(
      inferNesting(
        timers([
          [1, 1, 0, 100],
          [2, 1, 100, 100],
        ]),
      ),
      null,
      'recursion',
    );
    assert.equal(
      inferNesting(
        timers([
          [1, 1, 5, 90],
          [1, 2, 10, 85],
          [1, 1, 10, 35],
          [2, 0, 65, 65],
        ]),
      ),
      null,
      'two callers',
    );
    assert.equal(inferNesting(timers([[1, 0, 5, 90]])), null, 'time in children without calls');
    assert.equal(
      inferNesting(
        timers([
          [1, 1, 50, 40],
          [1, 0, 5, 5],
        ]),
      ),
      null,
      'inclusive below exclusive',
    );
  });

  it('gives up within its step budget', () => {
    // 30 equal leaves cannot split into halves of odd time 31 and 29, but every total adds up, so
    // only an exhaustive search (C(30, 15) ways) could prove it.
    const rows: [number, number, number, number][] = [
      [1, 2, 0, 60],
      [1, 15, 0, 31],
      [1, 15, 0, 29],
    ];
    for (let k = 0; k < 30; k++) rows.push([1, 0, 2, 2]);
    const started = Date.now();
    assert.equal(inferNesting(timers(rows), { maxSteps: 5000 }), null);
    assert.ok(Date.now() - started < 1000);
    assert.deepEqual(inferNesting(timers([])) && [...inferNesting(timers([]))!], []);
  });
});
