import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KP_METRICS, METRIC, PE_METRICS } from './metrics';
import { SampleSet, SeriesTable } from './sample-set';

/** KP values with processed = p, total rollbacks = rb, secondary = sec, time ahead of GVT = ahead. */
function kp(p: number, rb = 0, sec = 0, ahead = 0): number[] {
  const v = new Array<number>(KP_METRICS.length).fill(0);
  v[0] = p;
  v[3] = rb;
  v[4] = sec;
  v[7] = ahead;
  v[9] = rb - sec;
  return v;
}

describe('SeriesTable', () => {
  it('adds counters and keeps the last gauge when an entity reports twice in a tick', () => {
    const t = new SeriesTable('kp');
    t.merge(0, 0, kp(5, 2, 1, 10));
    t.merge(0, 0, kp(3, 1, 0, -4));
    assert.deepEqual([...t.series(METRIC.eventsProcessed, 0)], [8]);
    assert.deepEqual([...t.series(METRIC.primaryRollbacks, 0)], [2]);
    assert.deepEqual([...t.series(METRIC.timeAheadGvt, 0)], [-4]);
    assert.equal(t.records, 2);
  });

  it('pads entities and ticks that have no record: 0 for counters, NaN for gauges', () => {
    const t = new SeriesTable('kp');
    t.merge(2, 3, kp(1, 0, 0, 7));
    assert.equal(t.entityCount, 3);
    assert.equal(t.tickCount, 4);
    assert.deepEqual([...t.series(METRIC.eventsProcessed, 2)], [0, 0, 0, 1]);
    assert.deepEqual([...t.series(METRIC.timeAheadGvt, 2)], [NaN, NaN, NaN, 7]);
    assert.deepEqual([...t.series(METRIC.timeAheadGvt, 0)], [NaN, NaN, NaN, NaN]);
    // Growing past the initial capacity keeps values and pads gauges.
    t.merge(0, 40, kp(9, 0, 0, 1));
    assert.equal(t.series(METRIC.eventsProcessed, 2)[3], 1);
    assert.ok(Number.isNaN(t.series(METRIC.timeAheadGvt, 2)[20]!));
    assert.equal(t.total(METRIC.eventsProcessed), 10);
    assert.throws(() => t.series('gvt_time', 0), /KP samples have no metric "gvt_time"/);
  });

  it('reorders entities and ticks', () => {
    const t = new SeriesTable('kp');
    t.merge(0, 0, kp(1));
    t.merge(1, 0, kp(2));
    t.merge(1, 1, kp(3));
    t.permuteEntities(Int32Array.of(1, 0));
    assert.deepEqual(
      t.matrix(METRIC.eventsProcessed).map(r => [...r]),
      [
        [2, 3],
        [1, 0],
      ],
    );
    t.permuteTicks(Int32Array.of(1, 0));
    assert.deepEqual([...t.series(METRIC.eventsProcessed, 0)], [3, 2]);
  });
});

describe('SampleSet', () => {
  const peValues = (p: number) => {
    const v = new Array<number>(PE_METRICS.length).fill(0);
    v[0] = p;
    return v;
  };

  it('groups GVT samples by virtual time, whatever PE reports first, and sorts ticks', () => {
    const s = new SampleSet('gvt');
    assert.equal(s.grouping, 'virtual-time');
    // PE 0 writes rounds at GVT 10 and 20 before PE 1 writes its round at 10, then a late 5.
    s.add('pe', 0, 0, 10, 1.0, peValues(1));
    s.add('pe', 0, 0, 20, 2.0, peValues(2));
    s.add('pe', 1, 1, 10, 0.9, peValues(3));
    s.add('pe', 1, 1, 5, 0.5, peValues(4));
    assert.equal(s.tickCount, 3);
    assert.ok(s.sortTicks());
    assert.deepEqual([...s.ticks.key], [5, 10, 20]);
    assert.deepEqual([...s.ticks.realTime], [0.5, 0.9, 2.0], 'a tick starts at its earliest record');
    assert.deepEqual(
      s.pe.matrix(METRIC.eventsProcessed).map(r => [...r]),
      [
        [0, 1, 2],
        [4, 3, 0],
      ],
    );
    assert.equal(s.sortTicks(), false);
    // After sorting, a repeated key still finds its tick.
    s.add('pe', 0, 0, 10, 3, peValues(10));
    assert.equal(s.pe.series(METRIC.eventsProcessed, 0)[1], 11);
  });

  it('numbers real-time rounds per PE: a round ends when one of its entities reports again', () => {
    const s = new SampleSet('rt');
    assert.equal(s.grouping, 'ordinal');
    // PE 0: PE record + 2 KPs per round; PE 1 lags and has one KP.
    s.add('pe', 0, 0, 0, 1.0, peValues(1));
    s.add('kp', 0, 0, 0, 1.0, kp(1));
    s.add('kp', 1, 0, 0, 1.0, kp(2));
    s.add('pe', 0, 0, 5, 1.02, peValues(3));
    s.add('kp', 0, 0, 5, 1.02, kp(4));
    s.add('pe', 1, 1, 0, 1.01, peValues(5));
    s.add('kp', 2, 1, 0, 1.01, kp(6));
    s.add('pe', 1, 1, 5, 1.03, peValues(7));
    s.add('pe', 1, 1, Infinity, 1.05, peValues(8));
    assert.deepEqual([...s.ticks.key], [0, 1, 2]);
    assert.deepEqual([...s.ticks.virtualTime], [0, 5, Infinity]);
    assert.deepEqual(
      s.pe.matrix(METRIC.eventsProcessed).map(r => [...r]),
      [
        [1, 3, 0],
        [5, 7, 8],
      ],
    );
    assert.deepEqual(
      s.kp.matrix(METRIC.eventsProcessed).map(r => [...r]),
      [
        [1, 4, 0],
        [2, 0, 0],
        [6, 0, 0],
      ],
    );
    assert.deepEqual(s.records, { pe: 5, kp: 4, lp: 0 });
  });
});
