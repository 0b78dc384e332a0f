import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTrace } from './analyze-trace';
import * as S from './testing/scenarios';
import { integerRanges, iterationMatrix, iterationSpans, laneSetLabel, traceAnalysisView } from './view-data';

describe('lane set labels', () => {
  it('compress the one number that varies into ranges', () => {
    assert.equal(integerRanges([0, 1, 2, 3, 8, 10, 11]), '0–3, 8, 10–11');
    const ranks = (xs: number[]) => xs.map(r => `rank ${r}`);
    assert.deepEqual(laneSetLabel(ranks([8, 9, 10, 11, 12, 13, 14, 15])), { short: '{8–15}', text: 'rank 8–15' });
    assert.deepEqual(laneSetLabel(ranks([0, 1, 2, 16, 17])), { short: '{0–2, 16–17}', text: 'rank {0–2, 16–17}' });
    assert.deepEqual(laneSetLabel(['rank 3 · thread 0', 'rank 4 · thread 0']), {
      short: '{3–4}',
      text: 'rank 3–4 · thread 0',
    });
    assert.deepEqual(laneSetLabel(['rank 3']), { short: 'rank 3', text: 'rank 3' });
  });

  it('list names that share no pattern, the first few', () => {
    const names = ['rank 0 · thread 1', 'rank 1 · thread 2', 'GPU 0 · stream 7', 'python', 'x'];
    assert.equal(laneSetLabel(names).short, 'rank 0 · thread 1, rank 1 · thread 2, GPU 0 · stream 7, … (+2)');
  });

  it('cut long range lists', () => {
    const every2 = Array.from({ length: 40 }, (_, i) => 2 * i);
    assert.match(integerRanges(every2), /^0, 2, 4, 6, 8, 10, 12, 14, … \(\+32\)$/);
  });
});

describe('the panel’s view of an analysis', () => {
  it('clusters with labels, bands led by their representative, paths with their segment and saving', async () => {
    const { profile } = S.plantedImbalance();
    const a = await analyzeTrace(profile);
    const v = traceAnalysisView(a, n => profile.tree.depth(n));
    assert.equal(v.clusters.length, 2);
    for (const c of v.clusters) {
      assert.equal(v.bands[c.index]!.tracks[0], c.representative.track);
      assert.equal(v.bands[c.index]!.tracks.length, c.size);
      assert.equal(c.weight, Math.log2(c.size + 1));
    }
    assert.ok(v.paths.every(p => p.segment >= 0 && v.segments[p.segment]!.paths.includes(p.index)));
    assert.ok(v.paths.every(p => p.saving === p.imbalance + p.wait));
    assert.equal(
      v.totalSaving,
      v.segments.reduce((s, g) => s + g.projectedSaving, 0),
    );
    assert.ok(v.depth >= 1, 'the significant paths lie below main');
  });
});

describe('the iteration matrix and spans', () => {
  it('bins lanes within clusters and iterations into columns, keeping the sums', async () => {
    const { profile } = S.plantedImbalance();
    const a = await analyzeTrace(profile);
    const full = iterationMatrix(a, 0, 1000, 1000);
    assert.equal(full.rows.length, 64, 'one row per lane when they fit');
    assert.equal(full.columns.length, 10);
    const small = iterationMatrix(a, 0, 4, 3);
    assert.ok(small.rows.length <= 4 + a.clusters.length);
    assert.equal(small.columns.length, 3);
    // Each cluster keeps at least a row, and no row mixes clusters.
    assert.deepEqual(new Set(small.rows.map(r => r.cluster)), new Set([0, 1]));
    for (const r of small.rows)
      for (let l = r.from; l < r.to; l++) assert.equal(a.lanes[a.laneOrder[l]!]!.cluster, r.cluster);
    assert.deepEqual(
      small.columns.map(c => [c.from, c.to]),
      [
        [0, 4],
        [4, 7],
        [7, 10],
      ],
    );
    // Binned means weigh every (lane, iteration) once: the overall mean is kept.
    const mean = (m: typeof full) => {
      let s = 0,
        n = 0;
      m.rows.forEach((r, i) =>
        m.columns.forEach((c, j) => {
          const w = (r.to - r.from) * (c.to - c.from);
          s += m.duration[i * m.columns.length + j]! * w;
          n += w;
        }),
      );
      return s / n;
    };
    assert.ok(Math.abs(mean(small) / mean(full) - 1) < 1e-9);
    assert.throws(() => iterationMatrix(a, 5), /no loop 5/);
  });

  it('gives each track its bands within a window, at most a cap of them', async () => {
    const { profile } = S.regularLoop();
    const a = await analyzeTrace(profile);
    const all = iterationSpans(a, 0, [0, 1, 99], { start: 0, end: Infinity });
    assert.deepEqual(
      all.map(x => x.ids.length),
      [23, 23, 0],
    );
    const w = { start: all[0]!.spans[10]!, end: all[0]!.spans[13]! };
    assert.deepEqual([...iterationSpans(a, 0, [0], w)[0]!.ids], [5, 6]);
    assert.equal(iterationSpans(a, 0, [0], { start: 0, end: Infinity }, 5)[0]!.ids.length, 5);
  });
});
