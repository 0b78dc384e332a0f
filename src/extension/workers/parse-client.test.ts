import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { profileFromOutline } from '../../analysis/model/test-profiles';
import { AnalysisWorker, ParseCancelled } from './parse-client';
import { lineCosts } from '../../analysis/model/aggregates';
import { deriveData, derivedBuffers, unpackLines } from './derived-data';

/** JavaScript source that rebuilds `v` (typed arrays included), to embed a profile in a stand-in worker. */
function toJs(v: unknown): string {
  if (ArrayBuffer.isView(v))
    return `new ${v.constructor.name}([${Array.from(v as unknown as ArrayLike<number>).join(',')}])`;
  if (Array.isArray(v)) return `[${v.map(toJs).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJs(x)}`)
      .join(',')}}`;
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

/**
 * A stand-in worker speaking the protocol of parse-worker.ts, so the client's own logic (ids,
 * cancellation, restart) is tested with a real worker thread: `slow` paths answer after 300 ms and
 * honour cancel, `stuck` paths ignore it, `crash` paths kill the worker, others answer at once.
 */
function standInWorker(dir: string): string {
  const data = profileFromOutline('main 1\n  solve 5\n    kernel 3\n', 2).toTransferable().data;
  const script = join(dir, 'stand-in-worker.js');
  writeFileSync(
    script,
    `
const { parentPort } = require('node:worker_threads');
const data = ${toJs(data)};
const running = new Map();
let next = 1;
parentPort.on('message', req => {
  const done = result => parentPort.postMessage({ id: req.id, type: 'done', result });
  if (req.type === 'cancel') { const t = running.get(req.target); if (t) { clearTimeout(t); running.delete(req.target); parentPort.postMessage({ id: req.target, type: 'error', name: 'AbortError', message: 'aborted' }); } return done(null); }
  if (req.type === 'parse') {
    if (req.path === 'crash') process.exit(3);
    if (req.path === 'stuck') { const end = Date.now() + 2000; while (Date.now() < end); return; }
    if (req.path === 'bad') return parentPort.postMessage({ id: req.id, type: 'error', name: 'ProfileReadError', message: 'bad: not a profile' });
    parentPort.postMessage({ id: req.id, type: 'progress', fraction: 0.5, message: 'half' });
    const answer = () => { running.delete(req.id); done({ dataset: next++, data: { ...data, path: req.path } }); };
    if (req.path === 'slow') running.set(req.id, setTimeout(answer, 300)); else answer();
    return;
  }
  done({ echo: req.type, id: req.id });
});
`,
  );
  return script;
}

describe('AnalysisWorker (client side of the persistent analysis worker)', () => {
  let dir: string;
  let script: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-client-'));
    script = standInWorker(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reuses one worker for many parses, matching answers to requests by id', async () => {
    const w = new AnalysisWorker({ workerScript: script });
    try {
      const progress: number[] = [];
      const [a, b, c] = await Promise.all(
        ['one', 'slow', 'two'].map(p => w.parse(p, { onProgress: f => progress.push(f) })),
      );
      assert.deepEqual([a!.path, b!.path, c!.path], ['one', 'slow', 'two']);
      assert.equal(a!.tree.size, 3);
      assert.deepEqual(progress, [0.5, 0.5, 0.5]);
      assert.equal(w.starts, 1);
    } finally {
      w.dispose();
    }
  });

  it("passes the worker's error through with its name and message", async () => {
    const w = new AnalysisWorker({ workerScript: script });
    try {
      await assert.rejects(
        w.parse('bad'),
        (e: Error) => e.name === 'ProfileReadError' && e.message === 'bad: not a profile',
      );
      assert.equal((await w.parse('ok')).path, 'ok');
      assert.equal(w.starts, 1);
    } finally {
      w.dispose();
    }
  });

  it('cancels a parse inside the worker without restarting it', async () => {
    const w = new AnalysisWorker({ workerScript: script });
    try {
      const abort = new AbortController();
      const p = w.parse('slow', { signal: abort.signal });
      setTimeout(() => abort.abort(), 50);
      await assert.rejects(p, ParseCancelled);
      assert.equal((await w.parse('after')).path, 'after');
      assert.equal(w.starts, 1);
    } finally {
      w.dispose();
    }
  });

  it('restarts the worker when a cancelled parse does not stop within the grace period', async () => {
    const log: string[] = [];
    const w = new AnalysisWorker({ workerScript: script, cancelGraceMs: 200, log: m => log.push(m) });
    try {
      const abort = new AbortController();
      const p = w.parse('stuck', { signal: abort.signal });
      setTimeout(() => abort.abort(), 50);
      const t = performance.now();
      await assert.rejects(p, ParseCancelled);
      assert.ok(performance.now() - t < 150, 'the caller learns of the cancellation at once');
      await new Promise(r => setTimeout(r, 400));
      assert.match(log.join('\n'), /did not stop within 200 ms; restarting/);
      assert.equal((await w.parse('next')).path, 'next');
      assert.equal(w.starts, 2);
    } finally {
      w.dispose();
    }
  });

  it('fails the pending requests of a crashed worker with a clear error and starts a new one on next use', async () => {
    const w = new AnalysisWorker({ workerScript: script });
    try {
      await assert.rejects(w.parse('crash'), /crash: the analysis worker stopped unexpectedly \(exit code 3\)/);
      assert.equal((await w.parse('again')).path, 'again');
      assert.equal(w.starts, 2);
    } finally {
      w.dispose();
    }
  });

  it('rejects requests after dispose', async () => {
    const w = new AnalysisWorker({ workerScript: script });
    w.dispose();
    await assert.rejects(w.parse('x'), /shut down/);
  });
});

describe('deriveData (what the worker answers per dataset and metric)', () => {
  it('packs line costs and file functions that unpack to the same values as the model', () => {
    const p = profileFromOutline(
      'main a.c:1 = 1 1\n  solve a.c:10 = 5 1\n    kernel b.c:20 = 3 9\n  solve a.c:12 = 2 2\n',
      2,
    );
    const d = deriveData(p, 0, { hotPathThreshold: 0.05, listLength: 10 });
    assert.equal(d.total, 24);
    assert.deepEqual(d.functions.names, ['main', 'solve', 'kernel']);
    const expected = lineCosts(p, 0);
    assert.deepEqual(d.lines.files, [...expected.keys()]);
    d.lines.files.forEach((f, k) => assert.deepEqual(unpackLines(d.lines, k), expected.get(f)));
    assert.equal(d.hottestLine, 12);
    // Functions per file with the smallest line seen: solve at a.c:10, not 12.
    const a = d.fileFunctions.files.indexOf('a.c');
    const inA = [...d.fileFunctions.fn.subarray(d.fileFunctions.start[a]!, d.fileFunctions.start[a + 1]!)].map(
      (f, j) => [d.functions.names[f], d.fileFunctions.near[d.fileFunctions.start[a]! + j]],
    );
    assert.deepEqual(inA, [
      ['main', 1],
      ['solve', 10],
    ]);
    assert.deepEqual(
      d.sideBar.topFunctions.map(e => e.name),
      ['kernel', 'solve', 'main'],
    );
    assert.equal(d.sideBar.imbalance[0]?.name, 'kernel');
  });

  it("answers the per-node totals the host adopts, and keeps them out of the transfer list (they are the profile's cache)", () => {
    const outline = 'main a.c:1 = 1 1\n  solve a.c:10 = 5 1\n    kernel b.c:20 = 3 9\n';
    const p = profileFromOutline(outline, 2);
    const d = deriveData(p, 0, { hotPathThreshold: 0.05, listLength: 10 });
    assert.deepEqual([...d.nodeTotals.inclusive], [20, 18, 12]);
    assert.deepEqual([...d.nodeTotals.exclusive], [2, 6, 12]);
    const buffers = derivedBuffers(d);
    assert.ok(
      !buffers.includes(d.nodeTotals.inclusive.buffer as ArrayBuffer) &&
        !buffers.includes(d.nodeTotals.exclusive.buffer as ArrayBuffer),
    );
    assert.ok(buffers.includes(d.functions.exclusive.buffer as ArrayBuffer), 'the rest is still transferred');
    // A second model over the same data adopts them: the same arrays, no pass of its own.
    const host = profileFromOutline(outline, 2);
    host.adoptTotals(0, d.nodeTotals);
    assert.equal(host.inclusiveTotals(0), d.nodeTotals.inclusive);
    assert.equal(host.exclusiveTotals(0), d.nodeTotals.exclusive);
    assert.equal(host.total(0), 20);
    assert.throws(
      () => host.adoptTotals(0, { inclusive: new Float64Array(2), exclusive: new Float64Array(3) }),
      /2 per-node totals for 3 nodes/,
    );
    assert.throws(() => host.adoptTotals(5, d.nodeTotals), /metric 5 out of range/);
  });
});
