import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metricOf } from './depth-scores';
import { prepareMemoryAnalysis } from './memory-analysis';
import { findAttribute } from './model/memory-samples';
import { metricStrip } from './metric-strip';
import { cabLikeMachine, memorySamplesFrom } from './testing/synthetic-memory';

// 2 sockets × 2 cores × 1 thread (CPUs 0–3). Along `t`: t 0–3 all on CPU 0, t 4–7 one per CPU.
const machine = cabLikeMachine(2, 2, 1);
const samples = memorySamplesFrom({
  cpu: [0, 0, 0, 0, 0, 1, 2, 3],
  latency: [10, 10, 10, 10, 10, 20, 30, 40],
  level: [1, 1, 1, 1, 1, 1, 1, 1],
  extra: { t: [0, 1, 2, 3, 4, 5, 6, 7] },
});
const analysis = prepareMemoryAnalysis(samples, machine);
const t = findAttribute(samples, 't')!;

describe('metric strips', () => {
  it('score equal windows of an attribute and find the peak', () => {
    const strip = metricStrip(analysis, t, { score: 'cv', depth: 'pu' }, 2);
    assert.equal(strip.min, 0);
    assert.equal(strip.max, 7);
    assert.deepEqual(
      strip.windows.map(w => [w.lo, w.hi, w.samples]),
      [
        [0, 3.5, 4],
        [3.5, 7, 4],
      ],
    );
    // Window 1: counts [4, 0, 0, 0]: σ/μ = √3; window 2: [1, 1, 1, 1]: 0.
    assert.ok(Math.abs(strip.windows[0]!.value - Math.sqrt(3)) < 1e-12);
    assert.equal(strip.windows[1]!.value, 0);
    assert.equal(strip.peak, 0);
  });

  it('give empty windows no value', () => {
    const strip = metricStrip(analysis, t, { score: 'latency', depth: 'l1' }, 16);
    assert.equal(strip.windows.filter(w => Number.isNaN(w.value)).length, 8);
    assert.equal(
      strip.windows.reduce((s, w) => s + w.samples, 0),
      8,
    );
  });

  it('score a window the same as the metric of its samples', () => {
    const strip = metricStrip(analysis, t, { score: 'latency', depth: 'l1' }, 2, Int32Array.of(4, 5, 6, 7));
    assert.equal(strip.windows[1]!.value, metricOf(analysis, { score: 'latency', depth: 'l1' }, Int32Array.of(6, 7)));
    assert.equal(strip.windows[1]!.value, 35);
  });

  it('needs a topology and a window', () => {
    assert.throws(
      () => metricStrip(prepareMemoryAnalysis(samples, null), t, { score: 'cv', depth: 'pu' }, 2),
      /needs a machine/,
    );
    assert.throws(() => metricStrip(analysis, t, { score: 'cv', depth: 'pu' }, 0), /at least one window/);
  });
});
