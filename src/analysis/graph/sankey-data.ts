import type { SankeyData } from '../../shared/protocol';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { moduleGraph } from './module-graph';

/**
 * The level-of-detail data the Sankey webview receives: the module graph with display fields, never
 * the call tree itself.
 */
export function sankeyData(profile: Profile, m: number, title: string): SankeyData {
  const g = moduleGraph(profile, m);
  const metric = profile.metrics[m]!;
  const tree = profile.tree;
  const C = profile.contextCount;
  return {
    title,
    metric: { name: metric.label || metric.name, unit: metric.unit },
    total: g.total,
    nodes: g.nodes.map(n => {
      let max = 0, sum = 0;
      for (let c = 0; c < C; c++) { const v = n.inclusiveByContext[c]!; sum += v; if (v > max) max = v; }
      const mean = C > 0 ? sum / C : 0;
      const entry = n.hottestEntry;
      const loc = sourceOf(profile, entry);
      return {
        id: n.id,
        label: n.occurrence === 1 ? n.module : `${n.module} (${n.occurrence})`,
        module: n.module,
        inclusive: n.inclusive,
        exclusive: n.exclusive,
        share: g.total > 0 ? n.inclusive / g.total : 0,
        imbalance: mean > 0 ? max / mean : 1,
        entry: { name: tree.name(entry), file: loc.file, line: loc.line },
      };
    }),
    links: g.edges.map(e => ({ source: e.source, target: e.target, value: e.value })),
  };
}

/**
 * Where a node's source is: its own location, else that of its heaviest descendant statement in
 * the same function (sampling profiles put locations on statement children).
 */
export function sourceOf(profile: Profile, node: number): { file: string | null; line: number | null } {
  const tree = profile.tree;
  if (tree.file(node)) return { file: tree.file(node), line: tree.line(node) };
  const incl = profile.inclusiveTotals(profile.primaryMetric);
  let best = -1;
  for (const c of tree.children(node)) {
    if (tree.kind(c) === NodeKind.Statement && tree.file(c) && (best < 0 || incl[c]! > incl[best]!)) best = c;
  }
  return best >= 0 ? { file: tree.file(best), line: tree.line(best) } : { file: null, line: null };
}
