import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeScaledRuns } from '../../test/support/scaled-runs';
import { bundleNodeScript } from '../../test/support/node-bundle';
import { callflowGraph, unpackCallflowData } from '../shared/callflow-packing';
import { ensembleGraph } from '../shared/ensemble-packing';
import { CancelledError, WorkerLimitError, WorkerPool } from './worker-pool';

/** An opened dataset of the test system (registered at run time, so not in the service's types). */
interface LooseOpened {
  dataset: number;
  system?: string;
  opened?: unknown;
  profile?: unknown;
}
const ROOT = resolve(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
const CALLGRIND = join(ROOT, 'samples/heat-stencil/profiles/callgrind.out.heat-stencil-4ranks');

let workerScript = '';

/** The pool over the TypeScript worker entry (each worker registers tsx, then loads it). */
function pool(options: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}): WorkerPool {
  return new WorkerPool({ workerScript, ...options });
}

/** A folded-stacks file big enough that reading it takes a while (distinct stacks, so nothing collapses). */
function writeBigFolded(path: string, lines: number): void {
  const fd = openSync(path, 'w');
  let chunk = '';
  for (let i = 0; i < lines; i++) {
    chunk += `main;solve_${i % 997};kernel_${i % 7919};leaf_${i} ${1 + (i % 13)}\n`;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

describe('WorkerPool (the analysis service in worker threads)', () => {
  let dir: string;
  let big: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pool-'));
    workerScript = join(dir, 'worker.js');
    // Bundled (the format registry's import() has no loader under tsx's CommonJS hook in a worker thread).
    bundleNodeScript(
      [
        // The test system (systems/testing/outline-system.ts) is registered in every worker of these tests.
        `require(${JSON.stringify(join(__dirname, 'systems/testing/outline-system.ts'))}).registerOutlineSystem();`,
        `require(${JSON.stringify(join(__dirname, 'analysis-worker.ts'))});`,
      ],
      workerScript,
      __dirname,
    );
    big = join(dir, 'big.folded');
    writeBigFolded(big, 600_000);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads in a job worker, keeps the dataset in a home worker, answers its queries, and frees it on close', async () => {
    const p = pool();
    try {
      const progress: number[] = [];
      const a = await p.open({ path: SAMPLE }, { onProgress: f => progress.push(f) });
      const b = await p.open({ path: CALLGRIND });
      assert.ok(a.data.tree.parent.buffer instanceof SharedArrayBuffer, 'the model is shared, not copied');
      assert.ok(progress.length > 0);
      assert.notEqual(p.homeOf(a.dataset), p.homeOf(b.dataset), 'two datasets get two homes');
      const d = await p.derive({ dataset: a.dataset, metric: 1 });
      const lists = await p.sideBar({
        dataset: a.dataset,
        metric: 1,
        options: { hotPathThreshold: 0.05, listLength: 10 },
      });
      assert.ok(d.total > 0 && lists.topLines.length > 0);
      const sankey = await p.superGraph({ dataset: a.dataset, title: 'a', options: { metric: 1 } });
      // Packed: one ArrayBuffer moved from the worker (not shared memory, not a clone of per-node objects).
      assert.ok(sankey.buffer instanceof ArrayBuffer && sankey.buffer.byteLength > 0);
      assert.ok(callflowGraph(sankey).nodeCount > 1);
      assert.deepEqual(
        unpackCallflowData(await p.superGraph({ dataset: a.dataset, title: 'a', options: { metric: 1 } })),
        unpackCallflowData(sankey),
        'the worker packs each answer afresh: asking again (after the first buffer was transferred) gives the same graph',
      );
      // A selection asks about the graph on screen: answered from the cached graph.
      const ids = await p.superGraphQuery({
        dataset: a.dataset,
        query: { kind: 'nodeIds', options: { metric: 1 }, nodes: [1] },
      });
      assert.ok(Array.isArray(ids));
      await p.close({ dataset: a.dataset });
      await assert.rejects(p.derive({ dataset: a.dataset, metric: 1 }), /not loaded/);
      assert.ok(
        (await p.sideBar({ dataset: b.dataset, metric: 0, options: { hotPathThreshold: 0.05, listLength: 5 } }))
          .topFunctions.length > 0,
      );
    } finally {
      p.dispose();
    }
  });

  it("passes a reader's error through with its name and message, and goes on with the next read", async () => {
    const p = pool();
    const bad = join(dir, 'cut.json');
    writeFileSync(bad, '{"data": [[1, 2');
    try {
      await assert.rejects(
        p.open({ path: bad }),
        (e: Error) => e.name === 'ProfileReadError' && e.message.startsWith(`${bad}: `),
      );
      assert.ok((await p.open({ path: CALLGRIND })).data.tree.parent.length > 0);
    } finally {
      p.dispose();
    }
  });

  it('a second read finishes in its own time while a big one runs, and cancelling the big one fails nothing else', async () => {
    const p = pool();
    try {
      const held = await p.open({ path: SAMPLE });
      const abort = new AbortController();
      const slow = p.open({ path: big }, { signal: abort.signal });
      const fast = await p.open({ path: CALLGRIND });
      assert.ok(fast.data.tree.parent.length > 0, 'the small read did not wait for the big one');
      assert.equal(p.activeReads, 1, 'the big read is still running');
      // A query on another dataset meanwhile.
      const q = p.derive({ dataset: held.dataset, metric: 1 });
      abort.abort();
      await assert.rejects(slow, (e: Error) => e instanceof CancelledError);
      assert.ok((await q).total > 0, 'the query was not failed by the cancel');
      assert.equal(p.activeReads, 0, 'the cancelled read’s worker is gone');
      assert.ok((await p.derive({ dataset: fast.dataset, metric: 0 })).total > 0);
    } finally {
      p.dispose();
    }
  });

  it('stops a read at its time limit and at its memory limit, saying which', async () => {
    const timed = pool({ readTimeoutMs: 50 });
    try {
      await assert.rejects(
        timed.open({ path: big }),
        (e: Error) => e instanceof WorkerLimitError && e.limit === 'time' && /longer than/.test(e.message),
      );
    } finally {
      timed.dispose();
    }
    const small = pool({ memoryLimitMb: 48 });
    try {
      await assert.rejects(
        small.open({ path: big }),
        (e: Error) => e instanceof WorkerLimitError && e.limit === 'memory' && /48 MB/.test(e.message),
      );
    } finally {
      small.dispose();
    }
  });

  it('adopts a dataset again when its home worker died, so later requests succeed', async () => {
    const p = pool({ workers: 1 });
    try {
      const a = await p.open({ path: SAMPLE });
      const before = await p.superGraph({ dataset: a.dataset, title: 'a', options: { metric: 1 } });
      // Kill the home as a crash would (no product path terminates a home worker).
      (p as unknown as { homes: { stop(e: Error): void }[] }).homes[0]!.stop(new Error('simulated crash'));
      const again = await p.superGraph({ dataset: a.dataset, title: 'a', options: { metric: 1 } });
      assert.deepEqual(
        unpackCallflowData(again).nodes.map(n => n.id),
        unpackCallflowData(before).nodes.map(n => n.id),
      );
    } finally {
      p.dispose();
    }
  });

  it('opens an ensemble (scan, reads and union off the host) and compares datasets held by different homes', async () => {
    const p = pool();
    const runs = join(dir, 'runs');
    writeScaledRuns(SAMPLE, runs, { a_1: 1, b_2: 1.5, c_3: 2 });
    try {
      const e = await p.openEnsemble({ paths: [runs] });
      assert.deepEqual(
        e.runs.map(r => r.name),
        ['a_1', 'b_2', 'c_3'],
      );
      assert.equal(e.data.contexts.length, 3, 'the union profile’s contexts are the runs');
      assert.equal(p.homeOf(e.dataset), -1, 'an ensemble stays in the worker that read its runs');
      const metric = e.data.metrics[e.data.primaryMetric]!.name;
      const view = await p.ensembleView({ dataset: e.dataset, request: null, metric, title: 'runs', moduleMap: [] });
      assert.ok(view.graph && ensembleGraph(view.graph.data).nodeCount > 0, 'the graph crosses packed');
      const target = await p.ensembleView({
        dataset: e.dataset,
        request: { type: 'ensemble/mode', mode: 'target' },
        metric,
        title: 'runs',
        moduleMap: [],
      });
      assert.equal(target.state.target, 2, 'the slowest run is the default target');
      const x = await p.open({ path: join(runs, 'a_1.json') });
      const y = await p.open({ path: join(runs, 'c_3.json') });
      assert.notEqual(p.homeOf(x.dataset), p.homeOf(y.dataset));
      const d = await p.diff({ baseline: x.dataset, comparison: y.dataset, metric: 'time' });
      assert.ok(Math.abs(d.comparisonTotal / d.baselineTotal - 2) < 1e-9);
      // A comparison with the ensemble's union adopts the union's model in the profile's home.
      const u = await p.diff({ baseline: e.dataset, comparison: y.dataset, metric: 'time' });
      assert.ok(u.baselineTotal > 0);
    } finally {
      p.dispose();
    }
  });
  it('a system dataset lives in the worker that read it: requests, events, a crash reopens it, close ends the worker', async () => {
    const p = pool({ workers: 1 });
    const file = join(dir, 'run.outline');
    writeFileSync(file, 'main a.c:1 = 1\n  solve a.c:5 = 4\n');
    const ask = (dataset: number, request: unknown) =>
      p.systemRequest({ dataset, system: 'outline' as never, request: request as never }) as Promise<unknown>;
    try {
      const profile = await p.open({ path: SAMPLE });
      const opened = (await p.open({ path: file })) as unknown as LooseOpened;
      assert.equal(opened.system, 'outline');
      assert.equal(p.homeOf(opened.dataset), -1, 'not in a home worker');
      const own = await ask(opened.dataset, { kind: 'threadId' });
      const d = await p.derive({
        dataset: opened.dataset,
        metric: 0,
      });
      assert.equal(d.total, 5, 'its editor profile is answered by its own worker');
      const events: unknown[] = [];
      p.onSystemEvent(opened.dataset, e => events.push(e));
      assert.equal(await ask(opened.dataset, { kind: 'tick', count: 3 }), 3);
      assert.deepEqual(events, [{ tick: 0 }, { tick: 1 }, { tick: 2 }], 'events arrive before the answer');
      // A comparison across workers adopts the system dataset's editor profile in the profile's home.
      const diff = await p.diff({ baseline: opened.dataset, comparison: profile.dataset, metric: 'time' });
      assert.ok(diff, 'the comparison ran');
      await assert.rejects(ask(opened.dataset, { kind: 'crash' }), /stopped|crashed/);
      assert.deepEqual(await ask(opened.dataset, { kind: 'lines' }), ['main a.c:1 = 1', '  solve a.c:5 = 4']);
      assert.notEqual(await ask(opened.dataset, { kind: 'threadId' }), own, 'opened again in a new worker');
      const started = p.started;
      await p.close({ dataset: opened.dataset });
      await assert.rejects(ask(opened.dataset, { kind: 'lines' }), /not loaded/);
      assert.equal(p.started, started, 'closing starts nothing');
      const byArgs = (await p.openSystem({
        system: 'outline' as never,
        args: { text: 'main = 2\n' } as never,
      })) as unknown as LooseOpened;
      assert.deepEqual(byArgs.opened, { lines: 1 });
      assert.deepEqual(await ask(byArgs.dataset, { kind: 'lines' }), ['main = 2']);
    } finally {
      p.dispose();
    }
  });
});
