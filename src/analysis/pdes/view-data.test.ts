import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editSegments, PdesAnalysisSession } from './pdes-analysis';
import { fourKpRun } from './testing/small-run';
import {
  circularViewData,
  clusterLegend,
  decimatedIndices,
  detailStrokeSelection,
  detailViewData,
  overviewData,
  similarityLassoSelection,
  similarityViewData,
} from './view-data';

// 2 PEs × 2 KPs, 4 GVT samples (x = 10 … 40): KP k has k·10 + t secondary rollbacks and 1 (then 3) primary.
const run = fourKpRun();
// Two segments, [0, 2) and [2, 4), set by hand (E-Divisive needs 3 samples a side).
const analysis = editSegments(new PdesAnalysisSession(run).analysis(), [2]);
const all = Int32Array.of(0, 1, 2, 3);
const pairs = (p: Float64Array) => Array.from({ length: p.length / 2 }, (_, i) => [p[2 * i], p[2 * i + 1]]);

describe('level of detail', () => {
  it('keeps every sample up to two per pixel, else first, min, max and last per pixel column', () => {
    const v = [0, 5, 1, 9, 2, 3, 8, 0];
    assert.deepEqual([...decimatedIndices(v, 0, 8, 4)], [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual([...decimatedIndices(v, 0, 8, 2)], [0, 3, 4, 6, 7]);
    assert.deepEqual([...decimatedIndices(v, 2, 8, 1)], [2, 3, 7], 'min and max in time order');
    assert.deepEqual([...decimatedIndices(v, 3, 3, 10)], []);
  });
});

describe('PDES view data', () => {
  it('overview: max, mean or standard deviation across the selected entities, with the brush and markers', () => {
    const mean = overviewData(analysis, all, { statistic: 'mean' });
    assert.deepEqual(pairs(mean.points), [
      [10, 15],
      [20, 16],
      [30, 17],
      [40, 18],
    ]);
    assert.deepEqual(
      pairs(overviewData(analysis, all, { statistic: 'max' }).points).map(p => p[1]),
      [30, 31, 32, 33],
    );
    assert.deepEqual(
      pairs(overviewData(analysis, all, { statistic: 'std' }).points).map(p => p[1]!.toFixed(6)),
      Array(4).fill(Math.sqrt(125).toFixed(6)),
    );
    const two = overviewData(analysis, Int32Array.of(0, 1), { metric: 'primary_rollbacks' });
    assert.equal(two.statistic, 'mean', 'the option');
    assert.deepEqual(
      pairs(two.points).map(p => p[1]),
      [1, 1, 3, 3],
    );
    assert.deepEqual([two.entities, two.samples, two.yDomain], [2, 4, [1, 3]]);
    assert.deepEqual(two.brush, { from: 0, to: 4, x0: 10, x1: 40 });
    assert.deepEqual(two.changePoints, [{ index: 2, x: 30, order: null, pValue: null }]);
    assert.deepEqual(two.segments, [
      { label: 'A', start: 0, end: 2, x0: 10, x1: 20 },
      { label: 'B', start: 2, end: 4, x0: 30, x1: 40 },
    ]);
  });

  it('detail view: one line per selected entity coloured by cluster, or all with the unselected flagged', () => {
    const d = detailViewData(analysis, 0, Int32Array.of(1, 3));
    assert.equal(d.metric.id, 'secondary_rollbacks');
    assert.deepEqual(
      d.lines.map(l => [l.entity, l.label, l.selected, l.cluster]),
      [
        [1, 'PE 0 · KP 1', true, analysis.clustering.labels[1]],
        [3, 'PE 1 · KP 1', true, analysis.clustering.labels[3]],
      ],
    );
    assert.deepEqual(pairs(d.lines[1]!.points), [
      [10, 30],
      [20, 31],
      [30, 32],
      [40, 33],
    ]);
    assert.deepEqual([d.yDomain, d.decimated, d.timeLabel], [[10, 33], false, 'GVT']);
    assert.deepEqual(
      detailViewData(analysis, 1, Int32Array.of(1), { keepUnselected: true }).lines.map(l => l.selected),
      [false, true, false, false],
    );
    assert.equal(
      detailViewData(analysis, 0, all, { width: 1 }).lines[0]!.points.length,
      2 * 2,
      'two samples for one pixel',
    );
    // A stroke from (15, 5) to (15, 25) crosses KPs 1 (at 10.5) and 2 (at 20.5).
    assert.deepEqual(
      [
        ...detailStrokeSelection(analysis, 0, all, [
          [15, 5],
          [15, 25],
        ]),
      ],
      [1, 2],
    );
  });

  it('legend: "Cluster-0 (n)" with how many members are shown', () => {
    const legend = clusterLegend(analysis, Int32Array.of(0));
    assert.equal(legend.length, 3);
    assert.equal(legend[0]!.label, `Cluster-0 (${analysis.clustering.sizes[0]})`);
    assert.deepEqual(
      legend.map(l => l.shown),
      [1, 0, 0],
    );
  });

  it('similarity view: the projected points of the selected entities within the extent of all', () => {
    const s = similarityViewData(analysis, 0, Int32Array.of(2, 3));
    const c = analysis.projections[0].coordinates;
    assert.deepEqual([...s.points], [c[4], c[5], c[6], c[7]]);
    assert.deepEqual([...s.entities], [2, 3]);
    assert.ok(s.xDomain[0] <= Math.min(c[0]!, c[2]!, c[4]!, c[6]!) && s.xDomain[1] >= Math.max(c[0]!, c[6]!));
    // The secondary rollbacks of the 4 KPs are 10 apart: the 1-D MDS line orders them.
    const xs = [0, 1, 2, 3].map(i => c[2 * i]!);
    assert.ok(
      xs.every((x, i) => i === 0 || (x - xs[i - 1]!) * (xs[3]! - xs[0]!) > 0),
      `ordered along the first axis: ${xs}`,
    );
    const around = (i: number): [number, number][] => [
      [c[2 * i]! - 1e-3, c[2 * i + 1]! - 1e-3],
      [c[2 * i]! + 1e-3, c[2 * i + 1]! - 1e-3],
      [c[2 * i]! + 1e-3, c[2 * i + 1]! + 1e-3],
      [c[2 * i]! - 1e-3, c[2 * i + 1]! + 1e-3],
    ];
    assert.deepEqual([...similarityLassoSelection(analysis, 0, all, around(2))], [2]);
  });

  it('circular views: PE ribbons and rings of segment means per selected entity, on shared scales', () => {
    const c = circularViewData(run, analysis, all);
    assert.deepEqual(c.groups, [
      { pe: 0, label: 'PE 0', first: 0, count: 2 },
      { pe: 1, label: 'PE 1', first: 2, count: 2 },
    ]);
    assert.deepEqual([...c.items], [0, 1, 2, 3]);
    assert.deepEqual(
      [c.innerMetric.id, c.outerMetric.id, c.encoding, c.weight],
      ['primary_rollbacks', 'secondary_rollbacks', 'bars', 'sends'],
    );
    // Segment A (samples 0–1): PE 0 → PE 1 two events, PE 0 → PE 0 one, per 2 samples.
    const [a, b] = c.segments;
    assert.deepEqual(a!.ribbons, [{ source: 0, target: 1, value: 1, forward: 1, backward: 0 }]);
    assert.deepEqual([...a!.self], [0.5, 0]);
    // Segment B: PE 1 → PE 0 at 25 and PE 0 → PE 1 at 38, PE 1 → PE 1 at 35.
    assert.deepEqual(b!.ribbons, [{ source: 0, target: 1, value: 0.5, forward: 0.5, backward: 0.5 }]);
    assert.deepEqual([...b!.self], [0, 0.5]);
    assert.deepEqual([...a!.outer], [0.5, 10.5, 20.5, 30.5]);
    assert.deepEqual([...b!.inner], [3, 3, 3, 3]);
    assert.deepEqual(c.scales, { ribbon: 1, inner: [1, 3], outer: [0.5, 32.5] });
    assert.deepEqual(c.communication, { scope: 'all events' });
    // A threshold hides weaker ribbons; a filtered KP leaves the rings and its events the ribbons.
    const hidden = circularViewData(run, { ...analysis, options: { ...analysis.options, ribbonThreshold: 0.75 } }, all);
    assert.deepEqual(
      hidden.segments.map(s => [s.ribbons.length, s.hidden]),
      [
        [1, 0],
        [0, 1],
      ],
    );
    const some = circularViewData(run, analysis, Int32Array.of(0, 1, 3));
    assert.deepEqual([...some.items], [0, 1, 3]);
    assert.deepEqual(some.groups[1], { pe: 1, label: 'PE 1', first: 2, count: 1 });
    assert.deepEqual(some.segments[0]!.ribbons, [], 'KP 2 received both events of segment A');
    assert.deepEqual([...some.segments[1]!.outer], [2.5, 12.5, 32.5]);
    assert.equal(circularViewData({ ...run, eventTrace: null }, analysis, all).communication, null);
  });
});
