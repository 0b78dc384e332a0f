import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { laneTree, planTraceAnalysis, type TracePlan } from './analyze-trace';
import { parseControlFlow } from './control-flow';
import { identifyIterations, tagIterations } from './iterations';
import type { TraceAnalysisOptions } from './model/options';
import { buildSampledTct, TctKind, type TctNode } from './tct';
import { profileFromSamples } from './testing/synthetic-program';
import { traceSourceOf } from './trace-source';

/**
 * The paper's toy example (Figs. 2–6, digest §2.4): foo() calls C() at line 5, then loops (line 6)
 * over A() at 7, B() at 8 on the first pass and C() at 9 on the last. Samples T1…T8, one period
 * apart; `keep` is the number of leading frames that stayed on the stack since the previous sample.
 */
const TOY = [
  { t: 1, path: ['main', 'foo@13', 'C@5'], keep: 0 },
  { t: 2, path: ['main', 'foo@13', 'loop@6', 'A@7'], keep: 2 },
  { t: 3, path: ['main', 'foo@13', 'loop@6', 'B@8'], keep: 3 },
  { t: 4, path: ['main', 'foo@13', 'loop@6', 'A@7'], keep: 3 },
  { t: 5, path: ['main', 'foo@13', 'loop@6', 'A@7'], keep: 4 },
  { t: 6, path: ['main', 'foo@13', 'loop@6', 'A@7'], keep: 3 },
  { t: 7, path: ['main', 'foo@13', 'loop@6', 'A@7'], keep: 4 },
  { t: 8, path: ['main', 'foo@13', 'loop@6', 'C@9'], keep: 3 },
];
const MS = 1e6;

function plan(
  samples: { t: number; path: string[]; keep?: number }[] = TOY,
  options: Partial<TraceAnalysisOptions> = {},
  cfg: string | null = null,
): TracePlan {
  const profile = profileFromSamples([{ samples }]);
  return planTraceAnalysis(
    traceSourceOf(profile),
    { samplingPeriod: 0.001, ...options },
    cfg ? parseControlFlow('toy-cfg.json', cfg) : null,
  );
}

function toyTree(p: TracePlan): TctNode {
  return buildSampledTct(p.source.events(0), { constructs: p.constructs, cf: p.cf, depth: p.depth }, p.lca);
}

/** `name[first–last]` with sample times in periods, children in braces. */
function shape(p: TracePlan, n: TctNode): string {
  const name = n.kind === TctKind.Iteration ? `it${n.id}` : (p.constructs.name[n.construct] ?? 'root');
  const own = `${name}[${n.start / MS}–${n.end / MS}]`;
  return n.children.length ? `${own}{${n.children.map(c => shape(p, c)).join(' ')}}` : own;
}

function loopOf(root: TctNode): TctNode {
  let n = root;
  while (n.kind !== TctKind.Loop && n.kind !== TctKind.Profile) n = n.children[n.children.length - 1]!;
  return n;
}

describe('temporal context tree and Algorithm 1 on the toy example', () => {
  it('builds the TCT of Fig. 4: one node per instance, A@7 three times', () => {
    const p = plan();
    assert.equal(
      shape(p, toyTree(p)),
      'root[1–8]{main[1–8]{foo[1–8]{C[1–1] loop@6[2–8]{A[2–2] B[3–3] A[4–5] A[6–7] C[8–8]}}}}',
    );
  });

  it('tags the loop children 0, 0, 1, 2, 2 (Fig. 6)', () => {
    const p = plan();
    const loop = loopOf(toyTree(p));
    assert.deepEqual([...tagIterations(loop.children, loop.construct, p.cf)], [0, 0, 1, 2, 2]);
  });

  it('honours a control-flow file: the same tags with Fig. 5, other tags with another graph', () => {
    const fig5 = JSON.stringify({
      hpcLensControlFlow: 1,
      graphs: [
        {
          scope: 'loop@6',
          edges: [
            ['entry', 'A@7'],
            ['A@7', 'B@8'],
            ['A@7', 'C@9'],
            ['B@8', 'C@9'],
            ['A@7', 'entry', 'back'],
          ],
        },
      ],
    });
    const p = plan(TOY, {}, fig5);
    const loop = loopOf(toyTree(p));
    assert.deepEqual([...tagIterations(loop.children, loop.construct, p.cf)], [0, 0, 1, 2, 2]);
    // If C@9 could not follow A@7 in one pass (only a pass that skips A reaches it), the last child opens a fourth iteration.
    const other = JSON.stringify({
      hpcLensControlFlow: 1,
      graphs: [
        {
          scope: 'loop@6',
          edges: [
            ['entry', 'A@7'],
            ['A@7', 'B@8'],
            ['entry', 'C@9'],
          ],
        },
      ],
    });
    const q = plan(TOY, {}, other);
    const l2 = loopOf(toyTree(q));
    assert.deepEqual([...tagIterations(l2.children, l2.construct, q.cf)], [0, 0, 1, 2, 3]);
  });

  it('rejects every identifier under the default thresholds: loop@6 becomes a profile node', () => {
    const p = plan();
    const tree = toyTree(p);
    const [outcome] = identifyIterations(tree, { ...iterationContext(p), period: 1 * MS, acceptPeriod: 1 * MS }, false);
    assert.equal(outcome!.ids, 3);
    assert.equal(outcome!.accepted, 0);
    assert.equal(outcome!.profile, true);
    const loop = loopOf(tree);
    assert.equal(loop.kind, TctKind.Profile);
    assert.deepEqual(
      loop.children.map(c => `${p.constructs.name[c.construct]} ${c.end / MS}`),
      ['A 5', 'B 1', 'C 1'],
      'the profile accumulates samples × V per call site (A 5 samples, B 1, C 1)',
    );
  });

  it('keeps the three iterations {A, B}, {A}, {A, C} with CHILD_NUM_ACC = 1', () => {
    const p = plan(TOY, { childNumAcc: 1 });
    const { tree, outcomes } = laneTree(p, 0);
    assert.equal(outcomes[0]!.accepted, 3);
    const loop = loopOf(tree);
    assert.equal(
      loop.children.map(it => shape(p, it)).join(' '),
      'it0[2–3]{A[2–2] B[3–3]} it1[4–5]{A[4–5]} it2[6–8]{A[6–7] C[8–8]}',
    );
  });

  it('without LCAs (trace.db), consecutive samples in one call site merge: 2 identifiers instead of 3 (§2.1.3)', () => {
    const p = plan(TOY.map(({ t, path }) => ({ t, path })));
    assert.equal(
      shape(p, toyTree(p)),
      'root[1–8]{main[1–8]{foo[1–8]{C[1–1] loop@6[2–8]{A[2–2] B[3–3] A[4–7] C[8–8]}}}}',
    );
    const loop = loopOf(toyTree(p));
    assert.deepEqual([...tagIterations(loop.children, loop.construct, p.cf)], [0, 0, 1, 1]);
  });

  it('without LCAs, a call that goes back in source order means its routine was entered again', () => {
    // foo's body is C@5 then loop@6: seeing C@5 after the loop means foo returned and was called again.
    const samples = [
      { t: 1, path: ['main', 'loop@12', 'foo@13', 'C@5'] },
      { t: 2, path: ['main', 'loop@12', 'foo@13', 'loop@6', 'A@7'] },
      { t: 3, path: ['main', 'loop@12', 'foo@13', 'C@5'] },
      { t: 4, path: ['main', 'loop@12', 'foo@13', 'loop@6', 'A@7'] },
    ];
    const p = plan(samples);
    assert.equal(
      shape(p, toyTree(p)),
      'root[1–4]{main[1–4]{loop@12[1–4]{foo[1–2]{C[1–1] loop@6[2–2]{A[2–2]}} foo[3–4]{C[3–3] loop@6[4–4]{A[4–4]}}}}}',
    );
  });

  it("refines a procedure-level LCA through the frame's loops (§1.1)", () => {
    // Only call frames have slices: the loop persists with foo between T2 and T3.
    const p = plan(TOY.map(s => ({ ...s, keep: Math.min(s.keep, 2) })));
    const tree = toyTree(p);
    assert.equal(
      shape(p, tree).includes('loop@6[2–8]'),
      false,
      'keep ≤ 2 cuts below foo: each sample opens a new loop@6',
    );
    const q = plan(TOY);
    assert.match(shape(q, toyTree(q)), /loop@6\[2–8\]/);
  });
});

function iterationContext(p: TracePlan) {
  return { constructs: p.constructs, cf: p.cf, options: p.options };
}
