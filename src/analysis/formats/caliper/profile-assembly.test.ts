import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareLikeLocale } from './profile-assembly';

describe('Caliper assembly: statement children sorted as localeCompare sorts them', () => {
  it('compareLikeLocale has the sign of localeCompare', () => {
    const sign = (x: number) => Math.sign(x);
    const check = (a: string, b: string) =>
      assert.equal(
        sign(compareLikeLocale(a, b)),
        sign(a.localeCompare(b)),
        `${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
      );
    const labels = [
      'UNKNOWN:0',
      '/src/cpi.c:9',
      '/src/cpi.c:12',
      '/src/cpi.c:120',
      '/src/Cpi.c:12',
      '/src/cpi_2.c:3',
      '/src/cpi-2.c:3',
      '/src/cpi.c',
      'a_b:1',
      'a.b:1',
      'A_b:1',
      'a b:1',
      'a~b',
      'a{b',
      'é.c:1',
      '/src/é.c:1',
      '/src/e.c:1',
      'Z',
      'z',
      '',
    ];
    for (const a of labels) for (const b of labels) check(a, b);
    // Seeded random ASCII strings over digits, letters and punctuation, sharing prefixes.
    const alphabet = '0123456789aAbBzZ_-./:~ {|}@[`';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from({ length: 1 + Math.floor(next() * 6) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let k = 0; k < 5000; k++) {
      const prefix = word();
      check(prefix + word(), prefix + word());
    }
  });
});
