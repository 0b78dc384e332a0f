import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdesBehaviour, sliceTicks, type PdesBehaviour } from './behaviour';
import { METRIC } from './model/metrics';
import { smallRun } from './testing/small-run';

function behaviourOf(result: ReturnType<typeof pdesBehaviour>): PdesBehaviour {
  assert.ok(result.behaviour, 'reason' in result ? result.reason : '');
  return result.behaviour;
}

const rows = (m: { values: Float64Array; entities: number; timePoints: number }) =>
  Array.from({ length: m.entities }, (_, i) => [...m.values.subarray(i * m.timePoints, (i + 1) * m.timePoints)]);

describe('PDES behaviour series', () => {
  // 2 PEs × 2 KPs, 4 GVT samples; KP k has k + t secondary rollbacks at tick t.
  const run = smallRun({
    pes: 2,
    kpsPerPe: 2,
    ticks: 4,
    kp: (k, t) => ({
      secondary: k + t,
      primary: 1,
      processed: 10,
      ahead: k === 3 && (t === 0 || t === 2) ? NaN : 5 * t + k,
    }),
  });

  it('gives every entity of a level one row per metric, with ids, PEs and the GVT axis', () => {
    const b = behaviourOf(pdesBehaviour(run, 'kp', 'gvt'));
    assert.deepEqual([b.level, b.axis, b.count, b.ticks, b.timeLabel], ['kp', 'gvt', 4, 4, 'GVT']);
    assert.deepEqual([...b.ids], [0, 1, 2, 3]);
    assert.deepEqual([...b.pe], [0, 0, 1, 1]);
    assert.deepEqual([...b.time], [10, 20, 30, 40]);
    assert.deepEqual([...b.edgeTimes], [10, 20, 30, 40]);
    assert.equal(b.eventAxis, 'receive');
    assert.deepEqual(rows(b.series(METRIC.secondaryRollbacks)), [
      [0, 1, 2, 3],
      [1, 2, 3, 4],
      [2, 3, 4, 5],
      [0, 4, 0, 6], // KP 3 sent no record at ticks 0 and 2
    ]);
    assert.equal(b.label(3), 'PE 1 · KP 1');
    assert.deepEqual(rows(b.window(METRIC.secondaryRollbacks, { from: 1, to: 3 })), [
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 0],
    ]);
    assert.throws(() => b.metric('gvt_time'), /KP series have no metric "gvt_time" \(they have events_processed/);
  });

  it('fills a gauge where an entity sent no record with its previous value, or its first before it reported', () => {
    const b = behaviourOf(pdesBehaviour(run, 'kp', 'gvt'));
    // KP 3 reported time ahead of GVT 8 and 18 at ticks 1 and 3 only.
    assert.deepEqual(rows(b.series(METRIC.timeAheadGvt))[3], [8, 8, 8, 18]);
    assert.deepEqual(rows(b.series(METRIC.timeAheadGvt))[2], [2, 7, 12, 17]);
    // Its counters are 0 where it did not report.
    assert.deepEqual(rows(b.series(METRIC.secondaryRollbacks))[3], [0, 4, 0, 6]);
  });

  it('rolls KP series up to PEs when PEs were not sampled, and says so', () => {
    const kpOnly = smallRun({ pes: 2, kpsPerPe: 2, ticks: 3, kp: (k, t) => ({ secondary: k * t }), noPeRecords: true });
    const r = pdesBehaviour(kpOnly, 'pe', 'gvt');
    const b = behaviourOf(r);
    assert.equal(b.sampledLevel, 'kp');
    assert.deepEqual(rows(b.series(METRIC.secondaryRollbacks)), [
      [0, 1, 2],
      [0, 5, 10],
    ]);
    assert.deepEqual('notes' in r && r.notes, ['PEs were not sampled: their series add up their KPs.']);
    assert.ok(!b.has('gvt_time'), 'PE-only metrics are not offered when rolled up from KPs');
  });

  it('falls back to another time axis or a sampled level, and gives a reason when nothing is sampled', () => {
    const r = pdesBehaviour(run, 'lp', 'rt');
    const b = behaviourOf(r);
    assert.deepEqual([b.axis, b.level], ['gvt', 'kp']);
    assert.deepEqual('notes' in r && r.notes, [
      'No real-time samples: the views use GVT samples.',
      'LPs were not sampled: the views show KPs.',
    ]);
    const empty = { ...run, samples: {} };
    assert.deepEqual(pdesBehaviour(empty, 'kp', 'gvt'), {
      behaviour: null,
      reason: 'the run has no engine samples (no *-gvt.bin, *-rt.bin or *-analysis-lps.bin)',
    });
  });

  it('slices samples [from, to) of every row', () => {
    const m = { values: Float64Array.of(1, 2, 3, 4, 5, 6), entities: 2, timePoints: 3 };
    assert.deepEqual(rows(sliceTicks(m, { from: 1, to: 3 })), [
      [2, 3],
      [5, 6],
    ]);
  });
});
