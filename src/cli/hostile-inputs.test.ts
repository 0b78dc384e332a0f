/**
 * Hostile files through `hpc-lens inspect --json` in a child process: each must end in one clean
 * line (a report, or an error naming the file and the reason) within 30 s of CPU and 2 GB of
 * memory. The inputs are made here, on the fly, in a temporary directory; the gigabyte bombs are
 * written as a stream of small gzip members, so neither the test nor its files are large.
 */
import assert from 'node:assert/strict';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildCli, runInspect, type CaseResult, type RunLimits } from '../../scripts/fuzz/run-case';
import { writeDatabase } from '../analysis/formats/hpctoolkit-metadb/test-db-writer';
import {
  writeEscapeGprof,
  writeHugeCountsFolded,
  writeLongLineFolded,
} from '../analysis/formats/testing/hostile-files';
import { writeFixtureDatabase } from '../analysis/formats/hpctoolkit-xml/test-database';

const LIMITS: RunLimits = { cpuSeconds: 30, rssBytes: 2e9, wallSeconds: 120 };
const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-hostile-'));
let cli = '';

/** Runs the CLI on `path`; the verdict must be `expected`, and the CPU time and memory are reported. */
async function inspect(t: TestContext, path: string, expected: 'read' | 'rejected'): Promise<CaseResult> {
  const r = await runInspect(cli, path, LIMITS);
  t.diagnostic(
    `${r.verdict} in ${r.cpuSeconds.toFixed(2)} s CPU, ${Math.round(r.rssBytes / 1e6)} MB: ${r.detail.slice(0, 160)}`,
  );
  assert.equal(r.verdict, expected, r.detail);
  return r;
}

/** Writes `head`, then `bytes` of `fill`, then `tail`, as a gzip file of independent members of 1 MiB each. */
async function gzipBomb(path: string, head: string, bytes: number, fill: string, tail: string): Promise<void> {
  const out = createWriteStream(path);
  const block = gzipSync(Buffer.alloc(1 << 20, fill));
  const write = (b: Buffer) => new Promise<void>(resolve => (out.write(b) ? resolve() : out.once('drain', resolve)));
  await write(gzipSync(head));
  for (let n = 0; n < bytes; n += 1 << 20) await write(block);
  await write(gzipSync(tail));
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

describe('hostile inputs through hpc-lens inspect', () => {
  before(async () => {
    cli = await buildCli(join(tmp, 'bin'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('a database file replaced by a directory (EISDIR)', async t => {
    const dir = join(tmp, 'metadb');
    writeDatabase(dir, {
      functions: [{ name: 'main' }],
      entries: [{ id: 1, kind: 1, children: [{ id: 2, type: 'function', function: 0, self: { 0: 1 } }] }],
      profiles: [[['RANK', 0]]],
    });
    rmSync(join(dir, 'profile.db'));
    mkdirSync(join(dir, 'profile.db'));
    const r = await inspect(t, dir, 'rejected');
    assert.equal(r.detail, `${dir}/profile.db: is a directory, where a file was expected`);
  });

  it('a metric-db file that is a symbolic link loop (ELOOP)', async t => {
    const dir = writeFixtureDatabase(join(tmp, 'xmldb'), {
      program: 'p',
      contexts: [[0, 0]],
      roots: [{ tag: 'PF', proc: 'main', file: 'a.c', line: 1, children: [{ tag: 'S', line: 2, cost: [5] }] }],
    });
    const db = join(
      dir,
      readdirSync(dir).find(n => n.endsWith('.metric-db'))!,
    );
    rmSync(db);
    symlinkSync(db, db);
    const r = await inspect(t, dir, 'rejected');
    assert.equal(r.detail, `${db}: is a symbolic link loop`);
  });

  it('100,000 nested arrays in a metadata value (Caliper json-split)', async t => {
    const path = join(tmp, 'deep-metadata.json');
    const deep = '['.repeat(100_000) + '1' + ']'.repeat(100_000);
    writeFileSync(
      path,
      `{"data":[[1.5,0,0]],"columns":["sum#time.duration","mpi.rank","path"],` +
        `"column_metadata":[{"is_value":true},{"is_value":false},{"is_value":false}],` +
        `"nodes":[{"label":"main","column":"path"}],"deep":${deep}}`,
    );
    const r = await runInspect(cli, path, LIMITS);
    t.diagnostic(`${r.verdict} in ${r.cpuSeconds.toFixed(2)} s CPU, ${Math.round(r.rssBytes / 1e6)} MB`);
    assert.equal(r.verdict, 'read', r.detail);
  });

  it('a 1 GiB gzip bomb of one callgrind line', async t => {
    const path = join(tmp, 'callgrind.out.bomb');
    await gzipBomb(path, '# callgrind format\nversion: 1\nevents: Ir\nfn=main\n', 1 << 30, 'a', ' 1\n');
    const r = await inspect(t, path, 'rejected');
    assert.match(
      r.detail,
      /: line 5 is longer than 16 MiB, the longest line HPC Lens reads \(the limit maxLineLength\)$/,
    );
  });

  it('a 1 GiB gzip bomb of one folded stack', async t => {
    const path = join(tmp, 'bomb.folded.gz');
    await gzipBomb(path, 'main;solve;', 1 << 30, 'f', ' 1\n');
    const r = await inspect(t, path, 'rejected');
    assert.match(r.detail, /: line 1 is longer than 16 MiB/);
  });

  it('a 128 MB line', async t => {
    const path = await writeLongLineFolded(tmp, 128);
    const r = await inspect(t, path, 'rejected');
    assert.equal(
      r.detail,
      `${path}: line 1 is longer than 16 MiB, the longest line HPC Lens reads (the limit maxLineLength)`,
    );
  });

  it('40,000 nested begin events whose ends name other events (Chrome trace)', async t => {
    const n = 40_000;
    const events: string[] = [];
    for (let i = 0; i < n; i++) events.push(`{"name":"f${i}","ph":"B","ts":${i},"pid":1,"tid":1}`);
    for (let i = n - 1; i >= 0; i--) events.push(`{"name":"g${i}","ph":"E","ts":${2 * n - i},"pid":1,"tid":1}`);
    const path = join(tmp, 'mismatched.json');
    writeFileSync(path, `{"traceEvents":[${events.join(',')}]}`);
    await inspect(t, path, 'read');
  });

  it('counts of 1e308 (folded stacks)', async t => {
    const path = writeHugeCountsFolded(tmp);
    const r = await inspect(t, path, 'rejected');
    assert.match(r.detail, /: the exclusive values of metric "samples" add up beyond 1\.8e308/);
  });

  it('ESC bytes in a gprof line are escaped, not sent to the terminal', async t => {
    const path = writeEscapeGprof(tmp);
    const r = await inspect(t, path, 'rejected');
    assert.ok(r.detail.includes('\\x1b]0;owned\\x07\\x1b[2J'), r.detail);
    assert.ok(r.detail.length < 400, 'the quoted line is cut');
  });

  it('a stack of 100,000 frames (folded stacks) is read', async t => {
    const path = join(tmp, 'deep.folded');
    writeFileSync(path, Array.from({ length: 100_000 }, (_, i) => `f${i}`).join(';') + ' 1\n');
    await inspect(t, path, 'read');
  });

  it('a 2 MiB function name over 100 callees (callgrind; fuzz seed 2 #603) prints a bounded report', async t => {
    // Every callee's path repeats the caller's name: 200 MiB of paths once made printing the JSON fail.
    const path = join(tmp, 'long-name.callgrind');
    const caller = 'fn'.repeat(1 << 20);
    const calls = Array.from({ length: 100 }, (_, k) => `cfn=callee${k}\ncalls=1 1\n1 ${k + 1}\n`).join('');
    const callees = Array.from({ length: 100 }, (_, k) => `fn=callee${k}\n1 ${k + 1}\n`).join('');
    writeFileSync(
      path,
      `# callgrind format\nversion: 1\ncreator: callgrind-3.22.0\npositions: line\nevents: Ir\nfn=${caller}\n1 1\n${calls}${callees}totals: 5051\n`,
    );
    const r = await inspect(t, path, 'read');
    assert.ok(r.rssBytes < 1e9, `${Math.round(r.rssBytes / 1e6)} MB`);
  });
});
