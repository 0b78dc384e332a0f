import { CallGraphBuilder } from '../model/call-graph';
import { NodeKind } from '../model/call-tree';
import { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { StringTable } from '../model/string-table';
import { profileFromOutline } from '../model/test-profiles';

/**
 * Two ranks, statement nodes, one tiny node below the 1 % floor. Node ids in outline order:
 * 0 main, 1 solve, 2 a.c:12, 3 a.c:13, 4 io, 5 tiny. Total 60.5; rank 0 holds 38, rank 1 22.5.
 */
export function twoRankProfile(): Profile {
  return profileFromOutline(
    `
main a.c:1 = 1 1
  solve a.c:10
    a.c:12 a.c:12 = 30 10
    a.c:13 a.c:13 = 5 5
  io b.c:5 = 2 6
  tiny = 0 0.5`,
    2,
  );
}

/**
 * Calls with call lines and recursion, two contexts (exclusive per context in brackets):
 *
 *   0 main m.c:1 [1 1]
 *   1   m.c:5 statement [2 4]
 *   2   work w.c:20, called from m.c:5 [10 20]
 *   3     work w.c:20, called from w.c:30 [3 3]
 *   4       work w.c:20, called from w.c:30 [1 1]
 *   5   work w.c:20, called from m.c:7 [5 5]
 *
 * With `graph`, a call graph whose arc costs differ from the tree's on purpose (main → work 40,
 * work → work 7), so tests can tell which source was used; `statedCost: false` leaves the
 * recursive arc's cost unstated.
 */
export function callLineProfile(graph?: { statedCost: boolean }): Profile {
  const b = new ProfileBuilder('test-calls', '<calls>');
  const ctx = [b.context({ rank: 0 }), b.context({ rank: 1 })];
  const m = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: ['time'],
    unit: 's',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const t = b.tree;
  const add = (node: number, a: number, c: number) => {
    b.addExclusive(m, node, ctx[0]!, a);
    b.addExclusive(m, node, ctx[1]!, c);
  };
  const main = t.add(-1, 'main', NodeKind.Function, { file: 'm.c', line: 1 });
  add(main, 1, 1);
  add(t.add(main, 'm.c:5', NodeKind.Statement, { file: 'm.c', line: 5 }), 2, 4);
  const work = t.add(main, 'work', NodeKind.Function, { file: 'w.c', line: 20, callLine: 5 });
  add(work, 10, 20);
  const inner = t.add(work, 'work', NodeKind.Function, { file: 'w.c', line: 20, callLine: 30 });
  add(inner, 3, 3);
  add(t.add(inner, 'work', NodeKind.Function, { file: 'w.c', line: 20, callLine: 30 }), 1, 1);
  add(t.add(main, 'work', NodeKind.Function, { file: 'w.c', line: 20, callLine: 7 }), 5, 5);
  if (graph) {
    const g = new CallGraphBuilder(t.strings, 1);
    const gm = g.function('main', { name: 'main', file: 'm.c', line: 1 });
    const gw = g.function('work', { name: 'work', file: 'w.c', line: 20 });
    g.addSelf(gm, 0, 8);
    g.addTotal(gm, 0, 50);
    g.addSelf(gw, 0, 42);
    g.addTotal(gw, 0, 45);
    g.addArc(gm, gw, 2, 5, [30]);
    g.addArc(gm, gw, 1, 7, [10]);
    g.addArc(gw, gw, 3, 30, [graph.statedCost ? 7 : NaN]);
    b.callGraph = g.finish();
  }
  return b.build(m);
}

/**
 * A complete 4-ary tree of `n` nodes in heap order (children of p are 4p+1 … 4p+4), built
 * column by column for speed. Every node costs 1 per context except that context 0 costs 2 at
 * nodes divisible by 3; leaves are statements at big.c:(i mod 1000) + 1, inner nodes functions
 * named f(i mod 100). In heap order the leftmost subtree is never smaller than its siblings, so
 * the hot path takes the first child at every level.
 */
export function fourAryProfile(n: number, contexts: number): Profile {
  const strings = new StringTable();
  const file = strings.intern('big.c');
  const fnNames = Array.from({ length: 100 }, (_, k) => strings.intern(`f${k}`));
  const lineNames = Array.from({ length: 1000 }, (_, k) => strings.intern(`big.c:${k + 1}`));
  const parent = new Int32Array(n),
    name = new Int32Array(n),
    fileCol = new Int32Array(n),
    line = new Int32Array(n),
    kind = new Uint8Array(n);
  const exclusive = new Float64Array(n * contexts).fill(1);
  for (let i = 0; i < n; i++) {
    parent[i] = i === 0 ? -1 : (i - 1) >> 2;
    const leaf = 4 * i + 1 >= n;
    kind[i] = leaf ? NodeKind.Statement : NodeKind.Function;
    name[i] = leaf ? lineNames[i % 1000]! : fnNames[i % 100]!;
    if (leaf) {
      fileCol[i] = file;
      line[i] = (i % 1000) + 1;
    }
    if (i % 3 === 0) exclusive[i * contexts] = 2;
  }
  return new Profile({
    format: 'generated',
    path: '<4-ary>',
    strings: strings.toArray(),
    tree: { parent, name, file: fileCol, line, module: new Int32Array(n), kind, callLine: new Int32Array(n) },
    contexts: Array.from({ length: contexts }, (_, r) => ({
      rank: r,
      thread: -1,
      gpuDevice: -1,
      gpuStream: -1,
      label: `rank ${r}`,
    })),
    metrics: [{ name: 'time', label: 'time', sourceKeys: [], unit: 's', kind: 'exclusive', aggregation: 'sum' }],
    exclusive: [exclusive],
    inclusive: [null],
    primaryMetric: 0,
    metadata: {},
    warnings: [],
  });
}
