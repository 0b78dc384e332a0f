import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutUnitSuffix } from './metric';

describe('metric labels', () => {
  it('drops a trailing unit the views add anyway, so nothing reads "(sec) (s)"', () => {
    assert.equal(withoutUnitSuffix('REALTIME (sec)', 's'), 'REALTIME');
    assert.equal(withoutUnitSuffix('GPU time (usec)', 'µs'), 'GPU time');
  });

  it('keeps parentheses that are not the unit', () => {
    assert.equal(withoutUnitSuffix('CPUTIME (usec):Mean', 'µs'), 'CPUTIME (usec):Mean');
    assert.equal(withoutUnitSuffix('Time (inclusive)', 's'), 'Time (inclusive)');
    assert.equal(withoutUnitSuffix('REALTIME (sec)', ''), 'REALTIME (sec)');
  });
});
