import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { closeTo } from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { caliperJsonRecordsReader } from './caliper-json-records';
import { caliperJsonSplitReader } from './caliper-json-split';
import { chooseFormat, readProfile } from './index';
import { expectReadError } from '../../../test/support/read-errors';
import { textSample } from '../../../test/support/file-samples';

// What `cali-query -q "select * format json"` (Caliper 2) writes: "[", then one flat object per
// record on its own line separated by ",\n", then "\n]". Keys are sorted, quoted (string) values
// first; numbers are unquoted; every nested attribute (function, loop, mpi.function, …) goes into
// one "path" joined with "/"; strings are JSON-escaped. The last record has no region: the global
// record, which Hatchet drops. Rank 1 has no records.
const RECORDS = `[
{"path":"main","spot.channel":"regionprofile","inclusive#sum#time.duration":10,"mpi.rank":0,"sum#time.duration":1},
{"path":"main/fib","spot.channel":"regionprofile","inclusive#sum#time.duration":6,"mpi.rank":0,"sum#time.duration":2},
{"path":"main/fib/fib","spot.channel":"regionprofile","inclusive#sum#time.duration":4,"mpi.rank":0,"sum#time.duration":4},
{"path":"main/ré,gion=1 \\"計算\\"","spot.channel":"regionprofile","inclusive#sum#time.duration":3,"mpi.rank":0,"sum#time.duration":3},
{"path":"main","spot.channel":"regionprofile","inclusive#sum#time.duration":5,"mpi.rank":2,"sum#time.duration":5},
{"spot.channel":"regionprofile","inclusive#sum#time.duration":100,"mpi.rank":0,"sum#time.duration":100}
]
`;

// `format json(object)`: the same records plus "globals" (run metadata, all strings) and
// "attributes" (each attribute's metadata-tree entries: type, properties, unit, alias).
const OBJECT = `{
"records": [
{"path":"main","avg#inclusive#sum#time.duration":9.5,"count":3,"min#min#aggregate.slot":1},
{"path":"main/solve","avg#inclusive#sum#time.duration":7,"count":3,"min#min#aggregate.slot":2}
],
"globals": {
"cali.caliper.version": "2.10.0",
"mpi.world.size": "8"
},
"attributes": {
"avg#inclusive#sum#time.duration": {"is_global": false,"is_nested": false,"cali.attribute.name": "avg#inclusive#sum#time.duration","cali.attribute.type": "double","cali.attribute.prop": "65","attribute.alias": "Avg time/rank","attribute.unit": "sec"},
"count": {"is_global": false,"is_nested": false,"cali.attribute.name": "count","cali.attribute.type": "uint","cali.attribute.prop": "193"},
"min#min#aggregate.slot": {"is_global": false,"is_nested": false,"cali.attribute.name": "min#min#aggregate.slot","cali.attribute.type": "uint","cali.attribute.prop": "65","attribute.alias": "Node order"}
}
}
`;

// A sampling profile: the call path is one '/'-joined value, with the sampled line and module.
const SAMPLING = `[
{"module#cali.sampler.pc":"libstencil.so","source.function#callpath.address":"main/sweep","sourceloc#cali.sampler.pc":"/b/src/stencil.c:40","count":2,"mpi.rank":0,"sum#time.duration":0.2},
{"module#cali.sampler.pc":"libstencil.so","source.function#callpath.address":"main/sweep","sourceloc#cali.sampler.pc":"/b/src/stencil.c:42","count":5,"mpi.rank":0,"sum#time.duration":0.5},
{"module#cali.sampler.pc":"heat","source.function#callpath.address":"main","sourceloc#cali.sampler.pc":"/b/src/main.c:7","count":1,"mpi.rank":0,"sum#time.duration":0.1}
]
`;

function pathIndex(p: Profile): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < p.tree.size; i++) out.set(p.tree.path(i).join('/'), i);
  return out;
}

describe('Caliper json (records) reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-cali-json-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };
  const values = (p: Profile, side: 'exclusive' | 'inclusive', path: string) => {
    const i = pathIndex(p).get(path)!;
    const mat = side === 'exclusive' ? p.exclusive(0) : p.inclusive(0);
    return Array.from({ length: p.contextCount }, (_, c) => mat[i * p.contextCount + c]);
  };

  it('reads paths, recursion, escapes, ranks (one without records) and the time pair', async () => {
    const p = await readProfile(write('records.json', RECORDS));
    assert.equal(p.format, 'caliper-json-records');
    const loop = 'ré,gion=1 "計算"';
    assert.deepEqual([...pathIndex(p).keys()], ['main', 'main/fib', 'main/fib/fib', `main/${loop}`]);
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0', 'rank 2'],
      'no context for the rank without records',
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.unit]),
      [['time', 'both', 's']],
      'spot.channel (a string) is no metric; a json path means Caliper 2: seconds',
    );
    assert.deepEqual(values(p, 'exclusive', 'main'), [1, 5], 'the record without a path is dropped');
    assert.deepEqual(values(p, 'inclusive', 'main/fib'), [6, 0]);
    assert.equal(p.total(0), 15);
    assert.deepEqual(p.warnings, []);
  });

  it('reads the object layout with its run metadata and attribute types, units and aliases', async () => {
    const p = await readProfile(write('object.json', OBJECT));
    assert.equal(p.format, 'caliper-json-records');
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.aggregation, m.unit, m.label]),
      [['avg#inclusive#sum#time.duration', 'inclusive', 'avg', 's', 'Avg time/rank']],
      'count is hidden and the aggregate slot is bookkeeping',
    );
    assert.deepEqual([...p.exclusive(0)], [2.5, 7]);
    assert.deepEqual(p.metadata, { 'cali.caliper.version': '2.10.0', 'mpi.world.size': '8' });
  });

  it('builds sampling profiles from the call path, with statements per sampled line', async () => {
    const p = await readProfile(write('sampling.json', SAMPLING));
    const t = p.tree;
    assert.deepEqual(
      [...pathIndex(p).keys()],
      ['main', 'main/sweep', 'main/sweep/stencil.c:40', 'main/sweep/stencil.c:42'],
    );
    assert.deepEqual([t.kind(0), t.file(0), t.line(0), t.module(0)], [NodeKind.Function, '/b/src/main.c', 7, 'heat']);
    assert.deepEqual([t.kind(2), t.line(3), t.module(1)], [NodeKind.Statement, 42, 'libstencil.so']);
    closeTo(p.total(p.metricIndex('time')), 0.8, 'total');
  });

  it('reads gzip input and an empty record list', async () => {
    assert.equal((await readProfile(write('records.json.gz', gzipSync(RECORDS)))).total(0), 15);
    const empty = await caliperJsonRecordsReader.read(write('empty.json', '[\n\n]\n'));
    assert.equal(empty.tree.size, 0);
    assert.match(empty.warnings.join(), /no performance records/);
  });

  it('names the file and the reason for bad input', async () => {
    const cases: [string, string, RegExp][] = [
      ['truncated', RECORDS.slice(0, 150), /not valid JSON/],
      ['nested', '[{"path":"main","x":{"a":1}}]', /record 1: the value of "x" is an object/],
      ['array-record', '[{"path":"main","t":1},[1]]', /record 2 is an array/],
      ['scalar-record', '[{"path":"main","t":1},3]', /record 2 is not an object/],
      ['no-records', '{"globals": {}}', /there is no "records" array/],
      ['other-member', '{"records": [], "data": []}', /unexpected member "data"/],
      ['bad-rank', '[{"path":"main","mpi.rank":"x","t":1}]', /record 1: mpi.rank "x" is not an integer/],
      ['only-strings', '[{"path":"main","spot.channel":"x"}]', /no metrics/],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(`${name}.json`, text);
      await expectReadError(caliperJsonRecordsReader.read(path), path, reason, name);
    }
  });

  it(
    'survives truncation, flipped bytes and deleted lines with a result or a ProfileReadError',
    { timeout: 60_000 },
    async () => {
      let read = 0;
      for (const [name, bytes] of mutationsOf(Buffer.from(RECORDS), { seed: 11 })) {
        if ((await readOrReject(write('mutant.json', bytes), caliperJsonRecordsReader, name)) === 'read') read++;
      }
      for (const [name, bytes] of mutationsOf(Buffer.from(OBJECT), { seed: 12, flips: 80 })) {
        if ((await readOrReject(write('mutant-object.json', bytes), caliperJsonRecordsReader, name)) === 'read') read++;
      }
      assert.ok(read > 0);
    },
  );

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      caliperJsonRecordsReader.read(write('cancel.json', RECORDS), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('sniffs by content, leaving json-split, Hatchet literals and trace events to their readers', () => {
    const jsonSplit = JSON.stringify({
      data: [[1, 0]],
      columns: ['sum#time.duration', 'path'],
      column_metadata: [{ is_value: true }, { is_value: false }],
      nodes: [{ label: 'main', column: 'path' }],
    });
    assert.equal(caliperJsonRecordsReader.sniff(textSample(RECORDS)), 0.85);
    assert.equal(caliperJsonRecordsReader.sniff(textSample(OBJECT)), 0.9);
    assert.equal(caliperJsonRecordsReader.sniff(textSample(jsonSplit)), 0);
    assert.equal(chooseFormat(textSample(jsonSplit))?.id, caliperJsonSplitReader.id);
    assert.equal(chooseFormat(textSample(RECORDS))?.id, caliperJsonRecordsReader.id);
    assert.equal(
      caliperJsonRecordsReader.sniff(
        textSample('[{"frame": {"name": "main", "type": "function"}, "metrics": {"time": 1}, "children": []}]'),
      ),
      0,
    );
    assert.equal(
      caliperJsonRecordsReader.sniff(textSample('[{"name": "a#b", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}]')),
      0,
    );
    assert.equal(caliperJsonRecordsReader.sniff(textSample('[1, 2]')), 0);
    assert.equal(
      caliperJsonRecordsReader.sniff(textSample('[{"path": "main", "children": [{"path": "x"}]}]')),
      0,
      'records are flat',
    );
  });
});
