import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEnsemble } from './ensemble';
import { projectionData, PROJECTION_CLUSTERS } from './projection-data';
import { projectRuns } from './projection';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';
import { runsFromOutlines } from './testing/outline-runs';

const close = (a: number, b: number, msg: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${msg}: ${a} ≠ ${b}`);

describe('projection data', () => {
  const syn = generateSyntheticEnsemble({ runs: 24, nodes: 300, seed: 9 });
  const e = buildEnsemble(syn.runs);

  it('over every run it is projectRuns: same coordinates and clusters, for both inputs', () => {
    for (const input of ['parameters', 'structure'] as const) {
      const data = projectionData(e, input, null);
      const ref = projectRuns(e, { input, k: PROJECTION_CLUSTERS });
      assert.equal(data.unavailable, null);
      assert.equal(data.k, 3);
      assert.deepEqual(
        data.points.map(p => p.run),
        Array.from({ length: 24 }, (_, r) => r),
      );
      data.points.forEach((p, i) => {
        close(p.x, ref.coordinates[i * 2]!, `${input} x of run ${i}`);
        close(p.y, ref.coordinates[i * 2 + 1]!, `${input} y of run ${i}`);
        assert.equal(p.cluster, ref.clusters![i]);
      });
      assert.equal(new Set(data.points.map(p => p.cluster)).size, 3);
    }
    assert.deepEqual(projectionData(e, 'parameters', null).features, [
      'compiler',
      'param1',
      'ranks',
      'mean inclusive',
      'mean exclusive',
    ]);
  });

  it('a subset projects only its runs, with the features min–max scaled over the subset', () => {
    // Same tree and values in every run (the runtimes are constant features and drop out), two
    // parameters: the projection is exact in 2-D, so point distances are the scaled feature distances.
    const params = [
      [0, 0],
      [1, 10],
      [2, 4],
      [3, 7],
      [5, 2],
      [9, 9],
    ];
    const runs = runsFromOutlines(
      Object.fromEntries(params.map(([x, y]) => [`x=${x}_y=${y}`, 'main = 1\n  work = 3'])),
    );
    const flat = buildEnsemble(runs);
    const subset = [4, 1, 2, 3];
    const data = projectionData(flat, 'parameters', subset);
    assert.deepEqual(data.features, ['x', 'y']);
    assert.deepEqual(
      data.points.map(p => p.run),
      [1, 2, 3, 4],
    );
    // Over runs 1–4: x spans 1…5, y spans 2…10.
    const scaled = (r: number) => [(params[r]![0]! - 1) / 4, (params[r]![1]! - 2) / 8];
    for (const a of data.points) {
      for (const b of data.points) {
        const [ax, ay] = scaled(a.run),
          [bx, by] = scaled(b.run);
        close(Math.hypot(a.x - b.x, a.y - b.y), Math.hypot(ax! - bx!, ay! - by!), `distance ${a.run}–${b.run}`);
      }
    }
    const structure = projectionData(e, 'structure', [3, 1, 10, 17, 20, 22]);
    assert.deepEqual(
      structure.points.map(p => p.run),
      [1, 3, 10, 17, 20, 22],
    );
    assert.equal(structure.unavailable, null);
  });

  it('a subset whose runs differ only in one parameter projects on that parameter alone', () => {
    // Runs of one compiler and size: only the rank count (and the runtimes) vary.
    const sameConfig = syn.configs
      .map((c, r) => ({ c, r }))
      .filter(({ c }) => c.compiler === 'gcc10' && c.size === 1048576)
      .map(({ r }) => r);
    const data = projectionData(e, 'parameters', sameConfig);
    assert.ok(!data.features.includes('compiler') && !data.features.includes('param1'), data.features.join(', '));
    assert.ok(data.features.includes('ranks'));
  });

  it('takes the cluster count (CallFlow §4.9): k clusters over the runs, and at least k + 1 runs', () => {
    for (const k of [2, 5, 8]) {
      const data = projectionData(e, 'parameters', null, k);
      assert.equal(data.k, k);
      assert.equal(data.unavailable, null);
      assert.equal(new Set(data.points.map(p => p.cluster)).size, k);
      const ref = projectRuns(e, { input: 'parameters', k });
      data.points.forEach((p, i) => assert.equal(p.cluster, ref.clusters![i]));
    }
    const few = projectionData(e, 'structure', [0, 1, 2, 3, 4], 6);
    assert.equal(few.k, 6);
    assert.match(few.unavailable!, /at least 7 runs for 6 clusters; 5 runs are selected/);
  });

  it('says why there is no projection: too few runs, or nothing varies', () => {
    const few = projectionData(e, 'parameters', [0, 1, 2]);
    assert.deepEqual(few.points, []);
    assert.match(few.unavailable!, /at least 4 runs for 3 clusters; 3 runs are selected/);
    assert.match(projectionData(e, 'structure', [5]).unavailable!, /1 run is selected/);
    const same = buildEnsemble(
      runsFromOutlines({
        a: 'main = 1\n  x = 2',
        b: 'main = 1\n  x = 2',
        c: 'main = 1\n  x = 2',
        d: 'main = 1\n  x = 2',
      }),
    );
    assert.match(
      projectionData(same, 'parameters', null).unavailable!,
      /no parameter or runtime varies across the 4 runs/,
    );
    assert.match(projectionData(same, 'structure', null).unavailable!, /same shape/);
  });

  it('rejects run indices outside the ensemble', () => {
    assert.throws(() => projectionData(e, 'parameters', [0, 1, 2, 99]), {
      name: 'RangeError',
      message: /run 99 is not in the ensemble \(it has 24 runs/,
    });
    assert.throws(() => projectionData(e, 'parameters', []), /the run subset is empty/);
  });
});
