/**
 * Memory samples at scale (seed digest §4.2 test 11, §5): load a generated MemAxes run of
 * 250,000 samples × 18 attributes (LULESH's scale is 235,447 × 18) with its hardware.xml, then
 * time what one selection change recomputes for the panel and the editor (target < 100 ms), the
 * metric strips and clustering, and the same at 1,000,000 samples.
 * Run: `npm run bench -- memory` (HPC_LENS_BENCH_MEMORY_SAMPLES and HPC_LENS_BENCH_MEMORY_LARGE choose the sizes).
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indicesWhere, select, type SampleScope } from '../src/analysis/memory/index-set';
import { prepareMemoryAnalysis } from '../src/analysis/memory/memory-analysis';
import { findAttribute } from '../src/analysis/memory/model/memory-samples';
import { MemoryView } from '../src/analysis/memory/memory-view';
import { clusterAlongAttribute } from '../src/analysis/memory/metric-clustering';
import { metricStrip } from '../src/analysis/memory/metric-strip';
import { readMemoryDataset } from '../src/analysis/formats/memory/memory-dataset';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import { collectGarbage, formatTiming, loadAverage, summarise, timeOnce, timeSync, type Timing } from './bench-timing';

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

/** The last load's CPU per sample, to state whether loading scales linearly. */
const loadCpuPerSample: { count: number; ns: number; openNs: number }[] = [];

/** Writes a MemAxes run folder (data/samples.out + hardware.xml) of `count` samples; returns the CSV's size in bytes. */
export function writeMemaxesRun(run: string, count: number): number {
  mkdirSync(join(run, 'data'), { recursive: true });
  writeHardwareXml(join(run, 'hardware.xml'));
  return writeSamples(join(run, 'data', 'samples.out'), count);
}

async function benchOne(dir: string, count: number): Promise<void> {
  const run = join(dir, `run-${count}`);
  const bytes = writeMemaxesRun(run, count);
  // Collects what the previous size left, so one size's garbage is not billed to the next (--expose-gc).
  collectGarbage();
  const loaded = await timeOnce(async () => {
    const d = await readMemoryDataset(run);
    return [d, prepareMemoryAnalysis(d.samples, d.machine)] as const;
  });
  const [dataset, a] = loaded.value;
  const { wallMs: loadMs, cpuMs: loadCpuMs } = loaded;
  const s = dataset.samples;
  console.log(
    `\nmemory: ${count.toLocaleString('en')} samples × ${s.attributes.length} attributes (${(bytes / 2 ** 20).toFixed(1)} MiB CSV; load average ${loadAverage().one.toFixed(1)})`,
  );
  // Wall time on a shared machine mostly measures the other processes; CPU time is this load's cost.
  console.log(
    `  load (read + join to the machine)  ${loadMs.toFixed(0)} ms wall, ${loadCpuMs.toFixed(0)} ms CPU (${((loadCpuMs * 1e6) / count).toFixed(0)} ns/sample)`,
  );
  // What Open Profile… costs: the memory system reads, joins, and builds the editor profile and summary.
  collectGarbage();
  const service = new LocalAnalysisService();
  const open = await timeOnce(() => service.open({ path: run }));
  const { value: opened, wallMs: openMs, cpuMs: openCpuMs } = open;
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
  const first = timeSync(() => view.update(scope));
  console.log(`  first view (all samples, 18 histograms)  ${formatTiming(first, { digits: 0 })}`);
  // The session repeated five times; the median per step (the first round also pays for JIT compilation).
  const rounds = steps.map(() => [] as Timing[]);
  const sizes = steps.map(() => 0);
  for (let round = 0; round < 5; round++)
    steps.forEach(([, step], k) => {
      rounds[k]!.push(
        timeSync(() => {
          scope = step(scope);
          view.update(scope);
        }),
      );
      sizes[k] = scope.selected?.length ?? s.count;
    });
  steps.forEach(([name], k) => {
    const t = summarise(rounds[k]!);
    console.log(
      `  selection update: ${name.padEnd(20)} ${formatTiming(t, { digits: 1 })} median, first ${formatTiming(t.runs[0]!, { digits: 1 })} (${sizes[k]} samples)`,
    );
  });
  const time = findAttribute(s, 'time')!;
  const zidx = findAttribute(s, 'zidx')!;
  const strip = timeSync(() => metricStrip(a, time, { score: 'imbalance', depth: 'numa' }, 50));
  console.log(`  metric strip (50 windows along time, NUMA imbalance)  ${formatTiming(strip, { digits: 0 })}`);
  const cluster = timeSync(() => clusterAlongAttribute(a, time, { score: 'imbalance', depth: 'pu' }));
  console.log(
    `  clustering along time (w = 1000, Δ = 600, PU imbalance)  ${formatTiming(cluster, { digits: 0 })} (${cluster.value.leaves} leaves)`,
  );
  const z = timeSync(() => clusterAlongAttribute(a, zidx, { score: 'latency', depth: 'l3' }));
  console.log(`  clustering along zidx (L3 latency)  ${formatTiming(z, { digits: 0 })}`);
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
