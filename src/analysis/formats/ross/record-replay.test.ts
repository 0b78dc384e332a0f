import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KP_METRICS, PE_METRICS } from '../../pdes/model/metrics';
import { seededRandom } from '../../stats/seeded-random';
import { RossEventTraceDecoder, RossStatsDecoder } from './record-decoder';
import { playReplay, replayPlan, statsRecordSpans, traceRecordSpans, type ReplayStep } from './record-replay';
import { RossRecordWriter } from './record-writer';

/** Two PEs × 3 rounds written PE-major, as ROSS flushes its per-PE buffers; real times interleave. */
function peMajorFile(): Uint8Array {
  const w = new RossRecordWriter();
  const pe = new Float64Array(PE_METRICS.length);
  const kp = new Float64Array(KP_METRICS.length);
  for (let p = 0; p < 2; p++)
    for (let round = 0; round < 3; round++) {
      pe[0] = 100 * p + round;
      w.engine(0, { pe: p, kp: -1, lp: -1 }, 1000 * (round + 1), 10 + round + 0.1 * p, pe);
      w.engine(1, { pe: p, kp: 0, lp: -1 }, 1000 * (round + 1), 10 + round + 0.1 * p, kp);
    }
  return w.bytes();
}

function decodeOrder(bytes: Uint8Array): string[] {
  const out: string[] = [];
  const d = new RossStatsDecoder({ engine: r => out.push(`${r.level}${r.pe}@${r.realTime.toFixed(1)}`) }, 'replayed');
  d.push(bytes);
  assert.equal(d.finish(), null);
  return out;
}

const concat = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap(p => [...p]));

describe('replaying a recorded ROSS file in real-time order', () => {
  it('indexes every record with its span and real time', () => {
    const bytes = peMajorFile();
    const spans = statsRecordSpans(bytes, 'f', false);
    assert.equal(spans.length, 12);
    assert.deepEqual(
      spans.slice(0, 2).map(s => [s.offset, s.length]),
      [
        [0, 128],
        [128, 68],
      ],
    );
    assert.equal(
      spans.reduce((s, x) => s + x.length, 0),
      bytes.length,
    );
    // A partial record at the end is left out.
    assert.equal(statsRecordSpans(bytes.subarray(0, bytes.length - 5), 'f', false).length, 11);
  });

  it('plays the records sorted by real time (stable), each once, byte for byte', () => {
    const bytes = peMajorFile();
    const steps = [...replayPlan({ bytes, spans: statsRecordSpans(bytes, 'f', false) }, null)];
    const order = decodeOrder(concat(steps.map(s => s.stats!)));
    assert.deepEqual(order, [
      'pe0@10.0',
      'kp0@10.0',
      'pe1@10.1',
      'kp1@10.1',
      'pe0@11.0',
      'kp0@11.0',
      'pe1@11.1',
      'kp1@11.1',
      'pe0@12.0',
      'kp0@12.0',
      'pe1@12.1',
      'kp1@12.1',
    ]);
    assert.deepEqual(
      steps.map(s => Math.round(s.at * 10) / 10),
      [0, 0.1, 1, 1.1, 2, 2.1],
    );
  });

  it('cuts steps into chunks of any size (headers split) without losing a byte, trace included', () => {
    const bytes = peMajorFile();
    const w = new RossRecordWriter();
    for (let i = 0; i < 5; i++) w.event(i, i + 1, 0, 1000 * i, 10 + 0.5 * i);
    const trace = w.bytes();
    const rand = seededRandom(2);
    const steps = [
      ...replayPlan(
        { bytes, spans: statsRecordSpans(bytes, 'f', false) },
        { bytes: trace, spans: traceRecordSpans(trace, 't') },
        { chunkBytes: () => 1 + Math.floor(rand() * 30) },
      ),
    ];
    assert.ok(steps.every(s => (s.stats ? s.stats.length : s.trace!.length) <= 30));
    assert.equal(decodeOrder(concat(steps.flatMap(s => (s.stats ? [s.stats] : [])))).length, 12);
    const events: number[] = [];
    const d = new RossEventTraceDecoder(ev => events.push(ev.src), 't');
    for (const s of steps) if (s.trace) d.push(s.trace);
    assert.deepEqual(events, [0, 1, 2, 3, 4]);
    // Times never go back.
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i]!.at >= steps[i - 1]!.at);
  });

  it('plays steps in order and refuses a non-positive speed', async () => {
    const steps: ReplayStep[] = [0, 0.001, 0.002].map(at => ({ at, stats: new Uint8Array([at * 1000]), trace: null }));
    const seen: number[] = [];
    await playReplay(steps, 1000, s => seen.push(s.stats![0]!));
    assert.deepEqual(seen, [0, 1, 2]);
    await assert.rejects(
      playReplay(steps, 0, () => undefined),
      /speed must be positive/,
    );
    const abort = new AbortController();
    abort.abort();
    const none: number[] = [];
    await playReplay(steps, 1, s => none.push(s.at), abort.signal);
    assert.deepEqual(none, []);
  });
});
