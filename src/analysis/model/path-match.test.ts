import assert from 'node:assert/strict';
import { it } from 'node:test';
import { bestSuffixMatch } from './path-match';

it('matches recorded paths to local files by trailing components', () => {
  const c = ['/ws/test/a.c', '/ws/src/a.c', '/ws/other/src/a.c.bak'];
  assert.equal(bestSuffixMatch('/home/hpc/app/src/a.c', c), '/ws/src/a.c');
  assert.equal(bestSuffixMatch('a.c', ['/x/y/a.c', '/x/a.c']), '/x/a.c', 'shorter path wins a tie');
  assert.equal(bestSuffixMatch('/p/b.c', c), null);
  assert.equal(bestSuffixMatch('C:\\build\\src\\a.c', c), '/ws/src/a.c');
});
