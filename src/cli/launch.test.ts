import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../test/support/cli';
import { tempFileWriter } from '../../test/support/temp-files';

const ROOT = resolve(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
const skip = existsSync(CLI) ? false : 'dist/cli.js is not built (node esbuild.mjs)';

describe('hpc-lens --version and the launcher', () => {
  it('--version prints the package version (from the sources)', () => {
    const r = runCli('--version');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `hpc-lens ${VERSION}\n`);
  });

  it('the bundled launcher answers --version without loading the CLI bundle', { skip }, () => {
    const files = tempFileWriter('launch');
    try {
      const r = spawnSync(process.execPath, [CLI, '--version'], {
        encoding: 'utf8',
        env: { ...process.env, HPC_LENS_CODE_CACHE: files.dir },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `hpc-lens ${VERSION}\n`);
      assert.deepEqual(readdirSync(files.dir), [], 'no code cache: the bundle was not compiled');
    } finally {
      rmSync(files.dir, { recursive: true, force: true });
    }
  });

  it('the bundled CLI writes its code cache on the first run and reads the same answer with it', { skip }, () => {
    const files = tempFileWriter('launch');
    try {
      const env = { ...process.env, HPC_LENS_CODE_CACHE: join(files.dir, 'cache') };
      const run = () => spawnSync(process.execPath, [CLI, 'inspect', '--json', SAMPLE], { encoding: 'utf8', env });
      const first = run();
      assert.equal(first.status, 0, first.stderr);
      const caches = readdirSync(join(files.dir, 'cache'));
      assert.equal(caches.length, 1);
      assert.match(caches[0]!, /^cli-main-\d+-\d+-v[\d.]+\.bin$/);
      const second = run();
      assert.equal(second.status, 0, second.stderr);
      assert.equal(second.stdout, first.stdout);
      const off = spawnSync(process.execPath, [CLI, 'inspect', '--json', SAMPLE], {
        encoding: 'utf8',
        env: { ...process.env, HPC_LENS_CODE_CACHE: 'off' },
      });
      assert.equal(off.stdout, first.stdout, 'the same answer without a cache');
    } finally {
      rmSync(files.dir, { recursive: true, force: true });
    }
  });
});
