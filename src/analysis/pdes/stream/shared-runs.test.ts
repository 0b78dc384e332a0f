import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { replayPlan, statsRecordSpans, traceRecordSpans } from '../../formats/ross/record-replay';
import { seededRandom } from '../../stats/seeded-random';
import { PdesMonitor } from './pdes-monitor';
import type { PdesTickUpdate } from './stream-analyser';
import { readStreamLayout } from './stream-layout';
import { communicationView, liveMatrix } from './stream-views';

const DIR = 'data/pdes-ross-codes';
const UNIFORM = `${DIR}/codes-dragonfly-dally-72-uniform-random`;
const NEAREST = `${DIR}/codes-dragonfly-dally-72-nearest-neighbor`;
const FULL = `${DIR}/codes-dragonfly-dally-72-uniform-random-8pe-fulltrace`;

/** Random chunk sizes of 1–300 bytes: most records, and hundreds of headers, are split. */
const randomSizes = (seed: number) => {
  const rand = seededRandom(seed);
  return () => 1 + Math.floor(rand() * 300);
};

describe('live monitor on the shared ROSS/CODES runs', { skip: skipUnlessShared(DIR) }, () => {
  for (const [dir, expected] of [
    [UNIFORM, [132578, 17224, 6819, 10405]],
    [NEAREST, [147750, 19674, 7914, 11760]],
  ] as const) {
    const name = dir.split('/').pop();
    it(`${name}: the real-time file, replayed in random chunks, ends at the ross.csv totals`, async () => {
      const path = sharedPath(dir, 'ross-stats/dfdally72-rt.bin');
      const bytes = new Uint8Array(readFileSync(path));
      const layout = await readStreamLayout(path);
      assert.equal(layout.mode, 'rt');
      assert.equal(layout.expectedPes, 4);
      // In the order the records were written (real time), and in file order (PE by PE, as tailing sees it).
      for (const order of ['real time', 'file'] as const) {
        const monitor: PdesMonitor = new PdesMonitor({ mode: 'rt', path, expectedPes: layout.expectedPes });
        const updates: PdesTickUpdate[] = [];
        let headerSplits = 0;
        const steps =
          order === 'real time'
            ? replayPlan({ bytes, spans: statsRecordSpans(bytes, path, false) }, null, { chunkBytes: randomSizes(4) })
            : fileChunks(bytes, randomSizes(5));
        for (const step of steps) {
          updates.push(...monitor.pushStats(step.stats!));
          const pending = monitor.cache.statsBytes.pending;
          if (pending > 0 && pending < 24) headerSplits++;
        }
        updates.push(...monitor.finish());
        assert.ok(headerSplits > 100, `${order}: ${headerSplits} chunks ended inside a 24-byte header`);
        const t = updates.at(-1)!.totals;
        assert.deepEqual(
          [t.eventsProcessed, t.rollbacks, t.primaryRollbacks, t.secondaryRollbacks],
          [...expected],
          `${order} order`,
        );
        assert.deepEqual(
          monitor.cache.recordCounts.pe + monitor.cache.recordCounts.kp,
          monitor.cache.samples.pe.records + monitor.cache.samples.kp.records,
        );
        assert.ok(updates.every(u => u.entities === 64));
        assert.deepEqual(
          updates.map(u => u.tick),
          updates.map((_, i) => i),
        );
        if (order === 'file')
          assert.ok(monitor.cache.lateRecords === 0, 'PE-major order still fills ticks before they complete');
      }
    });
  }

  it('8-PE full trace: 15 GVT ticks × 128 KPs; with the event trace the live PE matrix is diagonal-dominant, 73.4 % within a PE', async () => {
    const path = sharedPath(FULL, 'ross-stats/dfdally72-gvt.bin');
    const layout = await readStreamLayout(path);
    assert.equal(layout.tracePath, sharedPath(FULL, 'ross-stats/dfdally72-evtrace.bin'));
    assert.equal(layout.expectedPes, 8);
    assert.deepEqual(layout.placement, { pe: 'lp-stats', kp: 'round-robin' });
    const stats = new Uint8Array(readFileSync(path));
    const trace = new Uint8Array(readFileSync(layout.tracePath!));
    const monitor = new PdesMonitor({
      mode: 'gvt',
      path,
      tracePath: layout.tracePath!,
      entities: layout.entities!,
      expectedPes: 8,
      settings: { skipStaleTicks: false },
    });
    const updates: PdesTickUpdate[] = [];
    const diagonalShares: number[] = [];
    for (const step of replayPlan(
      { bytes: stats, spans: statsRecordSpans(stats, path, false) },
      { bytes: trace, spans: traceRecordSpans(trace, layout.tracePath!) },
      { chunkBytes: randomSizes(8) },
    )) {
      if (step.trace) monitor.pushTrace(step.trace);
      if (step.stats)
        for (const u of monitor.pushStats(step.stats)) {
          updates.push(u);
          // The live matrix as the panel would draw it at this tick.
          const live = liveMatrix(monitor, { aggregation: 'sum' })!;
          diagonalShares.push(diagonalShare(live.values, live.size));
          for (let r = 0; r < live.size; r++)
            for (let c = 0; c < live.size; c++)
              if (c !== r)
                assert.ok(
                  live.values[r * 8 + c]! < live.values[r * 8 + r]!,
                  `tick ${u.tick}: PE ${r}'s own cell is its largest`,
                );
        }
    }
    updates.push(...monitor.finish());
    assert.equal(updates.length, 15);
    assert.ok(updates.every(u => u.entities === 128 && u.level === 'kp'));
    assert.equal(monitor.cache.trace.count, 249907);
    assert.ok(
      diagonalShares.every(s => s > 0.6),
      `within-PE share per tick: ${diagonalShares.map(s => s.toFixed(2))}`,
    );
    const ticks = communicationView(
      monitor,
      updates.map(u => u.tick),
      { aggregation: 'sum' },
    )!;
    // The trace runs on past the last GVT sample: the whole run holds those events after the last tick.
    const whole = communicationView(monitor, 'all', { aggregation: 'sum' })!;
    assert.equal(whole.events, 249907);
    let after = 0;
    for (const c of monitor.cache.afterLastTick.values()) after += c;
    assert.equal(ticks.events + after, 249907);
    assert.ok(after > 0 && after < 0.02 * 249907, `${after} events after the last sample`);
    assert.equal(diagonalShare(whole.values, 8).toFixed(3), '0.734');
    assert.equal(monitor.cache.unplacedEvents, 0);
  });
});

function* fileChunks(bytes: Uint8Array, size: () => number): Generator<{ stats: Uint8Array }> {
  for (let at = 0; at < bytes.length;) {
    const n = size();
    yield { stats: bytes.subarray(at, Math.min(bytes.length, at + n)) };
    at += n;
  }
}

function diagonalShare(values: Float64Array, n: number): number {
  let diagonal = 0,
    total = 0;
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      total += values[r * n + c]!;
      if (r === c) diagonal += values[r * n + c]!;
    }
  return diagonal / total;
}
