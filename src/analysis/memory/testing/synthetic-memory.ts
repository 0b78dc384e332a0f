/**
 * Seeded synthetic memory samples with planted ground truth, for tests and benchmarks: a builder
 * for small hand-made sample sets, a Cab-like machine (MemAxes §8: 2 sockets × 8 cores × 2
 * hyperthreads, private L1/L2, one L3 and NUMA node per socket), and one generator per finding of
 * the MemAxes case studies (seed digest §4.2): an idle PU, NUMA skew, latency outranking count,
 * consecutive indices alternating between sockets, and three phases along time.
 */
import { LEVEL_L1, LEVEL_L2, LEVEL_L3, LEVEL_RAM, LEVEL_UNRESOLVED, type MemoryLevel } from '../model/data-source';
import { CategoryInterner, UNKNOWN_SOURCE, type MemorySamples, type SampleAttribute } from '../model/memory-samples';
import { seededRandom } from '../../stats/seeded-random';
import { buildMachineTopology, type MachineDescription, type MachineTopology } from '../../topology/machine';

/** Columns of hand-made samples; all arrays have one entry per sample. */
export interface SampleColumns {
  cpu: readonly number[];
  latency: readonly number[];
  level: readonly number[];
  remote?: readonly number[];
  node?: readonly number[];
  variable?: readonly string[];
  file?: readonly string[];
  line?: readonly number[];
  /** Further numeric attributes (quantitative). */
  extra?: Record<string, readonly number[]>;
}

/** Samples from plain columns (the attributes are the columns, in MemAxes' order). */
export function memorySamplesFrom(columns: SampleColumns, path = 'synthetic'): MemorySamples {
  const n = columns.cpu.length;
  const category = (values: readonly string[] | undefined) => {
    const interner = new CategoryInterner();
    const ids = Int32Array.from({ length: n }, (_, i) => interner.intern(values?.[i] ?? UNKNOWN_SOURCE));
    return { ids, names: interner.names };
  };
  const variable = category(columns.variable);
  const source = category(columns.file);
  const line = Int32Array.from({ length: n }, (_, i) => columns.line?.[i] ?? 0);
  const latency = Float64Array.from(columns.latency);
  const cpu = Int32Array.from(columns.cpu);
  const node = Int32Array.from({ length: n }, (_, i) => columns.node?.[i] ?? -1);
  const attributes: SampleAttribute[] = [
    { name: 'variable', kind: 'qualitative', values: variable.ids, categories: variable.names },
    { name: 'source', kind: 'qualitative', values: source.ids, categories: source.names },
    { name: 'line', kind: 'qualitative', values: line },
    { name: 'latency', kind: 'quantitative', values: latency },
    { name: 'cpu', kind: 'qualitative', values: cpu },
    { name: 'node', kind: 'qualitative', values: node },
    ...Object.entries(columns.extra ?? {}).map(([name, values]) => ({
      name,
      kind: 'quantitative' as const,
      values: Float64Array.from(values),
    })),
  ];
  return {
    format: 'memaxes',
    dialect: 'memaxes',
    path,
    count: n,
    latency,
    cpu,
    level: Uint8Array.from(columns.level),
    remote: Uint8Array.from({ length: n }, (_, i) => columns.remote?.[i] ?? 0),
    node,
    source,
    line,
    variable,
    attributes,
    warnings: [],
  };
}

/**
 * A Cab-like node: `sockets` sockets (one NUMA node and L3 each) of `cores` cores with private L2
 * and L1 and `threads` hyperthreads. Linux numbering: core k's threads are CPUs k, k + C, … (C =
 * all cores), so CPUs 0 … C−1 are each core's first thread, socket by socket.
 */
export function cabLikeMachine(sockets = 2, cores = 8, threads = 2): MachineTopology {
  const allCores = sockets * cores;
  const cpusOfCore = (k: number) => Array.from({ length: threads }, (_, t) => k + t * allCores);
  const resources: MachineDescription['resources'][number][] = [];
  for (let s = 0; s < sockets; s++) {
    const cpus = Array.from({ length: cores }, (_, c) => cpusOfCore(s * cores + c)).flat();
    resources.push({ depth: 'numa', osIndex: s, cpus, package: s }, { depth: 'l3', osIndex: s, cpus, package: s });
  }
  for (let k = 0; k < allCores; k++) {
    resources.push({ depth: 'l2', osIndex: k, cpus: cpusOfCore(k) }, { depth: 'l1', osIndex: k, cpus: cpusOfCore(k) });
  }
  const cpus = Array.from({ length: allCores }, (_, k) => cpusOfCore(k)).flat();
  return buildMachineTopology({ name: 'cab-like', source: 'synthetic', cpus, resources });
}

/** Appends samples column by column. */
class SampleWriter {
  readonly cpu: number[] = [];
  readonly latency: number[] = [];
  readonly level: number[] = [];
  readonly remote: number[] = [];
  readonly node: number[] = [];
  readonly variable: string[] = [];
  readonly file: string[] = [];
  readonly line: number[] = [];
  readonly extra: Record<string, number[]> = {};

  add(s: {
    cpu: number;
    latency: number;
    level: MemoryLevel;
    remote?: boolean;
    node?: number;
    variable?: string;
    file?: string;
    line?: number;
    extra?: Record<string, number>;
  }): void {
    this.cpu.push(s.cpu);
    this.latency.push(Math.round(s.latency));
    this.level.push(s.level);
    this.remote.push(s.remote ? 1 : 0);
    this.node.push(s.node ?? -1);
    this.variable.push(s.variable ?? UNKNOWN_SOURCE);
    this.file.push(s.file ?? UNKNOWN_SOURCE);
    this.line.push(s.line ?? 0);
    for (const [k, v] of Object.entries(s.extra ?? {})) (this.extra[k] ??= []).push(v);
  }

  finish(path: string): MemorySamples {
    return memorySamplesFrom(this, path);
  }
}

/** A typical latency for a level: L1 ~ 20, L2 ~ 40, L3 ~ 150, RAM ~ 350 cycles, unresolved ~ 60. */
function latencyOf(level: MemoryLevel, random: () => number): number {
  const base = [60, 20, 40, 150, 350][level]!;
  return base * (0.75 + 0.5 * random());
}

/** A level drawn from a typical mix: 45 % L1, 20 % L2, 15 % L3, 5 % RAM, 15 % unresolved. */
function typicalLevel(random: () => number): MemoryLevel {
  const u = random();
  return u < 0.45 ? LEVEL_L1 : u < 0.65 ? LEVEL_L2 : u < 0.8 ? LEVEL_L3 : u < 0.85 ? LEVEL_RAM : LEVEL_UNRESOLVED;
}

export interface Scenario {
  samples: MemorySamples;
  machine: MachineTopology;
}

/**
 * Seed test 1: `total` samples spread evenly over the 32 PUs, except PU `idle`, which issues fewer
 * than 1 % of the mean (`idleSamples`).
 */
export function idlePuScenario(
  options: { total?: number; idle?: number; idleSamples?: number; seed?: number } = {},
): Scenario & {
  idle: number;
} {
  const { total = 200_000, idle = 5, idleSamples = 12, seed = 1 } = options;
  const machine = cabLikeMachine();
  const random = seededRandom(seed);
  const cpus = [...machine.puOfCpu.keys()].filter(c => c !== idle);
  const w = new SampleWriter();
  for (let k = 0; k < total - idleSamples; k++) {
    const level = typicalLevel(random);
    w.add({
      cpu: cpus[Math.floor(random() * cpus.length)]!,
      latency: latencyOf(level, random),
      level,
      variable: 'v',
      file: 'a.c',
      line: 1,
    });
  }
  for (let k = 0; k < idleSamples; k++)
    w.add({ cpu: idle, latency: 20, level: LEVEL_L1, variable: 'v', file: 'a.c', line: 1 });
  return { samples: w.finish('idle-pu'), machine, idle };
}

/**
 * Seed test 2 (XSBench): all `ramSamples` RAM-resolved loads are local to NUMA 0 (issued on socket
 * 0), none reach NUMA 1; the other loads are cache hits spread over all PUs.
 */
export function numaSkewScenario(options: { ramSamples?: number; others?: number; seed?: number } = {}): Scenario {
  const { ramSamples = 282, others = 20_000, seed = 2 } = options;
  const machine = cabLikeMachine();
  const random = seededRandom(seed);
  const cpus = [...machine.puOfCpu.keys()];
  const socket0 = cpus.filter(c => c % 16 < 8);
  const w = new SampleWriter();
  for (let k = 0; k < others; k++) {
    const level = ([LEVEL_L1, LEVEL_L2, LEVEL_L3] as const)[Math.floor(random() * 3)]!;
    w.add({
      cpu: cpus[k % cpus.length]!,
      latency: latencyOf(level, random),
      level,
      variable: 'grid',
      file: 'xs.c',
      line: 7,
    });
  }
  for (let k = 0; k < ramSamples; k++)
    w.add({
      cpu: socket0[k % socket0.length]!,
      latency: 400 + 100 * random(),
      level: LEVEL_RAM,
      node: 0,
      variable: 'grid',
      file: 'xs.c',
      line: 9,
    });
  return { samples: w.finish('numa-skew'), machine };
}

/**
 * Seed test 3 (LULESH's hottest loop): `nodalMass` is read 3n times, `fx`, `fy`, `fz` n times each,
 * all at about 20 cycles from L1; `nodalMass` also reaches L3 16 times at 405 cycles on average,
 * and each of `fx`, `fy`, `fz` 80 times at 1,100–2,700 cycles (cross-socket contention). The
 * loop is line 1502 of lulesh.cc; other lines cost less.
 */
export function latencyOutranksCountScenario(options: { n?: number; seed?: number } = {}): Scenario & {
  loopLine: number;
} {
  const { n = 3000, seed = 3 } = options;
  const machine = cabLikeMachine();
  const random = seededRandom(seed);
  const cpus = [...machine.puOfCpu.keys()];
  const cpu = () => cpus[Math.floor(random() * cpus.length)]!;
  const w = new SampleWriter();
  const loop = { file: 'lulesh.cc', line: 1502 };
  const l1 = (variable: string) =>
    w.add({ cpu: cpu(), latency: 16 + 8 * random(), level: LEVEL_L1, variable, ...loop });
  for (let k = 0; k < 3 * n; k++) l1('nodalMass');
  // 16 L3 reads of nodalMass, 405 cycles on average: pairs 405 ± d.
  for (let k = 0; k < 8; k++) {
    const d = 10 * (k + 1);
    w.add({ cpu: cpu(), latency: 405 - d, level: LEVEL_L3, variable: 'nodalMass', ...loop });
    w.add({ cpu: cpu(), latency: 405 + d, level: LEVEL_L3, variable: 'nodalMass', ...loop });
  }
  for (const v of ['fx', 'fy', 'fz']) {
    for (let k = 0; k < n; k++) l1(v);
    for (let k = 0; k < 80; k++)
      w.add({ cpu: cpu(), latency: 1100 + 1600 * random(), level: LEVEL_L3, variable: v, ...loop });
  }
  // Elsewhere: cheaper lines.
  for (let k = 0; k < 2000; k++)
    w.add({ cpu: cpu(), latency: 30 + 20 * random(), level: LEVEL_L2, variable: 'm_x', file: 'lulesh.cc', line: 961 });
  return { samples: w.finish('latency-outranks-count'), machine, loopLine: loop.line };
}

/**
 * Seed test 4 (LULESH along zidx): `planes` z-indices with `perPlane` samples each. Alternating:
 * consecutive z-indices run on cores of opposite sockets, and a third of the loads are L3 hits
 * slowed by cross-socket coherence (~1,500 cycles). Remapped: blocks of four consecutive
 * z-indices run on one core, neighbouring blocks on neighbouring cores, and the same L3 loads
 * cost ~600 cycles: 60 % fewer L3 cycles by construction.
 */
export function zidxScenario(
  options: { remapped?: boolean; planes?: number; perPlane?: number; seed?: number } = {},
): Scenario & { coreOfPlane: (z: number) => number } {
  const { remapped = false, planes = 64, perPlane = 600, seed = 4 } = options;
  const machine = cabLikeMachine();
  const random = seededRandom(seed);
  const cores = 16;
  const coreOfPlane = remapped
    ? (z: number) => Math.floor((z * cores) / planes)
    : (z: number) => (z % 2) * 8 + ((z >> 1) % 8);
  const w = new SampleWriter();
  for (let z = 0; z < planes; z++)
    for (let k = 0; k < perPlane; k++) {
      const core = coreOfPlane(z);
      const cpu = core + (k % 2) * cores; // both hyperthreads of the core
      const u = random();
      const level: MemoryLevel = u < 1 / 3 ? LEVEL_L3 : u < 0.8 ? LEVEL_L1 : LEVEL_L2;
      const l3 = remapped ? 600 : 1500;
      const latency = level === LEVEL_L3 ? l3 * (0.8 + 0.4 * random()) : latencyOf(level, random);
      w.add({ cpu, latency, level, variable: 'fx', file: 'lulesh.cc', line: 1502, extra: { zidx: z } });
    }
  return { samples: w.finish(remapped ? 'zidx-remapped' : 'zidx-alternating'), machine, coreOfPlane };
}

/**
 * Seed test 5 (XSBench phases along time): three phases of `perPhase` samples each, in time order.
 * Phase 1 is cheap (L1/L2, balanced); phase 2 sorts a large array: many L2 loads, half of them on
 * the L2 of core 3; phase 3 does random lookups that go to RAM. A few RAM loads (`strayRam`) fall
 * in phases 1 and 2.
 */
export function phasesScenario(options: { perPhase?: number; strayRam?: number; seed?: number } = {}): Scenario & {
  edges: [number, number];
} {
  const { perPhase = 20_000, strayRam = 40, seed = 5 } = options;
  const machine = cabLikeMachine();
  const random = seededRandom(seed);
  const cpus = [...machine.puOfCpu.keys()];
  const w = new SampleWriter();
  let t = 0;
  const strayAt = new Set(Array.from({ length: strayRam }, () => Math.floor(random() * 2 * perPhase)));
  for (let phase = 1; phase <= 3; phase++)
    for (let k = 0; k < perPhase; k++, t++) {
      let cpu = cpus[Math.floor(random() * cpus.length)]!;
      const u = random();
      let level: MemoryLevel;
      if (phase === 1) level = u < 0.7 ? LEVEL_L1 : LEVEL_L2;
      else if (phase === 2) {
        level = u < 0.4 ? LEVEL_L1 : LEVEL_L2;
        if (level === LEVEL_L2 && random() < 0.5) cpu = 3; // core 3's L2
      } else level = u < 0.4 ? LEVEL_L1 : u < 0.7 ? LEVEL_L2 : LEVEL_RAM;
      if (strayAt.has(t)) level = LEVEL_RAM;
      const time = 1e9 + t * 1000 + Math.floor(1000 * random());
      w.add({
        cpu,
        latency: latencyOf(level, random),
        level,
        node: -1,
        variable: 'grid',
        file: 'xs.c',
        line: 10 * phase,
        extra: { time },
      });
    }
  return { samples: w.finish('phases'), machine, edges: [perPhase, 2 * perPhase] };
}
