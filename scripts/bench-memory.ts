/**
 * Memory samples at scale (seed digest §4.2 test 11, §5): load a generated MemAxes run of
 * 250,000 samples × 18 attributes (LULESH's scale is 235,447 × 18) with its hardware.xml, then
 * time what one selection change recomputes for the panel and the editor (target < 100 ms), the
 * metric strips and clustering, and the same at 1,000,000 samples.
 * Usage: node --import tsx scripts/bench-memory.ts [samples=250000] [large=1000000]
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { indicesWhere, select, type SampleScope } from '../src/analysis/memory/index-set';
import { prepareMemoryAnalysis } from '../src/analysis/memory/memory-analysis';
import { findAttribute } from '../src/analysis/memory/model/memory-samples';
import { MemoryView } from '../src/analysis/memory/memory-view';
import { clusterAlongAttribute } from '../src/analysis/memory/metric-clustering';
import { metricStrip } from '../src/analysis/memory/metric-strip';
import { readMemoryDataset } from '../src/analysis/formats/memory/memory-dataset';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { LocalAnalysisService } from '../src/service/local-analysis-service';

const VARIABLES = [
  'm_x',
  'm_y',
  'm_z',
  'm_xd',
  'm_yd',
  'm_zd',
  'fx',
  'fy',
  'fz',
  'nodalMass',
  'm_p',
  'm_q',
  'm_e',
  'm_v',
];
const CODES = [0x1, 0x1, 0x2, 0x3, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0xa, 0xb, 0x0];

/** Cab as MemAxes' hardware.xml has it: 2 sockets × 8 cores × 2 threads, CPU k's sibling k + 16, even cores on socket 0. */
function writeHardwareXml(path: string): void {
  let xml = '<Hardware id="0" name="cab">\n';
  for (let s = 0; s < 2; s++) {
    xml += `  <NUMA id="${s}" size="33475052">\n    <Cache id="3" size="20971520">\n`;
    for (let c = 0; c < 8; c++) {
      const cpu = 2 * c + s;
      xml += `      <Cache id="2" size="262144"><Cache id="1" size="32768"><CPU id="${cpu}"></CPU><CPU id="${cpu + 16}"></CPU></Cache></Cache>\n`;
    }
    xml += '    </Cache>\n  </NUMA>\n';
  }
  writeFileSync(path, xml + '</Hardware>\n');
}

/** A MemAxes samples file with 14 standard and 4 further columns (18 attributes). */
function writeSamples(path: string, count: number, seed = 7): number {
  const random = seededRandom(seed);
  const fd = openSync(path, 'w');
  let buf =
    'variable,source,line,time,iter,latency,dataSource,cpu,node,index,map3D,xidx,yidx,zidx,tid,addr,bytes,phase\n';
  let bytes = 0;
  let time = 0xcd9decad90d14;
  for (let i = 0; i < count; i++) {
    const cpu = Math.floor(random() * 32);
    const code = CODES[Math.floor(random() * CODES.length)]!;
    const latency =
      [60, 20, 20, 40, 150, 150, 300, 400, 60, 350, 0, 350, 500, 0, 0, 0][code]! + Math.floor(50 * random());
    const v = Math.floor(random() ** 2 * VARIABLES.length);
    const file = v < 12 ? 'LULESH_OMP.cc' : random() < 0.5 ? 'lulesh-util.cc' : '??';
    const line = file === '??' ? 0 : 900 + v * 97 + Math.floor(random() * 12);
    time += 1 + Math.floor(2000 * random());
    const z = Math.floor(random() * 45);
    buf += `${VARIABLES[v]},${file},${line},${time.toString(16)},${1 + (i >> 16)},${latency},${(0x40 | code).toString(16)},${cpu},${cpu % 2},${Math.floor(random() * 91125)},1,${Math.floor(random() * 45)},${Math.floor(random() * 45)},${z},${1000 + cpu},${140000000000 + Math.floor(random() * 1e9)},8,${Math.floor((3 * i) / count)}\n`;
    if (buf.length > 1 << 20) {
      bytes += writeSync(fd, buf);
      buf = '';
    }
  }
  bytes += writeSync(fd, buf);
  closeSync(fd);
  return bytes;
}

function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

/** Wall time and the process's CPU time (all threads, GC included) of `f`, in ms. */
async function timedAsync<T>(f: () => Promise<T>): Promise<[T, number, number]> {
  const c = process.cpuUsage();
  const t = performance.now();
  const v = await f();
  const used = process.cpuUsage(c);
  return [v, performance.now() - t, (used.user + used.system) / 1e3];
}

/** The last load's CPU per sample, to state whether loading scales linearly. */
const loadCpuPerSample: { count: number; ns: number; openNs: number }[] = [];

/** Collects what the previous size left, so one size's garbage is not billed to the next (run with --expose-gc). */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Writes a MemAxes run folder (data/samples.out + hardware.xml) of `count` samples; returns the CSV's size in bytes. */
export function writeMemaxesRun(run: string, count: number): number {
  mkdirSync(join(run, 'data'), { recursive: true });
  writeHardwareXml(join(run, 'hardware.xml'));
  return writeSamples(join(run, 'data', 'samples.out'), count);
}

async function benchOne(dir: string, count: number): Promise<void> {
  const run = join(dir, `run-${count}`);
  const bytes = writeMemaxesRun(run, count);
  collect();
  const [[dataset, a], loadMs, loadCpuMs] = await timedAsync(async () => {
    const d = await readMemoryDataset(run);
    return [d, prepareMemoryAnalysis(d.samples, d.machine)] as const;
  });
  const s = dataset.samples;
  console.log(
    `\nmemory: ${count.toLocaleString('en')} samples × ${s.attributes.length} attributes (${(bytes / 2 ** 20).toFixed(1)} MiB CSV; load average ${loadavg()[0]!.toFixed(1)})`,
  );
  // Wall time on a shared machine mostly measures the other processes; CPU time is this load's cost.
  console.log(
    `  load (read + join to the machine)  ${loadMs.toFixed(0)} ms wall, ${loadCpuMs.toFixed(0)} ms CPU (${((loadCpuMs * 1e6) / count).toFixed(0)} ns/sample)`,
  );
  // What Open Profile… costs: the memory system reads, joins, and builds the editor profile and summary.
  collect();
  const service = new LocalAnalysisService();
  const [opened, openMs, openCpuMs] = await timedAsync(() => service.open({ path: run }));
  await service.close({ dataset: opened.dataset });
  console.log(
    `  open through the memory system (+ editor profile, summary)  ${openMs.toFixed(0)} ms wall, ${openCpuMs.toFixed(0)} ms CPU (${((openCpuMs * 1e6) / count).toFixed(0)} ns/sample)`,
  );
  loadCpuPerSample.push({ count, ns: (loadCpuMs * 1e6) / count, openNs: (openCpuMs * 1e6) / count });

  // A session of selections as a user makes them: a variable, then L3 only, then a PU appended, then cleared.
  const fx = s.variable.names.indexOf('fx');
  const steps: [string, (scope: SampleScope) => SampleScope][] = [
    [
      'select variable fx',
      sc =>
        select(
          sc,
          indicesWhere(s.count, i => s.variable.ids[i] === fx),
          'new',
        ),
    ],
    [
      'filter to L3',
      sc =>
        select(
          sc,
          indicesWhere(s.count, i => s.level[i] === 3),
          'filter',
        ),
    ],
    [
      'append CPU 5',
      sc =>
        select(
          sc,
          indicesWhere(s.count, i => s.cpu[i] === 5),
          'append',
        ),
    ],
    ['clear', sc => ({ visible: sc.visible, selected: null })],
  ];
  // The panel's view model: topology loads, depth scores, top offenders, histograms, line and variable costs.
  const view = new MemoryView(a);
  let scope: SampleScope = { visible: null, selected: null };
  const [, firstMs] = timed(() => view.update(scope));
  console.log(`  first view (all samples, 18 histograms)  ${firstMs.toFixed(0)} ms`);
  // The session repeated five times; the median per step (the first round also pays for JIT compilation).
  const rounds = steps.map(() => [] as number[]);
  const sizes = steps.map(() => 0);
  for (let round = 0; round < 5; round++)
    steps.forEach(([, step], k) => {
      const [, ms] = timed(() => {
        scope = step(scope);
        view.update(scope);
      });
      rounds[k]!.push(ms);
      sizes[k] = scope.selected?.length ?? s.count;
    });
  steps.forEach(([name], k) => {
    const sorted = [...rounds[k]!].sort((x, y) => x - y);
    console.log(
      `  selection update: ${name.padEnd(20)} ${sorted[2]!.toFixed(1)} ms median, first ${rounds[k]![0]!.toFixed(1)} ms (${sizes[k]} samples)`,
    );
  });
  const time = findAttribute(s, 'time')!;
  const zidx = findAttribute(s, 'zidx')!;
  const [, stripMs] = timed(() => metricStrip(a, time, { score: 'imbalance', depth: 'numa' }, 50));
  console.log(`  metric strip (50 windows along time, NUMA imbalance)  ${stripMs.toFixed(0)} ms`);
  const [tree, clusterMs] = timed(() => clusterAlongAttribute(a, time, { score: 'imbalance', depth: 'pu' }));
  console.log(
    `  clustering along time (w = 1000, Δ = 600, PU imbalance)  ${clusterMs.toFixed(0)} ms (${tree.leaves} leaves)`,
  );
  const [, zMs] = timed(() => clusterAlongAttribute(a, zidx, { score: 'latency', depth: 'l3' }));
  console.log(`  clustering along zidx (L3 latency)  ${zMs.toFixed(0)} ms`);
}

export async function benchMemory(
  count = Number(process.env.HPC_LENS_BENCH_MEMORY_SAMPLES ?? 250_000),
  large = Number(process.env.HPC_LENS_BENCH_MEMORY_LARGE ?? 1_000_000),
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-memory-'));
  try {
    await benchOne(dir, count);
    if (large > 0) {
      await benchOne(dir, large);
      const [small, big] = loadCpuPerSample.slice(-2) as [(typeof loadCpuPerSample)[0], (typeof loadCpuPerSample)[0]];
      console.log(
        `  scaling ${small.count.toLocaleString('en')} → ${big.count.toLocaleString('en')}: CPU per sample × ${(big.ns / small.ns).toFixed(2)} (load), × ${(big.openNs / small.openNs).toFixed(2)} (open); 1.00 is linear`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
