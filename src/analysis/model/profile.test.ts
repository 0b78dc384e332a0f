import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextStats, quantileSorted } from '../stats/context-stats';
import { functionTotals, lineCosts } from './aggregates';
import { CallTree, CallTreeBuilder, NodeKind } from './call-tree';
import { exclusiveFromInclusive, inclusiveFromExclusive } from './derive';
import { Profile } from './profile';
import { ProfileBuilder } from './profile-builder';
import { StringTable } from './string-table';
import { profileFromOutline } from './test-profiles';

describe('profile model', () => {
  it('interns strings', () => {
    const s = new StringTable();
    assert.equal(s.intern('a'), s.intern('a'));
    assert.equal(s.get(0), '');
    assert.equal(s.find('zzz'), -1);
  });

  it('rejects a child before its parent', () => {
    const strings = new StringTable();
    const cols = {
      parent: Int32Array.from([1, -1]),
      name: new Int32Array(2),
      file: new Int32Array(2),
      line: new Int32Array(2),
      module: new Int32Array(2),
      kind: new Uint8Array(2),
      callLine: new Int32Array(2),
    };
    assert.throws(() => new CallTree(cols, strings), /parents must precede children/);
    assert.throws(() => new CallTreeBuilder().add(3, 'x', NodeKind.Function), /does not exist/);
  });

  it('derives inclusive from exclusive and back, per context', () => {
    const parent = Int32Array.from([-1, 0, 1, 0, -1]);
    const excl = Float64Array.from([1, 10, 2, 20, 3, 30, 4, 40, 5, 50]);
    const incl = inclusiveFromExclusive(parent, excl, 2);
    assert.deepEqual([...incl], [10, 100, 5, 50, 3, 30, 4, 40, 5, 50]);
    assert.deepEqual([...exclusiveFromInclusive(parent, incl, 2)], [...excl]);
  });

  it('computes totals, children and paths', () => {
    const p = profileFromOutline(
      `
main @heat = 1 1
  solve @libsolve = 4 2
    solve.c:10 @libsolve = 3 9
  io @libio = 0 2`,
      2,
    );
    assert.equal(p.total(0), 22);
    assert.deepEqual([...p.inclusiveTotals(0)], [22, 18, 12, 2]);
    assert.deepEqual([...p.tree.children(0)], [1, 3]);
    assert.deepEqual(p.tree.path(2), ['main', 'solve', 'solve.c:10']);
    assert.equal(p.tree.depth(2), 2);
  });

  it('per-node statistics across contexts match numpy', () => {
    const s = contextStats(Float64Array.from([1, 2, 3, 4, 10, 0, 0, 0]), 4);
    assert.deepEqual([s.min[0], s.mean[0], s.max[0], s.median[0], s.q1[0], s.q3[0]], [1, 2.5, 4, 2.5, 1.75, 3.25]);
    assert.equal(s.imbalance[0], 4 / 2.5);
    assert.ok(Math.abs(s.std[0]! - Math.sqrt(1.25)) < 1e-12);
    assert.equal(s.imbalance[1], 10 / 2.5);
    assert.equal(quantileSorted([5], 0.25), 5);
    assert.ok(Number.isNaN(quantileSorted([], 0.5)));
  });

  it('function totals count recursion once and own their statements', () => {
    const p = profileFromOutline(`
main = 1
  fib = 2
    fib.c:3 = 5
    fib = 4
      fib = 8`);
    const f = functionTotals(p, 0);
    const fib = f.names.indexOf('fib');
    assert.equal(f.exclusive[fib], 2 + 5 + 4 + 8);
    assert.equal(f.inclusive[fib], 19, 'outermost fib only');
    assert.equal(f.inclusive[f.names.indexOf('main')], 20);
    assert.equal(f.functionOfNode[2], fib, 'a statement belongs to its function');
  });

  it('groups exclusive cost by source line', () => {
    const p = profileFromOutline(`
main = 1
  a a.c:5 = 2
  b.c:7 = 3
  c a.c:5 = 4`);
    const lines = lineCosts(p, 0);
    assert.deepEqual(
      lines.get('a.c')!.map(l => [l.line, l.exclusive, l.nodes.length]),
      [[5, 6, 2]],
    );
    assert.deepEqual(
      lines.get('b.c')!.map(l => [l.line, l.exclusive]),
      [[7, 3]],
    );
  });

  it('round-trips through the transferable form', () => {
    const p = profileFromOutline('main = 1 2\n  x = 3 4', 2);
    const { data, transfer } = p.toTransferable();
    assert.ok(transfer.length >= 7);
    const q = new Profile(structuredClone(data));
    assert.deepEqual([...q.inclusive(0)], [4, 6, 3, 4]);
    assert.equal(q.tree.name(1), 'x');
  });

  it('holds 10^6 nodes x 100 contexts in typed arrays', () => {
    const n = 1_000_000,
      C = 100;
    const parent = new Int32Array(n);
    for (let i = 0; i < n; i++) parent[i] = i === 0 ? -1 : (i - 1) >> 2;
    const zeros = () => new Int32Array(n);
    const excl = new Float64Array(n * C).fill(1);
    const p = new Profile({
      format: 'synthetic',
      path: '<memory>',
      strings: ['', 'f'],
      tree: {
        parent,
        name: zeros().fill(1),
        file: zeros(),
        line: zeros(),
        module: zeros(),
        kind: new Uint8Array(n),
        callLine: zeros(),
      },
      contexts: Array.from({ length: C }, (_, r) => ({
        rank: r,
        thread: -1,
        gpuDevice: -1,
        gpuStream: -1,
        label: `rank ${r}`,
      })),
      metrics: [{ name: 'time', label: 'time', sourceKeys: [], unit: 's', kind: 'exclusive', aggregation: 'sum' }],
      exclusive: [excl],
      inclusive: [null],
      primaryMetric: 0,
      metadata: {},
      warnings: [],
    });
    assert.equal(p.total(0), n * C);
    assert.equal(p.inclusive(0)[0], n);
  });
  it('adopts a child index built over the same tree and rejects one of another shape', () => {
    const built = profileFromOutline('main 1\n  a 1\n    b 1\n  c 1\n').tree;
    const index = built.childIndex();
    const other = profileFromOutline('main 1\n  a 1\n    b 1\n  c 1\n').tree;
    other.adoptChildIndex(index);
    assert.equal(other.childIndex().list, index.list, 'the same arrays, not a rebuild');
    assert.deepEqual([...other.children(0)], [1, 3]);
    assert.deepEqual([...other.children(1)], [2]);
    const small = profileFromOutline('main 1\n').tree;
    assert.throws(() => small.adoptChildIndex(index), /child index for 4 nodes, the tree has 1/);
    assert.throws(
      () => other.adoptChildIndex({ start: index.start, list: new Int32Array(1) }),
      /ends at 3 but lists 1 children/,
    );
  });

  it('takes a column of values in one call as the same values added one by one (zeros and non-finite left out)', () => {
    const build = (columns: boolean) => {
      const b = new ProfileBuilder('test', 'test');
      const root = b.tree.add(-1, 'main', NodeKind.Function);
      const kid = b.tree.add(root, 'kid', NodeKind.Function);
      b.tree.add(kid, 'leaf', NodeKind.Function);
      const m = b.addMetric({
        name: 'time',
        label: 'time',
        sourceKeys: ['time'],
        unit: 's',
        kind: 'both',
        aggregation: 'sum',
      });
      const c0 = b.context({ rank: 0 });
      const c1 = b.context({ rank: 1 });
      // Repeated cells are summed in the order given; the column path must keep that order.
      const nodes = Int32Array.from([2, 0, 1, 2, 0, 1]);
      const inclusive = Float64Array.from([0.1, 3, 0, 0.2, NaN, Infinity]);
      const exclusive = Float64Array.from([1e-17, 1, 2, 0.3, -0, 5]);
      for (const [ctx, from, to] of [
        [c1, 0, 4],
        [c0, 2, 6],
      ] as const) {
        if (columns) {
          b.addInclusiveColumn(m, ctx, nodes.subarray(from), inclusive.subarray(from), to - from);
          b.addExclusiveColumn(m, ctx, nodes.subarray(from), exclusive.subarray(from), to - from);
        } else {
          for (let k = from; k < to; k++) {
            b.addInclusive(m, nodes[k]!, ctx, inclusive[k]!);
            b.addExclusive(m, nodes[k]!, ctx, exclusive[k]!);
          }
        }
      }
      return b.build(m);
    };
    const one = build(false);
    const many = build(true);
    for (const side of ['inclusive', 'exclusive'] as const) assert.deepEqual(many.sparse(side, 0), one.sparse(side, 0));
    assert.deepEqual([...many.sparse('inclusive', 0).values], [3, 0.2, 0.1 + 0.2]);
    assert.deepEqual([...many.sparse('exclusive', 0).contexts], [1, 0, 1, 0, 1]);
    const e = new ProfileBuilder('test', 'test');
    e.tree.add(-1, 'main', NodeKind.Function);
    const x = e.addMetric({
      name: 'x',
      label: 'x',
      sourceKeys: ['x'],
      unit: '',
      kind: 'exclusive',
      aggregation: 'sum',
    });
    assert.throws(
      () => e.addInclusiveColumn(x, e.context({}), Int32Array.of(0), Float64Array.of(1), 1),
      /metric x has no inclusive values/,
    );
  });
});

describe('CallTreeBuilder.addColumns', () => {
  it('makes the same tree and string table as add when strings are interned in the order add interns them', () => {
    const a = new CallTreeBuilder();
    const root = a.add(-1, 'main', NodeKind.Function, { file: 'a.c', line: 3, module: 'exe' });
    a.add(root, 'a.c:7', NodeKind.Statement, { file: 'a.c', line: 7, module: 'exe', callLine: 0 });
    a.add(root, 'f', NodeKind.Function, { line: -1, callLine: 5 });
    const b = new CallTreeBuilder();
    const s = b.strings;
    const [main, file, exe, stmt, f] = ['main', 'a.c', 'exe', 'a.c:7', 'f'].map(t => s.intern(t));
    b.addColumns({
      parent: Int32Array.of(-1, 0, 0),
      name: Int32Array.of(main!, stmt!, f!),
      file: Int32Array.of(file!, file!, 0),
      line: Int32Array.of(3, 7, 0),
      module: Int32Array.of(exe!, exe!, 0),
      kind: Uint8Array.of(NodeKind.Function, NodeKind.Statement, NodeKind.Function),
      callLine: Int32Array.of(0, 0, 5),
    });
    const ta = a.finish();
    const tb = b.finish();
    assert.deepEqual(tb.columns, ta.columns);
    assert.deepEqual(tb.strings.toArray(), ta.strings.toArray());
  });

  it('appends after the nodes already added, and checks them: parents first, string ids of the table, columns of one length', () => {
    const a = new CallTreeBuilder();
    const root = a.add(-1, 'main', NodeKind.Function, { file: 'a.c', line: 3 });
    const loop = a.add(root, 'loop', NodeKind.Loop, { file: 'a.c', line: 5 });
    a.add(loop, 'f', NodeKind.Function, { module: 'exe', callLine: 6 });
    const b = new CallTreeBuilder();
    b.add(-1, 'main', NodeKind.Function, { file: 'a.c', line: 3 });
    b.strings.intern('loop');
    b.strings.intern('f');
    b.strings.intern('exe');
    const columns = {
      parent: Int32Array.of(0, 1),
      name: Int32Array.of(3, 4),
      file: Int32Array.of(2, 0),
      line: Int32Array.of(5, 0),
      module: Int32Array.of(0, 5),
      kind: Uint8Array.of(NodeKind.Loop, NodeKind.Function),
      callLine: Int32Array.of(0, 6),
    };
    b.addColumns(columns);
    assert.deepEqual(b.finish().columns, a.finish().columns);
    const c = new CallTreeBuilder(new StringTable(['', 'main', 'a.c', 'loop', 'f', 'exe']));
    assert.throws(
      () => c.addColumns({ ...columns, parent: Int32Array.of(-1, 1) }),
      /parent 1 of node 1 does not exist/,
    );
    assert.throws(
      () => c.addColumns({ ...columns, parent: Int32Array.of(-1, 0), name: Int32Array.of(3, 99) }),
      /string ids 99, 0, 5: out of range/,
    );
    assert.throws(() => c.addColumns({ ...columns, kind: Uint8Array.of(0) }), /different lengths/);
  });
});

describe('ProfileBuilder.addCheckedColumn', () => {
  it('holds the same values as a column added value by value, when they are non-zero and finite', () => {
    const build = (checked: boolean) => {
      const b = new ProfileBuilder('test', 'test');
      const root = b.tree.add(-1, 'main', NodeKind.Function);
      b.tree.add(root, 'kid', NodeKind.Function);
      const m = b.addMetric({ name: 't', label: 't', sourceKeys: ['t'], unit: 's', kind: 'both', aggregation: 'sum' });
      const contexts = [b.context({ rank: 0 }), b.context({ rank: 1 })];
      // Node 1 twice in context 1: summed in the order given.
      const columns = [
        [Int32Array.of(1, 0), Float64Array.of(2.5, -1e-300)],
        [Int32Array.of(0, 1, 1), Float64Array.of(4, 0.1, 0.2)],
      ] as const;
      columns.forEach(([nodes, values], c) => {
        if (checked) b.addCheckedColumn(m, 'inclusive', contexts[c]!, nodes, values, nodes.length);
        else b.addInclusiveColumn(m, contexts[c]!, nodes, values, nodes.length);
      });
      return b.build(m);
    };
    assert.deepEqual(build(true).sparse('inclusive', 0), build(false).sparse('inclusive', 0));
    assert.deepEqual([...build(true).sparse('inclusive', 0).values], [-1e-300, 4, 2.5, 0.1 + 0.2]);
  });
});
