import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { expectReadError } from '../../../test/support/read-errors';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import type { Profile } from '../model/profile';
import { TraceEventKind } from '../model/trace';
import { sampleFile } from './file-sample';
import { readProfile } from './index';
import { perfScriptReader } from './perf-script';
import { parseFrameLine, parseSampleHeader } from './perf-script/lines';

// Not `/tmp/perf-…`: perf takes such paths for JIT symbol maps and would not read the test binary's symbols.
const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-perf-script-'));
let seq = 0;
const write = (content: string | Buffer, name = `p${seq++}.txt`) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const read = (content: string | Buffer) => perfScriptReader.read(write(content));

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(' > '));
const nodeAt = (p: Profile, path: string) => {
  const i = paths(p).indexOf(path);
  assert.ok(i >= 0, `no node ${path} in\n${paths(p).join('\n')}`);
  return i;
};
const excl = (p: Profile, metric: string, i: number) => p.exclusiveTotals(p.metricIndex(metric))[i]!;

/** Modelled on `perf script --header -F comm,pid,tid,cpu,time,period,event,ip,sym,symoff,dso,srcline` output. */
const FIXTURE = `# ========
# captured on    : Sat Nov 21 12:22:43 2026
# hostname : node17
# perf version : 6.1.187
# cmdline : /usr/bin/perf record -e cycles:u -e instructions -g ./solver
# event : name = cycles:u, , id = { 12 }, type = 0
# event : name = instructions, , id = { 13 }, type = 0
# ========
#
solver  100/100  [001] 4295.521376:     250000 cycles:u: 
\t            116a kernel_loop+0x31 (/opt/solver)
  solver.c:42
\t            11ae main+0x18 (/opt/solver)
  solver.c:88
\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)
  libc-start.c:74

solver  100/100  [001] 4295.522376:     250000 cycles:u: 
\t            1170 kernel_loop+0x37 (/opt/solver)
  solver.c:43
\t            11ae main+0x18 (/opt/solver)
  solver.c:88
\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)
  libc-start.c:74

solver worker  100/101  [000] 4295.522000:     400000 instructions: 
\tffffffffad14d115 clear_page_erms+0x15 ([kernel.kallsyms])
\tffffffffad1fd419 [unknown] ([kernel.kallsyms])
\t            2040 std::vector<double, std::allocator<double> >::push_back(double const&)+0x20 (/opt/solver)
  ??:0
\t            1f00 _RNvCs1234_6solver6worker+0x10 (/opt/solver (deleted))
\t 6ce258d4c544155 [unknown] ([unknown])

solver worker  100/101  [000] 4295.530000:     250000 cycles:u: 
\t            1f00 _RNvCs1234_6solver6worker+0x10 (/opt/solver (deleted))
\t 6ce258d4c544155 [unknown] ([unknown])
`;

describe('perf script lines', () => {
  it('parses sample headers with and without pid/tid, cpu, period and modifiers', () => {
    assert.deepEqual(parseSampleHeader('simple-terminat     9/9     198791.127353: cpu-clock: '), {
      comm: 'simple-terminat',
      pid: 9,
      tid: 9,
      cpu: -1,
      seconds: '198791',
      fraction: '127353',
      period: -1,
      event: 'cpu-clock',
      rest: '',
    });
    const h = parseSampleHeader('Web Content  4711 [003] 12.000000001:   16949152 task-clock:ppp: ')!;
    assert.deepEqual(
      [h.comm, h.pid, h.tid, h.cpu, h.fraction, h.period, h.event],
      ['Web Content', 4711, 4711, 3, '000000001', 16949152, 'task-clock'],
    );
    const t = parseSampleHeader('swapper     0 [002]  5.5: sched:sched_switch: prev_comm=swapper')!;
    assert.deepEqual([t.event, t.rest], ['sched:sched_switch', 'prev_comm=swapper']);
    assert.equal(parseSampleHeader('\t 116a main (/x)'), null);
  });

  it('parses frames: symbol offsets, dso with parentheses, symbols with spaces', () => {
    assert.deepEqual(parseFrameLine('\t  63c _Z4betav (/workdir/simple)'), {
      symbol: '_Z4betav',
      dso: '/workdir/simple',
    });
    assert.deepEqual(parseFrameLine('\t 2040 foo(int, char const*) const+0x20 (/a b/lib.so (deleted))'), {
      symbol: 'foo(int, char const*) const',
      dso: '/a b/lib.so (deleted)',
    });
    assert.deepEqual(parseFrameLine('\tffffffff [unknown] ([kernel.kallsyms])'), {
      symbol: '[unknown]',
      dso: '[kernel.kallsyms]',
    });
    assert.deepEqual(parseFrameLine('\tmain'), { symbol: 'main', dso: '' });
  });
});

describe('perf script reader', () => {
  it('builds call paths, srcline locations, metrics per event, tracks per thread and timed samples', async () => {
    const p = await read(FIXTURE);
    assert.equal(p.format, 'perf-script');
    assert.equal(p.metadata['hostname'], 'node17');
    assert.equal(
      p.metadata['event'],
      'name = cycles:u, , id = { 12 }, type = 0\nname = instructions, , id = { 13 }, type = 0',
    );
    assert.equal(p.total(p.metricIndex('samples')), 4);
    assert.equal(p.total(p.metricIndex('cycles')), 750000);
    assert.equal(p.total(p.metricIndex('instructions')), 400000);
    assert.equal(p.metrics[p.primaryMetric]!.name, 'samples', 'cycles are counts, not time');

    // srcline: the leaf's sampled line is a statement node; callers carry the line they called from.
    const loop = nodeAt(p, '__libc_start_call_main > main > kernel_loop');
    assert.equal(p.tree.file(loop), 'solver.c');
    assert.equal(p.tree.callLine(loop), 88);
    assert.equal(p.tree.module(loop), '/opt/solver');
    const line42 = nodeAt(p, '__libc_start_call_main > main > kernel_loop > solver.c:42');
    assert.equal(p.tree.line(line42), 42);
    assert.equal(excl(p, 'cycles', line42), 250000);
    assert.equal(p.tree.callLine(nodeAt(p, '__libc_start_call_main > main')), 74);

    // Kernel frames, demangled C++ and Rust names stay intact, `(deleted)` dsos keep their parentheses.
    const cpp = 'std::vector<double, std::allocator<double> >::push_back(double const&)';
    const kernel = nodeAt(p, `[unknown] > _RNvCs1234_6solver6worker > ${cpp} > [unknown] > clear_page_erms`);
    assert.equal(p.tree.module(kernel), '[kernel.kallsyms]');
    assert.equal(p.tree.module(nodeAt(p, '[unknown] > _RNvCs1234_6solver6worker')), '/opt/solver (deleted)');
    assert.equal(p.tree.module(nodeAt(p, '[unknown]')), null);
    assert.equal(excl(p, 'instructions', kernel), 400000);

    // Two threads of one process → two tracks and contexts, rank = pid; events in time order per track.
    const t = p.trace!;
    assert.deepEqual(
      t.tracks.map(k => [k.name, k.process, k.rank, k.thread]),
      [
        ['thread 100 (solver)', 'solver (pid 100)', 100, 100],
        ['thread 101 (solver worker)', 'solver worker (pid 100)', 100, 101],
      ],
    );
    assert.equal(p.contextCount, 2);
    assert.deepEqual(Array.from(t.events.start), [0, 1_000_000, 624_000, 8_624_000]);
    assert.ok(Array.from(t.events.kind).every(k => k === TraceEventKind.Sample));
    assert.equal(t.originNs, '4295521376000');
    assert.equal(t.events.node[0], line42);
    assert.equal(p.tree.strings.get(t.events.name[0]!), 'kernel_loop');
    assert.equal(p.tree.strings.get(t.events.category[2]!), 'instructions');
    assert.deepEqual(t.timeRange, [0, 8_624_000]);
  });

  it('reads samples without call chains, without times and with nanosecond times', async () => {
    const p = await read(
      'app 7 1.000000001: 10 cpu-clock:  4005d6 hot+0x6 (/bin/app)\napp 7 1.000000003: 10 cpu-clock:  4005d6 hot+0x6 (/bin/app)\n',
    );
    assert.deepEqual(paths(p), ['hot']);
    assert.equal(p.metrics[p.primaryMetric]!.name, 'cpu-clock');
    assert.equal(p.metrics[p.primaryMetric]!.unit, 'ns');
    assert.deepEqual(Array.from(p.trace!.events.start), [0, 2]);
    const q = await read('app 7 cycles: \n\t4005d6 hot (/bin/app)\n');
    assert.equal(q.trace, undefined);
    assert.equal(q.total(q.metricIndex('samples')), 1);
  });

  it('sniffs by content, reads gzip and rejects what is not perf script', async () => {
    const gz = write(gzipSync(FIXTURE), 'perf.out.gz');
    assert.ok(perfScriptReader.sniff(await sampleFile(gz)) >= 0.9);
    assert.equal((await readProfile(gz)).total(0) > 0, true);
    assert.equal(
      (await readProfile(write(FIXTURE.slice(FIXTURE.indexOf('solver  100')), 'x.json'))).format,
      'perf-script',
    );
    assert.equal(perfScriptReader.sniff(await sampleFile(write('a;b;c 12\n'))), 0);
    let p = write('\t  63c _Z4betav (/workdir/simple)\n');
    await expectReadError(perfScriptReader.read(p), p, /line 1: a stack frame outside a sample/);
    p = write('app 7 1.5: cycles:\n\t1 a (b)\n\nthis is not perf output\n');
    await expectReadError(perfScriptReader.read(p), p, /line 4: not a perf script sample header/);
    p = write('# ========\n# hostname : x\n# ========\n');
    await expectReadError(perfScriptReader.read(p), p, /no samples/);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(perfScriptReader.read(write(FIXTURE), { signal: ac.signal }), { name: 'AbortError' });
  });

  it('survives mutations: every damaged file is read or rejected cleanly', async () => {
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(Buffer.from(FIXTURE), { seed: 5 }))
      counts[await readOrReject(write(bytes), perfScriptReader, name)]++;
    assert.ok(counts.read > 0 && counts.rejected > 0, JSON.stringify(counts));
  });

  const perf = '/usr/bin/perf';
  const canRecord = (() => {
    if (!existsSync(perf)) return false;
    try {
      execFileSync(perf, ['record', '-q', '-o', join(dir, 'probe.data'), 'true'], { stdio: 'ignore', timeout: 20000 });
      return true;
    } catch {
      return false;
    }
  })();
  it(
    'reads the output of the real perf with -F +srcline on a tiny program',
    { skip: canRecord ? false : 'perf record does not work here' },
    async t => {
      const src = join(dir, 'tiny.c');
      writeFileSync(
        src,
        [
          'static volatile double s;',
          '__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) s += i * 0.5; }',
          'int main(void) { for (int k = 0; k < 300; k++) leaf(200000); return s < 0; }',
          // A unique binary: perf's build-id cache would otherwise mix it up with earlier runs' copies.
          `const char *tag = "${process.pid}-${Date.now()}";`,
        ].join('\n'),
      );
      const exe = join(dir, 'tiny');
      try {
        execFileSync('cc', ['-g', '-O1', '-fno-omit-frame-pointer', src, '-o', exe], { stdio: 'ignore' });
      } catch {
        t.skip('no C compiler');
        return;
      }
      const data = join(dir, 'tiny.data');
      execFileSync(perf, ['record', '-q', '-N', '-F', '2000', '-g', '-o', data, exe], {
        stdio: 'ignore',
        timeout: 60000,
      });
      const text = execFileSync(perf, ['script', '--header', '-F', '+pid,+srcline', '-i', data], {
        maxBuffer: 1 << 28,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString();
      const file = write(text, 'tiny.perf.txt');
      const p = await readProfile(file);
      assert.equal(p.format, 'perf-script');
      const headers = text.split('\n').filter(l => /^\S/.test(l) && !l.startsWith('#')).length;
      assert.equal(p.total(p.metricIndex('samples')), headers);
      assert.equal(p.trace!.events.track.length, headers);
      const leaf = Array.from({ length: p.tree.size }, (_, i) => i).filter(i => p.tree.name(i) === 'leaf');
      assert.ok(
        leaf.length > 0 && leaf.every(i => p.tree.file(i)?.endsWith('tiny.c')),
        `leaf() is in tiny.c: ${leaf.map(i => p.tree.file(i)).join(', ')}`,
      );
      assert.ok(!paths(p).some(x => x.includes('[kernel.kallsyms]][')), 'kernel srclines are no frames');
      const lines = Array.from({ length: p.tree.size }, (_, i) => i).filter(
        i => p.tree.kind(i) === 2 && p.tree.file(i)?.endsWith('tiny.c'),
      );
      assert.ok(
        lines.some(i => p.tree.line(i) === 2),
        'samples land on line 2',
      );
    },
  );
});

describe('perf script reader: shared data', () => {
  const folder = 'data/perf-script';
  it('reads every shared file with the counts of a direct scan', { skip: skipUnlessShared(folder) }, async () => {
    const files = sharedFiles(folder, '.txt');
    assert.ok(files.length >= 5);
    for (const f of files) {
      const path = sharedPath(folder, f);
      // An independent scan: header lines, periods per event, threads, and the leaf symbol of each sample.
      const text = readFileSync(path, 'utf8').split('\n');
      let samples = 0;
      const periods = new Map<string, number>();
      const threads = new Set<string>();
      const leafCounts = new Map<string, number>();
      for (let i = 0; i < text.length; i++) {
        const l = text[i]!;
        if (!l || l.startsWith('#') || /^\s/.test(l)) continue;
        samples++;
        const m = /\s(\d+)(?:\/(\d+))?\s.*?(?::\s+(\d+))? ([\w-]+)(?::\w+)?: *$/.exec(l)!;
        threads.add(`${m[1]}/${m[2] ?? m[1]}`);
        if (m[3]) periods.set(m[4]!, (periods.get(m[4]!) ?? 0) + Number(m[3]));
        const frame = text[i + 1]!.trim().split(' ').slice(1).join(' ');
        const sym = frame.slice(0, frame.lastIndexOf(' (')).replace(/\+0x[0-9a-f]+$/, '');
        leafCounts.set(sym, (leafCounts.get(sym) ?? 0) + 1);
      }
      const p = await readProfile(path);
      assert.equal(p.format, 'perf-script', f);
      assert.equal(p.total(p.metricIndex('samples')), samples, f);
      for (const [event, sum] of periods) assert.equal(p.total(p.metricIndex(event)), sum, `${f}: ${event}`);
      const t = p.trace!;
      assert.equal(t.tracks.length, threads.size, f);
      assert.equal(t.events.track.length, samples, f);
      const ex = p.exclusiveTotals(p.metricIndex('samples'));
      const byLeaf = new Map<string, number>();
      for (let i = 0; i < p.tree.size; i++)
        if (ex[i]) byLeaf.set(p.tree.name(i), (byLeaf.get(p.tree.name(i)) ?? 0) + ex[i]!);
      assert.deepEqual(byLeaf, leafCounts, f);
      const r = inspectReport(p);
      assert.equal(r.events, samples);
    }
  });
});
