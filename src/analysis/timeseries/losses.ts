import { SemanticClass } from './semantic-class';

/**
 * Where time is lost (paper §4.3): per node of the summary tree, its imbalance `imb` and its
 * waiting `wait` by semantic class (Table 1), both projected savings; significant call paths; the
 * inefficient segments they form and the diagnosis of each (Table 2); projected improvement.
 */

/** Table 1: imb and wait of a node from its min / avg / max over the processes. */
export function imbalanceAndWait(
  klass: SemanticClass,
  s: { min: number; avg: number; max: number },
): {
  imb: number;
  wait: number;
} {
  switch (klass) {
    case SemanticClass.Sync:
      // Fixing the imbalance since the previous synchronization saves avg − min; then the wait left is min.
      return { imb: Math.max(0, s.avg - s.min), wait: s.min };
    case SemanticClass.Wait:
      // Removing the wait saves max: max − avg from balancing, avg from removing the balanced part.
      return { imb: Math.max(0, s.max - s.avg), wait: s.avg };
    default:
      // Balancing a computation shrinks its critical path from max to avg.
      return { imb: Math.max(0, s.max - s.avg), wait: 0 };
  }
}

/** A node of the tree the significance walk runs on. */
export interface LossNode {
  imb: number;
  wait: number;
  children: LossNode[];
  /** Filled by sumLosses: Σ over the leaves below (the node's own value at a leaf). */
  sumImb?: number;
  sumWait?: number;
}

/** sumImb and sumWait (§4.3): a leaf's own value, else the sum over its children. */
export function sumLosses(n: LossNode): void {
  if (!n.children.length) {
    n.sumImb = n.imb;
    n.sumWait = n.wait;
    return;
  }
  let si = 0,
    sw = 0;
  for (const c of n.children) {
    sumLosses(c);
    si += c.sumImb!;
    sw += c.sumWait!;
  }
  n.sumImb = si;
  n.sumWait = sw;
}

export interface SignificanceOptions {
  significanceRatio: number;
  originDepthRatio: number;
  drillToOrigin: boolean;
}

/**
 * Significant nodes for one metric: walking top-down, a node whose loss exceeds
 * significanceRatio × RunTime and originDepthRatio × the loss summed over its subtree is selected
 * and the walk stops below it (the shallowest depth that explains the loss); otherwise its
 * children are inspected, since children's imbalances can cancel in their parent. The ratio test
 * is skipped when the subtree sum is 0. With drillToOrigin, a selected node's child that alone
 * carries originDepthRatio of its loss (and is significant itself) is reported instead.
 */
export function selectSignificant<N extends LossNode>(
  roots: readonly N[],
  metric: 'imb' | 'wait',
  runTime: number,
  o: SignificanceOptions,
): N[] {
  const out: N[] = [];
  const sum = metric === 'imb' ? 'sumImb' : 'sumWait';
  const big = (n: LossNode) => runTime > 0 && n[metric] / runTime > o.significanceRatio;
  const walk = (n: N) => {
    const v = n[metric],
      s = n[sum]!;
    if (big(n) && (s === 0 || v / s > o.originDepthRatio)) {
      let pick: N = n;
      while (o.drillToOrigin) {
        const c = (pick.children as N[]).find(c => big(c) && c[metric] >= o.originDepthRatio * pick[metric]);
        if (!c) break;
        pick = c;
      }
      out.push(pick);
      return;
    }
    for (const c of n.children as N[]) walk(c);
  };
  roots.forEach(walk);
  return out;
}

export interface DiagnosisOptions {
  highShare: number;
  imbSRelative: number;
}

export interface Diagnosis {
  /** Table 2 row (1–5), or 0 for no significant loss. */
  row: number;
  imbSHigh: boolean;
  sumImbHigh: boolean;
  sumWaitHigh: boolean;
  text: string;
}

const ROW_TEXT = [
  'No significant loss.',
  'Mostly waiting: look at the wait contributors for waits that could be avoided.',
  'Look at the imbalance contributors: check that their semantic classes are right and whether their imbalances cancel when summed. If they cancel, performance is fine; if not, the imbalance is real.',
  'Load imbalance: find its causes among the imbalance contributors.',
  'Do as row 2 first. If the computation imbalance is offset by imbalance in waiting, check whether those computation paths cause the wait; if not, do as row 1.',
  'Probably a mix: do as rows 1 and 3 first; if nothing is found, as row 4.',
];

/**
 * Table 2 for one segment. The paper gives no Low/High cut-offs; ours (configurable): each value
 * is High from highShare of the run time on, and imb(S) only when it is also ≥ imbSRelative ×
 * Σimb (a synchronization that absorbs a small part of a large imbalance does not make it load
 * imbalance). (L,L,L) is no significant loss; (H,L,·) reads as rows 3 and 5, the imbalance at the
 * synchronization then coming from paths below the significance threshold.
 */
export function diagnose(
  imbS: number,
  sumImb: number,
  sumWait: number,
  runTime: number,
  o: DiagnosisOptions,
): Diagnosis {
  const high = (v: number) => runTime > 0 && v >= o.highShare * runTime;
  const imbSHigh = high(imbS) && imbS >= o.imbSRelative * sumImb;
  const sumImbHigh = high(sumImb);
  const sumWaitHigh = high(sumWait);
  let row: number;
  if (!sumImbHigh) row = imbSHigh ? (sumWaitHigh ? 5 : 3) : sumWaitHigh ? 1 : 0;
  else if (imbSHigh) row = sumWaitHigh ? 5 : 3;
  else row = sumWaitHigh ? 4 : 2;
  const level = (h: boolean) => (h ? 'High' : 'Low');
  const note =
    imbSHigh && !sumImbHigh
      ? ' The imbalance at the synchronization comes from paths below the significance threshold.'
      : '';
  const text =
    row === 0
      ? ROW_TEXT[0]!
      : `Table 2 row ${row} (imb(S) ${level(imbSHigh)}, Σimb ${level(sumImbHigh)}, Σwait ${level(sumWaitHigh)}): ${ROW_TEXT[row]}${note}`;
  return { row, imbSHigh, sumImbHigh, sumWaitHigh, text };
}

/**
 * Projected saving of a segment (derived from the paper's PFLOTRAN numbers, §4.4: 63 % = Σ over
 * S2–S6 of imb(S) + Σwait): removing the imbalance at its synchronization and all its waiting.
 * Σimb is not added: imbalances of several paths can cancel.
 */
export function projectedSaving(imbS: number, waitS: number, sumWait: number): number {
  return imbS + waitS + sumWait;
}
