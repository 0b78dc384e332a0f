import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { textSample } from '../../../test/support/file-samples';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { sampleFile } from './file-sample';
import type { FileSample } from './reader';
import { bestFormat, CERTAIN, chooseFormat, FORMATS } from './registry';

/** Heads that one format claims outright, and one that several text sniffers look at. */
const HEADS: [string, FileSample][] = [
  ['caliper-cali', textSample('__rec=node,id=1,attr=10,data=main\n')],
  ['hatchet-literal', textSample('[{"frame": {"name": "main"}, "metrics": {"time": 1}, "children": []}]')],
  ['chrome-trace', textSample('{"traceEvents": [{"ph": "X", "name": "k", "ts": 1, "dur": 2}]}')],
  ['callgrind', textSample('# callgrind format\nevents: Ir\nfn=main\n1 2\n')],
  ['folded-stacks', textSample('main;solve;kernel 10\nmain;io 3\n')],
  ['tau-profile', textSample('', { isDirectory: true, entries: ['profile.0.0.0', 'profile.1.0.0'] })],
];

describe('format registry (sniffers always loaded, readers loaded on demand)', () => {
  it('every format has a sniffer and a loader, ids are unique, and every reader module is in the registry', () => {
    assert.equal(new Set(FORMATS.map(f => f.id)).size, FORMATS.length);
    for (const f of FORMATS) {
      assert.equal(typeof f.sniff, 'function', f.id);
      assert.equal(typeof f.load, 'function', f.id);
      assert.ok(f.name.length > 0, f.id);
    }
    // One sniffer module per reader module, and the registry loads each of those readers.
    const dir = __dirname;
    const sniffers = readdirSync(join(dir, 'sniffers')).filter(n => n.endsWith('.ts') && !n.endsWith('.test.ts'));
    const registry = readFileSync(join(dir, 'registry.ts'), 'utf8');
    assert.equal(sniffers.length, FORMATS.length);
    for (const name of sniffers) {
      const reader = name.replace(/\.ts$/, '');
      assert.ok(registry.includes(`import('./${reader}')`), `registry loads ./${reader} lazily`);
      assert.ok(!registry.includes(`from './${reader}'`), `registry never imports ./${reader} eagerly`);
    }
  });

  it('loading yields the reader of the same format, the same object every time, answering the same sniff', async () => {
    for (const f of FORMATS) {
      const reader = await f.load();
      assert.equal(reader.id, f.id);
      assert.equal(reader.name, f.name);
      assert.equal(await f.load(), reader, `${f.id}: one module, one reader`);
      for (const [, s] of HEADS) assert.equal(reader.sniff(s), f.sniff(s), `${f.id} sniffs as its reader`);
    }
  });

  it('chooses the same format as the readers themselves did, in the same order of ties', async () => {
    const readers = await Promise.all(FORMATS.map(f => f.load()));
    for (const [id, s] of HEADS) {
      assert.equal(chooseFormat(s)?.id, id);
      assert.equal(chooseFormat(s, readers)?.id, id, 'the eager list of readers agrees');
      assert.equal(bestFormat(s)?.score, bestFormat(s, readers)?.score);
    }
    assert.equal(chooseFormat(textSample('plain text, no profile')), null);
  });

  it('no sniffer is more than certain, so stopping at the first certain format picks what a full scan picks', async t => {
    const skip = skipUnlessShared('data');
    const samples: FileSample[] = HEADS.map(([, s]) => s);
    if (skip) t.diagnostic(skip);
    else {
      // Every file and folder two levels under each format's folder of the shared data.
      const data = sharedPath('data');
      for (const format of readdirSync(data, { withFileTypes: true }).filter(e => e.isDirectory()))
        for (const entry of readdirSync(join(data, format.name), { withFileTypes: true })) {
          const path = join(data, format.name, entry.name);
          samples.push(await sampleFile(path));
          if (entry.isDirectory())
            for (const inner of readdirSync(path)) samples.push(await sampleFile(join(path, inner)));
        }
    }
    for (const s of samples) {
      let full: { id: string; score: number } | null = null;
      for (const f of FORMATS) {
        const score = f.sniff(s);
        assert.ok(score >= 0 && score <= CERTAIN, `${f.id} gives ${score} for ${s.path}`);
        if (score > (full?.score ?? 0)) full = { id: f.id, score };
      }
      assert.deepEqual(bestFormat(s) && { id: bestFormat(s)!.format.id, score: bestFormat(s)!.score }, full, s.path);
    }
  });
});
