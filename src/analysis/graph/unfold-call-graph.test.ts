import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeTo } from '../../../test/support/hatchet-oracle';
import { CallGraphBuilder, type CallGraphData } from '../model/call-graph';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import {
  CallGraphUnfolder,
  stronglyConnectedComponents,
  unfoldCallGraph,
  type UnfoldOptions,
} from './unfold-call-graph';
import { exclusiveByFunction, exclusiveTime } from '../model/test-profiles';

/** A small call graph: `self` per function, arcs as [caller, callee, calls, cost]. */
interface GraphSpec {
  self: Record<string, number>;
  arcs: [string, string, number, number][];
  lines?: [string, string, number, number][];
}

function build(spec: GraphSpec, options: Partial<UnfoldOptions> = {}): { profile: Profile; graph: CallGraphData } {
  const b = new ProfileBuilder('test', '<memory>');
  const metric = b.addMetric(exclusiveTime());
  const g = new CallGraphBuilder(b.tree.strings, 1);
  const fn = (name: string) => g.function(name, { name, file: `${name}.c`, line: 1 });
  for (const [name, self] of Object.entries(spec.self)) g.addSelf(fn(name), 0, self);
  for (const [from, to, calls, cost] of spec.arcs) g.addArc(fn(from), fn(to), calls, 0, [cost]);
  for (const [name, file, line, cost] of spec.lines ?? [])
    g.addLineCosts(fn(name), g.strings.intern(file), line, [cost]);
  const graph = g.finish();
  unfoldCallGraph(b, graph, { metrics: [metric], context: b.context({}), ...options });
  b.callGraph = graph;
  return { profile: b.build(metric), graph };
}

const outline = (p: Profile) =>
  Array.from(
    { length: p.tree.size },
    (_, i) => `${'  '.repeat(p.tree.depth(i))}${p.tree.name(i)} ${+p.inclusiveTotals(0)[i]!.toFixed(6)}`,
  ).join('\n');

describe('unfolding a call graph into a calling-context tree', () => {
  it('splits a callee among its callers by the cost along each arc, conserving self costs', () => {
    // main → a (cost 6), main → b (3); a → c (4 of c's 5), b → c (1).
    const { profile } = build({
      self: { main: 1, a: 2, b: 2, c: 5 },
      arcs: [
        ['main', 'a', 1, 6],
        ['main', 'b', 1, 3],
        ['a', 'c', 4, 4],
        ['b', 'c', 1, 1],
      ],
    });
    assert.equal(outline(profile), ['main 10', '  a 6', '    c 4', '  b 3', '    c 1'].join('\n'));
    for (const [f, v] of exclusiveByFunction(profile)) closeTo(v, { main: 1, a: 2, b: 2, c: 5 }[f]!, f);
    closeTo(profile.total(0), 10, 'total = Σ self');
  });

  it('falls back to call counts when no arc carries cost, and to equal shares without counts', () => {
    const { profile } = build({
      self: { main: 0, a: 0, b: 0, c: 8, d: 2 },
      arcs: [
        ['main', 'a', 1, 0],
        ['main', 'b', 1, 0],
        ['a', 'c', 3, 0],
        ['b', 'c', 1, 0],
        ['a', 'd', NaN, NaN],
        ['b', 'd', NaN, NaN],
      ],
    });
    assert.equal(
      outline(profile),
      ['main 10', '  a 7', '    c 6', '    d 1', '  b 3', '    c 2', '    d 1'].join('\n'),
    );
  });

  it('enters a recursive cycle once: members appear once per path, their time stays in the cycle', () => {
    // main → even ⇄ odd (a gprof cycle), both call busy; fib calls itself.
    const { profile } = build({
      self: { main: 1, even: 1, odd: 1, busy: 6, fib: 3 },
      arcs: [
        ['main', 'even', 1, 10],
        ['even', 'odd', 5, 0],
        ['odd', 'even', 4, 0],
        ['even', 'busy', 5, 4],
        ['odd', 'busy', 5, 2],
        ['main', 'fib', 1, 3],
        ['fib', 'fib', 100, 50],
      ],
    });
    assert.equal(
      outline(profile),
      ['main 12', '  even 8', '    odd 3', '      busy 2', '    busy 4', '  fib 3'].join('\n'),
    );
    for (let i = 0; i < profile.tree.size; i++) {
      const path = profile.tree.path(i);
      assert.equal(new Set(path).size, path.length, `no function twice on ${path.join(' → ')}`);
    }
    for (const [f, v] of exclusiveByFunction(profile)) closeTo(v, { main: 1, even: 1, odd: 1, busy: 6, fib: 3 }[f]!, f);
  });

  it('makes every component without callers a root and keeps the files’ order', () => {
    const { profile } = build({ self: { a: 1, mcount: 5, b: 1 }, arcs: [['b', 'a', 1, 1]] });
    assert.deepEqual(
      profile.tree.roots().map(r => profile.tree.name(r)),
      ['mcount', 'b'],
    );
  });

  it('puts line costs on statement children and the rest on the function', () => {
    const { profile } = build({
      self: { main: 1, f: 10 },
      arcs: [['main', 'f', 2, 10]],
      lines: [
        ['f', '/src/f.c', 12, 7],
        ['f', '/src/g.h', 3, 2],
      ],
    });
    const t = profile.tree;
    assert.equal(outline(profile), ['main 11', '  f 10', '    f.c:12 7', '    g.h:3 2'].join('\n'));
    assert.deepEqual([t.kind(2), t.file(2), t.line(2)], [NodeKind.Statement, '/src/f.c', 12]);
    closeTo(profile.exclusiveTotals(0)[1]!, 1, 'f keeps the cost without a line');
  });

  it('leaves out contexts without cost, and says so', () => {
    const { profile } = build({
      self: { main: 1, big: 1e7, tiny: 1e-3, idle: 0 },
      arcs: [
        ['main', 'big', 1, 1e7],
        ['main', 'tiny', 1, 1e-3],
        ['main', 'idle', 1, 0],
      ],
    });
    assert.deepEqual(
      profile.tree.roots().flatMap(r => [...profile.tree.children(r)].map(c => profile.tree.name(c))),
      ['big', 'tiny'],
    );
    assert.deepEqual(profile.warnings, ['1 calling contexts without cost were left out of the call tree']);
  });

  it('folds contexts below the lowest threshold that fits maxNodes into one node per parent, keeping the total', () => {
    const { profile } = build(
      {
        self: { main: 1, big: 1e7, tiny: 1e-3, idle: 0 },
        arcs: [
          ['main', 'big', 1, 1e7],
          ['main', 'tiny', 1, 1e-3],
          ['main', 'idle', 1, 0],
        ],
      },
      { maxNodes: 3 },
    );
    assert.equal(outline(profile), ['main 10000001.001', '  big 10000000', '  [other calls] 0.001'].join('\n'));
    assert.equal(profile.tree.kind(2), NodeKind.Region);
    assert.match(
      profile.warnings.join('\n'),
      /2 calling contexts each below 1\.\de-10 of the total were folded into "\[other calls\]" nodes \(1.0e-8 % of the total\), to keep the call tree under 3 nodes/,
    );
  });

  it('keeps zero-cost contexts when the whole graph has no cost', () => {
    const { profile } = build({ self: { main: 0, a: 0 }, arcs: [['main', 'a', 1, 0]] });
    assert.equal(profile.tree.size, 2);
  });

  it('prunes an exponential unfolding to fit the node limit, keeping its total', () => {
    // A ladder of 30 diamonds has 2^30 paths.
    const self: Record<string, number> = { l0: 1 };
    const arcs: [string, string, number, number][] = [];
    for (let k = 0; k < 30; k++) {
      self[`x${k}`] = 1;
      self[`y${k}`] = 1;
      self[`l${k + 1}`] = 1;
      arcs.push(
        [`l${k}`, `x${k}`, 1, 1],
        [`l${k}`, `y${k}`, 1, 1],
        [`x${k}`, `l${k + 1}`, 1, 1],
        [`y${k}`, `l${k + 1}`, 1, 1],
      );
    }
    const { profile } = build({ self, arcs }, { maxNodes: 5000 });
    assert.ok(profile.tree.size < 2 * 5000);
    closeTo(
      profile.total(0),
      Object.values(self).reduce((a, b) => a + b, 0),
      'the folded tree keeps the total',
    );
    assert.match(
      profile.warnings.join('\n'),
      /calling contexts each below \S+ of the total were folded into "\[other calls\]" nodes .*to keep the call tree under 5000 nodes/,
    );
  });

  it('caps the tree when even the highest threshold leaves too many nodes', () => {
    const { profile } = build({ self: { main: 1, a: 1 }, arcs: [['main', 'a', 1, 1]] }, { maxNodes: 1 });
    assert.equal(outline(profile), ['main 2', '  [other calls] 1'].join('\n'));
    assert.match(
      profile.warnings.join('\n'),
      /capped at 1 nodes; 1 calling contexts were folded into "\[other calls\]" nodes \(50.0 % of the total\)/,
    );
  });

  it('merges several unfoldings into one tree, one context each', () => {
    const b = new ProfileBuilder('test', '<memory>');
    const metric = b.addMetric(exclusiveTime());
    const unfolder = new CallGraphUnfolder(b, { shareNodes: true });
    for (const [thread, cost] of [
      [1, 2],
      [2, 5],
    ] as const) {
      const g = new CallGraphBuilder(b.tree.strings, 1);
      // The graphs number their functions differently; the tree must still share the nodes.
      if (thread === 2) g.function('idle', { name: 'idle' });
      const main = g.function('main', { name: 'main' }),
        work = g.function('work', { name: 'work' });
      g.addSelf(work, 0, cost);
      g.addArc(main, work, 1, 7, [cost]);
      unfolder.unfold(g.finish(), { metrics: [metric], context: b.context({ thread }) });
    }
    const p = b.build(metric);
    assert.equal(p.tree.size, 2);
    assert.equal(p.tree.callLine(1), 7);
    assert.deepEqual([...p.exclusive(0)], [0, 0, 2, 5]);
  });

  it('finds strongly connected components callees-first', () => {
    // 0 → 1 ⇄ 2 → 3, 3 → 3
    const { component, count } = stronglyConnectedComponents(
      4,
      Int32Array.from([0, 1, 2, 2, 3]),
      Int32Array.from([1, 2, 1, 3, 3]),
    );
    assert.equal(count, 3);
    assert.equal(component[1], component[2]);
    assert.ok(component[3]! < component[1]! && component[1]! < component[0]!);
  });

  it('handles deep graphs without recursion', () => {
    const self: Record<string, number> = {};
    const arcs: [string, string, number, number][] = [];
    for (let k = 0; k < 50_000; k++) {
      self[`f${k}`] = 1;
      if (k > 0) arcs.push([`f${k - 1}`, `f${k}`, 1, 50_000 - k]);
    }
    arcs.push(['f49999', 'f0', 1, 0]); // one big cycle
    const { profile } = build({ self, arcs });
    assert.equal(profile.tree.size, 50_000);
    closeTo(profile.total(0), 50_000, 'total');
  });
});
