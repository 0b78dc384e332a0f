/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { scaleLinear } from 'd3';
import type { EnsembleRequest } from '../../../../src/shared/ensemble-protocol';
import {
  boxGeometry,
  CallSiteBoxesView,
  CallSiteControls,
  parseIqrFactor,
  sharedDomain,
  sortCallSites,
} from './call-site-boxes-view';
import { detailFixture } from './testing/detail-fixture';
import { findElements } from './testing/element-tree';

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;
const num = (s: string | undefined): number => Number(s);

function render(f: ReturnType<typeof detailFixture>, width = 640, height = 2000) {
  return renderToStaticMarkup(
    <CallSiteBoxesView
      data={f.data}
      state={f.state}
      detail={f.detail}
      width={width}
      height={height}
      onRequest={() => undefined}
      onOpenSource={() => undefined}
    />,
  );
}

/** The parts of one drawn box plot (`className` ensemble-box is-ensemble / is-target) in a row's markup. */
function parts(rowHtml: string, which: 'is-ensemble' | 'is-target') {
  const g = rowHtml.match(new RegExp(`<g class="ensemble-box ${which}">(.*?)</g>`))?.[1];
  if (!g) return null;
  const whiskers = [...g.matchAll(/<line class="ensemble-box-whisker" x1="([^"]+)" x2="([^"]+)"/g)].map(m => [
    num(m[1]),
    num(m[2]),
  ]);
  const rect = g.match(/<rect class="ensemble-box-iqr" x="([^"]+)" y="[^"]+" width="([^"]+)"/)!;
  return {
    whisker: whiskers[0]!,
    box: [num(rect[1]), num(rect[1]) + num(rect[2])],
    median: num(g.match(/<line class="ensemble-box-median" x1="([^"]+)"/)![1]),
    outliers: [...g.matchAll(/<circle class="ensemble-box-outlier" cx="([^"]+)"/g)].map(m => num(m[1])),
  };
}

const rows = (html: string): string[] => html.split('<g class="ensemble-box-row').slice(1);

describe('box geometry', () => {
  test('the parts sit at their statistics on the scale', () => {
    const f = detailFixture({ runs: 12, callSites: 4 });
    const b = f.detail.callSites[0]!.ensemble;
    const x = scaleLinear().domain([0, b.max]).range([100, 500]);
    const g = boxGeometry(b, x);
    assert.equal(g.median, x(b.median));
    assert.deepEqual(g.box, [x(b.q1), x(b.q3)]);
    assert.deepEqual(g.whisker, [x(b.whiskerLow), x(b.whiskerHigh)]);
    assert.equal(g.outliers.length, b.outliers.length);
  });

  test('the shared domain covers every box, target boxes included; a point domain is padded', () => {
    const f = detailFixture({ mode: 'target' });
    const [lo, hi] = sharedDomain(f.detail.callSites);
    for (const c of f.detail.callSites)
      for (const s of [c.ensemble, c.target]) if (s) assert.ok(s.min >= lo && s.max <= hi);
    const one = {
      ...f.detail.callSites[0]!,
      ensemble: { ...f.detail.callSites[0]!.ensemble, min: 2, max: 2 },
      target: undefined,
    };
    assert.deepEqual(sharedDomain([one]), [1.8, 2.2]);
  });
});

describe('call-site boxes view', () => {
  test('one box per call site: median line at the median, whiskers at the whisker ends, outliers beyond them', () => {
    const f = detailFixture({ runs: 24, callSites: 8 });
    const html = render(f);
    assert.match(html, /data-ensemble-view="boxes" data-drawn="8"/);
    const sorted = sortCallSites(f.detail.callSites, 'mean');
    const r = rows(html);
    assert.equal(r.length, 8);
    let outliersSeen = 0;
    r.forEach((row, i) => {
      const s = sorted[i]!.ensemble;
      const p = parts(row, 'is-ensemble')!;
      // Pixels are a linear map of values: recover it from the box and check the rest against it.
      const k = (p.box[1]! - p.box[0]!) / (s.q3 - s.q1);
      const at = (v: number) => p.box[0]! + (v - s.q1) * k;
      if (s.q3 > s.q1) {
        assert.ok(Math.abs(p.median - at(s.median)) < 1e-6, `median of row ${i}`);
        assert.ok(
          Math.abs(p.whisker[0]! - at(s.whiskerLow)) < 1e-6 && Math.abs(p.whisker[1]! - at(s.whiskerHigh)) < 1e-6,
          `whiskers of row ${i}`,
        );
      }
      assert.ok(p.whisker[0]! <= p.box[0]! + 1e-9 && p.whisker[1]! >= p.box[1]! - 1e-9, 'whiskers reach past the box');
      assert.equal(p.outliers.length, s.outliers.length);
      for (const o of p.outliers)
        assert.ok(o < p.whisker[0]! || o > p.whisker[1]!, 'an outlier lies beyond the whiskers');
      outliersSeen += p.outliers.length;
      // min / median / max as text.
      assert.equal(count(row, /class="ensemble-box-label"/), 3);
    });
    assert.ok(outliersSeen > 0, 'the fixture has outliers to check');
    assert.equal(count(html, /is-target/), 0, 'no target overlay outside target mode');
  });

  test('target mode draws the target box over the ensemble box, only where the target has the call site', () => {
    const f = detailFixture({ runs: 24, callSites: 8, mode: 'target', missingInTarget: [5] });
    const withTarget = f.detail.callSites.filter(c => c.target).length;
    assert.ok(withTarget > 0 && withTarget < 8);
    const html = render(f);
    assert.equal(count(html, /<g class="ensemble-box is-target">/), withTarget);
    // Drawn after (over) the ensemble box of the same row.
    for (const row of rows(html)) {
      const e = row.indexOf('ensemble-box is-ensemble'),
        t = row.indexOf('ensemble-box is-target');
      if (t >= 0) assert.ok(t > e);
    }
    assert.match(html, /∅ in target/);
    // Same data, summary mode: no overlay.
    assert.equal(count(render({ ...f, state: { ...f.state, mode: 'summary' } }), /ensemble-box is-target/), 0);
  });

  test('rows follow the sort option; the truncation is said', () => {
    const f = detailFixture({ callSites: 6, options: { callSiteSort: 'name' }, truncated: { callSites: 9 } });
    const html = render(f);
    const names = [...html.matchAll(/class="ensemble-box-name[^"]*"[^>]*>([^<]+)</g)].map(m => m[1]);
    assert.deepEqual(
      names,
      [...f.detail.callSites.map(c => c.name)].sort((a, b) => a.localeCompare(b)),
    );
    assert.match(html, /9 more call sites/);
    for (const sort of ['mean', 'max', 'imbalance', 'variance'] as const) {
      const v = sortCallSites(f.detail.callSites, sort).map(c => c.ensemble[sort]);
      assert.deepEqual(
        v,
        [...v].sort((a, b) => b - a),
        sort,
      );
    }
  });

  test('fits its box: no label beyond the width, with 50 call sites and 1,000 runs', () => {
    const f = detailFixture({ runs: 1000, callSites: 50, maxRanks: 2 });
    const html = render(f, 420, 260);
    assert.match(html, /data-drawn="50"/);
    for (const m of html.matchAll(
      /<text class="ensemble-box-label" x="([^"]+)"[^>]*text-anchor="(start|end|middle)">([^<]+)</g,
    )) {
      const x = num(m[1]),
        w = m[3]!.length * 11 * 0.56;
      const [l, r] = m[2] === 'start' ? [x, x + w] : m[2] === 'end' ? [x - w, x] : [x - w / 2, x + w / 2];
      assert.ok(l >= -1 && r <= 421, `label ${m[3]} at ${l}..${r}`);
    }
  });
});

describe('call-site controls', () => {
  test('the sort dropdown and the IQR factor post option requests', () => {
    const f = detailFixture();
    const posted: EnsembleRequest[] = [];
    const tree = CallSiteControls({ state: f.state, onRequest: r => posted.push(r) });
    const [select] = findElements(tree, 'select');
    assert.deepEqual(
      findElements(select, 'option').map(o => o.props.value),
      ['mean', 'max', 'imbalance', 'variance', 'name'],
    );
    (select!.props.onChange as (e: unknown) => void)({ currentTarget: { value: 'imbalance' } });
    const [input] = findElements(tree, 'input');
    const field = (value: string) => ({
      value,
      title: '',
      attrs: {} as Record<string, string>,
      setAttribute(k: string, v: string) {
        this.attrs[k] = v;
      },
    });
    const ok = field('3');
    (input!.props.onBlur as (e: unknown) => void)({ currentTarget: ok });
    const bad = field('-1');
    (input!.props.onKeyDown as (e: unknown) => void)({ key: 'Enter', currentTarget: bad });
    const same = field('1.5');
    (input!.props.onBlur as (e: unknown) => void)({ currentTarget: same });
    assert.deepEqual(posted, [
      { type: 'ensemble/options', options: { callSiteSort: 'imbalance' } },
      { type: 'ensemble/options', options: { iqrFactor: 3 } },
    ]);
    assert.equal(bad.attrs['aria-invalid'], 'true');
    assert.equal(ok.attrs['aria-invalid'], 'false');
  });

  test('IQR factor parsing', () => {
    assert.equal(parseIqrFactor(' 2,5 '), 2.5);
    assert.equal(parseIqrFactor('0'), null);
    assert.equal(parseIqrFactor('abc'), null);
    assert.equal(parseIqrFactor('11'), null);
  });
});
