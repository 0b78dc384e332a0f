import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { normaliseUnit, withoutUnitSuffix } from './metric';

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

  it('gives what the regular expression it stands for gives, on seeded random labels', () => {
    const reference = (label: string, unit: string) => {
      const m = /^(.*\S)\s*\(([^()]+)\)$/.exec(label);
      return m && unit !== '' && normaliseUnit(m[2]!) === unit ? m[1]! : label;
    };
    const random = seededRandom(24);
    const pieces = ['a', 'T', ' ', '  ', '\t', '\n', '\r', '\u2028', '\u00a0', '(', ')', 'sec', 'usec', 's', ':Mean'];
    for (let k = 0; k < 20_000; k++) {
      let label = '';
      const n = Math.floor(random() * 8);
      for (let i = 0; i < n; i++) label += pieces[Math.floor(random() * pieces.length)];
      for (const unit of ['', 's', 'µs', 'sec'])
        assert.equal(withoutUnitSuffix(label, unit), reference(label, unit), JSON.stringify([label, unit]));
    }
  });
});
