/**
 * Fixtures for the CallFlow screenshots (scripts/screenshot-webview.mjs), computed by the analysis
 * from real profiles — never hand-written numbers: the demo's 4-rank sampling profile and, when the
 * shared data is present, the HPCToolkit OSU Allgather database (10 ranks × 2 threads). For each:
 * the graph, a split by entry of its widest multi-entry node, a brush split of the low half of a
 * module's per-rank histogram, and the node metrics the correlation view asks for.
 *
 *   npx tsx scripts/callflow-fixtures.ts <out.json>
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { complementContexts, superGraph } from '../src/analysis/graph/super-graph';
import { superGraphData } from '../src/analysis/graph/super-graph-data';
import { supernodeMetrics } from '../src/analysis/graph/super-graph-queries';
import { readProfile } from '../src/analysis/formats';
import type { Profile } from '../src/analysis/model/profile';
import type { NodeMetricValues, CallflowData } from '../src/shared/callflow-protocol';

const root = join(__dirname, '..');

/** What the service answers a selection with: every metric over the node's own call-tree nodes, from the graph on screen. */
function nodeMetrics(profile: Profile, nodeId: string): NodeMetricValues[] {
  return supernodeMetrics(profile, superGraph(profile), nodeId, 12);
}

function fixtureOf(profile: Profile, title: string) {
  const data = superGraphData(profile, title);
  const K = profile.contextCount;
  const splittable = [...data.nodes].filter(n => (n.entryCount ?? 0) >= 2).sort((a, b) => b.inclusive - a.inclusive)[0];
  const split = splittable
    ? superGraphData(profile, title, { splits: [{ node: splittable.id, mode: 'entry' }] })
    : data;
  // The most imbalanced sizeable module: its histogram is the interesting one to brush.
  const focus =
    [...data.nodes]
      .filter(n => n.share > 0.05 && (n.callers?.length ?? 0) > 0)
      .sort((a, b) => b.imbalance - a.imbalance)[0] ?? data.nodes[0]!;
  const values = focus.contextValues!.inclusive;
  // Brush the low-runtime half of the ranks that run the node at all (idle helper threads would make a trivial split).
  const busy = values
    .map((v, p) => [v, data.contexts!.indices[p]!] as const)
    .filter(x => x[0] > 0)
    .sort((a, b) => a[0] - b[0]);
  const low = busy
    .slice(0, Math.max(1, Math.floor(busy.length / 2)))
    .map(x => x[1])
    .sort((a, b) => a - b);
  const rest = Array.from(complementContexts(K, low));
  const top = superGraphData(profile, title, { contexts: low });
  const bottom = superGraphData(profile, title, { contexts: rest });
  return {
    data,
    split,
    splitNode: splittable?.id ?? null,
    focus: focus.id,
    brushed: low,
    top,
    bottom,
    labels: [`Brushed ranks (${low.length})`, `Other ranks (${rest.length})`],
    nodeMetrics: nodeMetrics(profile, focus.id),
  };
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: npx tsx scripts/callflow-fixtures.ts <out.json>');
  const sample = await readProfile(join(root, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json'));
  const result: Record<string, unknown> = { sample: fixtureOf(sample, 'heat-stencil-sampling-4ranks.json') };
  const osuPath = join(root, '..', 'shared', 'data', 'hpctoolkit-xml', 'osu-allgather-10ranks-2threads');
  if (existsSync(osuPath)) {
    const osu = await readProfile(osuPath);
    const f = fixtureOf(osu, 'osu-allgather-10ranks-2threads');
    // Side by side: the whole run (A) against its first half of the contexts (B), so B's root is visibly shorter.
    const half = Array.from({ length: Math.floor(osu.contextCount / 2) }, (_, c) => c);
    const b: CallflowData = { ...superGraphData(osu, 'osu-allgather (first half of the threads)', { contexts: half }) };
    result['osu'] = {
      ...f,
      sideBySide: {
        a: f.data,
        b,
        labels: ['A: osu-allgather, all 20 threads', `B: the same run, threads 0–${half.length - 1}`],
      },
    };
  }
  writeFileSync(out, JSON.stringify(result));
}

main().catch(e => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
