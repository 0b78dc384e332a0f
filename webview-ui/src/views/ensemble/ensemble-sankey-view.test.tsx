/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { hsl } from 'd3';
import { kernelEnsembleGraph } from '../../../../src/analysis/ensemble/testing/kernel-ensemble';
import type { EnsembleGraphData, EnsembleRequest, EnsembleViewState } from '../../../../src/shared/ensemble-protocol';
import { estimateText } from '../../text-measure';
import { countColour, EMPTY_BIN_COLOUR } from './ensemble-colours';
import { ENSEMBLE_NODE_WIDTH, layoutEnsemble, layoutKey, runsInBin, targetLineY } from './ensemble-sankey-layout';
import { BinPopover, EnsembleLegend, NodeTooltip, nodeMenuItems } from './ensemble-sankey-parts';
import { EnsembleSankeyView, LEGEND_HEIGHT } from './ensemble-sankey-view';
import { ensembleGraphFixture, taperedEdgeFixture } from './testing/graph-fixture';
import { hostElements } from './testing/element-tree';
import { only, textOf } from './testing/element-text';

const W = 1200,
  H = 600;
function render(
  f: { data: EnsembleGraphData; state: EnsembleViewState },
  extra: { highlight?: string[] } = {},
): string {
  return renderToStaticMarkup(
    <EnsembleSankeyView
      data={f.data}
      state={f.state}
      width={W}
      height={H}
      onRequest={() => undefined}
      onOpenSource={() => undefined}
      measureText={estimateText}
      {...extra}
    />,
  );
}
const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

/** Each drawn node's group markup, by id. */
function nodeGroups(html: string): Map<string, string> {
  const out = new Map<string, string>();
  const nodes = html.slice(html.indexOf('<g class="ens-nodes">'), html.indexOf('<g class="ens-labels"'));
  for (const p of nodes.split(/<g class="ens-node(?=[ "])/).slice(1))
    out.set(p.match(/data-node-id="([^"]+)" tabindex/)![1]!, p);
  return out;
}
function rectOf(group: string): { x: number; y: number; w: number; h: number; fill: string } {
  const m = group.match(
    /<rect class="ens-node-rect" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)" fill="([^"]+)"/,
  )!;
  return { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]), fill: m[5]! };
}
/** Stop colours and counts of a node's gradient. */
function stopsOf(html: string, id: string): { colour: string; count: number; offset: number }[] {
  const g = html.match(
    new RegExp(`<linearGradient[^>]*class="ens-gradient" data-node-id="${id}"[^>]*>(.*?)</linearGradient>`),
  )![1]!;
  return [...g.matchAll(/<stop offset="([^"]+)" stop-color="([^"]+)" data-count="(\d+)"/g)].map(m => ({
    offset: Number(m[1]),
    colour: m[2]!,
    count: Number(m[3]),
  }));
}

describe('EnsembleSankeyView: structure', () => {
  const f = ensembleGraphFixture({ runs: 18, bimodal: ['libm'] });
  const html = render(f);

  test('one node, ribbon and gradient per node and link; the root says how many were drawn', () => {
    assert.match(
      html,
      new RegExp(`^<div class="ens-sankey is-summary" data-ensemble-view="sankey" data-drawn="${f.data.nodes.length}"`),
    );
    assert.equal(count(html, /<g class="ens-node[ "]/), f.data.nodes.length);
    assert.equal(count(html, /<path class="ens-link[ "]/), f.data.links.length);
    assert.equal(count(html, /class="ens-gradient"/), f.data.nodes.length);
    assert.equal(count(html, /class="ens-target-link"|class="ens-target-line"/), 0, 'no target marks in summary mode');
    assert.match(html, new RegExp(`<svg class="ens-svg"[^>]* width="${W}" height="${H - LEGEND_HEIGHT}"`));
  });

  test('bars are as tall as their max inclusive value, with a 3 px border of the max exclusive', () => {
    const groups = nodeGroups(html);
    const scale = rectOf(groups.get('lulesh')!).h / f.data.nodes.find(n => n.id === 'lulesh')!.maxInclusive;
    for (const n of f.data.nodes) {
      const r = rectOf(groups.get(n.id)!);
      assert.equal(r.w, ENSEMBLE_NODE_WIDTH);
      assert.ok(Math.abs(r.h - Math.max(3, n.maxInclusive * scale)) < 1e-6, n.id);
      assert.match(r.fill, /^url\(#ens[A-Za-z0-9_-]*-g\d+\)$/);
      assert.match(groups.get(n.id)!, /<rect class="ens-node-border"[^>]*stroke="#[0-9a-f]{6}"/);
    }
    assert.match(html, /aria-label="CalcForce: inclusive [^"]+ over 18 of 18 runs, max exclusive [^"]+\."/);
  });

  test('AT-7: a bimodal node is dark at the top and bottom of its gradient and light between', () => {
    const libm = f.data.nodes.find(n => n.id === 'libm')!;
    const counts = libm.gradient.inclusive.counts;
    assert.deepEqual([counts[0], counts[counts.length - 1], counts.slice(1, -1).every(c => c === 0)], [9, 9, true]);
    const stops = stopsOf(html, 'libm');
    assert.equal(stops.length, counts.length);
    assert.ok(hsl(stops[0]!.colour).l < 0.45 && hsl(stops[stops.length - 1]!.colour).l < 0.45);
    for (const s of stops.slice(1, -1)) assert.equal(s.colour, EMPTY_BIN_COLOUR);
    assert.deepEqual(
      stops.map(s => s.offset),
      counts.map((_, i) => Number(((i + 0.5) / counts.length).toFixed(4))),
    );
  });

  test('one count → colour scale for every node (§4.2)', () => {
    const colourOfCount = new Map<number, string>();
    for (const n of f.data.nodes)
      for (const s of stopsOf(html, n.id)) {
        const seen = colourOfCount.get(s.count);
        if (seen) assert.equal(s.colour, seen, `count ${s.count} on ${n.id}`);
        else colourOfCount.set(s.count, s.colour);
        assert.equal(s.colour, countColour(s.count, f.data.countScale.inclusive));
      }
    // A node whose fullest bin holds fewer runs than the global maximum is never as dark as the darkest node.
    const lulesh = Math.max(...f.data.nodes.find(n => n.id === 'lulesh')!.gradient.inclusive.counts);
    assert.ok(lulesh < f.data.countScale.inclusive);
    assert.ok(
      Math.min(...stopsOf(html, 'lulesh').map(s => hsl(s.colour).l)) >
        Math.min(...stopsOf(html, 'libm').map(s => hsl(s.colour).l)),
    );
  });

  test('the selection and revealed nodes are outlined; the legend explains fill and border', () => {
    const marked = render({ ...f, state: { ...f.state, selected: 'MPI' } }, { highlight: ['CalcForce'] });
    assert.match(nodeGroups(marked).get('MPI')!, /class="ens-node-selected"/);
    assert.match(nodeGroups(marked).get('CalcForce')!, /class="ens-node-revealed"/);
    assert.match(marked, /Fill: runs per bin \(inclusive/);
    assert.match(marked, /Border: max exclusive/);
  });

  test('an empty graph says so and draws nothing', () => {
    const empty = render({ data: { ...f.data, nodes: [], links: [] }, state: f.state });
    assert.match(empty, /data-drawn="0"/);
    assert.match(empty, /No call flow to show/);
  });
});

describe('EnsembleSankeyView: text guides and ordered ensembles', () => {
  const f = ensembleGraphFixture({ runs: 16, orderBy: 'ranks', bins: 10, options: { textGuides: true } });
  const html = render(f);
  const mpi = f.data.nodes.find(n => n.id === 'MPI')!;
  const runIndex = (name: string) => f.data.runs.find(r => r.name === name)!.index;
  const binOfRun = (run: number) =>
    Array.from({ length: 10 }, (_, b) => b).find(b => runsInBin(f.data, mpi, 'inclusive', b)!.includes(run))!;

  test('every bin is a click target; run counts and min/max are written on the bars', () => {
    const bins = f.data.nodes.reduce((s, n) => s + n.gradient.inclusive.counts.length, 0);
    assert.equal(count(html, /<rect class="ens-bin" data-bin=/), bins);
    assert.ok(count(html, /class="ens-bin-count"/) > 0);
    // The root's counts are all written (its bins are tall).
    const root = nodeGroups(html).get('lulesh')!;
    const written = [...root.matchAll(/class="ens-bin-count"[^>]*>(\d+)</g)].map(m => Number(m[1]));
    assert.deepEqual(
      written,
      f.data.nodes[0]!.gradient.inclusive.counts.filter(c => c > 0),
    );
    assert.match(html, /class="ens-guide-text"[^>]*>min 8\.\d+ s</);
    assert.match(html, /class="ens-guide-text"[^>]*>max 1\d\.\d s</);
  });

  test('AT-8: the runs of each bin are listed by name; the 343-rank run sits below the 216-rank run', () => {
    assert.ok(binOfRun(runIndex('clang_343')) < binOfRun(runIndex('clang_216')));
    assert.ok(binOfRun(runIndex('gcc_343')) < binOfRun(runIndex('gcc_216')));
    // Every selected run is in exactly one bin, and the bins hold the histogram's counts.
    const all = Array.from({ length: 10 }, (_, b) => runsInBin(f.data, mpi, 'inclusive', b)!);
    assert.deepEqual(
      all.map(r => r.length),
      mpi.gradient.inclusive.counts,
    );
    assert.deepEqual(
      all.flat().sort((a, b) => a - b),
      f.data.selectedRuns,
    );

    const bin = binOfRun(runIndex('clang_343'));
    const sent: EnsembleRequest[] = [];
    let closed = 0;
    const pop = BinPopover({
      data: f.data,
      node: mpi,
      side: 'inclusive',
      bin,
      onRequest: r => sent.push(r),
      onClose: () => {
        closed++;
      },
      at: { left: 0, top: 0 },
    });
    const names = hostElements(pop)
      .filter(e => e.type === 'li')
      .map(e => textOf(e));
    assert.deepEqual(
      names,
      all[bin]!.map(r => f.data.runs[r]!.name),
    );
    assert.ok(names.includes('clang_343'));
    (only(pop, e => e.props['data-action'] === 'only-these-runs', 'action').props.onClick as () => void)();
    assert.deepEqual(sent, [{ type: 'ensemble/runs', runs: all[bin] }]);
    assert.equal(closed, 1);
  });

  test('without per-run values the popover says why it cannot list names', () => {
    const g = ensembleGraphFixture({ runs: 16, withoutRunValues: true });
    const node = g.data.nodes[0]!;
    assert.equal(runsInBin(g.data, node, 'inclusive', 0), null);
    const pop = BinPopover({
      data: g.data,
      node,
      side: 'inclusive',
      bin: 0,
      onRequest: () => undefined,
      onClose: () => undefined,
      at: { left: 0, top: 0 },
    });
    assert.match(textOf(pop), /narrow the run subset/);
    assert.equal(only(pop, e => e.props['data-action'] === 'only-these-runs', 'action').props.disabled, true);
  });

  test('ordered ensemble: sparklines in the guides and the tooltip, out-of-order nodes flagged', () => {
    assert.ok(mpi.sparkline!.outOfOrder, 'the fixture makes MPI out of order');
    assert.ok(count(html, /<svg class="ens-sparkline/) >= 3, 'sparklines beside the bars');
    assert.match(html, /<svg class="ens-sparkline is-out-of-order/);
    const tip = renderToStaticMarkup(<NodeTooltip data={f.data} node={mpi} state={f.state} labelOf={id => id} />);
    assert.match(tip, /inclusive by ranks \(8 → 729\)/);
    assert.match(tip, /out of order/);
    assert.equal(count(tip, /<circle class="ens-sparkline-dot"/), f.data.order!.levels.length);
    // Guides off: the flag alone marks the node.
    const flagged = render({ ...f, state: { ...f.state, options: { ...f.state.options, textGuides: false } } });
    assert.equal(count(flagged, /class="ens-ooo-flag"/), f.data.nodes.filter(n => n.sparkline?.outOfOrder).length);
    assert.equal(count(flagged, /class="ens-bin"/), 0);
  });

  test('runs without the ordering parameter are listed as unordered in the legend, never at a level', () => {
    const unordered = [f.data.runs[0]!.index, f.data.runs[1]!.index];
    const data = { ...f.data, order: { ...f.data.order!, unordered } };
    const legend = renderToStaticMarkup(<EnsembleLegend data={data} state={f.state} />);
    const names = unordered.map(r => f.data.runs[r]!.name);
    assert.match(legend, new RegExp(`2 unordered \\(no ${f.data.order!.key}\\): ${names.join(', ')}`));
    assert.doesNotMatch(renderToStaticMarkup(<EnsembleLegend data={f.data} state={f.state} />), /unordered/);
  });
});

describe('EnsembleSankeyView: target mode', () => {
  const f = ensembleGraphFixture({ runs: 12, target: 5, missing: [{ node: 'io', runs: [5] }] });
  const html = render(f);
  const groups = nodeGroups(html);

  test("a green target line at the centre of the target's bin of every node present in the target", () => {
    const present = f.data.nodes.filter(n => n.target!.inclusive !== null);
    assert.equal(count(html, /class="ens-target-line"/), present.length);
    for (const n of present) {
      const r = rectOf(groups.get(n.id)!);
      const y = Number(groups.get(n.id)!.match(/class="ens-target-line"[^>]* y1="([^"]+)"/)![1]);
      const bins = n.gradient.inclusive.counts.length;
      assert.ok(Math.abs(y - (r.y + ((n.target!.binInclusive + 0.5) * r.h) / bins)) < 1e-9, n.id);
      assert.equal(y, targetLineY(r.y, r.y + r.h, n.target!.binInclusive, bins));
    }
    assert.equal(targetLineY(100, 300, 0, 20), 105, 'bin 0 (the lowest values) at the top');
  });

  test('a node missing in the target is hatched, without a gradient or target line', () => {
    const io = groups.get('io')!;
    assert.match(rectOf(io).fill, /-hatch\)$/);
    assert.doesNotMatch(io, /ens-target-line/);
    assert.match(io, /^ is-missing-target"/);
    assert.equal(count(html, /class="ens-gradient"/), f.data.nodes.length - 1);
  });

  test('green target ribbons over the grey ensemble ribbons, as tall as their share of the max flow', () => {
    const withFlow = f.data.links.filter(l => (l.targetValue ?? 0) > 0);
    assert.equal(count(html, /class="ens-target-link"/), withFlow.length);
    const layout = layoutEnsemble(f.data, W, H - LEGEND_HEIGHT);
    const pairs = [
      ...html.matchAll(
        /<path class="ens-link[^"]*" d="([^"]+)"[^>]*><\/path><path class="ens-target-link" d="([^"]+)"/g,
      ),
    ];
    assert.equal(pairs.length, withFlow.length);
    for (const [i, l] of layout.links.entries()) {
      const e = f.data.links[layout.callflow.edges[i]!.index]!;
      if (!e.targetValue) continue;
      const start = (d: string) =>
        d
          .match(/^M([^,]+),([^C]+)C/)!
          .slice(1)
          .map(Number);
      const pair = pairs.find(p => p[1] === l.path)!;
      assert.deepEqual(start(pair[2]!), start(pair[1]!), 'starts at the top of the ensemble ribbon');
      assert.ok(e.targetValue <= e.value + 1e-12);
    }
    assert.match(html, /#4DAF4A/);
    // The theme token first (a theme may recolour the target), CallFlow's green when it has none.
    assert.match(html, /fill:var\(--vscode-hpcLens-ensembleTarget, #4DAF4A\)/);
  });
});

describe('EnsembleSankeyView: diff mode', () => {
  // clang_216 → clang_343: MPI gets faster, libm (bimodal: low in even runs, high in odd ones) slower.
  const a = ensembleGraphFixture({ runs: 16, bimodal: ['libm'], diff: { baseline: 4, compare: 5 } });
  const b = ensembleGraphFixture({ runs: 16, bimodal: ['libm'], diff: { baseline: 9, compare: 14 } });
  const htmlA = render(a),
    htmlB = render(b);

  test('AT-9: slower nodes are red, faster nodes green, on a scale symmetric about 0', () => {
    const groups = nodeGroups(htmlA);
    const M = a.data.diffDomain!;
    assert.equal(M, Math.max(...a.data.nodes.map(n => Math.abs(n.diff!.exclusive!))));
    let red = 0,
      green = 0;
    for (const n of a.data.nodes) {
      const d = n.diff!.exclusive!;
      const { h } = hsl(rectOf(groups.get(n.id)!).fill);
      if (Math.abs(d) < 0.25 * M) continue;
      if (d > 0) {
        red++;
        assert.ok(h < 25 || h > 335, `${n.id} +${d} → ${h}`);
      } else {
        green++;
        assert.ok(h > 80 && h < 160, `${n.id} ${d} → ${h}`);
      }
    }
    assert.ok(green >= 1 && red >= 1, `${red} red, ${green} green`);
    assert.equal(count(htmlA, /class="ens-gradient"/), 0, 'diff fills replace the gradients');
    assert.match(htmlA, /clang_343 − clang_216/);
    assert.match(htmlA, /<span>−[^<]+<\/span><span>0<\/span><span>\+[^<]+<\/span>/, 'legend from −M to +M');
  });

  test('AT-10: another pair keeps every node where it was', () => {
    assert.equal(layoutKey(a.data), layoutKey(b.data));
    const ga = nodeGroups(htmlA),
      gb = nodeGroups(htmlB);
    assert.equal(ga.size, gb.size);
    for (const [id, g] of ga) {
      const ra = rectOf(g),
        rb = rectOf(gb.get(id)!);
      assert.deepEqual([ra.x, ra.y, ra.w, ra.h], [rb.x, rb.y, rb.w, rb.h], id);
      assert.notEqual(ra.fill === rb.fill && id === 'MPI', true, 'the colours do change');
    }
    // And the same as the summary mode's layout.
    const summary = nodeGroups(render({ data: a.data, state: { ...a.state, mode: 'summary', diff: null } }));
    for (const [id, g] of ga) assert.deepEqual(rectOf(g).y, rectOf(summary.get(id)!).y);
  });
});

describe('ensemble layout', () => {
  test("AT-14: the tapered ends of LIB1's ribbons (maxima 20 + 10 + 35 > 40) never exceed LIB1", () => {
    const { data } = taperedEdgeFixture();
    const layout = layoutEnsemble(data, W, H - LEGEND_HEIGHT);
    const lib1 = layout.nodes.find(n => n.id === 'LIB1')!;
    const out = layout.links.filter(l => l.source.id === 'LIB1');
    assert.equal(out.length, 3);
    const ends = out.reduce((s, l) => s + (l.sourceY1 - l.sourceY0), 0);
    assert.ok(ends <= lib1.y1 - lib1.y0 + 1e-6, `${ends} > ${lib1.y1 - lib1.y0}`);
    for (const l of out) {
      assert.ok(l.sourceY0 >= lib1.y0 - 1e-6 && l.sourceY1 <= lib1.y1 + 1e-6, 'inside LIB1');
      assert.ok(l.targetY1 - l.targetY0 <= l.target.y1 - l.target.y0 + 1e-6, `inside ${l.target.id}`);
      assert.ok(l.tapered, `${l.target.id} tapers`);
    }
    // LIB4's max flow (35) is most of LIB1's: its end is the largest.
    const width = (id: string) => {
      const l = out.find(x => x.target.id === id)!;
      return l.sourceY1 - l.sourceY0;
    };
    assert.ok(width('LIB4') > width('LIB2') && width('LIB2') > width('LIB3'));
    const html = render(taperedEdgeFixture());
    for (const l of out) assert.ok(html.includes(`d="${l.path}"`), "the view draws the layout's ribbons");
    assert.equal(count(html, /class="ens-link is-tapered"/), 3);
  });

  test('the layout input ignores the mode, the target and the diff', () => {
    const plain = ensembleGraphFixture({ runs: 10 });
    const target = ensembleGraphFixture({ runs: 10, target: 3 });
    assert.equal(layoutKey(plain.data), layoutKey(target.data));
    assert.notEqual(
      layoutKey(plain.data),
      layoutKey(ensembleGraphFixture({ runs: 10, selectedRuns: [0, 1, 2] }).data),
      'a run subset changes the maxima',
    );
  });
});

describe('node menu', () => {
  const f = ensembleGraphFixture({ runs: 6 });
  test('split by entry / caller, un-split by base id, open the hottest entry with a location', () => {
    const sent: EnsembleRequest[] = [];
    const opened: unknown[] = [];
    const mpi = f.data.nodes.find(n => n.id === 'MPI')!;
    const items = nodeMenuItems(
      f.data,
      mpi,
      r => sent.push(r),
      (...a) => opened.push(a),
    );
    const run = (label: RegExp) => items.find(i => label.test(i.label))!.run();
    run(/^Split by entry function \(3\)/);
    run(/^Split by caller \(2\)/);
    assert.deepEqual(sent, [
      { type: 'ensemble/split', nodeId: 'MPI', mode: 'entry' },
      { type: 'ensemble/split', nodeId: 'MPI', mode: 'caller' },
    ]);
    assert.ok(!items.some(i => /Un-split/.test(i.label)), 'nothing to un-split');
    assert.ok(items.find(i => /^Open source/.test(i.label))!.disabled, 'MPI entries have no source location');

    const part = {
      ...f.data.nodes.find(n => n.id === 'CalcForce')!,
      id: 'CalcForce/CalcForceForNodes',
      kind: 'entry' as const,
      baseId: 'CalcForce',
    };
    const partItems = nodeMenuItems(
      f.data,
      part,
      r => sent.push(r),
      (...a) => opened.push(a),
    );
    partItems.find(i => i.label === 'Un-split')!.run();
    partItems.find(i => /^Open source/.test(i.label))!.run();
    assert.deepEqual(sent.at(-1), { type: 'ensemble/unsplit', nodeId: 'CalcForce' });
    // By reference into the data sent (the host looks up lulesh.cc:1240 itself): the part's hottest located entry.
    const hottest = part.entries.findIndex(
      e => e.name === 'CalcForceForNodes' && e.file === 'lulesh.cc' && e.line === 1240,
    );
    assert.ok(hottest >= 0);
    assert.deepEqual(opened, [[{ kind: 'entry', nodeId: 'CalcForce/CalcForceForNodes', entry: hottest }]]);
  });
});

type Box = { id: string; x: number; y: number; w: number; h: number };
const boxes = (html: string, re: RegExp): Box[] =>
  [...html.matchAll(re)].map(m => ({ id: m[1]!, x: +m[2]!, y: +m[3]!, w: +m[4]!, h: +m[5]! }));
const apart = (a: Box, b: Box) =>
  a.x >= b.x + b.w - 0.5 || b.x >= a.x + a.w - 0.5 || a.y >= b.y + b.h - 0.5 || b.y >= a.y + a.h - 0.5;

describe('EnsembleSankeyView at 60 nodes per column (issue 15)', () => {
  const f = kernelEnsembleGraph();
  for (const [w, h] of [
    [1200, 650],
    [900, 520],
  ] as const)
    test(`${w}×${h}: the lightest kernels merge into a "more" bar; bars ≥ 4 px, no bars or labels overlapping`, () => {
      assert.ok(f.data.nodes.length >= 60, `${f.data.nodes.length} nodes`);
      const html = renderToStaticMarkup(
        <EnsembleSankeyView
          data={f.data}
          state={f.state}
          width={w}
          height={h}
          onRequest={() => undefined}
          onOpenSource={() => undefined}
          measureText={estimateText}
        />,
      );
      const more = count(html, /class="sankey-node is-more/);
      const merged = Number(html.match(/data-merged="(\d+)"/)![1]);
      assert.ok(more >= 1 && merged > 0, `${more} "more" bars for ${merged} kernels`);
      const bars = boxes(
        html,
        /data-(?:node-id|node)="([^"]+)"[^>]*>(?:<[^>]*>)*?<rect class="(?:ens-node-rect|sankey-node-rect sankey-more-rect)" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"/g,
      );
      assert.equal(bars.length + merged - more, f.data.nodes.length, 'every node drawn or merged');
      for (const b of bars) assert.ok(b.h >= 4 - 1e-9, `${b.id} is ${b.h} px tall`);
      for (let i = 0; i < bars.length; i++)
        for (let j = i + 1; j < bars.length; j++)
          assert.ok(apart(bars[i]!, bars[j]!), `${bars[i]!.id} / ${bars[j]!.id}`);
      const labels = boxes(
        html,
        /<g class="sankey-label[^"]*" data-label-node="([^"]+)"><rect class="sankey-label-bg" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"/g,
      );
      assert.ok(labels.length >= 10, `${labels.length} labels`);
      for (let i = 0; i < labels.length; i++) {
        const a = labels[i]!;
        assert.ok(a.x >= -0.5 && a.x + a.w <= w + 0.5 && a.y >= -0.5 && a.y + a.h <= h - LEGEND_HEIGHT + 0.5, 'inside');
        for (let j = i + 1; j < labels.length; j++) assert.ok(apart(a, labels[j]!), `labels ${i} and ${j} overlap`);
      }
      // The first columns keep their labels (the suite and its six groups).
      const names = [...html.matchAll(/<g class="sankey-label[^"]*"[^>]*>.*?<tspan[^>]*>([^<]*)<\/tspan>/g)].map(
        m => m[1],
      );
      for (const g of ['suite', 'Basic', 'Lcals', 'Polybench', 'Stream', 'Apps', 'Algorithm'])
        assert.ok(names.includes(g), `${g} labelled among ${names.join(', ')}`);
    });
});
