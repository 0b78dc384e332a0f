import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readNvidiaSmiCsv } from '../formats/nvidia-smi-csv';
import { DmvIndex, HOST } from './dmv-index';
import {
  counterTracks,
  memoryTracks,
  metricVariance,
  metricWindowSeries,
  nvidiaSmiTracks,
  orderByVariance,
  stepMeans,
  traceMetricTracks,
  utilisationGlyph,
  type MetricTrack,
} from './metrics';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';
import { countersWithVariances } from './testing/scenarios';

const track = (time: number[], value: number[]): MetricTrack => ({
  id: 't',
  name: 't',
  unit: '',
  source: 'counter',
  device: null,
  time: Float64Array.from(time),
  value: Float64Array.from(value),
});

describe('DMV metric tracks', () => {
  it('orders metrics by their known variances within the window, highest first', async () => {
    // Amplitudes 3, 10, 1, 5: variances 9, 100, 1, 25.
    const ix = new DmvIndex(await readGenerated(countersWithVariances([3, 10, 1, 5])));
    const tracks = counterTracks(ix.trace);
    assert.deepEqual(
      tracks.map(t => t.name),
      ['c0', 'c1', 'c2', 'c3'],
    );
    const order = orderByVariance(tracks, ix.range);
    assert.deepEqual(
      order.map(o => tracks[o.track]!.name),
      ['c1', 'c3', 'c0', 'c2'],
    );
    assert.deepEqual(
      order.map(o => o.variance),
      [100, 25, 9, 1],
    );
  });

  it('variance in a window includes the value held when the window opens', () => {
    const t = track([0, 10, 20, 30], [1, 5, 1, 5]);
    assert.equal(metricVariance(t, { start: 15, end: 30 }), 4); // 5 (held), 1
    assert.equal(metricVariance(t, { start: 31, end: 40 }), 0); // only the held 5
  });

  it('running totals of [memory] events per device; the allocator’s own total when recorded', async () => {
    const w = new KinetoTraceWriter();
    w.op('step', 0, 100);
    w.memory(1, 0, 1000);
    w.memory(2, -1, 16);
    w.memory(3, 0, 500);
    w.memory(4, 0, -1000);
    w.memory(5, -1, -16);
    const ix = new DmvIndex(await readGenerated(w));
    const [host, gpu] = memoryTracks(ix.trace);
    assert.equal(host!.device, HOST);
    assert.deepEqual(Array.from(host!.value), [16, 0]);
    assert.deepEqual(Array.from(gpu!.value), [1000, 1500, 500]);
    assert.equal(gpu!.name, 'memory allocated · GPU 0');
    assert.equal(gpu!.unit, 'bytes');
  });

  it('derives CPU and GPU utilisation from the trace', async () => {
    const w = new KinetoTraceWriter();
    w.op('step', 0, 50);
    w.launch('cudaLaunchKernel', 60, 5, { kind: 'kernel', ts: 75, dur: 25 });
    const ix = new DmvIndex(await readGenerated(w));
    const tracks = traceMetricTracks(ix, 4);
    const cpu = tracks.find(t => t.id === 'utilisation:CPU')!;
    const gpu = tracks.find(t => t.id === 'utilisation:GPU 0')!;
    assert.deepEqual(Array.from(cpu.value), [100, 100, 20, 0]); // [0,25) [25,50) [50,75) [75,100): step + launch 5 µs
    assert.deepEqual(Array.from(gpu.value), [0, 0, 0, 100]);
    const glyph = utilisationGlyph(cpu, gpu, ix.range, 2);
    assert.deepEqual(Array.from(glyph.left.value), [100, 10]);
    assert.deepEqual(Array.from(glyph.right.value), [0, 50]);
    assert.equal(glyph.left.max, 100);
  });

  it('time-weighted means of a step function; min/max buckets above the point budget', () => {
    const t = track([10, 20, 30], [2, 4, 6]);
    assert.deepEqual(Array.from(stepMeans(t, 0, 10, 4)), [NaN, 2, 4, 6]);
    assert.deepEqual(Array.from(stepMeans(t, 15, 10, 1)), [3]);
    const dense = track(
      Array.from({ length: 100 }, (_, i) => i),
      Array.from({ length: 100 }, (_, i) => (i === 37 ? 1000 : i % 3)),
    );
    const s = metricWindowSeries(dense, { start: 0, end: 100 }, 20);
    assert.equal(s.time.length, 10);
    assert.equal(Math.max(...s.max), 1000, 'the spike survives');
    assert.equal(metricWindowSeries(dense, { start: 50, end: 60 }, 20).time.length, 11);
  });

  it('places nvidia-smi samples on the trace clock, or aligns them to its start with a warning', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dmv-smi-')), 'gpu.csv');
    writeFileSync(
      path,
      'timestamp, index, utilization.gpu [%]\n2024/01/15 10:00:00.000, 0, 10 %\n2024/01/15 10:00:00.500, 0, 90 %\n',
    );
    const samples = await readNvidiaSmiCsv(path);
    const originNs = String(BigInt(Date.UTC(2024, 0, 15, 10, 0, 0)) * 1_000_000n - 250_000_000n);
    const onClock = nvidiaSmiTracks(samples, { originNs, timeRange: [0, 1e9] });
    assert.deepEqual(onClock.warnings, []);
    assert.deepEqual(Array.from(onClock.tracks[0]!.time), [250e6, 750e6]);
    assert.equal(onClock.tracks[0]!.name, 'GPU 0 · utilization.gpu');
    const elsewhere = nvidiaSmiTracks(samples, { originNs: '1000000000000000000', timeRange: [5, 1e9] });
    assert.deepEqual(Array.from(elsewhere.tracks[0]!.time), [5, 5 + 500e6]);
    assert.match(elsewhere.warnings[0]!, /do not overlap the trace/);
    assert.match(nvidiaSmiTracks(samples, { originNs: '0', timeRange: [0, 1] }).warnings[0]!, /no absolute clock/);
  });
});
