import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { generateRossRun } from '../../testing/ross-generator';
import type { FromMonitor } from '../monitor-protocol';

const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-worker-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('monitor session in a worker thread', () => {
  it('posts every tick of a replay as plain data, typed arrays included', async () => {
    const truth = generateRossRun(dir, { seed: 3, pes: 2, kpsPerPe: 4, ticks: 12, eventsPerKp: 5, surge: null });
    // The test runs from TypeScript sources: the worker registers tsx before loading its entry.
    const entry = join(__dirname, 'monitor-worker.ts');
    const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true });
    const messages: FromMonitor[] = [];
    const ended = new Promise<void>(resolve =>
      worker.on('message', (m: FromMonitor) => {
        messages.push(m);
        if (m.type === 'ended') resolve();
      }),
    );
    worker.postMessage({ type: 'start', source: { kind: 'replay', path: truth.files.gvt, speed: Infinity } });
    await ended;
    await worker.terminate();
    const ticks = messages
      .filter(m => m.type === 'tick')
      .map(m => (m as Extract<FromMonitor, { type: 'tick' }>).update);
    assert.equal(ticks.length, 12);
    assert.ok(ticks.at(-1)!.columns.top instanceof Float64Array);
    assert.equal(ticks.at(-1)!.totals.eventsProcessed, truth.totals.events);
  });
});
