/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { EnsembleRequest, EnsembleViewState } from '../../../../src/shared/ensemble-protocol';
import {
  lassoRequest,
  lassoRuns,
  ParameterProjectionView,
  ProjectionControls,
  projectionLayout,
  type Point2,
} from './parameter-projection-view';
import { detailFixture } from './testing/detail-fixture';
import { findElements } from './testing/element-tree';

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

function render(f: ReturnType<typeof detailFixture>, state: EnsembleViewState = f.state, width = 480, height = 300) {
  return renderToStaticMarkup(
    <ParameterProjectionView
      data={f.data}
      state={state}
      projection={f.projection}
      width={width}
      height={height}
      onRequest={() => undefined}
    />,
  );
}

describe('parameter projection view', () => {
  test('one point per run coloured by cluster, marked experimental', () => {
    const f = detailFixture({ runs: 30 });
    const html = render(f);
    assert.match(html, /data-ensemble-view="projection" data-drawn="30"/);
    assert.match(html, /experimental/i);
    for (const c of [0, 1, 2]) {
      assert.equal(
        count(html, new RegExp(`class="ensemble-run-point ensemble-cluster-${c}[ "]`)),
        f.projection.points.filter(p => p.cluster === c).length,
      );
    }
    assert.equal(count(html, /ensemble-run-mark/), 0, 'no target or diff marks in summary mode');
    assert.equal(count(html, /is-dimmed/), 0);
  });

  test('the target is ringed, a diff pair marked, and runs outside the subset dimmed', () => {
    const target = detailFixture({ runs: 30, mode: 'target', runSubset: [1, 2, 3] });
    const t = render(target);
    assert.equal(count(t, /class="ensemble-run-mark is-target"/), 1);
    assert.equal(count(t, /is-dimmed/), 27);
    assert.doesNotMatch(t, /data-run="2"[^>]*is-dimmed|is-dimmed[^>]*data-run="2"/);
    const diff = detailFixture({ runs: 30, mode: 'diff' });
    const d = render(diff);
    assert.equal(count(d, /class="ensemble-run-mark is-baseline"/), 1);
    assert.equal(count(d, /class="ensemble-run-mark is-compare"/), 1);
    assert.equal(count(d, /is-target/), 0);
  });

  test('points are where the layout puts them, inside the plot, one scale for both axes', () => {
    const f = detailFixture({ runs: 40 });
    const html = render(f);
    const drawn = [...html.matchAll(/<circle class="ensemble-run-point[^"]*" cx="([^"]+)" cy="([^"]+)"/g)].map(m => [
      Number(m[1]),
      Number(m[2]),
    ]);
    const l = projectionLayout(f.projection, 480, 300 - 28 - 34);
    assert.deepEqual(
      drawn,
      l.px.map((x, i) => [x, l.py[i]]),
    );
    for (const [x, y] of drawn) assert.ok(x! >= 0 && x! <= 480 && y! >= 0 && y! <= 238);
    const [a, b] = [f.projection.points[0]!, f.projection.points[1]!];
    const sx = (l.px[1]! - l.px[0]!) / (b.x - a.x),
      sy = (l.py[1]! - l.py[0]!) / (b.y - a.y);
    assert.ok(Math.abs(sx + sy) < 1e-6, 'same scale on x and y (y flipped)');
  });

  test('the lasso selects exactly the runs whose points it encloses', () => {
    const f = detailFixture({ runs: 40 });
    const l = projectionLayout(f.projection, 480, 240);
    // A polygon around the left half of the points (by pixel x), as a drag path would be.
    const mid = [...l.px].sort((a, b) => a - b)[20]!;
    const left = f.projection.points
      .filter((_, i) => l.px[i]! < mid)
      .map(p => p.run)
      .sort((a, b) => a - b);
    const polygon: Point2[] = [
      [-1, -1],
      [mid - 0.01, -1],
      [mid - 0.01, 241],
      [-1, 241],
    ];
    assert.deepEqual(lassoRuns(f.projection, l, polygon), left);
    assert.deepEqual(lassoRequest(f.projection, l, polygon), { type: 'ensemble/runs', runs: left });
    // A triangle around one point only.
    const [x, y] = [l.px[7]!, l.py[7]!];
    const one = lassoRuns(f.projection, l, [
      [x - 0.5, y - 0.5],
      [x + 0.5, y - 0.5],
      [x, y + 0.5],
    ]);
    assert.deepEqual(one, [f.projection.points[7]!.run]);
    // Empty and tiny lassos post nothing.
    assert.equal(
      lassoRequest(f.projection, l, [
        [-50, -50],
        [-40, -50],
        [-40, -40],
      ]),
      null,
    );
    assert.equal(
      lassoRequest(f.projection, l, [
        [x - 1, y - 1],
        [x + 1, y - 1],
        [x, y + 1],
      ]),
      null,
      'a wobble is not a lasso',
    );
    assert.deepEqual(
      lassoRuns(f.projection, l, [
        [0, 0],
        [480, 240],
      ]),
      [],
      'two points are no polygon',
    );
  });

  test('unavailable projections say why', () => {
    const f = detailFixture({ runs: 2, projectionUnavailable: 'fewer runs (2) than clusters (3)' });
    const html = render(f);
    assert.match(html, /No projection: fewer runs \(2\) than clusters \(3\)/);
    assert.match(html, /data-drawn="0"/);
    assert.equal(count(html, /<circle/), 0);
  });

  test('controls: the input switch and Clear post their requests', () => {
    const f = detailFixture({ runs: 10, runSubset: [1, 2] });
    const posted: EnsembleRequest[] = [];
    const tree = ProjectionControls({ state: f.state, projection: f.projection, onRequest: r => posted.push(r) });
    const buttons = findElements(tree, 'button');
    const clear = buttons.find(b => b.props['data-action'] === 'clear')!;
    assert.equal(clear.props.disabled, false);
    (clear.props.onClick as () => void)();
    (buttons.find(b => b.props['data-value'] === 'structure')!.props.onClick as () => void)();
    (buttons.find(b => b.props['data-value'] === 'parameters')!.props.onClick as () => void)();
    const clusters = findElements(tree, 'select', p => p['data-action'] === 'clusters')[0]!;
    assert.equal(clusters.props.value, f.projection.k);
    (clusters.props.onChange as (e: { currentTarget: { value: string } }) => void)({ currentTarget: { value: '5' } });
    assert.deepEqual(posted, [
      { type: 'ensemble/runs', runs: null },
      { type: 'ensemble/options', options: { projectionInput: 'structure' } },
      { type: 'ensemble/options', options: { clusters: 5 } },
    ]);
    const all = ProjectionControls({
      state: { ...f.state, runs: null },
      projection: f.projection,
      onRequest: () => undefined,
    });
    assert.equal(
      findElements(all, 'button', p => p['data-action'] === 'clear')[0]!.props.disabled,
      true,
      'nothing to clear',
    );
  });
});
