import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatBytes,
  formatCount,
  formatImbalance,
  formatLocation,
  formatSeconds,
  formatShare,
  formatSignificant,
  formatValue,
} from './format';

describe('formatSignificant', () => {
  test('keeps three significant digits and drops trailing zeros', () => {
    assert.equal(formatSignificant(12.345), '12.3');
    assert.equal(formatSignificant(845.2), '845');
    assert.equal(formatSignificant(3.1), '3.1');
    assert.equal(formatSignificant(3.0), '3');
    assert.equal(formatSignificant(0.012345), '0.0123');
    assert.equal(formatSignificant(0), '0');
    assert.equal(formatSignificant(-1.5), '−1.5');
  });
  test('non-finite values', () => {
    assert.equal(formatSignificant(Number.NaN), '–');
    assert.equal(formatSignificant(Infinity), '∞');
  });
});

describe('formatValue with time units', () => {
  test('seconds scale to s / ms / µs / ns', () => {
    assert.equal(formatValue(12.3, 's'), '12.3 s');
    assert.equal(formatValue(0.845, 's'), '845 ms');
    assert.equal(formatValue(3.1e-6, 's'), '3.1 µs');
    assert.equal(formatValue(4.2e-8, 's'), '42 ns');
    assert.equal(formatValue(0, 's'), '0 s');
  });
  test('other time units are converted first', () => {
    assert.equal(formatValue(845, 'ms'), '845 ms');
    assert.equal(formatValue(12_300, 'ms'), '12.3 s');
    assert.equal(formatValue(3.1, 'us'), '3.1 µs');
    assert.equal(formatValue(3100, 'µs'), '3.1 ms');
    assert.equal(formatValue(1500, 'ns'), '1.5 µs');
    assert.equal(formatValue(2, 'seconds'), '2 s');
  });
  test('rounding never shows 1000 of a unit', () => {
    assert.equal(formatSeconds(0.99996), '1 s');
    assert.equal(formatSeconds(0.0009999), '1 ms');
  });
  test('long times switch to minutes and hours', () => {
    assert.equal(formatSeconds(999), '999 s');
    assert.equal(formatSeconds(1200), '20 min');
    assert.equal(formatSeconds(7 * 3600 * 2), '14 h');
  });
});

describe('formatValue with counts and bytes', () => {
  test('large counts get k / M / G suffixes', () => {
    assert.equal(formatValue(950, ''), '950');
    assert.equal(formatValue(12_345, ''), '12.3k');
    assert.equal(formatValue(4_500_000, 'count'), '4.5M');
    assert.equal(formatValue(1.2e9, ''), '1.2G');
  });
  test('other units are appended', () => {
    assert.equal(formatValue(3_210_000, 'cycles'), '3.21M cycles');
    assert.equal(formatValue(7, 'calls'), '7 calls');
  });
  test('rounding promotes to the next suffix', () => {
    assert.equal(formatCount(999_950), '1M');
    assert.equal(formatCount(999), '999');
  });
  test('bytes use binary prefixes', () => {
    assert.equal(formatValue(512, 'bytes'), '512 B');
    assert.equal(formatValue(1536, 'B'), '1.5 KiB');
    assert.equal(formatBytes(3.2 * 1024 ** 3), '3.2 GiB');
    assert.equal(formatValue(2, 'MiB'), '2 MiB');
  });
});

describe('formatShare, formatImbalance, formatLocation', () => {
  test('shares are percentages with one decimal', () => {
    assert.equal(formatShare(0.4523), '45.2%');
    assert.equal(formatShare(0.046), '4.6%');
    assert.equal(formatShare(0.25), '25%');
    assert.equal(formatShare(1), '100%');
    assert.equal(formatShare(0.0004), '<0.1%');
    assert.equal(formatShare(0), '0%');
    assert.equal(formatShare(Number.NaN), '–');
  });
  test('imbalance is a factor', () => {
    assert.equal(formatImbalance(1.4234), '1.42×');
    assert.equal(formatImbalance(1), '1.00×');
  });
  test('locations', () => {
    assert.equal(formatLocation('src/halo.c', 41), 'src/halo.c:41');
    assert.equal(formatLocation('src/halo.c', null), 'src/halo.c');
    const long = formatLocation('/very/long/path/'.repeat(10) + 'file.c', 3, 20);
    assert.ok(long.startsWith('…') && long.endsWith('file.c:3'));
    assert.equal(long.length, 20 + ':3'.length);
  });
});
