import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectReadError } from '../../../../test/support/read-errors';
import { tempFileWriter } from '../../../../test/support/temp-files';
import { REPO_ROOT } from '../../../../test/support/shared-data';
import { findAttribute } from '../../memory/model/memory-samples';
import { sampleFile } from '../file-sample';
import { readPerfMemScript, sniffPerfMemScript } from './perf-mem-script';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/memory');
const { write } = tempFileWriter('perf-mem');

const DECODING = '|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A';
const names = (ids: Int32Array, table: string[]) => [...ids].map(i => table[i]);

describe('perf script memory samples', () => {
  it('reads real perf 6.1 output (page faults on this machine: data_src N/A, weight 0)', async () => {
    const path = join(FIXTURES, 'perf-script-page-faults.txt');
    const s = await readPerfMemScript(path);
    assert.equal(s.format, 'perf-mem');
    assert.equal(s.count, 12);
    assert.ok([...s.cpu].every(c => c === 1));
    assert.ok(
      [...s.level].every(l => l === 0),
      'N/A data sources are unresolved',
    );
    assert.ok([...s.latency].every(w => w === 0));
    assert.deepEqual(names(s.variable.ids, s.variable.names).slice(0, 4), [
      '__TMC_END__',
      'dl_close_state.2',
      '??',
      '_start',
    ]);
    const where = [...s.line].map((l, i) => `${s.source.names[s.source.ids[i]!]}:${l}`);
    // Kernel samples print `[kernel.kallsyms][addr]` and unknown lines `:0`; both are unknown sources.
    assert.deepEqual(where.slice(0, 6), ['??:0', '??:0', '??:0', '??:0', 'malloc.c:2478', 'touch.c:6']);
    assert.deepEqual(where.slice(-2), ['touch.c:7', 'touch.c:7']);
    const symbol = findAttribute(s, 'symbol')!;
    assert.equal(symbol.categories![symbol.values[0]!], 'elf_load');
    assert.equal(symbol.categories![symbol.values[11]!], 'main');
    assert.equal(findAttribute(s, 'time')!.values[0], 948.807527);
    assert.equal(findAttribute(s, 'addr')!.values[0], 0x556eb2bef018);
    assert.equal(findAttribute(s, 'tid')!.values[0], 25190);
    assert.deepEqual(s.warnings, []);
  });

  it('decodes the level, remote flag and weight of every kind of load', async () => {
    const s = await readPerfMemScript(join(FIXTURES, 'perf-mem-script-hand-made.txt'));
    assert.equal(s.count, 9);
    // L1, LFB, L2, L3, L3 HITM (another core, same node), local RAM, remote RAM, L3 miss, L1.
    assert.deepEqual([...s.level], [1, 1, 2, 3, 3, 4, 4, 0, 1]);
    assert.deepEqual([...s.remote], [0, 0, 0, 0, 0, 0, 1, 0, 0]);
    assert.deepEqual([...s.latency], [31, 45, 58, 190, 412, 260, 530, 300, 29]);
    assert.deepEqual([...s.cpu], [1, 1, 1, 9, 9, 1, 9, 9, 1]);
    // Data symbols lose their +0x offset; [unknown] is MemAxes' ??.
    assert.deepEqual(s.variable.names, ['a', 'b', 'c', '??', 'sum']);
    assert.deepEqual([...s.line], [12, 12, 12, 12, 12, 12, 12, 20, 21]);
    assert.equal(findAttribute(s, 'ip')!.values[0], 0x401196);
  });

  it('reads samples printed with comm and pid/tid, and without srclines (with a warning)', async () => {
    const p = write(
      'comm.txt',
      `stream 4242/4243 [002] 10.5: 7f00 buf 10268100142 ${DECODING}   31 401196 triad\n` +
        `stream 4242/4244 [003] 10.6: 7f08 buf 10268100142 ${DECODING}   33 401196 triad\n`,
    );
    const s = await readPerfMemScript(p);
    assert.deepEqual([...findAttribute(s, 'pid')!.values], [4242, 4242]);
    assert.deepEqual([...findAttribute(s, 'tid')!.values], [4243, 4244]);
    assert.deepEqual([...s.cpu], [2, 3]);
    assert.match(s.warnings.join('\n'), /no srcline/);
  });

  it('sniffs perf script memory samples and nothing else', async () => {
    assert.ok(sniffPerfMemScript(await sampleFile(join(FIXTURES, 'perf-mem-script-hand-made.txt'))) > 0);
    assert.ok(sniffPerfMemScript(await sampleFile(join(FIXTURES, 'perf-script-page-faults.txt'))) > 0);
    const plain = write('plain.txt', 'app 123 [000] 1.5: 1000 cycles:u:\n\t401000 main (/app)\n');
    assert.equal(sniffPerfMemScript(await sampleFile(plain)), 0);
  });

  it('names a missing cpu field', async () => {
    const p = write('nocpu.txt', `4242 10.5: 7f00 buf 10268100142 ${DECODING}   31 401196 triad\n`);
    await expectReadError(readPerfMemScript(p), p, /line 1: no cpu field/);
  });

  it('names a missing data_src field', async () => {
    const p = write('nosrc.txt', '4242 [001] 10.5: 7f00 buf   31 401196 triad\n');
    await expectReadError(readPerfMemScript(p), p, /line 1: no data_src field/);
  });

  it('names a missing weight (latency) field', async () => {
    const p = write('noweight.txt', `4242 [001] 10.5: 7f00 buf 10268100142 ${DECODING}\n`);
    await expectReadError(readPerfMemScript(p), p, /line 1: no weight field, the load latency/);
  });

  it('rejects a file without samples', async () => {
    const p = write('empty.txt', '# only a comment\n');
    await expectReadError(readPerfMemScript(p), p, /no perf script memory samples/);
  });
});
