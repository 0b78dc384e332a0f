import type { CallflowData } from '../../shared/callflow-protocol';

/**
 * A comparison's super graph (Compare Two Profiles): the compared run's graph with every supernode's
 * values in both runs, matched by supernode id (`module`, `module#2` for a re-entry: stable when the
 * runs have the same module structure). Values are means over each run's contexts, as the
 * comparison's other views show them, so a 27-rank and a 343-rank run compare per rank.
 */
export function superGraphDiff(
  compare: CallflowData,
  baseline: CallflowData,
  contexts: { baseline: number; compare: number },
): CallflowData {
  const sb = 1 / Math.max(1, baseline.contexts?.count ?? contexts.baseline),
    sc = 1 / Math.max(1, compare.contexts?.count ?? contexts.compare);
  const byId = new Map(baseline.nodes.map(n => [n.id, n]));
  const shown = new Set(compare.nodes.map(n => n.id));
  let removed = 0,
    removedInclusive = 0;
  for (const b of baseline.nodes)
    if (!shown.has(b.id)) {
      removed++;
      // Only the outermost of the missing ones count (a removed caller's removed callees are in it).
      if (!(b.callers ?? []).some(c => !shown.has(c.id) && byId.has(c.id))) removedInclusive += b.inclusive * sb;
    }
  return {
    ...compare,
    nodes: compare.nodes.map(n => {
      const b = byId.get(n.id);
      return {
        ...n,
        diff: {
          baseline: { inclusive: (b?.inclusive ?? 0) * sb, exclusive: (b?.exclusive ?? 0) * sb },
          compare: { inclusive: n.inclusive * sc, exclusive: n.exclusive * sc },
          status: b ? 'matched' : 'added',
        },
      };
    }),
    diff: {
      baselineTitle: baseline.title,
      compareTitle: compare.title,
      baselineTotal: baseline.total * sb,
      compareTotal: compare.total * sc,
      baselineContexts: Math.round(1 / sb),
      compareContexts: Math.round(1 / sc),
      removed: { count: removed, inclusive: removedInclusive },
    },
  };
}
