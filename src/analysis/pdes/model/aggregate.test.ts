import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateSeries } from './aggregate';
import { PdesEntities } from './entities';
import { LP_METRICS, METRIC } from './metrics';
import { SampleSet } from './sample-set';

describe('aggregateSeries', () => {
  it('adds LP counters up to KPs and PEs and averages gauges', () => {
    const e = new PdesEntities();
    const set = new SampleSet('gvt');
    const lp = (gid: number, pe: number, kp: number, processed: number, eff: number, t: number) => {
      const i = e.internLp(gid);
      const k = e.internKp(pe, kp);
      e.placeLp(i, e.kpPe(k), k);
      const v = new Array<number>(LP_METRICS.length).fill(0);
      v[0] = processed;
      v[6] = eff;
      set.add('lp', i, pe, t * 10, t, v);
    };
    lp(0, 0, 0, 5, 90, 0);
    lp(1, 0, 0, 3, 70, 0);
    lp(2, 0, 1, 4, 50, 0);
    lp(3, 1, 0, 7, 10, 0);
    lp(0, 0, 0, 1, 80, 1);
    e.internLp(9); // never placed: left out
    assert.deepEqual(
      aggregateSeries(set, e, 'lp', 'kp', METRIC.eventsProcessed).map(s => [...s]),
      [
        [8, 1],
        [4, 0],
        [7, 0],
      ],
    );
    assert.deepEqual(
      aggregateSeries(set, e, 'lp', 'pe', METRIC.eventsProcessed).map(s => [...s]),
      [
        [12, 1],
        [7, 0],
      ],
    );
    assert.deepEqual(
      aggregateSeries(set, e, 'lp', 'pe', METRIC.efficiency).map(s => [...s]),
      [
        [70, 80],
        [10, NaN],
      ],
    );
    assert.throws(() => aggregateSeries(set, e, 'kp', 'lp', METRIC.eventsProcessed), /coarser level/);
    assert.throws(() => aggregateSeries(set, e, 'lp', 'kp', METRIC.totalRollbacks), /no metric "total_rollbacks"/);
  });
});
