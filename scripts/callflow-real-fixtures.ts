/**
 * CallFlow messages of the largest real profiles in ../shared/data, for the screenshots of the
 * readable layout (scripts/screenshot-webview.mjs --real): computed by the panel's own message code
 * (superGraphData: filter, supernode guard, repopulation), never hand-written. Profiles that are
 * absent are left out.
 *
 *   npx tsx scripts/callflow-real-fixtures.ts <out.json>
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readProfile } from '../src/analysis/formats';
import { superGraphData } from '../src/analysis/graph/super-graph-data';
import type { CallflowData } from '../src/shared/callflow-protocol';

const shared = resolve(__dirname, '..', '..', 'shared', 'data');

/** The real profiles of issue 15 and what each screenshot shows. */
export const REAL_CALLFLOW_CASES: { name: string; path: string; threshold?: number; repopulate?: boolean }[] = [
  { name: 'pprof-large', path: 'pprof/go-large-cpu/large.cpu.pb.gz' },
  // Threshold 0: 162,954 supernodes, the guard keeps the heaviest 2,000 with their callers.
  { name: 'pprof-large-nofilter', path: 'pprof/go-large-cpu/large.cpu.pb.gz', threshold: 0 },
  { name: 'lammps', path: 'hpctoolkit-metadb/lammps-openmp', repopulate: true },
  { name: 'osu-allgather', path: 'hpctoolkit-xml/osu-allgather-10ranks-2threads' },
  { name: 'resnet50', path: 'chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz' },
  {
    name: 'resnet50-nofilter',
    path: 'chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz',
    threshold: 0,
  },
  { name: 'rajaperf', path: 'caliper-json/rajaperf-quartz-seq-ensemble/gcc10.3.1_2097152/O3/1/Base_Seq-default.json' },
];

export interface RealCallflowFixture {
  data: CallflowData;
  /** With `repopulate`: the graph after showing the heaviest folded function of the heaviest folding node again. */
  repopulated?: CallflowData;
}

export async function realCallflowFixtures(root = shared): Promise<Record<string, RealCallflowFixture>> {
  const out: Record<string, RealCallflowFixture> = {};
  const profiles = new Map<string, Awaited<ReturnType<typeof readProfile>>>();
  for (const c of REAL_CALLFLOW_CASES) {
    const path = join(root, c.path);
    if (!existsSync(path)) continue;
    let profile = profiles.get(path);
    if (!profile) profiles.set(path, (profile = await readProfile(path)));
    const title = c.path.split('/').slice(-2).join('/');
    const options = c.threshold !== undefined ? { filter: { threshold: c.threshold } } : {};
    const data = superGraphData(profile, title, options);
    const fixture: RealCallflowFixture = { data };
    if (c.repopulate) {
      const node = [...data.nodes]
        .filter(n => n.filteredCallees?.length)
        .sort((a, b) => (b.filteredInclusive ?? 0) - (a.filteredInclusive ?? 0))[0];
      if (node)
        fixture.repopulated = superGraphData(profile, title, {
          ...options,
          repopulate: [{ node: node.id, function: node.filteredCallees![0]!.name }],
        });
    }
    out[c.name] = fixture;
  }
  return out;
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npx tsx scripts/callflow-real-fixtures.ts <out.json>');
  realCallflowFixtures()
    .then(f => writeFileSync(file, JSON.stringify(f)))
    .catch(e => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    });
}
