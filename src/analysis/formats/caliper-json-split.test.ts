import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkAgainstOracle, closeTo, oracleCases } from '../../../test/support/hatchet-oracle';
import { caliperColumnValues } from '../../../test/support/caliper-columns';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { writeLargeProfile } from '../../../scripts/large-profile-generator';
import { caliperJsonSplitReader, readCaliperJsonSplit } from './caliper-json-split';
import { readProfile } from './index';
import { assertReadAlike, expectReadError } from '../../../test/support/read-errors';

const close = (a: number, b: number, what: string) => closeTo(a, b, what);

describe('Caliper json-split reader against Hatchet', { skip: skipUnlessShared('oracle', 'caliper-json') }, () => {
  for (const { name, oracle, dataPath } of oracleCases('caliper-json')) {
    it(name, async () => {
      const profile = await caliperJsonSplitReader.read(dataPath);
      checkAgainstOracle(profile, oracle, { values: caliperColumnValues, acrossRows: [['time', 'time', 'exclusive']] });
    });
  }
});

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-cali-'));
const write = (name: string, content: string | Buffer) => {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
};

describe('Caliper json-split reader', () => {
  const tiny = {
    data: [
      [10, 0, 4, 0],
      [3, 0, 3, 1],
      [5, 1, 5, 1],
      [7, 1, 2, 0],
      [1, 0, 1, null],
    ],
    columns: ['inclusive#sum#time.duration', 'mpi.rank', 'sum#time.duration', 'path'],
    column_metadata: [{ is_value: true }, { is_value: true }, { is_value: true }, { is_value: false }],
    nodes: [
      { label: 'main', column: 'path' },
      { label: 'solve', column: 'path', parent: 0 },
    ],
    'mpi.world.size': '2',
    compiler: 'gcc',
  };

  it('reads ranks, paired time metric, metadata and drops global rows', async () => {
    const p = await readProfile(write('tiny.json', JSON.stringify(tiny)));
    assert.equal(p.format, 'caliper-json-split');
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0', 'rank 1'],
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.unit]),
      [['time', 'both', 'µs']],
    );
    assert.equal(p.metadata['compiler'], 'gcc');
    assert.deepEqual([...p.exclusive(0)], [4, 2, 3, 5]);
    assert.deepEqual([...p.inclusive(0)], [10, 7, 3, 5]);
    assert.equal(p.total(0), 17);
  });

  it('derives inclusive values when only exclusive is recorded', async () => {
    const doc = {
      ...tiny,
      data: tiny.data.map(r => r.slice(1)),
      columns: tiny.columns.slice(1),
      column_metadata: tiny.column_metadata.slice(1),
    };
    const p = await readProfile(write('excl.json', JSON.stringify(doc)));
    assert.equal(p.metrics[0]!.kind, 'exclusive');
    assert.deepEqual([...p.inclusive(0)], [4 + 3, 2 + 5, 3, 5]);
  });

  it('accepts nodes listed before their parents', async () => {
    const doc = {
      ...tiny,
      data: tiny.data.map(r => [r[0], r[1], r[2], r[3] === null ? null : 1 - (r[3] as number)]),
      nodes: [
        { label: 'solve', column: 'path', parent: 1 },
        { label: 'main', column: 'path' },
      ],
    };
    const p = await readProfile(write('order.json', JSON.stringify(doc)));
    assert.deepEqual(p.tree.path(1), ['main', 'solve']);
    assert.deepEqual([...p.exclusive(0)], [4, 2, 3, 5]);
  });

  it('splits a function sampled at several lines into statement children', async () => {
    const doc = {
      data: [
        [2, 0, 2, 3, 0.2],
        [5, 0, 2, 4, 0.5],
        [1, 5, 1, 6, 0.1],
      ],
      columns: [
        'count',
        'module#cali.sampler.pc',
        'source.function#callpath.address',
        'sourceloc#cali.sampler.pc',
        'sum#time.duration',
      ],
      column_metadata: [
        { is_value: true },
        { is_value: false },
        { is_value: false },
        { is_value: false },
        { is_value: true, 'attribute.unit': 'sec' },
      ],
      nodes: [
        { label: 'libstencil.so', column: 'module#cali.sampler.pc' },
        { label: 'main', column: 'source.function#callpath.address' },
        { label: 'sweep', column: 'source.function#callpath.address', parent: 1 },
        { label: '/b/src/stencil.c:40', column: 'sourceloc#cali.sampler.pc' },
        { label: '/b/src/stencil.c:42', column: 'sourceloc#cali.sampler.pc' },
        { label: 'heat', column: 'module#cali.sampler.pc' },
        { label: '/b/src/main.c:7', column: 'sourceloc#cali.sampler.pc' },
      ],
    };
    const p = await readProfile(write('sampling.json', JSON.stringify(doc)));
    const t = p.tree;
    assert.equal(t.size, 4);
    assert.deepEqual([t.name(0), t.file(0), t.line(0), t.module(0)], ['main', '/b/src/main.c', 7, 'heat']);
    assert.deepEqual(
      [2, 3].map(i => [t.name(i), t.kind(i), t.file(i), t.line(i), t.module(i)]),
      [
        ['stencil.c:40', 2, '/b/src/stencil.c', 40, 'libstencil.so'],
        ['stencil.c:42', 2, '/b/src/stencil.c', 42, 'libstencil.so'],
      ],
    );
    assert.equal(t.module(1), 'libstencil.so', 'a function takes the module its statements agree on');
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.unit]),
      [
        ['count', 'count'],
        ['time', 's'],
      ],
    );
    close(p.total(1), 0.8, 'total');
  });

  it('names the file and the reason for bad input', async () => {
    const cases: [string, string, RegExp][] = [
      ['truncated.json', JSON.stringify(tiny).slice(0, 60), /unexpected end of input|not valid JSON/],
      ['missing-nodes.json', JSON.stringify({ ...tiny, nodes: undefined }), /"nodes" is missing/],
      [
        'ragged.json',
        JSON.stringify({
          ...tiny,
          data: [
            [1, 0, 1, 0],
            [1, 0],
          ],
        }),
        /row 2 of "data" has 2 values/,
      ],
      ['bad-index.json', JSON.stringify({ ...tiny, data: [[1, 0, 1, 9]] }), /not an index into "nodes"/],
      ['no-tree.json', JSON.stringify({ ...tiny, columns: ['a', 'b', 'c', 'd'] }), /no call-tree column/],
      ['garbage.json', '{"data": [[1, 2] x', /not valid JSON/],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(name, text);
      await expectReadError(readProfile(path), path, reason, name);
    }
    await assert.rejects(readProfile(write('empty.json', '')), /the file is empty/);
    await assert.rejects(readProfile(write('other.json', '{"hello": 1}')), /not a recognised profile format/);
    await assert.rejects(readProfile(join(tmp, 'nope.json')), /no such file/);
  });

  it('reads "nodes" entries as JSON.parse values would: members in any order, others skipped, numeric labels as text', async () => {
    const doc = {
      ...tiny,
      nodes: [
        { extra: { deep: [1, { label: 'not me' }] }, column: 'path', label: 'main', note: 'x' },
        { parent: 0, label: 7, column: 'path', attributes: [{ label: 'no' }] },
      ],
    };
    const p = await readProfile(write('members.json', JSON.stringify(doc)));
    assert.deepEqual(
      Array.from({ length: p.tree.size }, (_, i) => p.tree.name(i)),
      ['main', '7'],
    );
    assert.equal(p.tree.parent(1), 0);
    assert.deepEqual([...p.exclusive(0)], [4, 2, 3, 5]);
  });

  it('names the file and the node for bad "nodes" entries', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['nodes-object.json', { a: 1 }, /"nodes" must be an array/],
      ['node-number.json', [{ label: 'main', column: 'path' }, 3], /node 1 is not an object/],
      ['label-list.json', [{ label: ['main'], column: 'path' }, tiny.nodes[1]], /node 0 has a list as its label/],
      ['label-object.json', [{ label: { a: 1 }, column: 'path' }, tiny.nodes[1]], /node 0 has an object as its label/],
      [
        'parent-fraction.json',
        [tiny.nodes[0], { label: 's', column: 'path', parent: 0.5 }],
        /node 1 has parent 0.5, not an index/,
      ],
      [
        'parent-outside.json',
        [tiny.nodes[0], { label: 's', column: 'path', parent: 9 }],
        /node 1 has parent 9, outside "nodes"/,
      ],
      [
        'parent-cycle.json',
        [
          { label: 'a', column: 'path', parent: 1 },
          { label: 'b', column: 'path', parent: 0 },
        ],
        /parent cycle/,
      ],
    ];
    for (const [name, nodes, reason] of cases) {
      const path = write(name, JSON.stringify({ ...tiny, nodes }));
      await expectReadError(readProfile(path), path, reason, name);
    }
  });

  it('keeps every row across the column blocks (90,000 rows), with missing values, ragged rows refused after the first block', async () => {
    const nodes = 300,
      ranks = 300;
    const value = (i: number, r: number) => ((i * 7919 + r * 104729) % 1000) / 8;
    const rows: string[] = [];
    for (let i = 0; i < nodes; i++)
      for (let r = 0; r < ranks; r++) rows.push(`[${r},${(i + r) % 97 === 0 ? 'null' : value(i, r)},${i}]`);
    const head = '{"data":[';
    const tail =
      '],"columns":["mpi.rank","sum#time.duration","path"],"column_metadata":[{"is_value":true},{"is_value":true},{"is_value":false}],' +
      `"nodes":[${Array.from({ length: nodes }, (_, i) => `{"label":"r${i}","column":"path"${i ? `,"parent":${(i - 1) >> 1}` : ''}}`).join(',')}]}`;
    const p = await readProfile(write('many-rows.json', head + rows.join(',') + tail));
    assert.equal(p.contextCount, ranks);
    const excl = p.exclusiveTotals(p.metricIndex('time'));
    for (let i = 0; i < nodes; i++) {
      let expected = 0;
      for (let r = 0; r < ranks; r++) if ((i + r) % 97 !== 0) expected += value(i, r);
      assert.equal(p.tree.name(i), `r${i}`);
      close(excl[i]!, expected, `node ${i}`);
    }
    // A row of another width far into the data (past the first blocks) is still refused.
    rows[70_000] = '[1,2]';
    const ragged = write('ragged-late.json', head + rows.join(',') + tail);
    await expectReadError(readProfile(ragged), ragged, /row 70001 of "data" has 2 values/, 'ragged late');
  });

  it('can be cancelled', async () => {
    const path = write('cancel.json', JSON.stringify(tiny));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      caliperJsonSplitReader.read(path, { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });
});

describe('Caliper json-split: JSON.parse of a small file and the stream give the same profile', () => {
  const same = async (path: string) => {
    const stream = await readCaliperJsonSplit(path, {}, false);
    const native = await readCaliperJsonSplit(path, {}, true);
    assert.deepStrictEqual(native, stream, path);
    return native;
  };
  const head =
    '"columns":["sum#time.duration","mpi.rank","path"],' +
    '"column_metadata":[{"is_value":true},{"is_value":true},{"is_value":false}],';
  const nodes = '"nodes":[{"label":"main","column":"path"},{"label":"solve","column":"path","parent":0}]';

  it('on the samples and a generated sampling profile', async () => {
    const samples = join(__dirname, '../../../samples/heat-stencil/profiles');
    await same(join(samples, 'heat-stencil-regions-4ranks.json'));
    await same(join(samples, 'heat-stencil-sampling-4ranks.json'));
    const generated = join(tmp, 'generated.json');
    writeLargeProfile(generated, { nodes: 3000, ranks: 4, files: 20, sourceDir: tmp });
    await same(generated);
  });

  it('on the shared json-split files', { skip: skipUnlessShared('data', 'caliper-json') }, async () => {
    const files = sharedFiles('data/caliper-json', '.json');
    assert.ok(files.length > 0);
    for (const f of files) await same(sharedPath('data', 'caliper-json', f));
  });

  it('with duplicate keys, integer-like keys, big integers, escapes and invalid UTF-8', async () => {
    // A second "data" list is appended by the stream; JSON.parse would keep only the last.
    const twice = await same(write('data-twice.json', `{${head}"data":[[1,0,0]],${nodes},"data":[[2,1,1]]}`));
    assert.equal(twice.contexts.length, 2);
    await same(write('data-escaped.json', `{${head}"data":[[1,0,0]],${nodes},"\\u0064ata":[[2,1,1]]}`));
    // Duplicate members of a node entry and of the metadata: the last wins in both.
    await same(
      write(
        'dup-members.json',
        `{${head}"data":[[1,0,0],[2,0,1]],"nodes":[{"label":"x","label":"main","column":"path"},` +
          `{"label":"solve","column":"none","column":"path","parent":5,"parent":0}],"user":"a","user":"b"}`,
      ),
    );
    // Integer-like keys (JSON.parse lists them first) in the metadata and in node entries.
    await same(
      write(
        'integer-keys.json',
        `{"10":"ten",${head}"2":"two","data":[[1,0,0]],"nodes":[{"7":1,"label":"main","column":"path","0":[]}],"1":{"b":1,"0":2}}`,
      ),
    );
    // Numbers past 2^53 and with long mantissas round as Number() does.
    const big = await same(
      write(
        'big.json',
        `{${head}"data":[[12345678901234567890,0,0],[9007199254740993,1,0],[0.1000000000000000055511151231257827,1,1]],` +
          `${nodes},"seed":123456789012345678901234567890}`,
      ),
    );
    assert.equal(big.metadata['seed'], Number('123456789012345678901234567890'));
    await same(write('surrogate.json', `{${head}"data":[[1,0,0]],"nodes":[{"label":"a\\ud800b","column":"path"}]}`));
    const invalid = Buffer.concat([
      Buffer.from(`{${head}"data":[[1,0,0]],"nodes":[{"label":"a`),
      Buffer.from([0xc3, 0x28, 0xe2, 0x82, 0xff, 0xf0, 0x9f]),
      Buffer.from('b","column":"path"}]}'),
    ]);
    await same(write('invalid-utf8.json', invalid));
    await same(write('bom.json', `\ufeff{${head}"data":[[1,0,0]],${nodes}}`)).catch((e: Error) =>
      assert.match(e.message, /bom\.json/),
    );
  });

  it('with odd node entries and cells (read from the parsed value directly, or replayed)', async () => {
    const odd =
      '"nodes":[{"label":"main","column":"path"},{"label":7,"column":"path","parent":0},' +
      '{"label":true,"column":"path","parent":"0"},{"label":null,"column":"path","parent":0},' +
      '{"label":["x"],"column":"loop","parent":0},{"label":{"a":1},"column":7,"parent":[0]},"text",3,null,[],[1,{"label":"y"}],' +
      '{"column":"path","parent":0,"other":{"label":"z"}}]';
    // Both ways give the same profile or fail with the same message.
    const alike = (path: string) => assertReadAlike(path, (p, native) => readCaliperJsonSplit(p, {}, native));
    await alike(write('odd-nodes.json', `{${head}"data":[[1,0,0],[2,1,1],[null,1,3],[true,false,5]],${odd},"n":null}`));
    const objects = odd.replace(/"text",3,null,/, '');
    await alike(write('odd-labels.json', `{${head}"data":[[1,0,0],[2,1,1],[null,1,3],[true,false,3]],${objects}}`));
    // String cells are counted as missing (the replay's path), numeric strings read as numbers.
    await same(write('string-cells.json', `{${head}"data":[[1,0,0],["2",1,1],["x",1,1]],${nodes}}`));
    await alike(write('no-rows.json', `{${head}"data":[],${nodes}}`));
    await alike(write('empty-rows.json', `{${head}"data":[[],[]],${nodes}}`));
  });

  it('fails alike on bad input', async () => {
    for (const [name, text] of [
      ['top-array.json', '[1,2]'],
      ['row-object.json', `{${head}"data":[[1,0,0],{}],${nodes}}`],
      ['ragged.json', `{${head}"data":[[1,0,0],[1,0]],${nodes}}`],
      ['row-number.json', `{${head}"data":[[1,0,0],3],${nodes}}`],
      ['data-object.json', `{${head}"data":{"a":1},${nodes}}`],
      ['nodes-object.json', `{${head}"data":[[1,0,0]],"nodes":{"a":1}}`],
      ['top-number.json', '3'],
      ['cut-short.json', `{${head}"data":[[1,0,0]],${nodes}`],
      ['deep.json', `{${head}"data":[[1,0,0]],${nodes},"deep":${'['.repeat(20000)}${']'.repeat(20000)}}`],
    ] as const) {
      const path = write(name, text);
      const stream = await readCaliperJsonSplit(path, {}, false).then(
        () => 'read',
        (e: Error) => e.message,
      );
      const native = await readCaliperJsonSplit(path, {}, true).then(
        () => 'read',
        (e: Error) => e.message,
      );
      assert.equal(native, stream, name);
    }
  });
});
