import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { bundleNodeScript } from '../../../../test/support/node-bundle';
import { tempFileWriter } from '../../../../test/support/temp-files';

/**
 * The readers bundled as the CLI and the worker bundle them (esbuild, CommonJS), run in a fresh
 * process: which of Node's modules a plain read loads (process.moduleLoadList).
 */
describe('modules a read loads', () => {
  const files = tempFileWriter('lazy-modules');
  let script = '';
  before(() => {
    script = bundleNodeScript(
      [
        `import { readProfile } from ${JSON.stringify(resolve(__dirname, '..', 'index.ts'))};`,
        `const loaded = () => process.moduleLoadList.filter(m => m === 'NativeModule zlib' || m === 'NativeModule fs/promises');`,
        `const atLoad = loaded();`,
        `readProfile(process.argv[2]).then(p => console.log(JSON.stringify({ atLoad, afterRead: loaded(), nodes: p.tree.size })));`,
      ],
      join(files.dir, 'read.js'),
      __dirname,
    );
  });
  after(() => rmSync(files.dir, { recursive: true, force: true }));

  const read = (path: string) => {
    const r = spawnSync(process.execPath, [script, path], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { atLoad: string[]; afterRead: string[]; nodes: number };
  };
  const folded = 'main;solve;kernel 10\nmain;io 3\n';

  it('loading the readers and reading an uncompressed profile load neither node:zlib nor node:fs/promises', () => {
    const r = read(files.write('plain.folded', folded));
    assert.equal(r.nodes, 4);
    assert.deepEqual(r.atLoad, []);
    assert.deepEqual(r.afterRead, []);
  });

  it('a gzip-compressed profile loads node:zlib when it is read, and reads the same', () => {
    const r = read(files.write('packed.folded.gz', gzipSync(folded)));
    assert.equal(r.nodes, 4);
    assert.deepEqual(r.atLoad, []);
    assert.ok(r.afterRead.includes('NativeModule zlib'));
  });
});
