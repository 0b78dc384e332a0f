import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { closeTo } from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { REPO_ROOT } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { callgrindReader } from './callgrind';
import { sampleFile } from './file-sample';
import { chooseFormat, readProfile } from './index';
import { expectReadError } from '../../../test/support/read-errors';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'call-graph');
const fixture = (name: string) => join(FIXTURES, name);
const SAMPLE = join(REPO_ROOT, 'samples', 'heat-stencil', 'profiles', 'callgrind.out.heat-stencil-4ranks');
const textOf = (path: string) => {
  const b = readFileSync(path);
  return (b[0] === 0x1f ? gunzipSync(b) : b).toString('utf8');
};

/** The `totals:` lines of a file, one per part, read independently of the reader. */
const totalsOf = (text: string) =>
  [...text.matchAll(/^totals: (.*)$/gm)].map(m => m[1]!.trim().split(/\s+/).map(Number));

/** Callgrind's own totals must be the tree's Σ exclusive, event by event. */
function checkTotals(p: Profile, text: string): void {
  const parts = totalsOf(text);
  assert.ok(parts.length > 0, 'the file has totals');
  p.metrics.forEach((m, k) => {
    const e = p.exclusiveTotals(k);
    let sum = 0;
    for (let i = 0; i < p.tree.size; i++) sum += e[i]!;
    closeTo(
      sum,
      parts.reduce((s, t) => s + (t[k] ?? 0), 0),
      `Σ exclusive ${m.name} vs totals:`,
    );
  });
  assert.deepEqual(
    p.warnings.filter(w => /add up/.test(w)),
    [],
  );
}

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(' → '));
const nodeAt = (p: Profile, path: string) => paths(p).indexOf(path);
const lineOf = (file: string, code: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .findIndex(l => l.includes(code)) + 1;
const functionNames = (p: Profile) => new Set(Array.from(p.callGraph!.functions.name, id => p.tree.strings.get(id)));

/** A small file in callgrind's own style, with costs worked out by hand (see the comments). */
const SMALL = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 4242
cmd:  ./prog
part: 1

desc: I1 cache: 
desc: Trigger: Program termination

positions: line
events: Ir Dr
event: Ir : Instruction Fetch
summary: 500 50


ob=(1) /opt/prog
fl=(1) /src/main.c
fn=(1) main
3 10 1
+2 5
cfn=(2) work
calls=2 +5
* 400 40
+1 5 1
cob=(2) /lib/libc.so.6
cfi=(2) ???
cfn=(3) memcpy
calls=1 -6
* 80 8

fn=(2)
10 100 10
fi=(3) /src/inline.h
2 50 5
fe=(1)
12 50 5
cfn=(4) work'2
calls=1 -2
* 200 20

fn=(4)
10 100 10
fi=(3)
2 50 5
fe=(1)
12 50 5

ob=(2)
fl=(2)
fn=(3)
0 80 8

totals: 500 50
`;
// main: self 20 Ir / 2 Dr at lines 3, 5, 6; calls work (line 5; 400 inclusive) and memcpy (line 6; 80).
// work: 200 Ir per recursion level (lines 10 and 12 of main.c, line 2 of inline.h); work'2 is its
// second level, called from line 12 with 200 inclusive. memcpy: 80 Ir without a line.

describe('callgrind reader: fixtures written by callgrind from test/fixtures/call-graph', () => {
  for (const name of [
    'callgrind.out.main',
    'callgrind.out.uncompressed-strings',
    'callgrind.out.instr',
    'callgrind.out.whole-program.gz',
  ]) {
    it(`${name}: Σ exclusive equals callgrind's totals for every event`, async () => {
      const p = await readProfile(fixture(name));
      assert.equal(p.format, 'callgrind');
      checkTotals(p, textOf(fixture(name)));
      assert.equal(p.metrics[p.primaryMetric]!.name, 'Ir');
      assert.ok(p.metrics.every(m => m.unit === 'count' && m.kind === 'exclusive'));
      JSON.stringify(inspectReport(p));
    });
  }

  it('unfolds the program: shared callee under both callers, call lines, statements, modules', async () => {
    const p = await readProfile(fixture('callgrind.out.main'));
    const t = p.tree;
    const kernels = fixture('kernels.c');
    const base = paths(p).find(x => x.endsWith('→ main'))!;
    const a = nodeAt(p, `${base} → run_rounds → compute_a → accumulate`);
    const b = nodeAt(p, `${base} → run_rounds → compute_b → accumulate`);
    assert.ok(a >= 0 && b >= 0);
    assert.equal(t.callLine(a), lineOf(kernels, 'return accumulate(buffer, N, 1.0);'));
    assert.equal(t.callLine(b), lineOf(kernels, 's += accumulate(buffer, N / 2,'));
    assert.match(t.module(a)!, /\/hpc-lens-call-graph-fixtures\/prog$/, 'the program object is the module');
    assert.equal(t.file(a), '/build/call-graph/kernels.c');
    // The hottest statements of accumulate are its loop: the for line and the body (equal at -O1).
    const hot = [...t.children(a)]
      .filter(c => t.kind(c) === NodeKind.Statement)
      .sort((x, y) => p.exclusiveTotals(0)[y]! - p.exclusiveTotals(0)[x]!)
      .slice(0, 2);
    assert.deepEqual(hot.map(i => t.line(i)).sort(), [
      lineOf(kernels, 'for (int i = 0; i < n; i++)'),
      lineOf(kernels, 's += v[i] * scale;'),
    ]);
    assert.equal(t.name(hot[0]!), `kernels.c:${t.line(hot[0]!)}`);
  });

  it("merges recursion levels (fib'2) into their function and keeps cycles on one path", async () => {
    const p = await readProfile(fixture('callgrind.out.main'));
    assert.ok(![...functionNames(p)].some(n => /'\d+$/.test(n)));
    const base = paths(p).find(x => x.endsWith('→ main'))!;
    assert.ok(nodeAt(p, `${base} → fib`) >= 0);
    assert.ok(nodeAt(p, `${base} → is_even → is_odd → busy`) >= 0);
    // (Functions are told apart by module too: libc and the program each have a "(below main)".)
    for (let i = 0; i < p.tree.size; i++) {
      const fns: string[] = [];
      for (let n = i; n !== -1; n = p.tree.parent(n))
        if (p.tree.kind(n) === NodeKind.Function) fns.push(`${p.tree.module(n)}|${p.tree.name(n)}`);
      assert.equal(new Set(fns).size, fns.length, p.tree.path(i).join(' → '));
    }
  });

  it('reads the same functions with compressed or plain strings and line or instr positions', async () => {
    const [main, plain, instr] = await Promise.all(
      ['callgrind.out.main', 'callgrind.out.uncompressed-strings', 'callgrind.out.instr'].map(n =>
        readProfile(fixture(n)),
      ),
    );
    assert.deepEqual([...functionNames(plain)].sort(), [...functionNames(main)].sort());
    assert.deepEqual([...functionNames(instr)].sort(), [...functionNames(main)].sort());
    assert.equal(plain.metrics.length, 13);
    assert.equal(instr.metadata['callgrind.positions'], 'instr line');
  });
});

describe('callgrind reader: the heat-stencil demo profile', () => {
  it("has one context per rank thread, each with its part's totals, and the sweep as hottest line", async () => {
    const text = readFileSync(SAMPLE, 'utf8');
    const p = await readProfile(SAMPLE);
    const threads = [...text.matchAll(/^thread: (\d+)$/gm)].map(m => Number(m[1]));
    assert.deepEqual(
      p.contexts.map(c => c.thread),
      threads,
    );
    const perPart = totalsOf(text);
    const e = p.exclusive(0);
    threads.forEach((_, c) => {
      let sum = 0;
      for (let i = 0; i < p.tree.size; i++) sum += e[i * p.contextCount + c]!;
      closeTo(sum, perPart[c]![0]!, `thread ${threads[c]}`);
    });
    const ex = p.exclusiveTotals(0);
    let hottest = -1;
    for (let i = 0; i < p.tree.size; i++)
      if (p.tree.kind(i) === NodeKind.Statement && (hottest < 0 || ex[i]! > ex[hottest]!)) hottest = i;
    assert.equal(p.tree.file(hottest), '/home/hpc/heat-stencil/src/stencil.c');
    const source = readFileSync(join(REPO_ROOT, 'samples', 'heat-stencil', 'src', 'stencil.c'), 'utf8').split('\n');
    assert.match(source[p.tree.line(hottest)! - 1]!, /u\[/, 'a line of the Jacobi update');
  });
});

describe('callgrind reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-callgrind-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it('reads names, positions, inlined files, calls and recursion levels as worked out by hand', async () => {
    const p = await readProfile(write('small.out', SMALL));
    const t = p.tree;
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.label]),
      [
        ['Ir', 'Instruction Fetch'],
        ['Dr', 'Dr'],
      ],
    );
    assert.deepEqual(paths(p), [
      'main',
      'main → main.c:3',
      'main → main.c:5',
      'main → main.c:6',
      'main → work',
      'main → work → main.c:10',
      'main → work → main.c:12',
      'main → work → inline.h:2',
      'main → memcpy',
    ]);
    assert.deepEqual([...p.exclusiveTotals(0)], [0, 10, 5, 5, 0, 200, 100, 100, 80]);
    assert.deepEqual([...p.inclusiveTotals(1)].slice(0, 1), [50]);
    assert.deepEqual([t.callLine(4), t.line(4), t.file(4), t.module(4)], [5, 10, '/src/main.c', '/opt/prog']);
    assert.deepEqual([t.callLine(8), t.file(8), t.module(8)], [6, null, '/lib/libc.so.6']);
    assert.equal(t.file(7), '/src/inline.h');
    const g = p.callGraph!;
    assert.equal(g.functions.name.length, 3, "work and work'2 are one function");
    assert.deepEqual([...g.functions.self[0]!], [20, 400, 80]);
    assert.deepEqual(Array.from(g.arcs.calls), [2, 1, 1]);
    checkTotals(p, SMALL);
    assert.deepEqual(p.warnings, []);
  });

  it('reads several parts, one context per thread (a thread without costs too)', async () => {
    const part = (thread: number, body: string, total: string) =>
      `version: 1\ncreator: callgrind-3.19.0\npart: 1\nthread: ${thread}\n\npositions: line\nevents: Ir\nsummary: ${total}\n\n${body}\ntotals: ${total}\n`;
    const text =
      '# callgrind format\n' +
      part(
        1,
        'ob=(1) /opt/prog\nfl=(1) /src/main.c\nfn=(1) main\n3 10\ncfn=(2) work\ncalls=1 10\n* 30\n\nfn=(2)\n10 30\n',
        '40',
      ) +
      part(2, 'ob=(1) /opt/prog\nfl=(1) /src/main.c\nfn=(2) work\n10 7\n', '7') +
      part(3, '', '0');
    const p = await readProfile(write('threads.out', text));
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['thread 1', 'thread 2', 'thread 3'],
    );
    assert.deepEqual(paths(p), [
      'main',
      'main → main.c:3',
      'main → work',
      'main → work → main.c:10',
      'work',
      'work → main.c:10',
    ]);
    // Node-major, three contexts per node: thread 3 has no costs.
    assert.deepEqual([...p.exclusive(0)], [0, 0, 0, 10, 0, 0, 0, 0, 0, 30, 0, 0, 0, 0, 0, 0, 7, 0]);
    assert.equal(p.metadata['callgrind.parts'], 3);
  });

  it('reads instr positions in hex and relative, and skips jump lines', async () => {
    const text = [
      '# callgrind format',
      'version: 1',
      'creator: callgrind-3.19.0',
      'positions: instr line',
      'events: Ir',
      '',
      'ob=/opt/prog',
      'fl=/src/a.c',
      'fn=main',
      '0x1000 5 3',
      '+4 +1 2',
      'jump=3 +8 +2',
      '+2 *',
      'jcnd=1/3 -4 -1',
      '* *',
      '+4 * 1',
      'totals: 6',
    ].join('\n');
    const p = await readProfile(write('instr.out', text));
    assert.deepEqual(paths(p), ['main', 'main → a.c:5', 'main → a.c:6']);
    assert.deepEqual([...p.exclusiveTotals(0)], [0, 3, 3]);
  });

  it('reads cachegrind-style files, empty profiles and non-ASCII names', async () => {
    const cachegrind = 'desc: I1 cache: 32768 B\ncmd: ./a.out\nevents: Ir\nfl=a.c\nfn=größe\n1 5\n2 3\nsummary: 8\n';
    const path = write('cachegrind.out.1', cachegrind);
    assert.equal(chooseFormat(await sampleFile(path))?.id, callgrindReader.id);
    const p = await readProfile(path);
    assert.deepEqual(paths(p), ['größe', 'größe → a.c:1', 'größe → a.c:2']);
    closeTo(p.total(0), 8, 'total');
    const empty = await callgrindReader.read(
      write(
        'empty.out',
        '# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 0\n\ntotals: 0\n',
      ),
    );
    assert.equal(empty.tree.size, 0);
  });

  it('reads gzip-compressed files', async () => {
    const path = write('small.out.gz', gzipSync(SMALL));
    assert.equal(chooseFormat(await sampleFile(path))?.id, callgrindReader.id);
    assert.equal((await readProfile(path)).total(0), 500);
  });

  it('sniffs callgrind files by content', async () => {
    for (const name of [
      'callgrind.out.main',
      'callgrind.out.uncompressed-strings',
      'callgrind.out.instr',
      'callgrind.out.whole-program.gz',
    ]) {
      assert.equal(chooseFormat(await sampleFile(fixture(name)))?.id, callgrindReader.id, name);
    }
    assert.equal(
      chooseFormat(await sampleFile(write('no-magic.out', SMALL.replace('# callgrind format\n', ''))))?.id,
      callgrindReader.id,
    );
    for (const other of ['gprof.txt', 'gprof2dot-gprof.dot'])
      assert.equal(callgrindReader.sniff(await sampleFile(fixture(other))), 0, other);
  });

  it('warns when the self costs do not add up to the totals', async () => {
    const p = await callgrindReader.read(write('off.out', SMALL.replace('totals: 500 50', 'totals: 501 50')));
    assert.match(p.warnings.join('\n'), /do not add up to the file's totals \(Ir: 500 read, 501 stated\)/);
  });

  it('names the file and the reason for bad input', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'undefined-id.out',
        SMALL.replace('fn=(2)\n10 100', 'fn=(9)\n10 100'),
        /line \d+: function \(9\) is used before it is defined/,
      ],
      ['no-fn.out', SMALL.replace('fn=(1) main\n', ''), /line \d+: a cost line outside a function/],
      [
        'no-call-cost.out',
        SMALL.replace('* 80 8\n', ''),
        /line \d+: "calls=" must be followed by the cost line of the call/,
      ],
      ['version.out', SMALL.replace('version: 1', 'version: 3'), /unsupported callgrind format version "3"/],
      ['costs.out', SMALL.replace('3 10 1', '3 10 1 7'), /line \d+: more costs than the 2 events/],
      ['number.out', SMALL.replace('3 10 1', '3 1x 1'), /line \d+: bad cost "1x"/],
      ['position.out', SMALL.replace('+1 5 1', '-9 5 1'), /line \d+: position "-9" is negative/],
      [
        'truncated.out',
        SMALL.slice(0, SMALL.indexOf('\nob=(2)')),
        /no "totals:" line at the end, which callgrind always writes \(truncated\?\)/,
      ],
      [
        'cut-call.out',
        SMALL.slice(0, SMALL.indexOf('* 400 40')),
        /the file ends after "calls=" without the cost line of the call \(truncated\?\)/,
      ],
      ['no-events.out', '# callgrind format\nversion: 1\n', /no "events:" line/],
      ['garbage.out', SMALL.replace('fe=(1)', 'fe=(1)\n  what'), /line \d+: not a line of the callgrind format/],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(name, text);
      await expectReadError(callgrindReader.read(path), path, reason, name);
    }
  });

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      callgrindReader.read(fixture('callgrind.out.main'), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('survives damaged files: each one is read or rejected with a ProfileReadError, quickly', async () => {
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(Buffer.from(SMALL), { seed: 17 })) {
      counts[await readOrReject(write('mutant.out', bytes), callgrindReader, name)]++;
    }
    assert.ok(counts.rejected > 100 && counts.read > 20, JSON.stringify(counts));
  });
});
