import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnose, imbalanceAndWait, projectedSaving, selectSignificant, sumLosses, type LossNode } from './losses';
import { DEFAULT_TRACE_ANALYSIS_OPTIONS as O } from './model/options';
import { SemanticClass } from './semantic-class';

const node = (imb: number, wait: number, ...children: LossNode[]): LossNode => ({ imb, wait, children });

describe('imbalance and waiting (Table 1)', () => {
  it('computation: max − avg; wait: max − avg and avg; synchronization: avg − min and min', () => {
    const s = { min: 1, avg: 4, max: 9 };
    assert.deepEqual(imbalanceAndWait(SemanticClass.Computation, s), { imb: 5, wait: 0 });
    assert.deepEqual(imbalanceAndWait(SemanticClass.Wait, s), { imb: 5, wait: 4 });
    assert.deepEqual(imbalanceAndWait(SemanticClass.Sync, s), { imb: 3, wait: 1 });
  });

  it('Fig. 9: X = (2, 4, 9) s then barrier Y = (7, 5, 0) s: imb(X) = imb(Y) = 4 s, wait(Y) = 0', () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const X = [2, 4, 9],
      Y = [7, 5, 0];
    const stats = (xs: number[]) => ({ min: Math.min(...xs), avg: mean(xs), max: Math.max(...xs) });
    assert.equal(imbalanceAndWait(SemanticClass.Computation, stats(X)).imb, 4);
    assert.deepEqual(imbalanceAndWait(SemanticClass.Sync, stats(Y)), { imb: 4, wait: 0 });
  });
});

describe('significant call paths (§4.3)', () => {
  const o = { significanceRatio: O.significanceRatio, originDepthRatio: O.originDepthRatio, drillToOrigin: false };

  it('select the shallowest node that explains its subtree, and look below nodes whose children cancel', () => {
    // Scenario G: f +100, g +90 (imbalances cancel in their parent, imb 10), barrier imb 10 → parent not selected.
    const f = node(100, 0),
      g = node(90, 0),
      barrier = node(10, 0);
    const phase = node(10, 0, f, g);
    const root = node(0, 0, phase, barrier);
    sumLosses(root);
    assert.equal(phase.sumImb, 190);
    assert.deepEqual(selectSignificant([root], 'imb', 2020, o), [f, g, barrier]);
    // A parent carrying 80 % of its subtree's imbalance is selected instead of its children.
    const a = node(50, 0),
      b = node(50, 0);
    const p = node(90, 0, a, b);
    sumLosses(p);
    assert.deepEqual(selectSignificant([p], 'imb', 1000, o), [p]);
    assert.deepEqual(selectSignificant([p], 'imb', 1e6, o), [], 'below 0.1 % of the run');
    assert.deepEqual(selectSignificant([p], 'imb', 1000, { ...o, drillToOrigin: true }), [p], 'no child holds 70 %');
    const c = node(80, 0),
      q = node(100, 0, c, node(10, 0));
    sumLosses(q);
    assert.deepEqual(selectSignificant([q], 'imb', 1000, { ...o, drillToOrigin: true }), [c]);
  });

  it('apply the same tests to waiting, independently', () => {
    const send = node(1, 300),
      barrier = node(1, 20);
    const root = node(0, 0, node(0, 0), send, barrier);
    sumLosses(root);
    assert.deepEqual(selectSignificant([root], 'wait', 1320, o), [send, barrier]);
  });
});

describe('diagnosis (Table 2) and projected improvement', () => {
  const o = { highShare: O.highShare, imbSRelative: O.imbSRelative };
  // The paper's segments, in % of the run time (Tables 5 and 6), and the rows our cut-offs give them.
  const pflotran = [
    { imbS: 2.01, sumImb: 61.6, sumWait: 0, row: 2 },
    { imbS: 8.8, sumImb: 8.8, sumWait: 0, row: 3 },
    { imbS: 0.2, sumImb: 11.3, sumWait: 5.2, row: 4 },
    { imbS: 0.13, sumImb: 33.4, sumWait: 16.6, row: 4 },
    { imbS: 0.2, sumImb: 30.3, sumWait: 14.8, row: 4 },
    { imbS: 0.2, sumImb: 33.3, sumWait: 16.6, row: 4 },
  ];
  const amg = [
    { imbS: 0.11, sumImb: 19.6, sumWait: 5.4, row: 4 },
    { imbS: 0.24, sumImb: 2.01, sumWait: 1.54, row: 4 },
  ];

  it("classify PFLOTRAN's S1–S6 as rows 2, 3, 4, 4, 4, 4 and AMG's S1–S2 as row 4", () => {
    for (const s of [...pflotran, ...amg]) assert.equal(diagnose(s.imbS, s.sumImb, s.sumWait, 100, o).row, s.row);
  });

  it('cover every combination of levels', () => {
    const rows = [
      [0, 0, 0, 0],
      [0, 0, 5, 1],
      [0, 5, 0, 2],
      [5, 5, 0, 3],
      [0, 5, 5, 4],
      [5, 5, 5, 5],
      [5, 0, 0, 3],
      [5, 0, 5, 5],
    ];
    for (const [imbS, sumImb, sumWait, row] of rows) {
      const d = diagnose(imbS!, sumImb!, sumWait!, 100, o);
      assert.equal(d.row, row, `imb(S) ${imbS}, Σimb ${sumImb}, Σwait ${sumWait}`);
      if (row) assert.match(d.text, new RegExp(`^Table 2 row ${row} `));
    }
    assert.equal(diagnose(0, 0, 0, 100, o).text, 'No significant loss.');
    assert.match(diagnose(5, 0, 0, 100, o).text, /below the significance threshold/);
  });

  it("project PFLOTRAN's 63 %: Σ over S2–S6 of imb(S) + Σwait = 62.73 %", () => {
    const saving = pflotran.slice(1).reduce((s, g) => s + projectedSaving(g.imbS, 0, g.sumWait), 0);
    assert.equal(saving.toFixed(2), '62.73');
    assert.equal((178 * (1 - saving / 100)).toFixed(1), '66.3', 'the estimated 66 s of Fig. 13');
  });
});
