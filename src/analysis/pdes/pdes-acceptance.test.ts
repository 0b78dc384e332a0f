import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import { adjustedRandIndex } from '../series/cluster-labels';
import { METRIC } from './model/metrics';
import { PdesAnalysisSession, type PdesAnalysis } from './pdes-analysis';
import type { PdesRun } from './model/pdes-run';
import { selectEntities } from './selection';
import { generateRossRun, type RossRunTruth } from './testing/ross-generator';
import { circularViewData, detailStrokeSelection, detailViewData, similarityViewData } from './view-data';

/**
 * The seed acceptance tests of issue 19 (seed digest §4.1–4.3) on the seeded ROSS-like generator:
 * 16 PEs × 16 KPs, 100 GVT rounds, rollback bursts at rounds 30–45 and 70–80 during which PE 7 and
 * PE 8 exchange far more events than any other pair, and three behaviour groups aligned with PE
 * blocks (flat, rising and oscillating rollbacks).
 */
const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

let run: PdesRun;
let truth: RossRunTruth;
let analysis: PdesAnalysis;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-acceptance-'));
  dirs.push(dir);
  truth = generateRossRun(dir, { seed: 7 });
  run = await readPdesRun(dir);
  analysis = new PdesAnalysisSession(run, {
    detailMetrics: [METRIC.secondaryRollbacks, METRIC.networkRecvs],
  }).analysis();
});

const bursts = () => truth.parameters.bursts;
const inBurst = (s: { start: number; end: number }) => bursts().some(b => s.start >= b.start - 2 && s.end <= b.end + 2);

describe('seed acceptance: rollback bursts and the PE 7–PE 8 surge', () => {
  it('finds the planted change points within ±2 samples, as the most prominent ones', () => {
    const found = analysis.changePoints.detected;
    assert.deepEqual(truth.changePoints, [30, 45, 70, 80]);
    for (const planted of truth.changePoints)
      assert.ok(
        found.some(c => Math.abs(c.index - planted) <= 2),
        `planted ${planted}: found ${found.map(c => c.index)}`,
      );
    // E-Divisive ranks changes by prominence: the first four it accepts are the planted ones.
    const firstFour = found.filter(c => c.order <= 4).map(c => c.index);
    assert.equal(firstFour.length, 4);
    firstFour.forEach((c, i) =>
      assert.ok(Math.abs(c - truth.changePoints[i]!) <= 2, `${c} vs ${truth.changePoints[i]}`),
    );
    // Anything further lies inside a burst: there the oscillating group's ±4 swing is tripled, and its
    // low and high half-periods inside one 15-round burst are a real change in distribution.
    for (const c of found.filter(x => x.order > 4))
      assert.ok(
        bursts().some(b => c.index > b.start + 2 && c.index < b.end - 2),
        `extra change point ${c.index} inside a burst`,
      );
  });

  it('ranks the PE 7–PE 8 ribbon first in the burst segments, and ordinary in the calm ones', () => {
    const all = selectEntities(analysis.behaviour, analysis.range, analysis.clustering.labels);
    for (const weight of ['sends', 'sum'] as const) {
      const c = circularViewData(
        run,
        { ...analysis, options: { ...analysis.options, communicationWeight: weight } },
        all,
      );
      let burstSegments = 0,
        calmSegments = 0;
      for (const s of c.segments) {
        const rank = s.ribbons.findIndex(r => r.source === 7 && r.target === 8);
        const name = `${weight}, segment ${s.segment.label} [${s.segment.start}, ${s.segment.end})`;
        if (inBurst(s.segment)) {
          burstSegments++;
          assert.equal(rank, 0, `${name}: PE 7–PE 8 first`);
          assert.ok(s.ribbons[0]!.value > 10 * s.ribbons[1]!.value, `${name}: far above the next ribbon`);
        } else {
          calmSegments++;
          const values = s.ribbons.map(r => r.value).sort((a, b) => a - b);
          const median = values[Math.floor(values.length / 2)]!;
          assert.ok(rank > 0, `${name}: PE 7–PE 8 not first`);
          assert.ok(s.ribbons[rank]!.value < 1.5 * median, `${name}: PE 7–PE 8 within 1.5 × the median ribbon`);
        }
      }
      assert.ok(burstSegments >= 2 && calmSegments >= 3);
      // One colour scale for every segment: the strongest ribbon anywhere.
      assert.equal(c.scales.ribbon, Math.max(...c.segments.map(s => s.ribbons[0]!.value)));
    }
  });
});

describe('seed acceptance: three planted groups aligned with PE blocks', () => {
  it('are recovered by every clustering (adjusted Rand index ≥ 0.9)', () => {
    assert.ok(adjustedRandIndex(analysis.clustering.labels, truth.kpGroup) >= 0.9, 'k-means');
    const session = new PdesAnalysisSession(run);
    for (const options of [
      { clustering: 'pam' },
      { clustering: 'complete-linkage' },
      { clustering: 'pam', distance: 'dtw' },
    ] as const) {
      const a = session.withOptions(options).analysis();
      const ari = adjustedRandIndex(a.clustering.labels, truth.kpGroup);
      assert.ok(ari >= 0.9, `${JSON.stringify(options)}: ARI ${ari}`);
    }
  });

  it('colour the rings by PE: every KP of a PE has its PE block’s cluster', () => {
    const all = selectEntities(analysis.behaviour, analysis.range, analysis.clustering.labels);
    const c = circularViewData(run, analysis, all);
    assert.equal(c.groups.length, 16);
    const peCluster = c.groups.map(g => {
      const colours = new Set(c.clusters.subarray(g.first, g.first + g.count));
      assert.equal(colours.size, 1, `${g.label}: one colour`);
      return [...colours][0]!;
    });
    assert.equal(adjustedRandIndex(peCluster, truth.peGroup), 1, 'PE blocks and colours agree');
  });
});

describe('seed acceptance: freeform selection', () => {
  const b = () => analysis.behaviour;
  const top = () => b().series(analysis.metrics.detail[0]);
  const valueAt = (e: number, t: number) => top().values[e * b().ticks + t]!;

  it('a stroke crossing k lines selects exactly those lines', () => {
    const all = selectEntities(b(), analysis.range, analysis.clustering.labels);
    // A vertical stroke at round 50 from between two distinct values up above every line.
    const t = 50;
    const sorted = [...new Set(Array.from(all, e => valueAt(e, t)))].sort((x, y) => y - x);
    const cut = (sorted[3]! + sorted[4]!) / 2;
    const expected = Array.from(all).filter(e => valueAt(e, t) > cut);
    assert.ok(expected.length >= 4 && expected.length < 256);
    const x = b().time[t]!;
    assert.deepEqual(
      [
        ...detailStrokeSelection(analysis, 0, all, [
          [x, cut],
          [x, sorted[0]! + 1],
        ]),
      ],
      expected,
    );
    // A horizontal stroke between rounds 60 and 61 selects the lines whose segment there spans its height.
    const y = 7.5;
    const across = Array.from(all).filter(
      e => Math.min(valueAt(e, 60), valueAt(e, 61)) < y && Math.max(valueAt(e, 60), valueAt(e, 61)) > y,
    );
    assert.ok(across.length > 0);
    assert.deepEqual(
      [
        ...detailStrokeSelection(analysis, 0, all, [
          [b().time[60]!, y],
          [b().time[61]!, y],
        ]),
      ],
      across,
    );
  });

  it('the linked receive view, similarity view and rings show only the stroked lines', () => {
    const all = selectEntities(b(), analysis.range, analysis.clustering.labels);
    const x = b().time[20]!;
    const picked = detailStrokeSelection(analysis, 0, all, [
      [x, 9.5],
      [x, 1000],
    ]);
    assert.ok(picked.length > 0 && picked.length < 256);
    const selected = selectEntities(b(), analysis.range, analysis.clustering.labels, { entities: [...picked] });
    assert.deepEqual([...selected], [...picked]);
    const receive = detailViewData(analysis, 1, selected);
    assert.equal(receive.metric.id, METRIC.networkRecvs);
    assert.deepEqual(
      receive.lines.map(l => l.entity),
      [...picked],
    );
    const recv = b().series(METRIC.networkRecvs);
    for (const line of receive.lines)
      assert.deepEqual(
        Array.from({ length: line.points.length / 2 }, (_, i) => line.points[2 * i + 1]),
        [...recv.values.subarray(line.entity * 100, line.entity * 100 + 100)],
      );
    assert.deepEqual([...similarityViewData(analysis, 1, selected).entities], [...picked]);
    assert.deepEqual(
      [...circularViewData(run, analysis, selected).items].sort((p, q) => p - q),
      [...picked],
    );
  });
});
