import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { caliperColumnValues } from '../../../test/support/caliper-columns';
import { checkAgainstOracle, closeTo, oracleCases } from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { caliperCaliReader, readCaliperCali } from './caliper-cali';
import { caliperJsonSplitReader } from './caliper-json-split';
import { readProfile } from './index';
import { assertReadAlike, expectReadError } from '../../../test/support/read-errors';
import { textSample } from '../../../test/support/file-samples';

describe('Caliper .cali reader against Hatchet', { skip: skipUnlessShared('oracle', 'caliper-cali') }, () => {
  // Hatchet's from_caliperreader lists `…inclusive…` columns as inclusive metrics (caveat 17), as we
  // do; we also derive their exclusive side (inclusive minus the children's), which Hatchet lacks.
  // The spotdb `lulesh.cycle` time-series records are summed into one root node (caveat 16), as
  // our builder sums records of one node and context. Deliberate differences, none of which
  // changes a compared number: `min#min#aggregate.slot` (a string column in Hatchet, caveat 17) is
  // bookkeeping and no metric for us, so caliperColumnValues skips it; nodes are regions (loops for
  // the `loop` attribute) where Hatchet says `function`; run metadata keeps the attribute types
  // (Hatchet: strings).
  for (const { name, oracle, dataPath } of oracleCases('caliper-cali')) {
    it(name, async () => {
      const profile = await caliperCaliReader.read(dataPath);
      checkAgainstOracle(profile, oracle, { values: caliperColumnValues });
    });
  }
});

/** Name path → node index. */
function pathIndex(p: Profile): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < p.tree.size; i++) out.set(JSON.stringify(p.tree.path(i)), i);
  return out;
}

describe(
  'Caliper .cali and its cali-query json-split conversion',
  { skip: skipUnlessShared('data', 'caliper-json') || skipUnlessShared('data', 'caliper-cali') },
  () => {
    // caliper-cali/lulesh-annotation-profile is another run than caliper-json's file of that name (caveat 18).
    const pairs = sharedFiles(join('data', 'caliper-cali'), '.cali')
      .filter(rel => !rel.startsWith('lulesh-annotation-profile'))
      .map(
        rel =>
          [
            sharedPath('data', 'caliper-cali', rel),
            sharedPath('data', 'caliper-json', rel.replace(/\.cali$/, '.json')),
          ] as const,
      )
      .filter(([, json]) => existsSync(json));

    it('covers the 16 converted files', () => assert.equal(pairs.length, 16));

    for (const [cali, json] of pairs) {
      it(`${cali.slice(sharedPath('data', 'caliper-cali').length + 1)} gives the same paths and values in both forms`, async () => {
        const a = await caliperCaliReader.read(cali);
        const b = await caliperJsonSplitReader.read(json);
        const pa = pathIndex(a);
        const pb = pathIndex(b);
        assert.deepEqual([...pa.keys()].sort(), [...pb.keys()].sort(), 'paths');
        assert.deepEqual(a.metrics.map(m => m.name).sort(), b.metrics.map(m => m.name).sort(), 'metrics');
        assert.equal(a.contextCount, b.contextCount, 'contexts');
        for (const [m, d] of a.metrics.entries()) {
          const n = b.metricIndex(d.name);
          const e = b.metrics[n]!;
          assert.deepEqual([e.kind, e.unit, e.aggregation, e.label], [d.kind, d.unit, d.aggregation, d.label], d.name);
          const [ea, eb, ia, ib] = [
            a.exclusiveTotals(m),
            b.exclusiveTotals(n),
            a.inclusiveTotals(m),
            b.inclusiveTotals(n),
          ];
          for (const [key, i] of pa) {
            const j = pb.get(key)!;
            closeTo(ea[i]!, eb[j]!, `${key} exclusive ${d.name}`, 1e-12);
            closeTo(ia[i]!, ib[j]!, `${key} inclusive ${d.name}`, 1e-12);
          }
        }
      });
    }
  },
);

// A hand-written stream in the shape Caliper 2.x writes (attributes first, then the nodes and
// snapshots that use them, globals last). Ids 0–11 are Caliper's built-in nodes: 1 int, 2 uint,
// 3 string, 5 double; 8 cali.attribute.name, 10 cali.attribute.prop. Property bits: 1 as_value,
// 64 skip events, 128 hidden, 256 nested, 512 global, 2048 aggregatable.
const ANNOTATION =
  [
    '__rec=node,id=12,attr=10,data=64,parent=3',
    '__rec=node,id=13,attr=8,data=attribute.alias,parent=12',
    '__rec=node,id=14,attr=8,data=attribute.unit,parent=12',
    '__rec=node,id=20,attr=10,data=268,parent=3',
    '__rec=node,id=21,attr=8,data=function,parent=20',
    '__rec=node,id=22,attr=8,data=loop,parent=20',
    '__rec=node,id=23,attr=10,data=65,parent=1',
    '__rec=node,id=24,attr=8,data=mpi.rank,parent=23',
    '__rec=node,id=30,attr=14,data=sec,parent=5',
    '__rec=node,id=31,attr=13,data=Time (exc),parent=30',
    '__rec=node,id=32,attr=10,data=2113,parent=31',
    '__rec=node,id=33,attr=8,data=sum#time.duration,parent=32',
    '__rec=node,id=34,attr=10,data=2113,parent=30',
    '__rec=node,id=35,attr=8,data=inclusive#sum#time.duration,parent=34',
    '__rec=node,id=36,attr=10,data=193,parent=2',
    '__rec=node,id=37,attr=8,data=avg.count#time.duration,parent=36',
    '__rec=ctx,attr=24=33=35,data=0=100=100',
    '__rec=node,id=40,attr=21,data=main',
    '__rec=ctx,ref=40,attr=24=33=35=37,data=0=1=10=7',
    '__rec=node,id=41,attr=21,data=fib,parent=40',
    '__rec=ctx,ref=41,attr=24=33=35,data=0=2=6',
    '__rec=node,id=42,attr=21,data=fib,parent=41',
    '__rec=ctx,ref=42,attr=24=33=35,data=0=4=4',
    '__rec=node,id=43,attr=22,data=ré\\,gion\\=1 計算 \\\\o/,parent=40',
    '__rec=ctx,ref=43,attr=24=33=35,data=0=3=3',
    '__rec=ctx,ref=40,attr=24=33=35,data=2=5=5',
    '__rec=node,id=50,attr=10,data=512,parent=3',
    '__rec=node,id=51,attr=8,data=cluster,parent=50',
    '__rec=node,id=52,attr=10,data=512,parent=1',
    '__rec=node,id=53,attr=8,data=mpi.world.size,parent=52',
    '__rec=node,id=54,attr=8,data=cali.caliper.version,parent=50',
    '__rec=node,id=60,attr=54,data=2.10.0',
    '__rec=node,id=61,attr=53,data=3,parent=60',
    '__rec=node,id=62,attr=51,data=quartz,parent=61',
    '__rec=globals,ref=62',
  ].join('\n') + '\n';

describe('Caliper .cali reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-cali-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };
  const at = (p: Profile, m: number, side: 'exclusive' | 'inclusive', path: string[]) => {
    const i = pathIndex(p).get(JSON.stringify(path));
    assert.ok(i !== undefined, `no node ${path.join('/')}`);
    const mat = side === 'exclusive' ? p.exclusive(m) : p.inclusive(m);
    return Array.from({ length: p.contextCount }, (_, c) => mat[i * p.contextCount + c]);
  };

  it('reads nested regions, recursion, escapes, ranks, units and typed run metadata', async () => {
    const p = await readProfile(write('annotation.cali', ANNOTATION));
    assert.equal(p.format, 'caliper-cali');
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0', 'rank 2'],
      'rank 1 has no records, so it gets no context (we cannot claim it spent zero time)',
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.unit, m.label]),
      [['time', 'both', 's', 'Time (exc)']],
      'the hidden avg.count is no metric',
    );
    const loop = 'ré,gion=1 計算 \\o/';
    assert.deepEqual(
      [...pathIndex(p).keys()].map(k => JSON.parse(k)),
      [['main'], ['main', 'fib'], ['main', 'fib', 'fib'], ['main', loop]],
    );
    assert.equal(p.tree.kind(3), NodeKind.Loop);
    assert.equal(p.tree.kind(1), NodeKind.Region);
    assert.deepEqual(
      at(p, 0, 'exclusive', ['main']),
      [1, 5],
      'the record without a region (the global record) is dropped',
    );
    assert.deepEqual(at(p, 0, 'inclusive', ['main']), [10, 5]);
    assert.deepEqual(at(p, 0, 'inclusive', ['main', 'fib']), [6, 0]);
    assert.deepEqual(at(p, 0, 'exclusive', ['main', loop]), [3, 0]);
    assert.equal(p.total(0), 15);
    assert.deepEqual(p.metadata, { 'cali.caliper.version': '2.10.0', 'mpi.world.size': 3, cluster: 'quartz' });
    assert.deepEqual(p.warnings, []);
  });

  it('adds every value of an attribute a snapshot lists twice (rows then take the per-value path)', async () => {
    const text = ANNOTATION.replace(
      '__rec=ctx,ref=41,attr=24=33=35,data=0=2=6',
      '__rec=ctx,ref=41,attr=24=33=33=35,data=0=2=5=6',
    );
    assert.notEqual(text, ANNOTATION);
    const p = await readProfile(write('repeated-attribute.cali', text));
    assert.deepEqual(at(p, 0, 'exclusive', ['main', 'fib']), [7, 0]);
    assert.deepEqual(at(p, 0, 'inclusive', ['main', 'fib']), [6, 0]);
  });

  it('reads gzip-compressed files', async () => {
    const p = await readProfile(write('annotation.cali.gz', gzipSync(ANNOTATION)));
    assert.equal(p.format, 'caliper-cali');
    assert.equal(p.total(0), 15);
  });

  it('accepts a byte-order mark', async () => {
    assert.equal((await readProfile(write('bom.cali', `\uFEFF${ANNOTATION}`))).total(0), 15);
  });

  it('models cross-rank aggregates as inclusive metrics with their aggregation', async () => {
    const spot = [
      '__rec=node,id=12,attr=10,data=64,parent=3',
      '__rec=node,id=13,attr=8,data=attribute.alias,parent=12',
      '__rec=node,id=20,attr=10,data=268,parent=3',
      '__rec=node,id=21,attr=8,data=region,parent=20',
      '__rec=node,id=30,attr=13,data=Avg time/rank,parent=5',
      '__rec=node,id=31,attr=10,data=65,parent=30',
      '__rec=node,id=32,attr=8,data=avg#inclusive#sum#time.duration,parent=31',
      '__rec=node,id=33,attr=10,data=65,parent=2',
      '__rec=node,id=34,attr=8,data=min#min#aggregate.slot,parent=33',
      '__rec=node,id=40,attr=21,data=main',
      '__rec=node,id=41,attr=21,data=solve,parent=40',
      '__rec=ctx,ref=40,attr=32=34,data=9.5=1',
      '__rec=ctx,ref=41,attr=32=34,data=7=2',
      '__rec=globals',
    ].join('\n');
    const p = await readProfile(write('spot.cali', spot));
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.aggregation, m.label, m.unit]),
      [['avg#inclusive#sum#time.duration', 'inclusive', 'avg', 'Avg time/rank', 'µs']],
      'aggregate.slot (Node order) is bookkeeping; no version, so time.duration is taken as µs',
    );
    assert.deepEqual([...p.exclusive(0)], [2.5, 7], 'exclusive is derived from the inclusive values');
  });

  it('builds sampling profiles from the call path, with statements per sampled line', async () => {
    const sampling = [
      '__rec=node,id=20,attr=10,data=12,parent=3',
      '__rec=node,id=21,attr=8,data=source.function#callpath.address,parent=20',
      '__rec=node,id=22,attr=8,data=sourceloc#cali.sampler.pc,parent=20',
      '__rec=node,id=23,attr=8,data=module#cali.sampler.pc,parent=20',
      '__rec=node,id=24,attr=10,data=2113,parent=5',
      '__rec=node,id=25,attr=8,data=sum#time.duration,parent=24',
      '__rec=node,id=26,attr=10,data=2113,parent=1',
      '__rec=node,id=27,attr=8,data=count,parent=26',
      '__rec=node,id=30,attr=21,data=main',
      '__rec=node,id=31,attr=21,data=sweep,parent=30',
      '__rec=node,id=32,attr=22,data=/b/src/stencil.c:40,parent=31',
      '__rec=node,id=33,attr=23,data=libstencil.so,parent=32',
      '__rec=node,id=34,attr=22,data=/b/src/stencil.c:42,parent=31',
      '__rec=node,id=35,attr=23,data=libstencil.so,parent=34',
      '__rec=node,id=36,attr=22,data=/b/src/main.c:7,parent=30',
      '__rec=node,id=37,attr=23,data=heat,parent=36',
      '__rec=ctx,ref=33,attr=25=27,data=0.2=2',
      '__rec=ctx,ref=35,attr=25=27,data=0.5=5',
      '__rec=ctx,ref=37,attr=25=27,data=0.1=1',
      '__rec=node,id=50,attr=10,data=512,parent=3',
      '__rec=node,id=51,attr=8,data=cali.caliper.version,parent=50',
      '__rec=node,id=52,attr=51,data=2.10.0',
      '__rec=globals,ref=52',
    ].join('\n');
    const p = await readProfile(write('sampling.cali', sampling));
    const t = p.tree;
    assert.equal(t.size, 4);
    assert.deepEqual(
      [t.name(0), t.kind(0), t.file(0), t.line(0), t.module(0)],
      ['main', NodeKind.Function, '/b/src/main.c', 7, 'heat'],
    );
    assert.deepEqual(
      [2, 3].map(i => [t.name(i), t.kind(i), t.line(i), t.module(i)]),
      [
        ['stencil.c:40', NodeKind.Statement, 40, 'libstencil.so'],
        ['stencil.c:42', NodeKind.Statement, 42, 'libstencil.so'],
      ],
    );
    assert.equal(t.module(1), 'libstencil.so');
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.unit]),
      [
        ['time', 's'],
        ['count', 'count'],
      ],
      'Caliper 2.x: time.duration in seconds',
    );
    closeTo(p.total(0), 0.8, 'total');
  });

  it('reads a profile without snapshots as an empty profile', async () => {
    const p = await readProfile(
      write(
        'empty.cali',
        ANNOTATION.split('\n')
          .filter(l => !l.startsWith('__rec=ctx'))
          .join('\n'),
      ),
    );
    assert.equal(p.tree.size, 0);
    assert.equal(p.metrics.length, 0);
    assert.match(p.warnings.join(), /no performance records/);
  });

  it('warns when the globals record (written last) is missing', async () => {
    const p = await readProfile(write('no-globals.cali', ANNOTATION.replace('__rec=globals,ref=62\n', '')));
    assert.match(p.warnings.join(), /no globals record.*truncated/);
  });

  it('names the file, the line and the reason for bad input', async () => {
    const lines = ANNOTATION.trimEnd().split('\n');
    const edit = (i: number, text: string) => lines.map((l, k) => (k === i ? text : l)).join('\n');
    const cases: [string, string, RegExp][] = [
      ['not-a-record', edit(3, 'hello'), /line 4: not a \.cali record/],
      ['no-attr', edit(17, '__rec=node,id=40,data=main'), /line 18: the attribute of node 40 is missing/],
      ['bad-id', edit(17, '__rec=node,id=4x,attr=21,data=main'), /line 18: the node id "4x" is not a node id/],
      [
        'undefined-parent',
        edit(19, '__rec=node,id=41,attr=21,data=fib,parent=99'),
        /line 20: node 41 has parent 99, which is not defined before it/,
      ],
      [
        'not-an-attribute',
        edit(17, '__rec=node,id=40,attr=5,data=main'),
        /line 18: node 40 has attribute 5, which is not an attribute/,
      ],
      ['twice', edit(19, '__rec=node,id=40,attr=21,data=other'), /line 20: node 40 is defined twice/],
      [
        'undefined-ref',
        edit(18, '__rec=ctx,ref=77,attr=33,data=1'),
        /line 19: refers to node 77, which is not defined/,
      ],
      ['unpaired', edit(18, '__rec=ctx,ref=40,attr=24=33,data=0'), /line 19: 2 attributes but 1 values/],
      [
        'bad-number',
        edit(18, '__rec=ctx,ref=40,attr=24=33,data=0=abc'),
        /line 19: "abc" is not a number \(value of sum#time.duration\)/,
      ],
      ['bad-rank', edit(18, '__rec=ctx,ref=40,attr=24=33,data=x=1'), /line 19: mpi.rank "x" is not an integer/],
      [
        'undefined-attribute',
        edit(18, '__rec=ctx,ref=40,attr=24=99,data=0=1'),
        /line 19: refers to node 99, which is not defined/,
      ],
      [
        'value-of-non-attribute',
        edit(18, '__rec=ctx,ref=40,attr=40,data=1'),
        /line 19: node 40 is used as an attribute but is not one/,
      ],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(`${name}.cali`, text);
      await expectReadError(readProfile(path), path, reason, name);
    }
  });

  it(
    'survives truncation, flipped bytes and deleted lines with a result or a ProfileReadError',
    { timeout: 60_000 },
    async () => {
      let ok = 0;
      let rejected = 0;
      for (const [name, bytes] of mutationsOf(Buffer.from(ANNOTATION), { seed: 7 })) {
        const outcome = await readOrReject(write('mutant.cali', bytes), caliperCaliReader, name);
        if (outcome === 'read') ok++;
        else rejected++;
      }
      assert.ok(ok > 0 && rejected > 0, `${ok} read, ${rejected} rejected`);
    },
  );

  it('reads a small file whole (node records by one regular expression) as line by line', async () => {
    const alike = (path: string) => assertReadAlike(path, (p, whole) => readCaliperCali(p, {}, whole));
    for (const f of sharedFiles('data/caliper-cali', '.cali')) await alike(sharedPath('data', 'caliper-cali', f));
    const lines = ANNOTATION.split('\n');
    await alike(write('crlf.cali', lines.join('\r\n')));
    await alike(write('bom.cali', `\ufeff${ANNOTATION}`));
    await alike(write('two-boms.cali', `\ufeff\ufeff${ANNOTATION}`));
    await alike(write('no-final-newline.cali', ANNOTATION.trimEnd()));
    await alike(write('blank-lines.cali', lines.join('\n\n')));
    // Node records in other orders, with empty, '='-holding or escaped data, long ids, or defined twice.
    const node = lines.findIndex(l => /^__rec=node,id=\d+,attr=\d+,data=[^,]*,parent=\d+$/.test(l));
    assert.ok(node >= 0);
    const [, id, attr, data, parent] = /id=(\d+),attr=(\d+),data=([^,]*),parent=(\d+)/.exec(lines[node]!)!;
    for (const [name, line] of [
      ['reordered', `__rec=node,attr=${attr},id=${id},parent=${parent},data=${data}`],
      ['empty-data', `__rec=node,id=${id},attr=${attr},data=,parent=${parent}`],
      ['equals-in-data', `__rec=node,id=${id},attr=${attr},data=a=b,parent=${parent}`],
      ['long-id', `__rec=node,id=1234567890123456789012,attr=${attr},data=${data}`],
      ['twice-differently', `${lines[node]}\n__rec=node,id=${id},attr=${attr},data=other,parent=${parent}`],
      ['undefined-parent', `__rec=node,id=${id},attr=${attr},data=${data},parent=99999`],
    ] as const)
      await alike(write(`${name}.cali`, [...lines.slice(0, node), line, ...lines.slice(node + 1)].join('\n')));
    // A region's name with escapes (it shows in the profile): \, \= \\ \n \x, and escapes the pattern leaves to the parser.
    const region = lines.indexOf('__rec=node,id=41,attr=21,data=fib,parent=40');
    assert.ok(region >= 0);
    for (const [name, line] of [
      ['escapes', '__rec=node,id=41,attr=21,data=a\\,b\\=c\\\\d\\ne\\x,parent=40'],
      ['escaped-comma-before-parent', '__rec=node,id=41,attr=21,data=fib\\,parent=40'],
      ['trailing-backslash', '__rec=node,id=41,attr=21,data=fib\\'],
    ] as const)
      await alike(write(`${name}.cali`, [...lines.slice(0, region), line, ...lines.slice(region + 1)].join('\n')));
    // Snapshot records: unpaired values, nan and inf, empty and non-numeric values, unknown references.
    const ctx = lines.findIndex(l => /^__rec=ctx,ref=[\d=]+,attr=\d+(=\d+)*,data=[^,]*$/.test(l));
    assert.ok(ctx >= 0);
    const [, refs, attrs, values] = /ref=([\d=]+),attr=([\d=]+),data=([^,]*)/.exec(lines[ctx]!)!;
    const n = attrs!.split('=').length;
    for (const [name, line] of [
      ['unpaired', `__rec=ctx,ref=${refs},attr=${attrs},data=${values}=1`],
      [
        'nan-inf',
        `__rec=ctx,ref=${refs},attr=${attrs},data=${['nan', '-inf', 'Infinity', '1e3'].slice(0, n).join('=')}`,
      ],
      ['empty-value', `__rec=ctx,ref=${refs},attr=${attrs},data=${Array(n).fill('').join('=')}`],
      ['text-value', `__rec=ctx,ref=${refs},attr=${attrs},data=${Array(n).fill('x').join('=')}`],
      ['no-values', `__rec=ctx,ref=${refs}`],
      ['unknown-ref', `__rec=ctx,ref=99999,attr=${attrs},data=${values}`],
      ['ref-not-attribute', `__rec=ctx,ref=${refs},attr=${refs},data=${values}`],
    ] as const)
      await alike(write(`ctx-${name}.cali`, [...lines.slice(0, ctx), line, ...lines.slice(ctx + 1)].join('\n')));
    await alike(write('invalid-utf8.cali', Buffer.concat([Buffer.from(ANNOTATION), Buffer.from([0xc3, 0x28, 0xff])])));
    let mutants = 0;
    for (const [name, bytes] of mutationsOf(Buffer.from(ANNOTATION), { seed: 11 })) {
      await alike(write(`mutant-${name.replace(/\W+/g, '-')}.cali`, bytes));
      mutants++;
    }
    assert.ok(mutants > 10);
  });

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      caliperCaliReader.read(write('cancel.cali', ANNOTATION), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('sniffs by content', () => {
    assert.equal(caliperCaliReader.sniff(textSample(ANNOTATION)), 0.95);
    assert.equal(caliperCaliReader.sniff(textSample('{"data": [[1]], "columns": [], "nodes": []}')), 0);
    assert.equal(caliperCaliReader.sniff(textSample('path=main,sum#time.duration=1')), 0);
    assert.equal(caliperJsonSplitReader.sniff(textSample(ANNOTATION)), 0);
  });
});
