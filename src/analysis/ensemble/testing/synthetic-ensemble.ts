import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NodeKind } from '../../model/call-tree';
import { ProfileBuilder } from '../../model/profile-builder';
import { seededRandom } from '../../stats/seeded-random';
import { describeRun, type RunProfile } from '../ensemble-runs';

/**
 * A realistic synthetic ensemble for tests and benchmarks: one program's calling-context tree
 * (modules solver, physics, linalg, mesh, mpi, io under `main`), run over a sweep of rank counts,
 * problem sizes and compilers with repetitions. Per rank, compute time scales with size / ranks
 * (strong scaling) and the compiler, MPI time grows with log2(ranks), I/O is flat; every value
 * carries multiplicative noise and a per-rank imbalance. A few subtrees are missing in some runs,
 * and one compute node scales out of order (slower at 128 ranks than at 64).
 */

export interface SyntheticEnsembleOptions {
  runs: number;
  /** Approximate number of calling contexts in the tree (default 10,000). */
  nodes?: number;
  /** Contexts stored per run: the first min(ranks, maxContexts) ranks (default 4). */
  maxContexts?: number;
  /** Subtrees missing in some runs (default 4). */
  missingSubtrees?: number;
  /** Relative noise (default 0.03). */
  noise?: number;
  seed?: number;
}

export const SYNTHETIC_RANKS = [8, 16, 32, 64, 128, 256, 512] as const;
export const SYNTHETIC_COMPILERS = ['gcc10', 'clang12', 'intel19'] as const;
export const SYNTHETIC_SIZES = [1048576, 2097152] as const;
const COMPILER_SPEED: Record<string, number> = { gcc10: 1, clang12: 0.93, intel19: 0.87 };
const MODULES = ['solver', 'physics', 'linalg', 'mesh', 'mpi', 'io'] as const;
const MPI_CALLS = ['MPI_Allreduce', 'MPI_Waitall', 'MPI_Isend', 'MPI_Irecv', 'MPI_Barrier', 'MPI_Bcast'];
/** The rank count at which the out-of-order node jumps. */
export const OUT_OF_ORDER_RANKS = 128;

interface Template {
  parent: Int32Array;
  names: string[];
  module: Int32Array;
  /** Exclusive time of the node for one unit of work, seconds. */
  base: Float64Array;
  /** Index of the out-of-order node. */
  outOfOrder: number;
  /** Roots of missing subtrees, with the runs (by index modulo) that lack them. */
  missing: { node: number; period: number; phase: number }[];
  /** Subtree end (exclusive) per node: nodes are in preorder. */
  end: Int32Array;
}

export interface SyntheticRunConfig {
  /** Relative path the run is written to (parameters parse from it). */
  relativePath: string;
  name: string;
  ranks: number;
  compiler: string;
  size: number;
  repetition: number;
}

export function syntheticRunConfig(i: number): SyntheticRunConfig {
  const ranks = SYNTHETIC_RANKS[i % SYNTHETIC_RANKS.length]!;
  const compiler = SYNTHETIC_COMPILERS[Math.floor(i / SYNTHETIC_RANKS.length) % SYNTHETIC_COMPILERS.length]!;
  const block = SYNTHETIC_RANKS.length * SYNTHETIC_COMPILERS.length;
  const size = SYNTHETIC_SIZES[Math.floor(i / block) % SYNTHETIC_SIZES.length]!;
  const repetition = Math.floor(i / (block * SYNTHETIC_SIZES.length)) + 1;
  const name = `${compiler}_${size}/${ranks}_ranks_${repetition}`;
  return { relativePath: `${name}.json`, name, ranks, compiler, size, repetition };
}

function gauss(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** The program's tree, in preorder, the same for every run. */
function buildTemplate(nodes: number, missingSubtrees: number, rand: () => number): Template {
  const parent: number[] = [-1],
    names: string[] = ['main'],
    module: number[] = [-1],
    base: number[] = [1e-4];
  // Depth-first growth keeps preorder; each module gets a share of the node budget.
  const grow = (p: number, mod: number, depth: number, budget: number) => {
    let left = budget;
    let k = 0;
    while (left > 0) {
      const id = parent.length;
      parent.push(p);
      module.push(mod);
      const leafish = depth >= 3 || left < 4;
      names.push(
        MODULES[mod] === 'mpi' && leafish
          ? MPI_CALLS[Math.floor(rand() * MPI_CALLS.length)]!
          : `${MODULES[mod]}::${depth === 1 ? 'phase' : 'kernel'}_${depth}_${k++}`,
      );
      base.push(Math.exp(gauss(rand) * 1.2) * (leafish ? 2e-3 : 2e-4));
      left--;
      if (!leafish) {
        const take = Math.min(left, Math.max(1, Math.floor(left * (0.2 + rand() * 0.5))));
        grow(id, mod, depth + 1, take);
        left -= take;
      }
    }
  };
  const perModule = Math.max(1, Math.floor((nodes - 1) / MODULES.length));
  MODULES.forEach((_, m) => {
    const id = parent.length;
    parent.push(0);
    module.push(m);
    names.push(MODULES[m]!);
    base.push(1e-4);
    grow(id, m, 1, perModule - 1);
  });
  const n = parent.length;
  const end = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    end[i] = Math.max(end[i]!, i + 1);
    const p = parent[i]!;
    if (p >= 0) end[p] = Math.max(end[p]!, end[i]!);
  }
  // The out-of-order node: the costliest solver node that has no children, so its jump is its own.
  let outOfOrder = -1;
  for (let i = 0; i < n; i++)
    if (module[i] === 0 && end[i] === i + 1 && (outOfOrder < 0 || base[i]! > base[outOfOrder]!)) outOfOrder = i;
  const missing: Template['missing'] = [];
  for (let k = 0; k < missingSubtrees; k++) {
    // Small subtrees in physics/mesh/io, never the out-of-order node or a module root.
    for (let tries = 0; tries < 1000; tries++) {
      const i = 1 + Math.floor(rand() * (n - 1));
      // Not in solver (the out-of-order node's module) nor mpi (whose sibling names repeat and fold).
      if (
        names[i] === MODULES[module[i]!] ||
        module[i] === 0 ||
        MODULES[module[i]!] === 'mpi' ||
        end[i]! - i > 20 ||
        missing.some(m => (i >= m.node && i < end[m.node]!) || (m.node >= i && m.node < end[i]!))
      )
        continue;
      missing.push({ node: i, period: 3 + k, phase: k });
      break;
    }
  }
  return {
    parent: Int32Array.from(parent),
    names,
    module: Int32Array.from(module),
    base: Float64Array.from(base),
    outOfOrder,
    missing,
    end,
  };
}

/** Whether template node i exists in run r. */
function presentInRun(t: Template, r: number): Uint8Array {
  const present = new Uint8Array(t.parent.length).fill(1);
  for (const m of t.missing) if (r % m.period === m.phase) present.fill(0, m.node, t.end[m.node]!);
  return present;
}

/** Mean-over-ranks exclusive time of node i in a run with this configuration, before noise. */
export function syntheticExpectedTime(
  t: { module: Int32Array; base: Float64Array; outOfOrder: number },
  i: number,
  c: SyntheticRunConfig,
): number {
  const mod = t.module[i]!;
  const b = t.base[i]!;
  if (mod < 0) return b;
  const name = MODULES[mod]!;
  let scale: number;
  if (name === 'mpi') scale = 0.5 * Math.log2(c.ranks);
  else if (name === 'io') scale = 1;
  else scale = (c.size / 1048576) * (512 / c.ranks) * COMPILER_SPEED[c.compiler]!;
  if (i === t.outOfOrder && c.ranks === OUT_OF_ORDER_RANKS) scale *= 3;
  return b * scale;
}

export interface SyntheticEnsemble {
  runs: RunProfile[];
  configs: SyntheticRunConfig[];
  /** Names from the root of the out-of-order node. */
  outOfOrderPath: string[];
  /** Missing subtrees: the path of each subtree root and the runs without it. */
  missing: { path: string[]; runs: number[] }[];
}

function pathOf(t: Template, i: number): string[] {
  const out: string[] = [];
  for (let n = i; n >= 0; n = t.parent[n]!) out.push(t.names[n]!);
  return out.reverse();
}

interface RunValues {
  present: Uint8Array;
  contexts: number[];
  values: Float64Array;
}

function runValues(
  t: Template,
  r: number,
  c: SyntheticRunConfig,
  maxContexts: number,
  noise: number,
  rand: () => number,
): RunValues {
  const present = presentInRun(t, r);
  const C = Math.min(c.ranks, maxContexts);
  // The first C ranks stand for the job (readers number contexts densely from rank 0).
  const contexts = Array.from({ length: C }, (_, k) => k);
  const imbalance = contexts.map(() => 0.15 * (rand() - 0.5));
  const n = t.parent.length;
  const values = new Float64Array(n * C);
  for (let i = 0; i < n; i++) {
    if (!present[i]) continue;
    const v = syntheticExpectedTime(t, i, c) * Math.max(0.05, 1 + noise * gauss(rand));
    for (let k = 0; k < C; k++) values[i * C + k] = v * (1 + imbalance[k]!);
  }
  return { present, contexts, values };
}

/** The ensemble in memory: profiles built with ProfileBuilder (format `synthetic`). */
export function generateSyntheticEnsemble(options: SyntheticEnsembleOptions): SyntheticEnsemble {
  const rand = seededRandom(options.seed ?? 7);
  const t = buildTemplate(options.nodes ?? 10_000, options.missingSubtrees ?? 4, rand);
  const runs: RunProfile[] = [];
  const configs: SyntheticRunConfig[] = [];
  for (let r = 0; r < options.runs; r++) {
    const c = syntheticRunConfig(r);
    configs.push(c);
    const { present, contexts, values } = runValues(t, r, c, options.maxContexts ?? 4, options.noise ?? 0.03, rand);
    const b = new ProfileBuilder('synthetic', `synthetic/${c.relativePath}`);
    const ctx = contexts.map(rank => b.context({ rank }));
    const m = b.addMetric({
      name: 'time',
      label: 'Time',
      sourceKeys: ['sum#time.duration'],
      unit: 's',
      kind: 'exclusive',
      aggregation: 'sum',
    });
    Object.assign(b.metadata, {
      'mpi.world.size': c.ranks,
      problem_size: c.size,
      compiler: c.compiler,
      launchdate: 1_700_000_000 + r * 600,
    });
    const id = new Int32Array(t.parent.length).fill(-1);
    for (let i = 0; i < t.parent.length; i++) {
      if (!present[i]) continue;
      const p = t.parent[i]!;
      id[i] = b.tree.add(p >= 0 ? id[p]! : -1, t.names[i]!, NodeKind.Function, {
        module: t.module[i]! >= 0 ? MODULES[t.module[i]!]! : null,
      });
      for (let k = 0; k < ctx.length; k++) b.addExclusive(m, id[i]!, ctx[k]!, values[i * ctx.length + k]!);
    }
    const profile = b.build(m);
    runs.push({ run: describeRun(profile, c.name, c.relativePath), profile });
  }
  return {
    runs,
    configs,
    outOfOrderPath: pathOf(t, t.outOfOrder),
    missing: t.missing.map(m => ({
      path: pathOf(t, m.node),
      runs: configs.map((_, r) => r).filter(r => r % m.period === m.phase),
    })),
  };
}

/**
 * Writes the ensemble as Caliper json-split files (one per run, `<compiler>_<size>/<ranks>_ranks_<rep>.json`
 * under `folder`), with Adiak-like metadata (`mpi.world.size`, `problem_size`, `compiler`,
 * `launchdate`), for end-to-end loading. Returns the paths written.
 */
export function writeSyntheticEnsemble(folder: string, options: SyntheticEnsembleOptions): string[] {
  const rand = seededRandom(options.seed ?? 7);
  const t = buildTemplate(options.nodes ?? 10_000, options.missingSubtrees ?? 4, rand);
  const paths: string[] = [];
  for (let r = 0; r < options.runs; r++) {
    const c = syntheticRunConfig(r);
    const { present, contexts, values } = runValues(t, r, c, options.maxContexts ?? 4, options.noise ?? 0.03, rand);
    const path = join(folder, c.relativePath);
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'w');
    let buf = '{"data":[';
    let first = true;
    const index = new Int32Array(t.parent.length).fill(-1);
    let count = 0;
    for (let i = 0; i < t.parent.length; i++) if (present[i]) index[i] = count++;
    for (let i = 0; i < t.parent.length; i++) {
      if (!present[i]) continue;
      for (let k = 0; k < contexts.length; k++) {
        buf += `${first ? '' : ','}[${values[i * contexts.length + k]!.toPrecision(9)},${contexts[k]},${index[i]}]`;
        first = false;
      }
      if (buf.length > 1 << 20) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    buf +=
      '],"columns":["sum#time.duration","mpi.rank","path"],"column_metadata":[{"is_value":true,"attribute.unit":"sec"},{"is_value":true},{"is_value":false}],"nodes":[';
    first = true;
    for (let i = 0; i < t.parent.length; i++) {
      if (!present[i]) continue;
      const p = t.parent[i]!;
      buf += `${first ? '' : ','}{"label":${JSON.stringify(t.names[i])},"column":"path"${p >= 0 ? `,"parent":${index[p]}` : ''}}`;
      first = false;
      if (buf.length > 1 << 20) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    buf += `],"mpi.world.size":${c.ranks},"problem_size":${c.size},"compiler":"${c.compiler}","launchdate":${1_700_000_000 + r * 600}}\n`;
    writeSync(fd, buf);
    closeSync(fd);
    paths.push(path);
  }
  return paths;
}
