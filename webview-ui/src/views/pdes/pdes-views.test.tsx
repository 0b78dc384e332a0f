/** @jsxRuntime automatic */
/**
 * Render tests of the PDES panel on the seeded ROSS-like generator (16 PEs × 16 KPs, rollback bursts
 * and a PE 7–PE 8 surge; seed acceptance tests of issue 19), through the PDES system as the panel
 * asks it: what each view draws, that boxes and labels do not overlap and keep a usable size, and
 * that a stroke's selection reaches every linked view.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PdesRunSummary, PdesViews } from '../../../../src/analysis/pdes/panel-views';
import { generateRossRun, type RossRunTruth } from '../../../../src/analysis/pdes/testing/ross-generator';
import { LocalAnalysisService } from '../../../../src/service/local-analysis-service';
import type { PdesViewState } from '../../../../src/analysis/pdes/panel-views';
import { EMPTY_PDES_PANEL_STATE } from '../../../../src/shared/pdes-protocol';
import { estimateText } from '../../text-measure';
import { NetworkPane, PdesPanelBody } from './pdes-panel-body';
import { DetailChart } from './pdes-charts';
import { CircularView, ribbonLabel } from './pdes-circular';
import { circularLayout, MARGIN } from './pdes-geometry';

let dir: string;
let truth: RossRunTruth;
const service = new LocalAnalysisService();
let dataset: number;
let run: PdesRunSummary;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-views-'));
  truth = generateRossRun(dir, { seed: 7 });
  const opened = await service.open({ path: dir });
  assert.equal(opened.system, 'pdes');
  dataset = opened.dataset;
  run = (opened as Extract<typeof opened, { system: 'pdes' }>).opened;
});
after(() => rmSync(dir, { recursive: true, force: true }));

const views = (state: PdesViewState = {}) =>
  service.systemRequest<'pdes', 'views'>({
    dataset,
    system: 'pdes',
    request: { kind: 'views', options: {}, state: { width: 800, ...state } },
  });

const render = (v: PdesViews, width = 1200) =>
  renderToStaticMarkup(
    <PdesPanelBody
      shown={{ title: 'synthetic', run, views: v, state: { ...EMPTY_PDES_PANEL_STATE }, settings: {} }}
      width={width}
      simSize={240}
      detailWidth={width - 252}
    />,
  );

const attr = (html: string, selector: RegExp, name: string): string[] =>
  [...html.matchAll(new RegExp(`<${selector.source}[^>]*?data-${name}="([^"]*)"`, 'g'))].map(m => m[1]!);

describe('PDES panel views on the seeded generator', () => {
  it('draws every view: overview, two detail views with their legends, two similarity views, a circular view per segment, the matrix, handlers', async () => {
    const v = await views();
    const html = render(v);
    const n = v.entities.ids.length;
    assert.equal(n, 256, '16 PEs × 16 KPs');
    assert.deepEqual(attr(html, /svg class="pdes-detail"/, 'lines'), [String(n), String(n)]);
    assert.deepEqual(attr(html, /svg class="pdes-similarity"/, 'points'), [String(n), String(n)]);
    assert.equal(attr(html, /svg class="pdes-circular[^"]*"/, 'segment').length, v.segments.length);
    assert.ok(v.segments.length >= 3, 'the planted bursts make segments');
    assert.equal(attr(html, /svg class="pdes-matrix"/, 'rows')[0], String(n));
    for (const l of v.details[0].legend) assert.ok(html.includes(`Cluster-${l.cluster} (${l.members})`), l.label);
    assert.match(html, new RegExp(`${n} of ${n} KPs selected`));
    assert.match(html, /data-segments="A,B,C/);
  });

  it('ranks the PE 7–PE 8 ribbon first in burst segments and not in calm ones (seed acceptance)', async () => {
    const v = await views();
    const bursts = truth.parameters.bursts;
    const inBurst = (s: { start: number; end: number }) =>
      bursts.some(b => s.start >= b.start - 2 && s.end <= b.end + 2);
    let burstSegments = 0;
    for (const seg of v.circular.segments) {
      const html = renderToStaticMarkup(<CircularView data={v.circular} view={seg} size={260} active={false} />);
      const top = attr(html, /svg class="pdes-circular[^"]*"/, 'top-ribbon')[0];
      if (inBurst(seg.segment)) {
        burstSegments++;
        assert.equal(top, 'PE 7–PE 8', `segment ${seg.segment.label} (burst)`);
      } else assert.notEqual(top, 'PE 7–PE 8', `segment ${seg.segment.label} (calm)`);
      assert.equal(ribbonLabel(v.circular, seg.ribbons[0]!), top);
    }
    assert.ok(burstSegments >= 2, 'both bursts are segments of their own');
  });

  it('a stroke selects the lines it crosses, and every linked view shows only them', async () => {
    const all = await views();
    // A vertical stroke at a middle sample, from above every line down to the lines' median there.
    const line = all.details[0];
    const mid = Math.floor(line.lines[0]!.points.length / 4) * 2;
    const x = line.lines[0]!.points[mid]!;
    const at = line.lines.map(l => l.points[mid + 1]!).sort((a, b) => a - b);
    const median = at[Math.floor(at.length / 2)]!;
    const picked = await views({
      pick: {
        view: 'detail',
        index: 0,
        points: [
          [x, at[at.length - 1]! + 1],
          [x, median + 1e-9],
        ],
      },
    });
    const k = picked.selected.length;
    assert.ok(k > 0 && k < 256, `the stroke picked ${k} lines`);
    const html = render(picked);
    assert.deepEqual(attr(html, /svg class="pdes-detail"/, 'lines'), [String(k), String(k)]);
    assert.deepEqual(attr(html, /svg class="pdes-similarity"/, 'points'), [String(k), String(k)]);
    assert.equal(attr(html, /svg class="pdes-circular[^"]*"/, 'items')[0], String(k));
    assert.match(html, new RegExp(`${k} of 256 KPs selected`));
    // Keeping unselected lines draws them dimmed in the detail views only.
    const kept = await views({ selection: picked.selection, keepUnselected: true });
    const keptHtml = render(kept);
    assert.deepEqual(attr(keptHtml, /svg class="pdes-detail"/, 'lines'), ['256', '256']);
    assert.deepEqual(attr(keptHtml, /svg class="pdes-detail"/, 'selected-lines'), [String(k), String(k)]);
  });

  it('a cluster filter keeps that cluster’s entities, its legend entries struck through for the others', async () => {
    const v = await views({ selection: { clusters: [1] } });
    const html = render(v);
    assert.equal(v.selected.length, v.clustering.sizes[1]);
    assert.equal((html.match(/pdes-legend-entry is-off/g) ?? []).length, 2 * (v.clustering.sizes.length - 1));
  });

  it('keeps axis tick labels apart and ring items inside their PE arcs, with usable sizes', async () => {
    const v = await views();
    for (const width of [520, 900, 1600]) {
      const html = renderToStaticMarkup(
        <DetailChart
          data={v.details[0]}
          width={width}
          height={200}
          title=""
          onStroke={() => undefined}
          onClusterMenu={() => undefined}
        />,
      );
      const xs = [...html.matchAll(/<text x="([\d.]+)" y="([\d.]+)" text-anchor="middle">([^<]*)<\/text>/g)].filter(
        m => Number(m[2]) > 150,
      );
      assert.ok(xs.length >= 2, `x ticks at width ${width}`);
      for (let i = 1; i < xs.length; i++) {
        const gap = Number(xs[i]![1]) - Number(xs[i - 1]![1]);
        const need = (estimateText(xs[i]![3]!, 'detail') + estimateText(xs[i - 1]![3]!, 'detail')) / 2;
        assert.ok(gap >= need, `tick labels ${xs[i - 1]![3]} and ${xs[i]![3]} overlap at width ${width}`);
      }
      for (const m of xs) {
        assert.ok(Number(m[1]) >= MARGIN.left - 1 && Number(m[1]) <= width - MARGIN.right + 1, 'tick inside the plot');
      }
    }
    const layout = circularLayout(v.circular.groups, v.circular.items.length);
    for (let g = 1; g < layout.groups.length; g++)
      assert.ok(layout.groups[g]!.start > layout.groups[g - 1]!.end, 'PE arcs do not overlap');
    assert.ok(layout.groups[layout.groups.length - 1]!.end <= 2 * Math.PI);
    v.circular.groups.forEach((g, i) => {
      const arc = layout.groups[i]!;
      for (let k = g.first; k < g.first + g.count; k++) {
        const a = layout.itemAngle[k]!;
        assert.ok(a > arc.start && a < arc.end, `item ${k} inside ${g.label}'s arc`);
      }
      assert.ok(v.circular.clusters.length === v.circular.items.length);
    });
    assert.ok(layout.itemWidth * 260 * 0.4 >= 1, 'a ring item is at least a pixel wide on a 260 px view');
  });

  it('draws the dragonfly with the shared topology component: groups, routers, links by traffic, selected routers marked', async () => {
    const dfDir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-df-'));
    try {
      generateRossRun(dfDir, {
        seed: 5,
        pes: 2,
        kpsPerPe: 2,
        ticks: 12,
        eventsPerKp: 3,
        dragonfly: { groups: 3, routersPerGroup: 2, terminalsPerRouter: 1, globalChannelsPerRouter: 1 },
      });
      const o = await service.open({ path: dfDir });
      const dfRun = (o as Extract<typeof o, { system: 'pdes' }>).opened;
      const ask = (state: PdesViewState) =>
        service.systemRequest<'pdes', 'views'>({
          dataset: o.dataset,
          system: 'pdes',
          request: { kind: 'views', options: {}, state: { width: 600, ...state } },
        });
      const all = await ask({});
      assert.ok(all.network, 'a CODES run has a network view');
      assert.equal(all.network.data.layout, 'dragonfly');
      const html = renderToStaticMarkup(<NetworkPane run={dfRun} views={all} size={320} />);
      assert.match(html, /data-available="true"/);
      assert.match(html, /data-topology-layout="dragonfly"/);
      const kinds = [...html.matchAll(/data-kind="(\w+)"/g)].map(m => m[1]);
      assert.equal(kinds.filter(k => k === 'group').length, 3, 'three groups');
      assert.ok(kinds.filter(k => k === 'router').length >= 6, 'their routers');
      assert.match(html, /3 groups × 2 routers × 1 terminals/);
      // Every router of the run's LPs is selected while everything is; one PE's KPs select fewer.
      const allSelected = all.network.data.selected.length;
      const some = await ask({ selection: { entities: [0] } });
      assert.ok(some.network!.data.selected.length < allSelected, 'fewer routers for one KP');
      await service.close({ dataset: o.dataset });
    } finally {
      rmSync(dfDir, { recursive: true, force: true });
    }
  });

  it('leaves out a dragonfly that cannot be built, with a note, and draws everything else', async () => {
    const dfDir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-bad-df-'));
    try {
      generateRossRun(dfDir, {
        seed: 5,
        pes: 2,
        kpsPerPe: 2,
        ticks: 12,
        eventsPerKp: 3,
        dragonfly: { groups: 4, routersPerGroup: 2, terminalsPerRouter: 2, globalChannelsPerRouter: 1 },
      });
      const o = await service.open({ path: dfDir });
      const v = await service.systemRequest<'pdes', 'views'>({
        dataset: o.dataset,
        system: 'pdes',
        request: { kind: 'views', options: {}, state: {} },
      });
      assert.equal(v.network, null);
      assert.ok(
        v.notes.some(n => /dragonfly view is left out: .*cannot reach the other 3 groups/.test(n)),
        v.notes.join('\n'),
      );
      assert.ok(v.details[0].lines.length > 0);
      await service.close({ dataset: o.dataset });
    } finally {
      rmSync(dfDir, { recursive: true, force: true });
    }
  });

  it('says so when the run names no dragonfly', async () => {
    const v = await views();
    assert.equal(v.network, null);
    const html = renderToStaticMarkup(<NetworkPane run={run} views={v} size={300} />);
    assert.match(html, /data-available="false"/);
    assert.match(html, /no dragonfly network/);
  });
});
