import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { goalTable } from './bench-goals';
import { readerTable } from './bench-readers';

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
