/**
 * CallFlow filter budgets (issue 15), on the shared real profiles:
 * - what the default 0.1 % filter folds (CCT nodes, folded, supernodes) beside the thesis' 70–80 %
 *   (ch. 3 §3.2.1);
 * - filter + super graph under 1 s at any threshold on pprof large.cpu (445k call-tree nodes);
 * - a repopulate request (and hiding it again) under 100 ms on HPCToolkit LAMMPS;
 * - the Sankey message (JSON of superGraphData) under 5 MB for every shared profile, at the default
 *   filter and at threshold 0 (where the 2,000-supernode guard does the work).
 * Times are the minimum of several runs in this process after a warm-up (the machine is shared).
 * Run: `npm run bench -- callflow-filter`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findProfiles, readProfile } from '../src/analysis/formats';
import { superGraph, type SuperGraphOptions } from '../src/analysis/graph/super-graph';
import { superGraphData } from '../src/analysis/graph/super-graph-data';
import type { Profile } from '../src/analysis/model/profile';
import { formatTiming, timeRepeated, type Timing } from './bench-timing';

const SHARED = resolve(__dirname, '..', '..', 'shared');
const FILTER_BUDGET_MS = 1000;
const REPOPULATE_BUDGET_MS = 100;
const MESSAGE_BUDGET_BYTES = 5 * 1024 * 1024;

/** The profiles of issue 15's table. */
const TABLE = [
  'data/pprof/go-large-cpu/large.cpu.pb.gz',
  'data/hpctoolkit-metadb/lammps-openmp',
  'data/hpctoolkit-xml/osu-allgather-10ranks-2threads',
  'data/chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz',
  'data/caliper-json/rajaperf-quartz-seq-ensemble/gcc10.3.1_2097152/O3/1/Base_Seq-default.json',
];

/** Minimum wall and CPU time (this process, GC threads included) of `f` over `runs` runs after a warm-up. */
const minTime = async (f: () => unknown, runs: number): Promise<Timing> =>
  (await timeRepeated(f, { repeats: runs })).min;

const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(1)} %` : '–');
const n = (v: number) => v.toLocaleString('en');

export async function benchCallflowFilter(shared = SHARED): Promise<void> {
  if (!existsSync(join(shared, 'data'))) {
    console.log('CallFlow filter: shared data not present, skipped');
    return;
  }
  const profiles = new Map<string, Profile>();
  const load = async (rel: string) => {
    let p = profiles.get(rel);
    if (!p) profiles.set(rel, (p = await readProfile(join(shared, rel))));
    return p;
  };

  console.log('\nCallFlow filter at 0.1 % of the total (thesis ch. 3 §3.2.1: removes about 70–80 % of CCT nodes):\n');
  console.log('| file | CCT nodes | folded | functions kept | supernodes | edges |');
  console.log('|---|---|---|---|---|---|');
  for (const rel of TABLE) {
    if (!existsSync(join(shared, rel))) continue;
    const p = await load(rel);
    const g = superGraph(p);
    const f = g.filter;
    console.log(
      `| \`${rel.replace(/^data\//, '')}\` | ${n(f.totalNodes)} | ${n(f.removedNodes)} (${pct(f.removedNodes, f.totalNodes)}) | ` +
        `${n(f.keptFunctions)} of ${n(f.totalFunctions)} | ${n(g.nodes.length)} | ${n(g.edges.length)} |`,
    );
  }

  const large = TABLE[0]!;
  if (existsSync(join(shared, large))) {
    const p = await load(large);
    p.inclusiveTotals(p.primaryMetric);
    p.exclusiveTotals(p.primaryMetric);
    console.log(
      `\nFilter + super graph on large.cpu (${n(p.tree.size)} nodes), min of 3 runs (wall, and CPU of this ` +
        `process: on a busy machine the wall time includes waiting for a core), budget ${FILTER_BUDGET_MS} ms:`,
    );
    for (const by of ['inclusive', 'exclusive'] as const)
      for (const threshold of [0, 0.0001, 0.001, 0.01, 0.05]) {
        let nodes = 0;
        const t = await minTime(() => (nodes = superGraph(p, { filter: { threshold, by } }).nodes.length), 3);
        console.log(
          `  ${by.padEnd(9)} ${`${threshold * 100} %`.padStart(7)}: ${t.wallMs.toFixed(0).padStart(5)} ms wall ` +
            `${t.cpuMs.toFixed(0).padStart(5)} ms CPU  ${n(nodes).padStart(8)} supernodes  ` +
            `${Math.min(t.wallMs, t.cpuMs) <= FILTER_BUDGET_MS ? 'ok' : 'OVER BUDGET'}`,
        );
      }
  }

  const lammps = TABLE[1]!;
  if (existsSync(join(shared, lammps))) {
    const p = await load(lammps);
    const base: SuperGraphOptions = {};
    const g = superGraph(p, base);
    const host = [...g.nodes].sort((a, b) => b.filteredInclusive - a.filteredInclusive)[0]!;
    const one = [{ node: host.id, function: host.filteredCallees[0]!.name }];
    const all = g.nodes.flatMap(nd => nd.filteredCallees.map(c => ({ node: nd.id, function: c.name })));
    const t1 = await minTime(() => superGraph(p, { ...base, repopulate: one }), 5);
    const tAll = await minTime(() => superGraph(p, { ...base, repopulate: all }), 5);
    const tHide = await minTime(() => superGraph(p, base), 5);
    const worst = Math.max(t1.wallMs, tAll.wallMs, tHide.wallMs);
    const f = (t: Timing) => formatTiming(t, { digits: 1 });
    console.log(
      `\nRepopulate on LAMMPS (${n(p.tree.size)} nodes), min of 5 runs, budget ${REPOPULATE_BUDGET_MS} ms: ` +
        `one function ${f(t1)}, all ${all.length} folded functions of every node ${f(tAll)}, ` +
        `hide again ${f(tHide)}  ${worst <= REPOPULATE_BUDGET_MS ? 'ok' : 'OVER BUDGET'}`,
    );
  }

  const scan = await findProfiles(join(shared, 'data'));
  let worst = { bytes: 0, rel: '', threshold: 0 };
  let count = 0;
  const failures: string[] = [];
  for (const found of scan.profiles) {
    const rel = `data/${found.relativePath}`;
    let p: Profile;
    try {
      p = await load(rel);
    } catch (e) {
      failures.push(`${rel}: ${(e as Error).message}`);
      continue;
    }
    if (p.metrics.length === 0) continue;
    for (const threshold of [0.001, 0]) {
      const bytes = Buffer.byteLength(JSON.stringify(superGraphData(p, rel, { filter: { threshold } })));
      if (bytes > worst.bytes) worst = { bytes, rel, threshold };
    }
    count++;
    if (rel !== large && rel !== lammps) profiles.delete(rel);
  }
  console.log(
    `\nSankey message over ${count} shared profiles (default filter and threshold 0), budget 5 MB: largest ` +
      `${(worst.bytes / 1024 / 1024).toFixed(2)} MB (${worst.rel} at ${worst.threshold * 100} %)  ` +
      `${worst.bytes <= MESSAGE_BUDGET_BYTES ? 'ok' : 'OVER BUDGET'}`,
  );
  if (failures.length) console.log(`  not read: ${failures.length} (${failures.slice(0, 3).join('; ')})`);
}
