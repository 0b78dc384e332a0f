import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { bundleNodeScript } from '../../test/support/node-bundle';
import { tempFileWriter } from '../../test/support/temp-files';
import {
  chooseShortRunTiering,
  DEFAULT_TIERING,
  inputBytes,
  LARGE_INPUT_BYTES,
  SMALL_INPUT_BYTES,
} from './short-run-tiering';

describe('short-run tiering (V8 flags of the CLI and read-once, by input size)', () => {
  const files = tempFileWriter('tiering');
  after(() => rmSync(files.dir, { recursive: true, force: true }));

  it('leaves small and large inputs to V8, and raises the interrupt budget between', () => {
    assert.equal(chooseShortRunTiering(0), DEFAULT_TIERING);
    assert.equal(chooseShortRunTiering(SMALL_INPUT_BYTES - 1), DEFAULT_TIERING);
    assert.equal(chooseShortRunTiering(LARGE_INPUT_BYTES + 1), DEFAULT_TIERING);
    assert.equal(chooseShortRunTiering(Number.NaN), DEFAULT_TIERING);
    for (const bytes of [SMALL_INPUT_BYTES, 800_000, LARGE_INPUT_BYTES]) {
      const t = chooseShortRunTiering(bytes);
      assert.deepEqual(t.flags, ['--interrupt-budget=270336']);
      assert.equal(t.tag, 'budget4');
    }
  });

  it('counts files, gzip files by their decompressed size, and folders one level deep; skips options and missing paths', () => {
    const plain = files.write('plain.json', Buffer.alloc(1000, 0x20));
    const gz = files.write('trace.json.gz', gzipSync(Buffer.alloc(300_000, 0x20)));
    const db = join(files.dir, 'db');
    mkdirSync(join(db, 'metrics', 'deeper'), { recursive: true });
    files.write('db/meta.db', Buffer.alloc(500));
    files.write('db/metrics/default.yaml', Buffer.alloc(70));
    files.write('db/metrics/deeper/ignored', Buffer.alloc(10_000));
    assert.equal(inputBytes([plain]), 1000);
    assert.equal(inputBytes([gz]), 300_000, 'the gzip trailer gives the decompressed size');
    assert.equal(inputBytes([db]), 570, 'a folder: its files and its subfolders’ files');
    assert.equal(inputBytes(['--json', plain, join(files.dir, 'missing'), '-x']), 1000);
    assert.equal(inputBytes([plain, plain, plain], 1500), 2000, 'counting stops past the cap');
  });

  it('a launcher run under the chosen flags keeps a code cache of its own, accepted on the next run', () => {
    const launcher = bundleNodeScript(
      [
        `import { launchWithUserCodeCache } from ${JSON.stringify(resolve(__dirname, 'code-cache.ts'))};`,
        `launchWithUserCodeCache(process.argv[2], process.argv.slice(3));`,
      ],
      join(files.dir, 'launch.js'),
      __dirname,
    );
    const bundle = files.write(
      'bundle-main.js',
      "const hook = globalThis.__hpcLensCodeCache;\nif (hook.state !== 'accepted') hook.save();\nconsole.log('state=' + hook.state + ' file=' + require('node:path').basename(hook.file));\n",
    );
    const input = files.write('input.json', Buffer.alloc(SMALL_INPUT_BYTES, 0x20));
    const run = (arg: string) => {
      const r = spawnSync(process.execPath, [launcher, bundle, arg], {
        encoding: 'utf8',
        env: { ...process.env, HPC_LENS_CODE_CACHE: join(files.dir, 'cache') },
      });
      assert.equal(r.status, 0, r.stderr);
      return /state=(\w+) file=(\S+)/.exec(r.stdout)!.slice(1);
    };
    const [created, tagged] = run(input);
    assert.equal(created, 'created');
    assert.match(tagged!, /^bundle-main\.budget4-/);
    assert.deepEqual(run(input), ['accepted', tagged], 'V8 accepts a cache made under the same flags');
    const [small, untagged] = run(plainFile());
    assert.equal(small, 'created');
    assert.match(untagged!, /^bundle-main-\d/);
    assert.deepEqual(run(input), ['accepted', tagged], 'the other choice’s cache is left alone');
  });

  function plainFile(): string {
    return files.write('small.json', '{}');
  }
});
