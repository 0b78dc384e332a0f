import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PdesEntities } from './entities';
import { placeLps } from './placement';

describe('PdesEntities', () => {
  it('interns PEs, KPs and LPs and sorts them into natural order', () => {
    const e = new PdesEntities();
    e.internKp(1, 1);
    e.internKp(0, 1);
    e.internKp(1, 0);
    e.internKp(0, 0);
    const lp9 = e.internLp(9);
    const lp2 = e.internLp(2);
    e.placeLp(lp9, e.findPe(1), e.findKp(1, 0));
    e.placeLp(lp2, e.findPe(0), e.findKp(0, 1));
    assert.deepEqual([e.count('pe'), e.count('kp'), e.count('lp')], [2, 4, 2]);
    assert.equal(e.label('kp', 0), 'PE 1 · KP 1', 'interned in arrival order');
    const order = e.sort();
    assert.deepEqual([...order.pe], [1, 0]);
    assert.deepEqual([...order.kp], [3, 1, 2, 0]);
    assert.deepEqual([...order.lp], [1, 0]);
    assert.deepEqual(
      [0, 1, 2, 3].map(i => e.label('kp', i)),
      ['PE 0 · KP 0', 'PE 0 · KP 1', 'PE 1 · KP 0', 'PE 1 · KP 1'],
    );
    assert.equal(e.findKp(1, 1), 3);
    assert.equal(e.findLp(2), 0);
    assert.deepEqual(
      [e.label('lp', 0), e.label('kp', e.lpKp(0)), e.label('pe', e.lpPe(1))],
      ['LP 2', 'PE 0 · KP 1', 'PE 1'],
    );
    assert.equal(e.parent('kp', 2), 1);
    assert.equal(e.kpsPerPe, 2);
    assert.deepEqual([...e.lpLookup('pe')], [-1, -1, 0, -1, -1, -1, -1, -1, -1, 1]);
    assert.deepEqual(
      [...e.lpLookup('kp')].filter(k => k >= 0),
      [1, 2],
    );
  });
});

describe('placeLps', () => {
  it('follows ROSS map_linear: equal blocks per PE, ceil(n/kps) consecutive LPs per KP', () => {
    const e = new PdesEntities();
    const p = placeLps(e, { mapping: 'linear', totalPe: 2, totalLp: 10, kpsPerPe: 2 });
    assert.deepEqual(p, { pe: 'linear', kp: 'linear' });
    const kpOf = (gid: number) => e.label('kp', e.lpKp(e.findLp(gid)));
    assert.deepEqual([0, 2, 3, 4, 5, 8, 9].map(kpOf), [
      'PE 0 · KP 0',
      'PE 0 · KP 0',
      'PE 0 · KP 1',
      'PE 0 · KP 1',
      'PE 1 · KP 0',
      'PE 1 · KP 1',
      'PE 1 · KP 1',
    ]);
  });

  it('follows CODES codes-mapping: the remainder on the first PEs, KPs round robin', () => {
    const e = new PdesEntities();
    const p = placeLps(e, { mapping: 'model defined', totalPe: 3, totalLp: 11, kpsPerPe: 2, codes: true });
    assert.deepEqual(p, { pe: 'codes', kp: 'round-robin' });
    const where = (gid: number) => e.label('kp', e.lpKp(e.findLp(gid)));
    // PE 0: LPs 0–3, PE 1: 4–7, PE 2: 8–10.
    assert.deepEqual([0, 1, 2, 3, 4, 7, 8, 10].map(where), [
      'PE 0 · KP 0',
      'PE 0 · KP 1',
      'PE 0 · KP 0',
      'PE 0 · KP 1',
      'PE 1 · KP 0',
      'PE 1 · KP 1',
      'PE 2 · KP 0',
      'PE 2 · KP 0',
    ]);
  });

  it('takes LP→PE from ross_all_lp_stats, leaves LP-record placements alone, and says when nothing places LPs', () => {
    const e = new PdesEntities();
    const kp = e.internKp(0, 1);
    e.placeLp(e.internLp(5), e.kpPe(kp), kp);
    const lpStats = {
      lp: Int32Array.of(5, 6, 7),
      pe: Int32Array.of(0, 0, 1),
      processingTime: new Float64Array(3),
      eventsProcessed: new Float64Array(3),
    };
    const p = placeLps(e, { mapping: 'model defined', kpsPerPe: 2, lpStats, codes: true });
    assert.deepEqual(p, { pe: 'lp-stats', kp: 'round-robin' });
    assert.equal(e.label('kp', e.lpKp(e.findLp(5))), 'PE 0 · KP 1', 'LP samples win');
    assert.equal(e.label('kp', e.lpKp(e.findLp(6))), 'PE 0 · KP 1');
    assert.equal(e.label('pe', e.lpPe(e.findLp(7))), 'PE 1');
    assert.deepEqual(placeLps(new PdesEntities(), {}), { pe: 'none', kp: 'none' });
    const unknownKp = new PdesEntities();
    assert.deepEqual(placeLps(unknownKp, { mapping: 'round robin', lpStats }), { pe: 'lp-stats', kp: 'none' });
    assert.equal(unknownKp.lpKp(0), -1);
  });
});
