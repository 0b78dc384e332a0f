import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readPdesRun } from '../../formats/ross/pdes-run-reader';
import { dragonflyShapeFromConfig, dragonflyTopology, THETA_LIKE } from '../../topology/dragonfly';
import { nodesOfKind } from '../../topology/topology';
import { intervalMatrices, sumMatrices, tickEdges, weighted, type CommunicationMatrix } from '../model/communication';
import { METRIC } from '../model/metrics';
import type { PdesRun } from '../model/pdes-run';
import { generateRossRun, type RossRunTruth } from './ross-generator';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hpc-lens-ross-gen-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function meanOf(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

describe('seeded ROSS-like generator: 16 × 16 KPs, bursts, PE 7–PE 8 surge, 3 groups, 4 outliers', () => {
  let truth: RossRunTruth;
  let run: PdesRun;
  before(async () => {
    const dir = tempDir();
    truth = generateRossRun(dir, { seed: 7, eventsPerKp: 8, outliers: 4, realTime: true });
    run = await readPdesRun(dir);
  });

  it('writes files the readers take, with the planted totals', () => {
    assert.deepEqual(run.warnings, []);
    assert.deepEqual([run.entities.count('pe'), run.entities.count('kp'), run.entities.count('lp')], [16, 256, 1024]);
    const gvt = run.samples.gvt!;
    assert.equal(gvt.tickCount, 100);
    assert.deepEqual([...gvt.ticks.virtualTime], [...truth.gvt]);
    assert.equal(gvt.pe.total(METRIC.eventsProcessed), truth.totals.events);
    assert.equal(run.eventTrace!.count, truth.totals.events);
    assert.equal(gvt.pe.total(METRIC.totalRollbacks), truth.totals.rollbacks);
    assert.equal(gvt.kp.total(METRIC.primaryRollbacks), truth.totals.primaryRollbacks);
    assert.equal(run.summary!.secondaryRollbacks, truth.totals.secondaryRollbacks);
    assert.equal(run.samples.rt!.tickCount, 100);
    assert.equal(run.samples.rt!.kp.total(METRIC.secondaryRollbacks), truth.totals.secondaryRollbacks);
    assert.deepEqual(run.placement, { pe: 'lp-stats', kp: 'linear' });
    assert.deepEqual(truth.changePoints, [30, 45, 70, 80]);
    assert.deepEqual(
      truth.segments.map(s => s.burst),
      [false, true, false, true, false],
    );
  });

  it('keeps every KP record consistent with the trace, interval by interval', () => {
    const kp = intervalMatrices(run.eventTrace!, run.entities, 'kp', tickEdges(truth.gvt));
    const processed = run.samples.gvt!.kp.matrix(METRIC.eventsProcessed);
    const sends = run.samples.gvt!.kp.matrix(METRIC.networkSends);
    for (let t = 0; t < 100; t += 9)
      for (let k = 0; k < 256; k += 17) {
        let received = 0;
        let remote = 0;
        for (let j = 0; j < 256; j++) {
          received += kp[t]!.counts[j * 256 + k]!;
          if (Math.floor(j / 16) !== Math.floor(k / 16)) remote += kp[t]!.counts[k * 256 + j]!;
        }
        assert.equal(processed[k]![t], received, `KP ${k} tick ${t}: processed`);
        assert.equal(sends[k]![t], remote, `KP ${k} tick ${t}: network sends`);
      }
  });

  it('plants the PE 7–PE 8 surge in the burst segments only', () => {
    const pe = intervalMatrices(run.eventTrace!, run.entities, 'pe', tickEdges(truth.gvt));
    const pairRank = (m: CommunicationMatrix) => {
      const w = weighted(m, 'sum');
      const pairs: { key: string; v: number }[] = [];
      for (let i = 0; i < 16; i++) for (let j = i + 1; j < 16; j++) pairs.push({ key: `${i}-${j}`, v: w[i * 16 + j]! });
      pairs.sort((a, b) => b.v - a.v);
      const median = pairs[Math.floor(pairs.length / 2)]!.v;
      return { first: pairs[0]!.key, surge: pairs.find(p => p.key === '7-8')!.v, median };
    };
    for (const seg of truth.segments) {
      const r = pairRank(sumMatrices(pe.slice(seg.start, seg.end)));
      if (seg.burst) assert.equal(r.first, '7-8', `segment ${seg.start}–${seg.end}`);
      else assert.ok(r.surge < 1.5 * r.median, `segment ${seg.start}–${seg.end}: ${r.surge} vs median ${r.median}`);
    }
  });

  it('plants rollback bursts and three groups aligned with PE blocks', () => {
    const sec = run.samples.gvt!.kp.matrix(METRIC.secondaryRollbacks);
    const meanAt = (t: number) => meanOf(sec.map(row => row[t]!));
    assert.ok(meanAt(35) > 2 * meanAt(25));
    assert.ok(meanAt(75) > 2 * meanAt(85));
    assert.deepEqual([...truth.peGroup], [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
    // Each KP's series lies nearest its own group's mean series.
    const centroid = [0, 1, 2].map(g => {
      const rows = sec.filter((_, k) => truth.kpGroup[k] === g);
      return Float64Array.from({ length: 100 }, (_, t) => meanOf(rows.map(r => r[t]!)));
    });
    const dist = (a: Float64Array, b: Float64Array) => a.reduce((s, v, t) => s + (v - b[t]!) ** 2, 0);
    sec.forEach((row, k) => {
      const nearest = [0, 1, 2].reduce(
        (best, g) => (dist(row, centroid[g]!) < dist(row, centroid[best]!) ? g : best),
        0,
      );
      assert.equal(nearest, truth.kpGroup[k], `KP ${k}`);
    });
  });

  it('plants outlier KPs with distinct sends', () => {
    assert.equal(truth.outlierKps.length, 4);
    const sends = run.samples.gvt!.kp.matrix(METRIC.networkSends).map(meanOf);
    const others = sends.filter((_, k) => !truth.outlierKps.includes(k)).sort((a, b) => a - b);
    const median = others[others.length >> 1]!;
    for (const k of truth.outlierKps) assert.ok(sends[k]! > 3 * median, `KP ${k}: ${sends[k]} vs ${median}`);
  });
});

describe('seeded ROSS-like generator, other cases', () => {
  it('is deterministic per seed', () => {
    const a = tempDir();
    const b = tempDir();
    const c = tempDir();
    const small = { pes: 4, kpsPerPe: 4, ticks: 10, eventsPerKp: 5 };
    generateRossRun(a, { seed: 3, ...small });
    generateRossRun(b, { seed: 3, ...small });
    generateRossRun(c, { seed: 4, ...small });
    const bytes = (d: string, f: string) => readFileSync(join(d, 'stats', f));
    assert.ok(bytes(a, 'synthetic-gvt.bin').equals(bytes(b, 'synthetic-gvt.bin')));
    assert.ok(bytes(a, 'synthetic-evtrace.bin').equals(bytes(b, 'synthetic-evtrace.bin')));
    assert.ok(!bytes(a, 'synthetic-evtrace.bin').equals(bytes(c, 'synthetic-evtrace.bin')));
  });

  it('plants a diagonal block of KP self-communication in one PE', async () => {
    const dir = tempDir();
    generateRossRun(dir, { seed: 1, pes: 8, kpsPerPe: 16, ticks: 20, surge: null, selfCommunicationPe: 0 });
    const run = await readPdesRun(dir);
    const pe = intervalMatrices(run.eventTrace!, run.entities, 'pe', [-Infinity, Infinity])[0]!;
    const cells = [...pe.counts];
    assert.equal(Math.max(...cells), pe.counts[0], 'cell (PE 0, PE 0) is the largest');
    const kp = intervalMatrices(run.eventTrace!, run.entities, 'kp', [-Infinity, Infinity])[0]!;
    for (let k = 0; k < 16; k++) {
      const row = kp.counts.subarray(k * 128, k * 128 + 16);
      assert.equal(Math.max(...row), row[k], `KP ${k} talks most to itself`);
    }
  });

  it('builds the Theta-like case: 256 KPs, 7,776 LPs with LP samples and a dragonfly config', async () => {
    const dir = tempDir();
    const truth = generateRossRun(dir, { seed: 2, ticks: 2, eventsPerKp: 4, lpData: true, dragonfly: THETA_LIKE });
    assert.equal(truth.parameters.lps, 7776);
    const run = await readPdesRun(dir);
    assert.deepEqual([run.entities.count('kp'), run.entities.count('lp')], [256, 7776]);
    assert.deepEqual(run.placement, { pe: 'lp-records', kp: 'lp-records' });
    assert.equal(run.samples.gvt!.lp.entityCount, 7776);
    assert.equal(run.samples.gvt!.lp.total(METRIC.eventsProcessed), truth.totals.events);
    assert.equal(run.lpTypes!.typeOfLp.length, 7776);
    const { topology } = dragonflyTopology(dragonflyShapeFromConfig(run.codesConfig!)!);
    assert.equal(nodesOfKind(topology, 'router').length, 864);
    assert.equal(nodesOfKind(topology, 'terminal').length, 3456);
    assert.throws(() => generateRossRun(tempDir(), { seed: 1, pes: 3, lps: 10 }), /do not split evenly/);
  });
});
