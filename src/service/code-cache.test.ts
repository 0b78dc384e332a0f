import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleNodeScript } from '../../test/support/node-bundle';
import { tempFileWriter } from '../../test/support/temp-files';
import { codeCacheFile, readSource, userCodeCacheDir } from './code-cache';

/**
 * Each run is a fresh Node process, as in use: V8 only consults cachedData when it compiles the
 * script, and a process compiles it once. The launcher is code-cache.ts bundled by esbuild.
 */
describe('code cache (launchers of the CLI and the analysis worker)', () => {
  const files = tempFileWriter('code-cache');
  const cacheDir = join(files.dir, 'cache');
  let launcher = '';
  let bundle = '';

  before(() => {
    launcher = bundleNodeScript(
      [
        `import { runWithCodeCache } from ${JSON.stringify(resolve(__dirname, 'code-cache.ts'))};`,
        `const hook = runWithCodeCache(process.argv[2], process.argv[3]);`,
        `if (process.argv[4] === 'save') hook.save();`,
        `console.log('state=' + hook.state);`,
      ],
      join(files.dir, 'launch.js'),
      __dirname,
    );
    files.write('helper.js', 'module.exports = { twice: x => 2 * x };\n');
    // A shebang, a relative require and __dirname: what a bundle run under the launcher relies on.
    bundle = files.write(
      'bundle-main.js',
      `#!/usr/bin/env node\nconst { twice } = require('./helper.js');\nfunction work(n) { let s = 0; for (let i = 0; i < n; i++) s += twice(i); return s; }\nconsole.log('ran ' + work(10) + ' in ' + require('node:path').basename(__dirname));\n`,
    );
  });
  after(() => rmSync(files.dir, { recursive: true, force: true }));

  const run = (save: boolean) => {
    const r = spawnSync(process.execPath, [launcher, bundle, cacheDir, ...(save ? ['save'] : [])], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ran 90 in /m, 'the bundle ran, with its require and __dirname');
    return /state=(\w+)/.exec(r.stdout)![1];
  };

  it('creates the cache on the first run and uses it on the next', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    assert.equal(run(true), 'created');
    assert.ok(existsSync(codeCacheFile(bundle, cacheDir)));
    assert.equal(run(false), 'accepted');
  });

  it('ignores a corrupt cache file, runs from source, and the next save replaces it', () => {
    const file = codeCacheFile(bundle, cacheDir);
    writeFileSync(file, Buffer.from('this is not a V8 code cache'.repeat(40)));
    assert.equal(run(true), 'rejected');
    assert.ok(statSync(file).size > 0);
    assert.equal(run(false), 'accepted');
  });

  it('ignores a truncated cache file', () => {
    run(true);
    const file = codeCacheFile(bundle, cacheDir);
    writeFileSync(file, readFileSync(file).subarray(0, 40));
    assert.equal(run(true), 'rejected');
    assert.equal(run(false), 'accepted');
  });

  it('a cache written for another build of the bundle is never read, and the next save removes it', () => {
    run(true);
    const current = codeCacheFile(bundle, cacheDir);
    const stale = join(cacheDir, 'bundle-main-123-456-v20.0.0.bin');
    const otherBundle = join(cacheDir, 'other-main-123-456-v20.0.0.bin');
    writeFileSync(stale, readFileSync(current));
    writeFileSync(otherBundle, 'x');
    // A rebuild: the same bundle with other content gets another cache name.
    writeFileSync(bundle, readFileSync(bundle, 'utf8') + '// rebuilt\n');
    const rebuilt = codeCacheFile(bundle, cacheDir);
    assert.notEqual(rebuilt, current);
    assert.equal(run(true), 'created');
    assert.deepEqual(
      readdirSync(cacheDir).sort(),
      [rebuilt, otherBundle].map(p => p.slice(cacheDir.length + 1)).sort(),
    );
  });

  it('a cache folder that cannot be written costs only the speed', () => {
    const blocked = files.write('not-a-folder', 'a file where the cache folder should be');
    const r = spawnSync(process.execPath, [launcher, bundle, join(blocked, 'cache'), 'save'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /state=created/);
  });

  it('a cache saved after the bundle ran a function holds that lazily compiled function, and is accepted', () => {
    // What warm-up.ts relies on: it saves after reading its tiny profiles, so the next process meets
    // the readers compiled. V8 compiles a function on its first call; createCachedData() keeps it.
    const lazy = files.write(
      'lazy-main.js',
      [
        'const hook = globalThis.__hpcLensCodeCache;',
        // A function body large enough that its bytecode shows in the cache's size.
        `function reader(text) { let s = 0; ${Array.from({ length: 60 }, (_, k) => `if (text.length > ${k}) s += text.charCodeAt(${k}) * ${k + 1};`).join(' ')} return s; }`,
        "if (process.env.SAVE_WHEN === 'before') hook.save();",
        "console.log('read ' + reader('abcdef'));",
        "if (process.env.SAVE_WHEN === 'after') hook.save();",
        "console.log('state=' + hook.state);",
      ].join('\n'),
    );
    const dir = join(files.dir, 'lazy-cache');
    const runLazy = (when: string) => {
      const r = spawnSync(process.execPath, [launcher, lazy, dir], {
        encoding: 'utf8',
        env: { ...process.env, SAVE_WHEN: when },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^read \d+$/m);
      return /state=(\w+)/.exec(r.stdout)![1];
    };
    rmSync(dir, { recursive: true, force: true });
    assert.equal(runLazy('before'), 'created');
    const before = statSync(codeCacheFile(lazy, dir)).size;
    rmSync(dir, { recursive: true, force: true });
    assert.equal(runLazy('after'), 'created');
    const after = statSync(codeCacheFile(lazy, dir)).size;
    assert.ok(after > before + 200, `saved after the call: ${after} bytes, before it: ${before} bytes`);
    assert.equal(runLazy('none'), 'accepted');
  });

  it('the CLI keeps its cache in HPC_LENS_CODE_CACHE, XDG_CACHE_HOME or ~/.cache, or nowhere when switched off', () => {
    assert.equal(userCodeCacheDir({ HPC_LENS_CODE_CACHE: '/c' }), '/c');
    assert.equal(userCodeCacheDir({ HPC_LENS_CODE_CACHE: 'off' }), null);
    assert.equal(userCodeCacheDir({ HPC_LENS_CODE_CACHE: '0' }), null);
    assert.equal(userCodeCacheDir({ XDG_CACHE_HOME: '/x' }), join('/x', 'hpc-lens'));
    assert.match(userCodeCacheDir({})!, /[/\\]\.cache[/\\]hpc-lens$/);
  });

  it('reads an ASCII bundle as Latin-1 and any other as UTF-8, the same text either way', () => {
    const ascii = files.write('ascii.js', 'const r = /a\\u00d7b/; // \\u2192\n');
    const utf8 = files.write('utf8.js', 'const r = /a\u00d7b/; // \u2192 \u{1F600}\n');
    assert.equal(readSource(ascii), readFileSync(ascii, 'utf8'));
    assert.equal(readSource(utf8), readFileSync(utf8, 'utf8'));
    assert.equal(readSource(utf8), 'const r = /a×b/; // → 😀\n');
  });

  it(
    'the built bundles are ASCII (esbuild.mjs escapes the rest), so the launchers read them as Latin-1',
    { skip: !existsSync(join(__dirname, '../../dist/cli-main.js')) },
    () => {
      for (const name of ['cli-main.js', 'analysis-worker-main.js']) {
        const bytes = readFileSync(join(__dirname, '../../dist', name));
        assert.equal(
          bytes.findIndex(b => b > 0x7f),
          -1,
          `${name}: a non-ASCII byte`,
        );
      }
    },
  );
});
