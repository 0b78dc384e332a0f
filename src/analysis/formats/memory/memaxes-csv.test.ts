import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { expectReadError } from '../../../../test/support/read-errors';
import { tempFileWriter } from '../../../../test/support/temp-files';
import { sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { encodePerfDataSource } from '../../memory/model/data-source';
import { findAttribute, totalCycles } from '../../memory/model/memory-samples';
import { sampleFile } from '../file-sample';
import { parseHex, readMemaxesCsv, sniffMemaxesCsv, splitCsvRow } from './memaxes-csv';

const { write } = tempFileWriter('memaxes');

const HEADER = 'variable,source,line,time,iter,latency,dataSource,cpu,node,index,map3D,xidx,yidx,zidx';
const MEMAXES = `${HEADER}
m_matElemlist,LULESH_OMP.cc,2014,cd9decad90d14,1,109,20,4,0,9688,1,24,14,9
m_delv,??,0,cd9def3f88bf0,1,34,64,10,0,7992,1,24,25,7
m_x,LULESH_OMP.cc,961,cd5c6a935d685,1,369,67,9,1,10990,0,0,0,0
m_x,LULESH_OMP.cc,961,cd5c6a935d700,1,12,41,9,1,10991,0,0,0,0
m_z,LULESH_OMP.cc,963,cd5c6a9373fe4,1,700,3b,21,1,24062,0,0,0,0
`;

describe('MemAxes sample CSV', () => {
  it('reads columns by header name: hex time and dataSource, levels from the PEBS nibble', async () => {
    const s = await readMemaxesCsv(write('samples.out', MEMAXES));
    assert.equal(s.format, 'memaxes');
    assert.equal(s.dialect, 'memaxes');
    assert.equal(s.count, 5);
    assert.deepEqual([...s.latency], [109, 34, 369, 12, 700]);
    assert.equal(totalCycles(s), 1224);
    assert.deepEqual([...s.cpu], [4, 10, 9, 9, 21]);
    // 0x20 → 0 unresolved, 0x64 → 4 L3, 0x67 → 7 unresolved, 0x41 → 1 L1, 0x3b → B remote RAM.
    assert.deepEqual([...s.level], [0, 3, 0, 1, 4]);
    assert.deepEqual([...s.remote], [0, 0, 0, 0, 1]);
    assert.deepEqual([...s.node], [0, 0, 1, 1, 1]);
    assert.deepEqual(findAttribute(s, 'time')!.values[0], 0xcd9decad90d14);
    assert.deepEqual([...findAttribute(s, 'dataSource')!.values], [0x20, 0x64, 0x67, 0x41, 0x3b]);
    assert.deepEqual(s.warnings, []);
  });

  it('numbers categories in order of first appearance and keeps ?? with line 0', async () => {
    const s = await readMemaxesCsv(write('cat.out', MEMAXES));
    assert.deepEqual(s.variable.names, ['m_matElemlist', 'm_delv', 'm_x', 'm_z']);
    assert.deepEqual([...s.variable.ids], [0, 1, 2, 2, 3]);
    assert.deepEqual(s.source.names, ['LULESH_OMP.cc', '??']);
    assert.deepEqual([...s.line], [2014, 0, 961, 961, 963]);
  });

  it('lists every column as an attribute, CPU ids and data sources as qualitative', async () => {
    const s = await readMemaxesCsv(write('attr.out', MEMAXES));
    assert.deepEqual(
      s.attributes.map(a => a.name),
      HEADER.split(','),
    );
    const kinds = Object.fromEntries(s.attributes.map(a => [a.name, a.kind]));
    assert.equal(kinds.cpu, 'qualitative');
    assert.equal(kinds.dataSource, 'qualitative');
    assert.equal(kinds.zidx, 'quantitative');
    assert.equal(kinds.time, 'quantitative');
    assert.deepEqual(findAttribute(s, 'variable')!.categories, ['m_matElemlist', 'm_delv', 'm_x', 'm_z']);
    // Integer columns are stored as Int32Array; time needs doubles.
    assert.ok(findAttribute(s, 'zidx')!.values instanceof Int32Array);
    assert.ok(findAttribute(s, 'time')!.values instanceof Float64Array);
  });

  it('reads quoted cells with commas', async () => {
    const s = await readMemaxesCsv(
      write('quoted.out', 'variable,latency,dataSource,cpu\n"std::map<int, double>",10,1,0\nplain,20,1,1\n'),
    );
    assert.deepEqual(s.variable.names, ['std::map<int, double>', 'plain']);
    assert.deepEqual([...s.latency], [10, 20]);
  });

  it('reads the Mitos dialect: decimal numbers, data_src as a perf_mem_data_src value, ?? cells', async () => {
    const l3 = encodePerfDataSource({ lvl: 0x2 | 0x40, lvlNum: 3 });
    const remote = encodePerfDataSource({ lvl: 0x2 | 0x100, lvlNum: 0xd, remote: true, hops: 3 });
    const text = [
      'source,line,instruction,bytes,ip,variable,buffer_size,dims,xidx,yidx,zidx,pid,tid,time,addr,cpu,latency,data_src',
      `matmul.cpp,42,mov,8,4198800,a,8000000,2,10,3,0,100,101,5000,140000000,3,250,${l3}`,
      `??,??,??,??,4198900,??,0,0,0,0,0,100,102,5010,140000800,11,610,${remote}`,
    ].join('\n');
    const s = await readMemaxesCsv(write('mitos.csv', text));
    assert.equal(s.dialect, 'mitos');
    assert.deepEqual([...s.level], [3, 4]);
    assert.deepEqual([...s.remote], [0, 1]);
    assert.deepEqual([...s.line], [42, 0]);
    assert.deepEqual(s.source.names, ['matmul.cpp', '??']);
    assert.deepEqual(findAttribute(s, 'instruction')!.categories, ['mov', '??']);
    assert.ok(Number.isNaN(findAttribute(s, 'bytes')!.values[1]));
    assert.equal(findAttribute(s, 'time')!.values[1], 5010);
    assert.deepEqual(s.warnings, []);
  });

  it('keeps unknown columns: numeric by their first value, else categories', async () => {
    const s = await readMemaxesCsv(
      write('extra.csv', 'latency,dataSource,cpu,phase,weight\n10,1,0,init,1.5\n20,3,1,solve,2.5\n'),
    );
    assert.deepEqual(findAttribute(s, 'phase')!.categories, ['init', 'solve']);
    assert.deepEqual([...findAttribute(s, 'weight')!.values], [1.5, 2.5]);
    assert.equal(findAttribute(s, 'weight')!.kind, 'quantitative');
    // Without source or variable columns every sample is `??`.
    assert.deepEqual(s.variable.names, ['??']);
    assert.deepEqual([...s.node], [-1, -1]);
  });

  it('reads gzip-compressed files and rows split across chunk boundaries alike', async () => {
    const plain = await readMemaxesCsv(write('plain.out', MEMAXES));
    const gz = await readMemaxesCsv(write('zipped.out.gz', gzipSync(Buffer.from(MEMAXES))));
    assert.deepEqual({ ...gz, path: '' }, { ...plain, path: '' });
    // Many rows, CRLF line ends, no final newline: read through several 1 MiB chunks.
    const row = 'm_x,LULESH_OMP.cc,961,cd5c6a935d685,1,369,64,9,1,10990,0,0,0,0';
    const big = await readMemaxesCsv(write('big.out', `${HEADER}\r\n${Array(40000).fill(row).join('\r\n')}`));
    assert.equal(big.count, 40000);
    assert.ok([...big.level].every(l => l === 3));
    assert.deepEqual(big.variable.names, ['m_x']);
  });

  it('stops when its abort signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(readMemaxesCsv(write('abort.out', MEMAXES), { signal: controller.signal }), {
      name: 'AbortError',
    });
  });

  it('splits quoted fields', () => {
    assert.deepEqual(splitCsvRow('a,"b,c",d'), ['a', 'b,c', 'd']);
    assert.deepEqual(splitCsvRow('"say ""hi""",2'), ['say "hi"', '2']);
    assert.deepEqual(splitCsvRow('a,,b'), ['a', '', 'b']);
  });

  it('parses hex strictly', () => {
    assert.equal(parseHex('cd9decad90d14'), 0xcd9decad90d14);
    assert.equal(parseHex('0x1F'), 31);
    assert.ok(Number.isNaN(parseHex('12zz')));
    assert.ok(Number.isNaN(parseHex('')));
  });

  it('sniffs MemAxes and Mitos headers, also when a required column is missing', async () => {
    assert.ok(sniffMemaxesCsv(await sampleFile(write('s1.out', MEMAXES))) > 0);
    assert.ok(sniffMemaxesCsv(await sampleFile(write('s2.out', 'variable,source,line,latency,dataSource\n'))) > 0);
    assert.equal(sniffMemaxesCsv(await sampleFile(write('s3.csv', 'time,cpu,value\n1,2,3\n'))), 0);
    assert.equal(sniffMemaxesCsv(await sampleFile(write('s4.txt', 'latency\n'))), 0);
  });
});

describe('MemAxes sample CSV: bad input', () => {
  for (const [missing, header] of [
    ['cpu', 'variable,source,line,latency,dataSource'],
    ['latency', 'variable,source,line,cpu,dataSource'],
    ['dataSource', 'variable,source,line,latency,cpu,node'],
  ] as const) {
    it(`names a missing ${missing} column`, async () => {
      const p = write(`no-${missing}.out`, `${header}\n`);
      await expectReadError(readMemaxesCsv(p), p, new RegExp(`missing column "${missing}"`));
    });
  }

  it('names every missing column at once', async () => {
    const p = write('none.out', 'variable,source,line,data_src\n');
    await expectReadError(readMemaxesCsv(p), p, /missing columns "latency", "cpu"/);
  });

  it('counts non-hex data sources in one warning and makes them unresolved', async () => {
    const p = write(
      'badsrc.out',
      `${HEADER}\nv,f.c,1,a,1,10,zz,0,0,0,0,0,0,0\nv,f.c,1,b,1,10,3,0,0,0,0,0,0,0\nv,f.c,1,c,1,10,-,0,0,0,0,0,0,0\n`,
    );
    const s = await readMemaxesCsv(p);
    assert.deepEqual([...s.level], [0, 2, 0]);
    assert.equal(s.warnings.length, 1);
    assert.match(
      s.warnings[0]!,
      /^2 samples have a data source that is not a hexadecimal number \(first at line 2: "zz"\)/,
    );
  });

  it('makes samples without a CPU id unplaced, with a warning', async () => {
    const s = await readMemaxesCsv(write('nocpu.out', 'latency,dataSource,cpu\n10,1,\n20,1,x\n30,1,2\n'));
    assert.deepEqual([...s.cpu], [-1, -1, 2]);
    assert.match(s.warnings.join('\n'), /2 samples have no CPU id; they are unplaced/);
  });

  it('rejects rows with the wrong number of fields, naming the line', async () => {
    const p = write('short.out', `${HEADER}\nv,f.c,1,a,1,10,1,0,0,0,0,0,0,0\nv,f.c,1,a\n`);
    await expectReadError(readMemaxesCsv(p), p, /line 3: 4 fields where the header has 14/);
  });

  it('rejects a latency that is no number, naming the line', async () => {
    const p = write('lat.out', 'latency,dataSource,cpu\n10,1,0\nslow,1,0\n');
    await expectReadError(readMemaxesCsv(p), p, /line 3: latency "slow" is not a number of cycles/);
  });

  it('rejects an empty file and a header without samples', async () => {
    const e = write('empty.out', '\n\n');
    await expectReadError(readMemaxesCsv(e), e, /no CSV header/);
    const h = write('header.out', `${HEADER}\n`);
    await expectReadError(readMemaxesCsv(h), h, /no samples after the header/);
  });

  it('warns about numeric columns holding other text, but not about ?? cells', async () => {
    const s = await readMemaxesCsv(
      write('junk.out', 'latency,dataSource,cpu,index\n10,1,0,5\n10,1,0,??\n10,1,0,five\n'),
    );
    assert.deepEqual(s.warnings, ['column "index": 1 cell holds no number; left empty']);
  });
});

describe('MemAxes LULESH samples (real data)', { skip: skipUnlessShared('data/pebs-memaxes/lulesh') }, () => {
  const file = (name: string) => sharedPath('data/pebs-memaxes/lulesh/data', name);

  it('samples.out: 15,676 samples and 1,022,618 cycles; levels 2,597 / 3,162 / 4,014 / 674 / 5,229', async () => {
    const s = await readMemaxesCsv(file('samples.out'));
    assert.equal(s.count, 15676);
    assert.equal(totalCycles(s), 1022618);
    const levels = [0, 0, 0, 0, 0];
    for (const l of s.level) levels[l]!++;
    assert.deepEqual(levels, [5229, 2597, 3162, 4014, 674]);
    assert.deepEqual(s.source.names, ['LULESH_OMP.cc', '??']);
    assert.deepEqual(s.warnings, []);
  });

  it('lulesh_inorder.out: 16,360 samples', async () => {
    const s = await readMemaxesCsv(file('lulesh_inorder.out'));
    assert.equal(s.count, 16360);
  });
});
