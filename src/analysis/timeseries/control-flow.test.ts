import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ProfileReadError } from '../formats/reader';
import { NodeKind } from '../model/call-tree';
import { ProfileBuilder } from '../model/profile-builder';
import { ConstructTable } from './constructs';
import { ControlFlow, ENTRY, parseControlFlow, readControlFlowFile } from './control-flow';
import { DEFAULT_TRACE_ANALYSIS_OPTIONS } from './model/options';
import { makeClassifier } from './semantic-class';

/** main → loop@6 { A@7, B@8, C@9 }, plus D called from an unknown line, first run at t = 5. */
function table(): { t: ConstructTable; id: (name: string) => number } {
  const b = new ProfileBuilder('test', 'cfg');
  const main = b.tree.add(-1, 'main', NodeKind.Function, { file: 'toy.c', line: 1 });
  const loop = b.tree.add(main, 'loop@6', NodeKind.Loop, { file: 'toy.c', line: 6 });
  for (const [name, line] of [
    ['A', 7],
    ['B', 8],
    ['C', 9],
  ] as const)
    b.tree.add(loop, name, NodeKind.Function, { file: 'toy.c', line: 20 + line, callLine: line });
  b.tree.add(loop, 'D', NodeKind.Function, {});
  b.tree.add(loop, 'E', NodeKind.Function, {});
  const tree = b.build(0).tree;
  const first = new Float64Array(tree.size).fill(Infinity);
  first[6] = 5;
  first[7] = 3;
  const t = new ConstructTable(tree, makeClassifier(DEFAULT_TRACE_ANALYSIS_OPTIONS), [], first);
  return { t, id: name => t.name.indexOf(name) };
}

describe('control-flow successor sets', () => {
  it('follow source order without a graph: later lines succeed, the same call site never succeeds itself', () => {
    const { t, id } = table();
    const cf = new ControlFlow(t);
    const loop = id('loop@6');
    assert.ok(cf.isSuccessor(loop, ENTRY, id('B')));
    assert.ok(cf.isSuccessor(loop, id('A'), id('C')));
    assert.ok(!cf.isSuccessor(loop, id('C'), id('A')));
    assert.ok(!cf.isSuccessor(loop, id('A'), id('A')));
    // Without lines, the order of first execution: E (t = 3) before D (t = 5).
    assert.ok(cf.isSuccessor(loop, id('E'), id('D')));
    assert.ok(!cf.isSuccessor(loop, id('D'), id('E')));
  });

  it('follow a graph without its back edges where the file has one, transitively', () => {
    const { t, id } = table();
    const file = parseControlFlow(
      'cfg.json',
      JSON.stringify({
        hpcLensControlFlow: 1,
        graphs: [
          {
            scope: 'loop@6',
            file: '/elsewhere/toy.c',
            edges: [
              ['entry', 'C@9'],
              ['C@9', 'B@8'],
              ['B@8', 'A@7'],
              ['A@7', 'C@9', 'back'],
            ],
          },
        ],
      }),
    );
    const cf = new ControlFlow(t, file);
    const loop = id('loop@6');
    assert.ok(cf.isSuccessor(loop, id('C'), id('A')), 'C → B → A');
    assert.ok(!cf.isSuccessor(loop, id('A'), id('C')), 'only through the back edge');
    assert.ok(!cf.isSuccessor(loop, id('B'), id('C')));
    assert.ok(cf.isSuccessor(loop, id('E'), id('D')), 'vertices the graph lacks fall back to first execution');
  });

  it('report a malformed file with the file and the entry', async () => {
    const bad = (doc: unknown, pattern: RegExp) =>
      assert.throws(
        () => parseControlFlow('/tmp/bad-cfg.json', typeof doc === 'string' ? doc : JSON.stringify(doc)),
        (e: unknown) => e instanceof ProfileReadError && e.path === '/tmp/bad-cfg.json' && pattern.test(e.message),
      );
    bad('{ not json', /control-flow file: not JSON/);
    bad({ graphs: [] }, /hpcLensControlFlow: expected 1/);
    bad({ hpcLensControlFlow: 1, graphs: {} }, /graphs: expected a list/);
    bad({ hpcLensControlFlow: 1, graphs: [{ edges: [] }] }, /graphs\[0\]\.scope/);
    bad(
      { hpcLensControlFlow: 1, graphs: [{ scope: 'loop@6', edges: [['entry', 'A@7'], ['A@7']] }] },
      /graphs\[0\]\.edges\[1\] \(scope "loop@6"\): expected \[from, to\]/,
    );
    bad(
      { hpcLensControlFlow: 1, graphs: [{ scope: 'f', edges: [['entry', 'A7']] }] },
      /graphs\[0\]\.edges\[0\] \(scope "f"\): "A7" is not a vertex/,
    );
    bad(
      { hpcLensControlFlow: 1, graphs: [{ scope: 'f', edges: [['entry', 'A@7', 'backward']] }] },
      /the third element must be "back"/,
    );
    bad(
      {
        hpcLensControlFlow: 1,
        graphs: [
          {
            scope: 'f',
            edges: [
              ['A@7', 'B@8'],
              ['B@8', 'A@7'],
            ],
          },
        ],
      },
      /a@7 reaches itself without a back edge/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    await assert.rejects(
      readControlFlowFile(join(dir, 'missing.json')),
      /missing\.json: cannot read the control-flow file/,
    );
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ hpcLensControlFlow: 1, graphs: [] }));
    assert.deepEqual((await readControlFlowFile(join(dir, 'ok.json'))).graphs, []);
  });
});
