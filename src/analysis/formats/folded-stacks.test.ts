import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { expectReadError } from '../../../test/support/read-errors';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import type { Profile } from '../model/profile';
import { sampleFile } from './file-sample';
import { foldedStacksReader } from './folded-stacks';
import { readProfile } from './index';

const dir = mkdtempSync(join(tmpdir(), 'folded-stacks-'));
let seq = 0;
const write = (content: string | Buffer, name = `f${seq++}.txt`) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const read = (content: string | Buffer) => foldedStacksReader.read(write(content));

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(';'));
/** Samples of the nodes at a path of names (several when frames differ only by module). */
function samples(p: Profile, path: string, side: 'inclusive' | 'exclusive' = 'inclusive'): number {
  const all = paths(p);
  assert.ok(all.includes(path), `no node ${path} among ${p.tree.size}`);
  const m = p.metricIndex('samples');
  const values = side === 'inclusive' ? p.inclusiveTotals(m) : p.exclusiveTotals(m);
  return all.reduce((s, q, i) => (q === path ? s + values[i]! : s), 0);
}

describe('folded stacks reader', () => {
  it('builds the call tree from root-first stacks, summing counts at the leaf', async () => {
    const p = await read('main;work;leaf 3\nmain;work 2\nmain;idle 1.5\n\nmain;work;leaf 4\n');
    assert.equal(p.format, 'folded-stacks');
    assert.deepEqual(paths(p), ['main', 'main;work', 'main;work;leaf', 'main;idle']);
    assert.equal(samples(p, 'main'), 10.5);
    assert.equal(samples(p, 'main;work;leaf', 'exclusive'), 7);
    assert.equal(samples(p, 'main;work', 'exclusive'), 2);
    assert.equal(p.contextCount, 1);
    assert.equal(p.trace, undefined);
    assert.equal(p.metadata['stacks'], 4);
  });

  it('keeps spaces and C++/Rust names intact and turns _[k]/_[j]/_[i]/_[w] into module hints', async () => {
    const p = await read(
      [
        'java;std::vector<int>::push_back(int const&);read_[k] 2',
        'java;Interpreter_[j];<alloc::vec::Vec<T> as core::ops::Drop>::drop_[i] 1',
        'java;futex_wait_[w] 1',
      ].join('\r\n'),
    );
    const byName = (n: string) => {
      const i = Array.from({ length: p.tree.size }, (_, k) => k).find(k => p.tree.name(k) === n);
      assert.ok(i !== undefined, n);
      return i;
    };
    assert.equal(p.tree.module(byName('read')), '[kernel]');
    assert.equal(p.tree.module(byName('Interpreter')), '[jit]');
    assert.equal(p.tree.module(byName('<alloc::vec::Vec<T> as core::ops::Drop>::drop')), '[inlined]');
    assert.equal(p.tree.module(byName('futex_wait')), '[waker]');
    assert.equal(p.tree.module(byName('std::vector<int>::push_back(int const&)')), null);
    assert.equal(samples(p, 'java'), 4);
  });

  it('reads UTF-16 (both byte orders), a UTF-8 BOM and gzip', async () => {
    const text = 'a;b 2\r\na;c 3\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    for (let i = 0; i < be.length; i += 2) {
      const t = be[i]!;
      be[i] = be[i + 1]!;
      be[i + 1] = t;
    }
    for (const bytes of [le, be, Buffer.from(`\uFEFF${text}`), gzipSync(text)]) {
      const path = write(bytes);
      assert.ok(foldedStacksReader.sniff(await sampleFile(path)) > 0, 'sniffed');
      const p = await foldedStacksReader.read(path);
      assert.deepEqual(paths(p), ['a', 'a;b', 'a;c']);
      assert.equal(samples(p, 'a'), 5);
    }
  });

  it('sniffs by content, not by name', async () => {
    assert.equal((await readProfile(write('x;y;z 12\n', 'stacks.json'))).format, 'folded-stacks');
    assert.equal(foldedStacksReader.sniff(await sampleFile(write('{"a": 1}\n'))), 0);
    assert.equal(foldedStacksReader.sniff(await sampleFile(write('perf 12 1.5: cycles:\n'))), 0);
  });

  it('rejects lines without a count and files without stacks', async () => {
    let p = write('a;b 1\na;b;c\n');
    await expectReadError(foldedStacksReader.read(p), p, /line 2 is not "frame;frame;… count"/);
    p = write('a;b -3\n');
    await expectReadError(foldedStacksReader.read(p), p, /line 1/);
    p = write('\n\n  \n');
    await expectReadError(foldedStacksReader.read(p), p, /no stacks/);
    p = write(gzipSync('a;b 1\n'.repeat(1000)).subarray(0, 40));
    await expectReadError(foldedStacksReader.read(p), p, /gzip/);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(foldedStacksReader.read(write('a 1\n'), { signal: ac.signal }), { name: 'AbortError' });
  });

  it('survives mutations: every damaged file is read or rejected cleanly', async () => {
    const valid = Buffer.from(
      'main;work;leaf 3\nmain;work 2\nmain;std::map<int, int>::find_[i] 1\nmain;sys_read_[k] 4\n',
    );
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(valid, { seed: 3 }))
      counts[await readOrReject(write(bytes), foldedStacksReader, name)]++;
    assert.ok(counts.read > 0 && counts.rejected > 0, JSON.stringify(counts));
  });
});

describe('folded stacks reader: shared data', () => {
  const folder = 'data/collapsed-stacks';
  it('reads every shared file with the counts of a direct sum', { skip: skipUnlessShared(folder) }, async () => {
    const files = sharedFiles(folder, '.txt');
    assert.ok(files.length >= 5);
    for (const f of files) {
      const path = sharedPath(folder, f);
      const lines = readFileSync(path, 'utf8')
        .split(/\r?\n/)
        .filter(l => l.trim());
      const total = lines.reduce((s, l) => s + Number(l.trim().split(/\s+/).pop()), 0);
      const byLeaf = new Map<string, number>();
      for (const line of lines) {
        const l = line.trim();
        const stack = l.slice(0, l.lastIndexOf(' ')).trim();
        byLeaf.set(stack, (byLeaf.get(stack) ?? 0) + Number(l.slice(l.lastIndexOf(' ') + 1)));
      }
      const p = await readProfile(path);
      assert.equal(p.format, 'folded-stacks', f);
      assert.equal(p.total(p.metricIndex('samples')), total, f);
      const leafSums = new Map<string, number>();
      for (const [stack, n] of byLeaf) {
        const key = stack
          .split(';')
          .filter(x => x)
          .map(x => x.replace(/_\[[kjiw]\]$/, ''))
          .join(';');
        leafSums.set(key, (leafSums.get(key) ?? 0) + n);
      }
      for (const [stack, n] of leafSums) assert.equal(samples(p, stack, 'exclusive'), n, `${f}: …${stack.slice(-150)}`);
      const r = inspectReport(p);
      assert.equal(r.format, 'folded-stacks');
    }
  });
});

describe('folded stacks: one stack longer than the sampled head', () => {
  const frames = Array.from({ length: 100_000 }, (_, i) => `fn${i}`);
  const text = `${frames.join(';')} 7\nmain;other 3\n`;

  for (const [name, data] of [
    ['deep.folded', text],
    ['deep.folded.gz', gzipSync(text)],
  ] as const) {
    it(`reads a 100,000-frame stack (${name})`, async () => {
      const path = write(data, name);
      const p = await readProfile(path);
      assert.equal(p.format, 'folded-stacks');
      assert.equal(p.tree.size, 100_000 + 2);
      assert.equal(p.total(0), 10);
      const leaf = 99_999;
      assert.equal(p.tree.name(leaf), 'fn99999');
      assert.equal(p.exclusiveTotals(0)[leaf], 7);
    });
  }

  it('does not claim other long one-line files', async () => {
    const json = write(`{"a":"${'x;'.repeat(40_000)}"}`, 'long.json');
    assert.equal(foldedStacksReader.sniff(await sampleFile(json)), 0);
    const noCount = write(`${frames.join(';')}\n`, 'no-count.txt');
    assert.equal(foldedStacksReader.sniff(await sampleFile(noCount)), 0);
  });
});
