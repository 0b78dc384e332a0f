import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileUserRegex, regexForm, userRegexOf, userRegexProblem } from './user-regex';

describe('user regular expressions (RE2, linear time)', () => {
  it('recognises the /pattern/flags form and leaves plain strings alone', () => {
    assert.deepEqual(regexForm('/^MPI_/'), { pattern: '^MPI_', flags: '' });
    assert.deepEqual(regexForm('/a\\/b/i'), { pattern: 'a\\/b', flags: 'i' });
    assert.equal(regexForm('MPI_Send'), null);
    assert.equal(userRegexOf('MPI_Send'), null);
  });

  it('matches like JavaScript on ordinary patterns, with the i, s and m flags', () => {
    const mpi = userRegexOf('/^MPI_/')!;
    assert.ok(mpi.test('MPI_Allreduce'));
    assert.ok(!mpi.test('PMPI_Allreduce'));
    assert.ok(userRegexOf('/^mpi_/i')!.test('MPI_Send'));
    assert.ok(userRegexOf('/a.b/s')!.test('a\nb'));
    assert.ok(!userRegexOf('/a.b/')!.test('a\nb'));
    assert.ok(userRegexOf('/^b$/m')!.test('a\nb'));
  });

  it('replaces the first match with groups, the whole match and literal dollars', () => {
    const r = compileUserRegex('^/scratch/[^/]+/(src)/');
    assert.deepEqual(r.replaceFirst('/scratch/u42/src/a.c', '/home/me/$1/'), {
      text: '/home/me/src/a.c',
      length: 17,
    });
    assert.deepEqual(compileUserRegex('b+').replaceFirst('abbbc', '[$&|$$]'), { text: 'a[bbb|$]c', length: 3 });
    assert.equal(compileUserRegex('x').replaceFirst('abc', 'y'), null);
    assert.equal(
      compileUserRegex('(a)').replaceFirst('a', '$2')!.text,
      '$2',
      'a group that does not exist stays literal',
    );
  });

  it('a catastrophic-backtracking pattern answers at once on a long input', { timeout: 30_000 }, () => {
    // JavaScript's RegExp takes ~2 s at 24 characters and ×4 per two more; 60 would outlive the test run.
    const evil = userRegexOf('/^\\/(a+)+\\/x$/')!;
    assert.equal(evil.test(`/${'a'.repeat(60)}/y`), false);
    assert.equal(evil.test(`/${'a'.repeat(60)}/x`), true);
  });

  it('says why a pattern cannot be used: syntax, unknown flags, look-around and back-references', () => {
    assert.match(userRegexProblem('(', '')!, /Unterminated group|unterminated/i);
    assert.equal(userRegexProblem('a', 'q'), 'unknown flag "q"');
    assert.equal(userRegexProblem('a', 'gi'), null, 'g and y change nothing and are accepted');
    for (const p of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?<n>a)\\k<n>'])
      assert.match(userRegexProblem(p, '')!, /not supported/, p);
    assert.throws(() => userRegexOf('/(a)\\1/'), /not supported/);
  });
});
