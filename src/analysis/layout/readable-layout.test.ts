import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { kernelEnsembleGraph } from '../ensemble/testing/kernel-ensemble';
import { readProfile } from '../formats';
import { superGraphData } from '../graph/super-graph-data';
import type { FlowGraphInput } from './callflow-layout';
import { layoutReadableCallflow, legibleRows, moreNodeId, type ReadableLayout } from './readable-layout';

const tol = 1e-6;
const MARGIN = { top: 10, right: 8, bottom: 10, left: 8 };

/** A root calling `k` leaves of decreasing weight (leaf i: k − i), and one long call root → mid → end. */
function fan(k: number): FlowGraphInput {
  const leaves = Array.from({ length: k }, (_, i) => ({ id: `leaf${i}`, value: k - i }));
  const total = leaves.reduce((s, l) => s + l.value, 0);
  return {
    nodes: [{ id: 'root', value: total + 10 }, ...leaves, { id: 'mid', value: 10 }, { id: 'end', value: 5 }],
    edges: [
      ...leaves.map(l => ({ source: 'root', target: l.id, value: l.value })),
      { source: 'root', target: 'mid', value: 10 },
      { source: 'mid', target: 'end', value: 5 },
    ],
  };
}

/** Every bar at least `minBar` px, inside the box, no two bars of a column overlapping, ribbons inside their bars. */
function assertReadable(r: ReadableLayout, box: { width: number; height: number }, minBar = 4): void {
  const { layout } = r;
  for (const n of layout.nodes) {
    assert.ok(n.y1 - n.y0 >= minBar - tol, `${n.id}: bar ${n.y1 - n.y0} px`);
    assert.ok(n.y0 >= -tol && n.y1 <= box.height + tol, `${n.id}: ${n.y0}..${n.y1} inside 0..${box.height}`);
    assert.ok(n.x0 >= -tol && n.x1 <= box.width + tol, `${n.id}: x inside`);
  }
  for (let l = 0; l < layout.levels; l++) {
    const col = layout.nodes.filter(n => n.level === l).sort((a, b) => a.order - b.order);
    assert.ok(col.length <= r.rowsPerColumn[l]!, `column ${l}: ${col.length} nodes, ${r.rowsPerColumn[l]} rows`);
    for (let i = 1; i < col.length; i++) assert.ok(col[i]!.y0 >= col[i - 1]!.y1 - tol, `${col[i]!.id} overlaps`);
  }
  const byId = new Map(layout.nodes.map(n => [n.id, n]));
  for (const e of layout.edges) {
    const s = byId.get(e.source)!,
      t = byId.get(e.target)!;
    assert.ok(e.sourceY0 >= s.y0 - tol && e.sourceY1 <= s.y1 + tol, `${e.source}→${e.target} source end`);
    assert.ok(e.targetY0 >= t.y0 - tol && e.targetY1 <= t.y1 + tol, `${e.source}→${e.target} target end`);
  }
}

describe('readable CallFlow layout', () => {
  const box = { width: 1000, height: 600, margin: MARGIN };

  it('counts the legible rows of a column from the height (about 25 at 600 px)', () => {
    assert.equal(legibleRows(580, 24), 24);
    assert.equal(legibleRows(580, 24, 10, 4), 22, 'long calls passing through take room too');
    assert.equal(legibleRows(10, 24), 2, 'always one node and "k more"');
  });

  it('merges the lightest nodes of a full column into one "k more" node, edges summed', () => {
    const input = fan(60);
    const r = layoutReadableCallflow(input, box);
    const rows = r.rowsPerColumn[1]!;
    assert.equal(rows, legibleRows(580, 24, 0, 4));
    assert.equal(r.more.length, 1);
    const more = r.more[0]!;
    assert.equal(more.id, moreNodeId(1));
    assert.equal(more.level, 1);
    // The column holds 60 leaves and mid: the heaviest rows − 1 stay, the rest merge.
    assert.equal(more.members.length, 61 - (rows - 1));
    assert.ok(!more.members.includes('leaf0') && more.members.includes('leaf59'), 'the lightest merge');
    const kept = input.nodes.filter(n => !more.members.includes(n.id));
    const valueOf = new Map(input.nodes.map(n => [n.id, n.value]));
    assert.equal(
      more.value,
      more.members.reduce((sum, id) => sum + valueOf.get(id)!, 0),
    );
    const into = r.graph.edges.filter(e => e.target === more.id);
    assert.equal(into.length, 1, 'one ribbon root → k more');
    assert.equal(into[0]!.value, more.value);
    assert.equal(r.edgeSources[r.graph.edges.indexOf(into[0]!)]!.length, more.members.length);
    assert.deepEqual(
      r.nodeSource.filter(i => i >= 0).map(i => input.nodes[i]!.id),
      kept.map(n => n.id),
    );
    assertReadable(r, box);
    assert.equal(r.neededHeight, 600);
  });

  it('keeps the gaps of a column under a third of the height, shrinking with its node count', () => {
    const r = layoutReadableCallflow(fan(20), { ...box, nodeGap: 28, histogramHeight: 30 });
    assert.equal(r.more.length, 0);
    const col = r.layout.nodes.filter(n => n.level === 1).sort((a, b) => a.order - b.order);
    let gaps = col[0]!.y0 - 10;
    for (let i = 1; i < col.length; i++) gaps += col[i]!.y0 - col[i - 1]!.y1;
    assert.ok(gaps <= 580 / 3 + tol, `gaps ${gaps}`);
    assert.ok(r.layout.gaps[1]! < 30, 'the histogram room shrank');
    assert.ok(r.layout.gaps[0]! === 30, 'a column of one node keeps it');
    assertReadable(r, box);
  });

  it('an expanded column shows every node: compressed into the box, or at the needed height with scroll', () => {
    const input = fan(60);
    const expanded = [moreNodeId(1)];
    const squeezed = layoutReadableCallflow(input, { ...box, expanded });
    assert.equal(squeezed.more.length, 0);
    assert.equal(squeezed.layout.nodes.length, input.nodes.length);
    assert.ok(squeezed.neededHeight >= 61 * 24, `needed ${squeezed.neededHeight}`);
    for (const n of squeezed.layout.nodes) assert.ok(n.y0 >= -tol && n.y1 <= 600 + tol, `${n.id} inside`);
    const scrolled = layoutReadableCallflow(input, { ...box, expanded, scroll: true });
    assert.equal(scrolled.layout.height, scrolled.neededHeight);
    assertReadable(
      { ...scrolled, rowsPerColumn: scrolled.rowsPerColumn.map(() => Infinity) },
      {
        width: 1000,
        height: scrolled.neededHeight,
      },
    );
  });

  it('passes small graphs through unchanged and never throws on odd input', () => {
    const small = layoutReadableCallflow(fan(5), box);
    assert.equal(small.more.length, 0);
    assert.equal(small.graph.nodes.length, 8);
    assertReadable(small, box);
    const odd = layoutReadableCallflow(
      {
        nodes: [
          { id: 'a', value: NaN },
          { id: 'b', value: -1 },
          { id: 'a', value: 3 },
        ],
        edges: [
          { source: 'a', target: 'b', value: Infinity },
          { source: 'b', target: 'a', value: 1 },
          { source: 'a', target: 'zz', value: 1 },
        ],
      },
      box,
    );
    assert.equal(odd.layout.nodes.length, 2);
    assert.deepEqual(
      odd.removedEdges.map(e => e.reason),
      ['back-edge', 'unknown-node'],
    );
    assert.equal(layoutReadableCallflow({ nodes: [], edges: [] }, box).layout.nodes.length, 0);
  });

  const raja = 'data/caliper-json/rajaperf-quartz-seq-ensemble/gcc10.3.1_2097152/O3/1/Base_Seq-default.json';
  it(
    'RAJAPerf (one run, 54 kernels in a column): every bar ≥ 4 px, no column overflows',
    { skip: skipUnlessShared(raja) },
    async () => {
      const p = await readProfile(sharedPath(raja));
      const data = superGraphData(p, 'raja');
      const input = { nodes: data.nodes.map(n => ({ id: n.id, value: n.inclusive })), edges: data.links };
      for (const height of [500, 600, 800, 1000]) {
        const options = { width: 1200, height, margin: MARGIN, nodeGap: 28 };
        const r = layoutReadableCallflow(input, options);
        assertReadable(r, options);
        assert.ok(r.layout.scale > 0);
        const drawn = new Set(r.layout.nodes.map(n => n.id));
        for (const n of data.nodes) assert.ok(drawn.has(n.id) || r.more.some(m => m.members.includes(n.id)), n.id);
      }
    },
  );

  it('a 13-run ensemble of about 60 kernels in its last column (maxima, tapered ribbons): every bar ≥ 4 px', () => {
    const { data } = kernelEnsembleGraph();
    const input = {
      nodes: data.nodes.map(n => ({ id: n.id, value: n.maxInclusive })),
      edges: data.links.map(l => ({ source: l.source, target: l.target, value: l.value })),
    };
    assert.ok(input.nodes.length >= 60);
    for (const height of [500, 650, 900]) {
      const options = { width: 1200, height, margin: { top: 18, right: 8, bottom: 18, left: 8 }, nodeGap: 30 };
      const r = layoutReadableCallflow(input, options);
      assertReadable(r, options);
      assert.equal(r.more.length, 1, 'the kernels column is condensed');
      assert.ok(
        r.layout.edges.some(e => e.tapered),
        'maxima of different runs do not add up: tapered ribbons',
      );
    }
  });
});
