import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const ROOT = resolve(__dirname, '..', '..');

describe('the extension host bundle', () => {
  it('holds no reader and no regex engine for user patterns, and stays under 300 KB minified (reads and analyses live in the worker bundle)', async () => {
    const r = await esbuild.build({
      entryPoints: [resolve(ROOT, 'src/extension/extension.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    // Modules that put code into the bundle (an import whose code is tree-shaken away adds nothing).
    const output = Object.values(r.metafile.outputs)[0]!;
    const inputs = Object.entries(output.inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([file]) => file);
    const readers = inputs.filter(f => f.includes('src/analysis/formats/'));
    assert.deepEqual(readers, [], 'no reader in the host bundle');
    for (const heavy of ['local-analysis-service', 'analysis-worker', 'sql.js', 'stream-json', 'saxes', 're2js'])
      assert.ok(!inputs.some(f => f.includes(heavy)), `${heavy} is not in the host bundle`);
    const bytes = r.outputFiles[0]!.contents.byteLength;
    assert.ok(bytes < 300 * 1024, `${(bytes / 1024).toFixed(0)} KB minified`);
  });
});
