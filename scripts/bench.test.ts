import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { goalTable } from './bench-goals';
import { readerTable } from './bench-readers';
import { benchDataMovement } from './bench-data-movement';
import { benchDmv } from './bench-dmv';
import { benchJsonTokenizer } from './bench-json-tokenizer';
import { benchLayout } from './bench-layout';
import { benchMemory } from './bench-memory';
import {
  cpuMs,
  formatBytes,
  formatMBs,
  formatMs,
  formatPaired,
  formatRatio,
  formatTiming,
  formatWallCpu,
  loadAverage,
  loadNote,
  median,
  paired,
  summarise,
  timeOnce,
  timeRepeated,
  timeSync,
} from './bench-timing';
import { benchXmlTokenizer } from './bench-xml-tokenizer';

const BENCH = resolve(__dirname, '..', 'dist', 'bench.js');
const skip = existsSync(BENCH) ? false : 'dist/bench.js is not built (node esbuild.mjs)';

describe('the bench bundle runs only the sections asked for', () => {
  it('--list prints the section names and nothing else: no bench runs at load', { skip }, () => {
    const r = spawnSync(process.execPath, [BENCH, '--list'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const names = r.stdout.trim().split('\n');
    for (const name of ['readers', 'throughput', 'first-open', 'super-graph', 'timeline', 'goals'])
      assert.ok(names.includes(name), `${name} is listed`);
    // Every line is a section name: a section that ran at load would have printed its figures.
    for (const line of names) assert.match(line, /^[a-z][a-z-]*$/, `only names: ${line}`);
  });

  it('an unknown section is an error naming it, before anything runs', { skip }, () => {
    const r = spawnSync(process.execPath, [BENCH, 'no-such-section'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /unknown bench section\(s\) no-such-section/);
  });

  it('the bundle holds no "run me when I am the main module" guards (they run inside a bundle)', { skip }, () => {
    assert.doesNotMatch(readFileSync(BENCH, 'utf8'), /require\.main\s*===?\s*module/);
  });
});

describe('goals table', () => {
  it('prints each row with ours, the baseline, the ratio and met / not met', () => {
    const table = goalTable([
      { goal: 'a', ours: '1 ms', baseline: 'Hatchet 30 ms', ratio: '30×', met: true },
      { goal: 'b', ours: '9 ms', baseline: 'budget 5 ms', ratio: '1.80× budget', met: false },
    ]).split('\n');
    assert.equal(table.length, 4);
    assert.equal(table[2], '| a | 1 ms | Hatchet 30 ms | 30× | met |');
    assert.equal(table[3], '| b | 9 ms | budget 5 ms | 1.80× budget | not met |');
  });
});

describe('reader table', () => {
  it('shows the CPU time of warm and first reads beside their wall times, one cell per column', () => {
    const [header, rule, row] = readerTable([
      {
        dataset: 'tau/x',
        format: 'tau-profile',
        bytes: 6000,
        nodes: 12,
        medianMs: 0.3,
        medianCpuMs: 0.25,
        coldMs: 7.1,
        coldCpuMs: 5.2,
        plainParseMs: null,
        hatchetMs: 6.1,
      },
    ]).split('\n');
    const cells = (line: string) => line.split('|').length;
    assert.equal(cells(row!), cells(header!));
    assert.equal(cells(rule!), cells(header!));
    assert.match(header!, /\| cold \(ms\) \| cold CPU \(ms\) \| Hatchet \(ms\) \|/);
    assert.match(row!, /\| 7\.1 \| 5\.2 \| 6\.1 \|/);
    assert.match(header!, /\| warm \(ms\) \| warm CPU \(ms\) \| MB\/s warm \|/);
    assert.match(row!, /\| 0\.30 \| 0\.25 \| 20\.0 \|/);
  });
});

describe('bench timing', () => {
  it('takes the middle value, the upper middle for an even count, without reordering its input', () => {
    const xs = [5, 1, 4, 2, 3];
    assert.equal(median(xs), 3);
    assert.deepEqual(xs, [5, 1, 4, 2, 3]);
    assert.equal(median([4, 1, 3, 2]), 3);
    assert.equal(median([7]), 7);
  });

  it('summarises runs: medians of wall and CPU apart, their extremes, the runs in order', () => {
    const runs = [
      { wallMs: 30, cpuMs: 5 },
      { wallMs: 10, cpuMs: 9 },
      { wallMs: 20, cpuMs: 7 },
    ];
    const r = summarise(runs);
    assert.equal(r.wallMs, 20);
    assert.equal(r.cpuMs, 7);
    assert.deepEqual(r.min, { wallMs: 10, cpuMs: 5 });
    assert.deepEqual(r.max, { wallMs: 30, cpuMs: 9 });
    assert.deepEqual(r.runs, runs);
    assert.throws(() => summarise([]), /no runs/);
  });

  it('measures CPU time beside wall time, and returns what the call returned', async () => {
    const busy = timeSync(() => {
      let x = 0;
      for (let i = 0; i < 2e6; i++) x += Math.sqrt(i);
      return x;
    });
    assert.ok(busy.value > 0);
    assert.ok(busy.cpuMs > 0, `CPU time measured: ${busy.cpuMs}`);
    assert.ok(busy.wallMs > 0);
    const c = cpuMs();
    assert.ok(c >= busy.cpuMs, 'the process has spent at least that much CPU');
    // An awaited call is timed to its end: a 20 ms timer cannot resolve sooner.
    const slept = await timeOnce(() => new Promise<string>(done => setTimeout(() => done('late'), 20)));
    assert.equal(slept.value, 'late');
    assert.ok(slept.wallMs >= 19, `the wait is in the wall time: ${slept.wallMs}`);
  });

  it('repeats after warm-ups, and stops on a budget only after the minimum of runs', async () => {
    let calls = 0;
    const r = await timeRepeated(() => calls++, { repeats: 4, warmup: 2 });
    assert.equal(calls, 6);
    assert.equal(r.runs.length, 4);
    calls = 0;
    const budgeted = await timeRepeated(
      () => {
        calls++;
        const until = performance.now() + 2;
        while (performance.now() < until);
      },
      { repeats: 50, warmup: 0, budgetMs: 0, minRepeats: 3 },
    );
    assert.equal(budgeted.runs.length, 3);
    assert.equal(calls, 3);
  });

  it('pairs ours with the baseline, alternating which goes first, warm-up rounds not counted', async () => {
    const order: string[] = [];
    const t = await paired(
      { ours: () => order.push('ours'), baseline: () => order.push('baseline') },
      { repeats: 3, warmup: 1 },
    );
    assert.deepEqual(order, ['ours', 'baseline', 'baseline', 'ours', 'ours', 'baseline', 'baseline', 'ours']);
    assert.equal(t.repeats, 3);
    for (const side of [t.ours, t.baseline]) assert.ok(side.wallMs >= 0 && side.cpuMs >= 0);
  });

  it('formats milliseconds, CPU beside wall, ratios, throughput and bytes', () => {
    assert.equal(formatMs(12.345), '12 ms');
    assert.equal(formatMs(1.234), '1.2 ms');
    assert.equal(formatMs(1.234, { digits: 2, width: 9 }), '  1.23 ms');
    assert.equal(formatMs(1234, { seconds: 1000 }), '1.23 s');
    assert.equal(formatMs(999, { seconds: 1000, digits: 1 }), '999.0 ms');
    assert.equal(formatTiming({ wallMs: 85.2, cpuMs: 6.21 }), '85 ms (CPU 6.2 ms)');
    assert.equal(formatTiming({ wallMs: 2500, cpuMs: 1200 }, { seconds: 1000 }), '2.50 s (CPU 1.20 s)');
    assert.equal(formatWallCpu({ wallMs: 85.2, cpuMs: 62.1 }), '    85 ms wall     62 ms CPU');
    assert.equal(formatRatio(3.456), '3.5×');
    assert.equal(formatRatio(12.3), '12×');
    assert.equal(formatRatio(0.456, 2), '0.46×');
    assert.equal(formatMBs(50e6, 500), '100.0 MB/s');
    assert.equal(formatBytes(3 * 2 ** 20, 'MiB'), '3.0 MiB');
    assert.equal(formatBytes(2.5e9, 'GB', 2), '2.50 GB');
    const line = formatPaired('x', 10, {
      ours: { wallMs: 50, cpuMs: 40 },
      baseline: { wallMs: 100, cpuMs: 60 },
      repeats: 5,
    });
    assert.match(
      line,
      /ours +50 ms \(cpu +40 ms\) +JSON\.parse +100 ms \(cpu +60 ms\) +ratio 2\.00× wall, 1\.50× cpu$/,
    );
  });

  it('reports the load average and the cores', () => {
    const l = loadAverage();
    assert.ok(l.cores >= 1);
    for (const v of [l.one, l.five, l.fifteen]) assert.ok(Number.isFinite(v) && v >= 0);
    assert.match(loadNote(), /^load average \d+\.\d\d \d+\.\d\d \d+\.\d\d on \d+ cores$/);
  });
});

/** Runs `f` with console.log captured; returns the printed lines. */
async function printed(f: () => Promise<void> | void): Promise<string[]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(...args.map(String).join(' ').split('\n'));
  try {
    await f();
  } finally {
    console.log = log;
  }
  return lines;
}

describe('bench sections', () => {
  it('importing the dispatcher runs nothing; every registered section is a function', async () => {
    let sections: Record<string, unknown> = {};
    const lines = await printed(async () => {
      sections = (await import('./bench')).SECTIONS;
    });
    assert.deepEqual(lines, []);
    const names = Object.keys(sections);
    assert.ok(names.length >= 25, `${names.length} sections`);
    for (const name of names) assert.equal(typeof sections[name], 'function', name);
    for (const name of ['json-tokenizer', 'xml-tokenizer', 'layout', 'dmv', 'memory']) assert.ok(names.includes(name));
  });

  it('the bundle lists exactly the sections bench.ts registers', { skip }, async () => {
    const r = spawnSync(process.execPath, [BENCH, '--list'], { encoding: 'utf8' });
    const { SECTIONS } = await import('./bench');
    assert.deepEqual(r.stdout.trim().split('\n'), Object.keys(SECTIONS));
  });

  // Tiny sizes: that each section runs through the timing module and prints CPU beside every time.
  const tiny: [string, () => Promise<void>][] = [
    ['layout', () => benchLayout([30])],
    ['data-movement', () => benchDataMovement(2000, 20)],
    ['dmv', () => benchDmv(3000, 5)],
    ['memory', () => benchMemory(2000, 0)],
    ['json-tokenizer', () => benchJsonTokenizer(0.1, 1)],
    ['xml-tokenizer', () => benchXmlTokenizer({ mb: 0.1, runs: 1, reads: 1, osuRuns: 1 })],
  ];
  for (const [name, run] of tiny)
    it(`${name} runs at a tiny size and prints CPU time beside each time`, async () => {
      const lines = await printed(run);
      const timed = lines.filter(l => /\d ms\b/.test(l));
      assert.ok(timed.length > 0, lines.join('\n'));
      for (const l of timed) assert.match(l, /CPU/, l);
    });
});
