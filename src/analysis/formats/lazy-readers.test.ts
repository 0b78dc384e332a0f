import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { instrumentLazyInits } from '../../../test/support/lazy-inits';
import { bundleNodeScript } from '../../../test/support/node-bundle';

/** The reader modules: one per sniffer module (registry.test.ts checks that pairing). */
const READERS = readdirSync(join(__dirname, 'sniffers'))
  .filter(n => n.endsWith('.ts') && !n.endsWith('.test.ts'))
  .map(n => n.replace(/\.ts$/, ''));

/**
 * readProfile bundled as esbuild.mjs bundles the CLI and the worker (one CommonJS file): the
 * registry's import() of a bundled module becomes a lazy module init, so a reader's top-level code
 * runs only when its format matched. Each reader's init is instrumented to note that it ran.
 */
describe('readers in a Node bundle (evaluated only when their format matched)', () => {
  let dir: string;
  let script: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-lazy-readers-'));
    script = bundleNodeScript(
      [
        `import { readProfile } from ${JSON.stringify(join(__dirname, 'index.ts'))};`,
        'const g = globalThis as { __evaluated?: string[] };',
        'readProfile(process.argv[2]!).then(p =>',
        '  console.log(JSON.stringify({ nodes: p.tree.size, evaluated: g.__evaluated ?? [] })),',
        ');',
      ],
      join(dir, 'read.js'),
      __dirname,
    );
    instrumentLazyInits(
      script,
      READERS.map(r => `formats/${r}`),
    );
    writeFileSync(join(dir, 'small.folded'), 'main;solve;kernel 10\nmain;io 3\n');
    writeFileSync(
      join(dir, 'callgrind.out.1'),
      '# callgrind format\nevents: Ir\nfn=main\n1 20\ncfn=solve\ncalls=1 2\n2 5\nfn=solve\n2 5\n',
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const read = (file: string): { nodes: number; evaluated: string[] } => {
    const r = spawnSync(process.execPath, [script, join(dir, file)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { nodes: number; evaluated: string[] };
  };

  it('reading a folded-stacks file runs the folded-stacks reader module and no other', () => {
    const r = read('small.folded');
    assert.ok(r.nodes >= 3, `a tree of ${r.nodes} nodes`);
    assert.deepEqual(r.evaluated, ['formats/folded-stacks']);
  });

  it('reading a callgrind file runs the callgrind reader module and no other', () => {
    const r = read('callgrind.out.1');
    assert.ok(r.nodes >= 2, `a tree of ${r.nodes} nodes`);
    assert.deepEqual(r.evaluated, ['formats/callgrind']);
  });
});
