import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { caliperCaliReader } from './caliper-cali';
import { caliperExpandReader } from './caliper-expand';
import { caliperJsonRecordsReader } from './caliper-json-records';
import { readProfile } from './index';
import { expectReadError } from '../../../test/support/read-errors';
import { textSample } from '../../../test/support/file-samples';

// What `cali-query -e` (format expand) writes: one record per line, `name=value` entries joined by
// ",", each attribute of the record's context nodes on its own (ordered by decreasing attribute id),
// the values of one nested attribute joined by "/", then the immediate values; no escaping, no
// run metadata. Rank 1 has no records; the last record has no region (the global record).
const EXPAND =
  [
    'loop=régïon 計算,function=main,mpi.rank=0,sum#time.duration=3,inclusive#sum#time.duration=3',
    'function=main,mpi.rank=0,sum#time.duration=1,inclusive#sum#time.duration=10',
    'function=main/fib,mpi.rank=0,sum#time.duration=2,inclusive#sum#time.duration=6',
    'function=main/fib/fib,mpi.rank=0,sum#time.duration=4,inclusive#sum#time.duration=4',
    'function=main,mpi.rank=2,sum#time.duration=5,inclusive#sum#time.duration=5',
    'mpi.rank=0,sum#time.duration=100,inclusive#sum#time.duration=100,spot.channel=regionprofile',
  ].join('\n') + '\n';

function pathIndex(p: Profile): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < p.tree.size; i++) out.set(p.tree.path(i).join('/'), i);
  return out;
}

describe('Caliper expand reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-cali-expand-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it('reads nested attributes, recursion, ranks (one without records) and the time pair', async () => {
    const p = await readProfile(write('profile.txt', EXPAND));
    assert.equal(p.format, 'caliper-expand');
    assert.deepEqual(
      [...pathIndex(p).keys()],
      ['main', 'main/régïon 計算', 'main/fib', 'main/fib/fib'],
      'function before loop, whatever comes first in the file',
    );
    assert.equal(p.tree.kind(1), NodeKind.Loop);
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0', 'rank 2'],
      'no context for the rank without records',
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.unit]),
      [['time', 'both', 's']],
    );
    assert.deepEqual([...p.exclusive(0)].slice(0, 2), [1, 5]);
    assert.equal(p.total(0), 15);
    assert.match(p.warnings.join('\n'), /no unit or Caliper version; the values are taken as seconds/);
    assert.match(
      p.warnings.join('\n'),
      /1 paths come from several nested attributes \(function, loop\) written separately/,
    );
  });

  it('keeps commas inside values and reads gzip input', async () => {
    const p = await readProfile(write('comma.txt.gz', gzipSync('function=main,note=a,b,c,sum#time.duration=2\n')));
    assert.equal(p.format, 'caliper-expand');
    assert.deepEqual(
      p.metrics.map(m => m.name),
      ['time'],
      'note "a,b,c" is a label, not a metric',
    );
    assert.equal(p.total(0), 2);
  });

  it('names the file, the line and the reason for bad input', async () => {
    const cases: [string, string, RegExp][] = [
      ['no-pairs', 'function=main,sum#time.duration=1\nhello world\n', /line 2: not a key=value record/],
      ['no-key', 'function=main,=5\n', /line 1: an entry has no attribute name/],
      ['bad-rank', 'function=main,mpi.rank=one,sum#time.duration=1\n', /line 1: mpi.rank "one" is not an integer/],
      ['labels-only', 'function=main,spot.channel=x\n', /no metrics/],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(`${name}.txt`, text);
      await expectReadError(caliperExpandReader.read(path), path, reason, name);
    }
  });

  it(
    'survives truncation, flipped bytes and deleted lines with a result or a ProfileReadError',
    { timeout: 60_000 },
    async () => {
      let read = 0;
      for (const [name, bytes] of mutationsOf(Buffer.from(EXPAND), { seed: 5 })) {
        if ((await readOrReject(write('mutant.txt', bytes), caliperExpandReader, name)) === 'read') read++;
      }
      assert.ok(read > 0);
    },
  );

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      caliperExpandReader.read(write('cancel.txt', EXPAND), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('sniffs by content', () => {
    assert.equal(caliperExpandReader.sniff(textSample(EXPAND)), 0.7);
    assert.equal(caliperExpandReader.sniff(textSample('__rec=node,id=12,attr=10,data=64,parent=3\n')), 0, '.cali');
    assert.equal(caliperCaliReader.sniff(textSample(EXPAND)), 0);
    assert.equal(caliperJsonRecordsReader.sniff(textSample(EXPAND)), 0);
    assert.equal(
      caliperExpandReader.sniff(textSample('# callgrind format\nversion: 1\nfn=(1) main\n')),
      0,
      'callgrind',
    );
    assert.equal(caliperExpandReader.sniff(textSample('main;solve;kernel 12\nmain;io 3\n')), 0, 'folded stacks');
    assert.equal(caliperExpandReader.sniff(textSample('a=1,b=2\n')), 0, 'key=value lines without a Caliper attribute');
  });
});
