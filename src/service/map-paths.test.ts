import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalAnalysisService } from './local-analysis-service';

describe('mapPaths (hpcLens.pathMappings applied in the service)', () => {
  it('rewrites recorded paths by prefix and by regex, most specific first, and lists bad entries', async () => {
    const s = new LocalAnalysisService();
    const r = await s.mapPaths({
      paths: ['/scratch/u42/src/a.c', '/elsewhere/b.c'],
      mappings: [
        { from: '/scratch', to: '/mnt/scratch' },
        { from: '/^\\/scratch\\/[^/]+\\/(src)\\//', to: '${workspaceFolder}/$1/' },
        { from: '/(/', to: '/x' },
        { from: 3, to: '/y' },
      ],
      variables: { workspaceFolder: '/home/me/proj' },
    });
    assert.deepEqual(r.candidates, [['/home/me/proj/src/a.c', '/mnt/scratch/u42/src/a.c'], []]);
    assert.equal(r.errors.length, 2, r.errors.join('\n'));
    assert.match(r.errors[0]!, /pathMappings\[2\]/);
    assert.match(r.errors[1]!, /pathMappings\[3\] needs string "from" and "to"/);
  });

  it('a catastrophic-backtracking mapping answers at once (RE2, linear time)', { timeout: 30_000 }, async () => {
    const s = new LocalAnalysisService();
    const path = `/${'a'.repeat(64)}/y`;
    const r = await s.mapPaths({ paths: [path], mappings: [{ from: '/^\\/(a+)+\\/x$/', to: '/z' }], variables: {} });
    assert.deepEqual(r.candidates, [[]]);
    assert.deepEqual(r.errors, []);
  });
});
