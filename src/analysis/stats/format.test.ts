import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes, formatCount, formatSeconds, formatShare, formatValue, NOT_A_NUMBER } from './format';
import { shareOf } from './share';

describe('stats formatting', () => {
  it('formats values with their unit', () => {
    assert.equal(formatValue(3.24, 's'), '3.24 s');
    assert.equal(formatValue(845, 'ms'), '845 ms');
    assert.equal(formatValue(1_234_000, 'bytes'), '1.23 MB');
    assert.equal(formatValue(12_345, 'count'), '12.3k');
    assert.equal(formatValue(7, 'samples'), '7 samples');
    assert.equal(formatShare(0.531), '53%');
    assert.equal(formatShare(0.0004), '<0.1%');
  });

  it('writes large counts compactly, in exponent form beyond 10^15', () => {
    assert.equal(formatCount(2.5e12), '2.5T');
    assert.equal(formatCount(1e308), '1.00e+308');
    assert.equal(formatCount(-3e20), '-3.00e+20');
  });

  it('never shows Infinity or NaN', () => {
    for (const v of [Infinity, -Infinity, NaN]) {
      assert.equal(formatValue(v, 's'), NOT_A_NUMBER);
      assert.equal(formatValue(v, 'count'), NOT_A_NUMBER);
      assert.equal(formatSeconds(v), NOT_A_NUMBER);
      assert.equal(formatBytes(v), NOT_A_NUMBER);
      assert.equal(formatCount(v), NOT_A_NUMBER);
      assert.equal(formatShare(v), NOT_A_NUMBER);
    }
  });

  it('shares are finite: 0 for a zero, negative or non-finite total', () => {
    assert.equal(shareOf(1, 4), 0.25);
    assert.equal(shareOf(1, 0), 0);
    assert.equal(shareOf(1, Infinity), 0);
    assert.equal(shareOf(Infinity, Infinity), 0);
    assert.equal(shareOf(NaN, 4), 0);
    assert.equal(shareOf(1e308, 1e-308), 0);
  });
});
