/**
 * Writes the demo profiles of samples/heat-stencil/ (see its README.md):
 *
 *   profiles/heat-stencil-sampling-4ranks.json  Caliper sampling + call-path profile (json-split)
 *   profiles/heat-stencil-regions-4ranks.json   Caliper annotation-region profile (json-split)
 *
 * They are synthetic: computed from an explicit cost model of the heat program (cells × iterations ×
 * per-cell cost for the sweep, waiting = slowest rank's work − own work, checkpoint I/O on rank 0,
 * a few percent of seeded noise), not measured. Their shape is what `cali-query -q "... format
 * json-split"` writes and Hatchet's `from_caliper` reads.
 *
 * Every file:line in them is found in the C sources by a code fragment inside a named function, so
 * after editing the C files, re-running this script keeps the profiles pointing at the right lines.
 * It throws if a fragment, function, region annotation or call it relies on is missing.
 *
 * The output is byte-for-byte reproducible (seeded PRNG, no clock). Run:
 *   npx tsx scripts/generate-samples.ts
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { generateOffloadTrace, OFFLOAD_TRACE_FILE } from './sample-offload-trace';

export const SAMPLE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'samples', 'heat-stencil');
export const SOURCE_DIR = join(SAMPLE_DIR, 'src');
export const PROFILE_DIR = join(SAMPLE_DIR, 'profiles');

export const SAMPLING_FILE = 'heat-stencil-sampling-4ranks.json';
export const REGIONS_FILE = 'heat-stencil-regions-4ranks.json';

/** The modelled run: the program's defaults, i.e. `make run` (`heat -n 4`). */
export const RUN = { ranks: 4, nx: 1024, ny: 1024, iterations: 4000, residEvery: 10, ckptEvery: 1000 } as const;

/** Caliper's sampler at 1000 Hz (CALI_SAMPLER_FREQUENCY=1000): every sample stands for 1 ms. */
export const SAMPLE_PERIOD_US = 1000;

/** Where the profiled binary was built: a made-up path, mapped onto the workspace by its trailing components. */
export const BUILD_SRC = '/home/hpc/heat-stencil/src/';

const SEED = 0x4ea7;

/** Per-unit costs of the model, in seconds (and bytes/s). Roughly those of one core of a current x86 node. */
const COST = {
  sweepPerCell: 0.75e-9, // jacobi_sweep: 4 loads, 3 adds, 1 multiply, 1 store per cell
  residualPerCell: 0.5e-9, // compute_residual: 2 loads, 1 subtract, 1 FMA per cell
  initPerCell: 25e-9, // init_field: two sin() calls per cell, ghosts included
  wrapPerRow: 4e-9, // exchange_halos: the periodic ghost-column copy, two strided stores per row
  sendrecvCall: 0.4e-6, // MPI_Sendrecv bookkeeping per call
  rendezvous: 1.5e-6, // handshake with a partner that is already there, per message
  barrierLatency: 2e-6, // one barrier_wait with every rank already there
  copyBandwidth: 6e9, // memcpy, bytes/s
  checksumPerCell: 0.6e-9,
  ioBandwidth: 0.4e9, // fwrite of the checkpoint to a shared file system, bytes/s
  fwriteCall: 40e-6, // fwrite's own work per checkpoint (locking, buffer bookkeeping)
  stepOverhead: 2e-6, // run_timesteps' own work per step: loop, pointer swap, calls and their frames
  mainSelf: 3e-3, // rank_main outside the phases (MPI_Comm_*, partition, calloc, printf)
  outside: 1.2e-3, // before and after the `main` region: MPI_Init, thread start, MPI_Finalize
};

/** ± this fraction of seeded noise on every modelled cost. */
const NOISE = 0.04;

// ---------------------------------------------------------------------------------------------------
// Where the costs are in the C sources
// ---------------------------------------------------------------------------------------------------

/** A statement, found as the one line inside function `fn` of `file` that contains `code`. */
export interface Site {
  file: string;
  fn: string;
  code: string;
}

export const site = (file: string, fn: string, code: string): Site => ({ file, fn, code });

const S = {
  initStore: site('main.c', 'init_field', 'u[i * w + j] = 0.5 + 0.25 * sin('),
  initLoop: site('main.c', 'init_field', 'for (int j = 0; j <= b->nx + 1; j++)'),
  sweepUpdate: site('stencil.c', 'jacobi_sweep', 'unew[i * w + j] = 0.25 *'),
  sweepUpdateTail: site('stencil.c', 'jacobi_sweep', '+ u[i * w + j - 1] + u[i * w + j + 1]'),
  sweepInner: site('stencil.c', 'jacobi_sweep', 'for (int j = 1; j <= nx; j++)'),
  sweepOuter: site('stencil.c', 'jacobi_sweep', 'for (int i = 1; i <= b->rows; i++)'),
  residualDiff: site('stencil.c', 'compute_residual', 'const double d = unew[i * w + j] - u[i * w + j];'),
  residualSum: site('stencil.c', 'compute_residual', 'sum += d * d;'),
  residualInner: site('stencil.c', 'compute_residual', 'for (int j = 1; j <= nx; j++)'),
  wrapLeft: site('halo.c', 'exchange_halos', 'u[i * w] = u[i * w + nx];'),
  wrapRight: site('halo.c', 'exchange_halos', 'u[i * w + nx + 1] = u[i * w + 1];'),
  sendrecvPost: site('minimpi.c', 'MPI_Sendrecv', 'atomic_store_explicit(&out->state, FULL'),
  sendrecvRelease: site('minimpi.c', 'MPI_Sendrecv', 'atomic_store_explicit(&in->state, EMPTY'),
  mailboxPoll: site('minimpi.c', 'mailbox_wait', 'while (atomic_load_explicit(&box->state'),
  barrierPoll: site('minimpi.c', 'barrier_wait', 'while (atomic_load_explicit(&barrier_phase'),
  reduceCombine: site('minimpi.c', 'MPI_Allreduce', 'acc = op == MPI_SUM ?'),
  checksum: site('checkpoint.c', 'write_checkpoint', 'header.checksum += field[k];'),
  stepLoop: site('main.c', 'run_timesteps', 'for (int step = 1; step <= cfg->iterations; step++)'),
  stepSwap: site('main.c', 'run_timesteps', 'double *swap = u;'),
  rankReport: site('main.c', 'rank_main', 'partition_rows(b.ny, b.nranks, b.rank'),
};

/** Load module of every function on the call paths: where its code lives in the running process. */
export const FUNCTION_MODULE: Readonly<Record<string, string>> = {
  _start: 'heat',
  main: 'heat',
  rank_main: 'heat',
  init_field: 'heat',
  run_timesteps: 'heat',
  jacobi_sweep: 'libstencil.so',
  compute_residual: 'libstencil.so',
  exchange_halos: 'libhalo.so',
  global_residual: 'libhalo.so',
  write_checkpoint: 'libckpt.so',
  minimpi_run: 'libminimpi.so',
  rank_thread: 'libminimpi.so',
  MPI_Barrier: 'libminimpi.so',
  MPI_Sendrecv: 'libminimpi.so',
  MPI_Allreduce: 'libminimpi.so',
  mailbox_wait: 'libminimpi.so',
  barrier_wait: 'libminimpi.so',
  __libc_start_main: 'libc.so.6',
  clone3: 'libc.so.6',
  start_thread: 'libc.so.6',
  sched_yield: 'libc.so.6',
  __memmove_avx_unaligned_erms: 'libc.so.6', // what memcpy resolves to on x86-64
  fwrite: 'libc.so.6',
  __GI___libc_write: 'libc.so.6',
  __sin_fma: 'libm.so.6', // what sin resolves to on x86-64 with FMA
};

/** Source file of each of the program's own functions (the others are libc/libm). */
const FUNCTION_FILE: Readonly<Record<string, string>> = {
  main: 'main.c',
  rank_main: 'main.c',
  init_field: 'main.c',
  run_timesteps: 'main.c',
  jacobi_sweep: 'stencil.c',
  compute_residual: 'stencil.c',
  exchange_halos: 'halo.c',
  global_residual: 'halo.c',
  write_checkpoint: 'checkpoint.c',
  minimpi_run: 'minimpi.c',
  rank_thread: 'minimpi.c',
  MPI_Barrier: 'minimpi.c',
  MPI_Sendrecv: 'minimpi.c',
  MPI_Allreduce: 'minimpi.c',
  mailbox_wait: 'minimpi.c',
  barrier_wait: 'minimpi.c',
};

/** How a call edge appears in the caller's C text, where it is not `callee(`. */
const CALL_SPELLING: Readonly<Record<string, string>> = {
  __memmove_avx_unaligned_erms: 'memcpy',
  __sin_fma: 'sin',
  'minimpi_run>rank_main': 'body', // through a function pointer
  'rank_thread>rank_main': 'body',
};

/** Call path above rank_main: rank 0 runs on the process's main thread, the others on threads minimpi starts. */
function rankPrefix(rank: number): string[] {
  return rank === 0
    ? ['_start', '__libc_start_main', 'main', 'minimpi_run', 'rank_main']
    : ['clone3', 'start_thread', 'rank_thread', 'rank_main'];
}

// ---------------------------------------------------------------------------------------------------
// Reading the C sources
// ---------------------------------------------------------------------------------------------------

/** The C sources of the sample, by file name. */
export function readSources(dir: string = SOURCE_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.c') || name.endsWith('.h')) out[name] = readFileSync(join(dir, name), 'utf8');
  }
  return out;
}

/** Replaces comments and string/char literals by spaces, keeping every newline (so line numbers hold). */
export function blankCommentsAndStrings(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += c + ' '.repeat(Math.max(0, j - i - 1)) + (j < text.length ? c : '');
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** 1-based line range of a function definition: its header line and the lines of its opening and closing braces. */
interface FunctionSpan {
  header: number;
  open: number;
  close: number;
}

/** A C file as lines, and as lines with comments and literals blanked (what the scanners look at). */
interface SourceText {
  lines: string[];
  code: string[];
}

/** The sources, prepared once for scanning. */
export type Sources = Map<string, SourceText>;

export function prepare(sources: Record<string, string>): Sources {
  return new Map(
    Object.entries(sources).map(([name, text]) => [
      name,
      { lines: text.split('\n'), code: blankCommentsAndStrings(text).split('\n') },
    ]),
  );
}

function sourceFile(sources: Sources, file: string): SourceText {
  const src = sources.get(file);
  if (src === undefined) throw new Error(`generate-samples: no source file ${file}`);
  return src;
}

function findFunction(sources: Sources, file: string, fn: string): FunctionSpan {
  const lines = sourceFile(sources, file).code;
  // A definition starts in column 0 (return type or attribute), names fn before '(', and is not a prototype.
  const head = new RegExp(`^[A-Za-z_].*\\b${fn}\\s*\\(`);
  const spans: FunctionSpan[] = [];
  for (let h = 0; h < lines.length; h++) {
    if (!head.test(lines[h]!)) continue;
    let depth = 0;
    let open = -1;
    for (let k = h; k < lines.length; k++) {
      for (const ch of lines[k]!) {
        if (open < 0 && ch === ';') break; // a prototype
        if (ch === '{') {
          if (open < 0) open = k;
          depth++;
        }
        if (ch === '}') depth--;
      }
      if (open < 0 && lines[k]!.includes(';')) break;
      if (open >= 0 && depth === 0) {
        spans.push({ header: h + 1, open: open + 1, close: k + 1 });
        break;
      }
    }
  }
  if (spans.length !== 1) {
    throw new Error(`generate-samples: expected one definition of ${fn}() in ${file}, found ${spans.length}`);
  }
  return spans[0]!;
}

/** The 1-based line of `s`: the one line inside the body of s.fn whose code (not comments) contains s.code. */
export function locate(sources: Sources, s: Site): number {
  const span = findFunction(sources, s.file, s.fn);
  const code = sourceFile(sources, s.file).code;
  const hits: number[] = [];
  for (let n = span.open + 1; n < span.close; n++) if (code[n - 1]!.includes(s.code)) hits.push(n);
  if (hits.length !== 1) {
    throw new Error(
      `generate-samples: "${s.code}" occurs ${hits.length} times in ${s.fn}() of ${s.file}, expected once`,
    );
  }
  return hits[0]!;
}

/** Throws unless caller's body contains a call to callee (as the C text spells it). */
function checkCall(sources: Sources, caller: string, callee: string): void {
  const file = FUNCTION_FILE[caller];
  if (file === undefined) return; // a libc frame: not ours to check
  const spelled = CALL_SPELLING[`${caller}>${callee}`] ?? CALL_SPELLING[callee] ?? callee;
  const span = findFunction(sources, file, caller);
  const body = sourceFile(sources, file)
    .code.slice(span.open - 1, span.close)
    .join('\n');
  if (!new RegExp(`\\b${spelled}\\s*\\(`).test(body)) {
    throw new Error(`generate-samples: ${caller}() in ${file} does not call ${spelled}(), but a call path says so`);
  }
}

// ---------------------------------------------------------------------------------------------------
// The cost model
// ---------------------------------------------------------------------------------------------------

/** Mirrors partition_rows() in main.c: weights 2, 1, 1, ..., 1, so rank 0 owns twice the rows of the others. */
export function partitionRows(ny: number, nranks: number, rank: number): { first: number; count: number } {
  const total = nranks + 1;
  const before = rank === 0 ? 0 : rank + 1;
  const through = rank + 2;
  const first = Math.floor((ny * before) / total);
  return { first, count: Math.floor((ny * through) / total) - first };
}

/** One rank's modelled time, in seconds, by what it was doing. */
interface RankTime {
  rows: number;
  initSelf: number;
  initSin: number;
  barrierWait: number;
  wrap: number;
  sendrecvSelf: number;
  haloCopy: number;
  haloWait: number;
  sweep: number;
  residual: number;
  allreduceSelf: number;
  allreduceWait: number;
  ckptPack: number;
  ckptChecksum: number;
  ckptRecvCopy: number;
  ckptFwrite: number;
  ckptWrite: number;
  ckptSendrecvSelf: number;
  ckptWait: number;
  reportAllreduce: number;
  stepSelf: number;
  mainSelf: number;
  outside: number;
}

/** Steps of run_timesteps() that compute the residual (mirrors its `report` / `resid_every` test). */
function residualSteps(): number {
  const printEvery = RUN.iterations >= 10 ? Math.floor(RUN.iterations / 10) : 1;
  let n = 0;
  for (let step = 1; step <= RUN.iterations; step++) {
    if (step % RUN.residEvery === 0 || step % printEvery === 0 || step === RUN.iterations) n++;
  }
  return n;
}

function modelRun(): RankTime[] {
  const rng = seededRandom(SEED);
  const noisy = (x: number): number => x * (1 + NOISE * (2 * rng() - 1));
  const copy = (doubles: number): number => (doubles * 8) / COST.copyBandwidth;
  const { ranks, nx, ny, iterations } = RUN;
  const nResidual = residualSteps();
  const nCkpt = Math.floor(iterations / RUN.ckptEvery);
  const rows = Array.from({ length: ranks }, (_, r) => partitionRows(ny, ranks, r).count);

  const time: RankTime[] = rows.map((n, r) => {
    const cells = n * nx;
    const neighbours = (r > 0 ? 1 : 0) + (r < ranks - 1 ? 1 : 0);
    const init = 2 * (n + 2) * (nx + 2) * COST.initPerCell; // init_field on u and unew
    // Checkpoint gather: rank r waits until rank 0 has packed its own rows and copied ranks 1..r.
    let gatherWait = 0;
    if (r > 0) {
      gatherWait = copy(rows[0]! * nx) - copy(cells);
      for (let s = 1; s <= r; s++) gatherWait += copy(rows[s]! * nx);
      gatherWait = Math.max(0, gatherWait) + COST.rendezvous;
    }
    return {
      rows: n,
      initSelf: noisy(0.3 * init),
      initSin: noisy(0.7 * init),
      barrierWait: 0,
      wrap: noisy(iterations * n * COST.wrapPerRow),
      sendrecvSelf: noisy(iterations * 2 * COST.sendrecvCall),
      haloCopy: noisy(iterations * neighbours * copy(nx)),
      haloWait: 0,
      sweep: noisy(iterations * cells * COST.sweepPerCell),
      residual: noisy(nResidual * cells * COST.residualPerCell),
      allreduceSelf: noisy(nResidual * COST.sendrecvCall),
      allreduceWait: 0,
      ckptPack: noisy(nCkpt * copy(cells)),
      ckptChecksum: r === 0 ? noisy(nCkpt * nx * ny * COST.checksumPerCell) : 0,
      ckptRecvCopy: r === 0 ? noisy(nCkpt * copy(nx * (ny - n))) : 0,
      ckptFwrite: r === 0 ? noisy(nCkpt * COST.fwriteCall) : 0,
      ckptWrite: r === 0 ? noisy((nCkpt * (nx * ny * 8 + 32)) / COST.ioBandwidth) : 0,
      ckptSendrecvSelf: noisy(nCkpt * (r === 0 ? ranks - 1 : 1) * COST.sendrecvCall),
      ckptWait: r === 0 ? 0 : noisy(nCkpt * gatherWait),
      reportAllreduce: noisy(2 * 2 * COST.barrierLatency),
      stepSelf: noisy(iterations * COST.stepOverhead),
      mainSelf: noisy(COST.mainSelf),
      outside: noisy(COST.outside),
    };
  });

  // Waiting: the halo exchange couples every rank to its neighbours every step, so in the steady state
  // every rank steps at the pace of the slowest and waits out the difference in MPI_Sendrecv; the
  // residual's MPI_Allreduce and the barrier after setup wait out the imbalance of the work before them.
  const stepWork = (t: RankTime): number =>
    t.sweep +
    t.wrap +
    t.sendrecvSelf +
    t.haloCopy +
    t.stepSelf +
    t.ckptPack +
    t.ckptChecksum +
    t.ckptRecvCopy +
    t.ckptFwrite +
    t.ckptWrite +
    t.ckptSendrecvSelf +
    t.ckptWait;
  const maxStep = Math.max(...time.map(stepWork));
  const maxResidual = Math.max(...time.map(t => t.residual));
  const maxInit = Math.max(...time.map(t => t.initSelf + t.initSin));
  time.forEach((t, r) => {
    const neighbours = (r > 0 ? 1 : 0) + (r < ranks - 1 ? 1 : 0);
    t.haloWait = maxStep - stepWork(t) + noisy(iterations * neighbours * COST.rendezvous);
    t.allreduceWait = maxResidual - t.residual + noisy(nResidual * 2 * COST.barrierLatency);
    t.barrierWait = maxInit - (t.initSelf + t.initSin) + noisy((1 + ranks) * COST.barrierLatency);
  });
  return time;
}

// ---------------------------------------------------------------------------------------------------
// Sampling profile
// ---------------------------------------------------------------------------------------------------

/** Time spent with the program counter at `where`, below rank_main along `path`. */
interface Sampled {
  path: string[];
  where: Site | 'UNKNOWN';
  seconds: number;
}

/** A spin-wait: mostly in sched_yield (a system call), the rest polling. */
function waitIn(path: string[], poll: Site, seconds: number): Sampled[] {
  return [
    { path, where: poll, seconds: 0.4 * seconds },
    { path: [...path, 'sched_yield'], where: 'UNKNOWN', seconds: 0.6 * seconds },
  ];
}

function sampledTime(t: RankTime, rank: number): Sampled[] {
  const steps = ['run_timesteps'];
  const halo = [...steps, 'exchange_halos'];
  const ckpt = [...steps, 'write_checkpoint'];
  return [
    { path: ['init_field'], where: S.initStore, seconds: 0.8 * t.initSelf },
    { path: ['init_field'], where: S.initLoop, seconds: 0.2 * t.initSelf },
    { path: ['init_field', '__sin_fma'], where: 'UNKNOWN', seconds: t.initSin },
    ...waitIn(['MPI_Barrier', 'barrier_wait'], S.barrierPoll, t.barrierWait),
    { path: halo, where: S.wrapLeft, seconds: 0.5 * t.wrap },
    { path: halo, where: S.wrapRight, seconds: 0.5 * t.wrap },
    { path: [...halo, 'MPI_Sendrecv'], where: S.sendrecvPost, seconds: 0.6 * t.sendrecvSelf },
    { path: [...halo, 'MPI_Sendrecv'], where: S.sendrecvRelease, seconds: 0.4 * t.sendrecvSelf },
    { path: [...halo, 'MPI_Sendrecv', '__memmove_avx_unaligned_erms'], where: 'UNKNOWN', seconds: t.haloCopy },
    ...waitIn([...halo, 'MPI_Sendrecv', 'mailbox_wait'], S.mailboxPoll, t.haloWait),
    { path: [...steps, 'jacobi_sweep'], where: S.sweepUpdate, seconds: 0.62 * t.sweep },
    { path: [...steps, 'jacobi_sweep'], where: S.sweepUpdateTail, seconds: 0.28 * t.sweep },
    { path: [...steps, 'jacobi_sweep'], where: S.sweepInner, seconds: 0.07 * t.sweep },
    { path: [...steps, 'jacobi_sweep'], where: S.sweepOuter, seconds: 0.03 * t.sweep },
    { path: [...steps, 'compute_residual'], where: S.residualDiff, seconds: 0.5 * t.residual },
    { path: [...steps, 'compute_residual'], where: S.residualSum, seconds: 0.42 * t.residual },
    { path: [...steps, 'compute_residual'], where: S.residualInner, seconds: 0.08 * t.residual },
    { path: [...steps, 'global_residual', 'MPI_Allreduce'], where: S.reduceCombine, seconds: t.allreduceSelf },
    ...waitIn([...steps, 'global_residual', 'MPI_Allreduce', 'barrier_wait'], S.barrierPoll, t.allreduceWait),
    { path: ckpt, where: S.checksum, seconds: t.ckptChecksum },
    { path: [...ckpt, '__memmove_avx_unaligned_erms'], where: 'UNKNOWN', seconds: t.ckptPack },
    {
      path: [...ckpt, 'MPI_Sendrecv'],
      where: rank === 0 ? S.sendrecvRelease : S.sendrecvPost,
      seconds: t.ckptSendrecvSelf,
    },
    { path: [...ckpt, 'MPI_Sendrecv', '__memmove_avx_unaligned_erms'], where: 'UNKNOWN', seconds: t.ckptRecvCopy },
    ...waitIn([...ckpt, 'MPI_Sendrecv', 'mailbox_wait'], S.mailboxPoll, t.ckptWait),
    { path: [...ckpt, 'fwrite'], where: 'UNKNOWN', seconds: t.ckptFwrite },
    { path: [...ckpt, 'fwrite', '__GI___libc_write'], where: 'UNKNOWN', seconds: t.ckptWrite },
    ...waitIn(['MPI_Allreduce', 'barrier_wait'], S.barrierPoll, t.reportAllreduce),
    { path: steps, where: S.stepLoop, seconds: 0.6 * t.stepSelf },
    { path: steps, where: S.stepSwap, seconds: 0.4 * t.stepSelf },
    { path: [], where: S.rankReport, seconds: t.mainSelf },
  ];
}

const SAMPLING_COLUMNS = [
  'count',
  'module#cali.sampler.pc',
  'mpi.rank',
  'source.function#callpath.address',
  'sourceloc#cali.sampler.pc',
  'sum#time.duration',
];

interface JsonNode {
  label: string;
  column: string;
  parent?: number;
}

/** Interns json-split nodes in order of first use, as cali-query does (a parent always before its children). */
class NodeTable {
  readonly nodes: JsonNode[] = [];
  private readonly index = new Map<string, number>();

  get(column: string, label: string, parent?: number): number {
    const key = `${column}\u0000${label}\u0000${parent ?? ''}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.nodes.length;
      this.nodes.push(parent === undefined ? { label, column } : { label, column, parent });
      this.index.set(key, i);
    }
    return i;
  }

  path(column: string, labels: string[]): number {
    let parent: number | undefined;
    for (const label of labels) parent = this.get(column, label, parent);
    if (parent === undefined) throw new Error('generate-samples: empty path');
    return parent;
  }
}

function samplingProfile(sources: Sources, time: RankTime[]): string {
  const perRank = time.map(sampledTime);
  const nodes = new NodeTable();
  const rows: string[] = [];
  const lineOf = new Map<Site, number>();
  // Row order: call site by call site, ranks 0..n-1 within each (cali-query's order is its own; any is valid).
  for (let k = 0; k < perRank[0]!.length; k++) {
    for (let rank = 0; rank < time.length; rank++) {
      const { path, where, seconds } = perRank[rank]![k]!;
      const full = [...rankPrefix(rank), ...path];
      for (let d = 1; d < full.length; d++) checkCall(sources, full[d - 1]!, full[d]!);
      const leaf = full[full.length - 1]!;
      const module = FUNCTION_MODULE[leaf];
      if (module === undefined) throw new Error(`generate-samples: no module for ${leaf}`);
      let loc = 'UNKNOWN:0';
      if (where !== 'UNKNOWN') {
        if (where.fn !== leaf) throw new Error(`generate-samples: site in ${where.fn}() sampled under ${leaf}()`);
        let line = lineOf.get(where);
        if (line === undefined) lineOf.set(where, (line = locate(sources, where)));
        loc = `${BUILD_SRC}${where.file}:${line}`;
      }
      const count = Math.round((seconds * 1e6) / SAMPLE_PERIOD_US);
      if (count === 0) continue;
      const moduleNode = nodes.get('module#cali.sampler.pc', module);
      const pathNode = nodes.path('source.function#callpath.address', full);
      const locNode = nodes.get('sourceloc#cali.sampler.pc', loc);
      rows.push(`[ ${count}, ${moduleNode}, ${rank}, ${pathNode}, ${locNode}, ${seconds6(count * SAMPLE_PERIOD_US)} ]`);
    }
  }
  const metadata = [
    { is_value: true },
    { is_value: false },
    { is_value: true },
    { is_value: false },
    { is_value: false },
    { is_value: true, 'attribute.unit': 'sec' },
  ];
  return jsonSplit(rows, SAMPLING_COLUMNS, metadata, nodes.nodes, {
    ...runMetadata(),
    sampling_frequency_hz: String(1e6 / SAMPLE_PERIOD_US),
  });
}

// ---------------------------------------------------------------------------------------------------
// Annotation-region profile
// ---------------------------------------------------------------------------------------------------

/**
 * A region of the annotation profile: either a REGION_BEGIN/REGION_END pair in main.c, or an MPI call
 * that Caliper's MPI wrappers make a region of, called from `calledIn`.
 */
interface Region {
  name: string;
  calledIn?: string;
  exclusive: (t: RankTime) => number;
  children?: Region[];
}

const REGIONS: Region = {
  name: 'main',
  exclusive: t => t.mainSelf,
  children: [
    { name: 'setup', exclusive: t => t.initSelf + t.initSin },
    { name: 'MPI_Barrier', calledIn: 'main.c', exclusive: t => t.barrierWait },
    {
      name: 'timestep',
      exclusive: t => t.stepSelf,
      children: [
        {
          name: 'halo_exchange',
          exclusive: t => t.wrap,
          children: [
            { name: 'MPI_Sendrecv', calledIn: 'halo.c', exclusive: t => t.sendrecvSelf + t.haloCopy + t.haloWait },
          ],
        },
        { name: 'jacobi_sweep', exclusive: t => t.sweep },
        {
          name: 'global_residual',
          exclusive: t => t.residual,
          children: [{ name: 'MPI_Allreduce', calledIn: 'halo.c', exclusive: t => t.allreduceSelf + t.allreduceWait }],
        },
        {
          name: 'checkpoint',
          exclusive: t => t.ckptPack + t.ckptChecksum + t.ckptFwrite + t.ckptWrite,
          children: [
            {
              name: 'MPI_Sendrecv',
              calledIn: 'checkpoint.c',
              exclusive: t => t.ckptSendrecvSelf + t.ckptRecvCopy + t.ckptWait,
            },
          ],
        },
      ],
    },
    { name: 'MPI_Allreduce', calledIn: 'main.c', exclusive: t => t.reportAllreduce },
  ],
};

function checkRegion(sources: Sources, region: Region): void {
  const [file, spelled] =
    region.calledIn === undefined ? ['main.c', `REGION_BEGIN("${region.name}")`] : [region.calledIn, `${region.name}(`];
  if (!sourceFile(sources, file).lines.some(l => l.includes(spelled))) {
    throw new Error(`generate-samples: region ${region.name}: no ${spelled} in ${file}`);
  }
  for (const child of region.children ?? []) checkRegion(sources, child);
}

function regionsProfile(sources: Sources, time: RankTime[]): string {
  checkRegion(sources, REGIONS);
  const nodes = new NodeTable();
  const rows: string[] = [];
  // Integer microseconds, so that inclusive = exclusive + Σ children holds exactly in the 6-decimal output.
  const us = (s: number): number => Math.round(s * 1e6);
  time.forEach((t, rank) => {
    const outside = us(t.outside);
    rows.push(`[ ${seconds6(outside)}, ${rank}, ${seconds6(outside)}, null ]`);
  });
  const visit = (region: Region, parent: number | undefined): number[] => {
    const node = nodes.get('path', region.name, parent);
    const at = rows.length;
    rows.push(''); // this region's rows go before its children's, filled in below
    const exclusive = time.map(t => us(region.exclusive(t)));
    const inclusive = [...exclusive];
    for (const child of region.children ?? []) {
      visit(child, node).forEach((v, rank) => {
        inclusive[rank]! += v;
      });
    }
    rows.splice(
      at,
      1,
      ...time.map((_, rank) => `[ ${seconds6(inclusive[rank]!)}, ${rank}, ${seconds6(exclusive[rank]!)}, ${node} ]`),
    );
    return inclusive;
  };
  visit(REGIONS, undefined);
  const metadata = [
    { is_value: true, 'attribute.unit': 'sec' },
    { is_value: true },
    { is_value: true, 'attribute.unit': 'sec' },
    { is_value: false },
  ];
  return jsonSplit(
    rows,
    ['inclusive#sum#time.duration', 'mpi.rank', 'sum#time.duration', 'path'],
    metadata,
    nodes.nodes,
    runMetadata(),
  );
}

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

/** Microseconds as seconds with 6 decimals, exactly (no floating-point rounding). */
function seconds6(microseconds: number): string {
  return `${Math.floor(microseconds / 1e6)}.${String(microseconds % 1e6).padStart(6, '0')}`;
}

/** Adiak-style run metadata: extra top-level string keys, as Caliper writes them. */
function runMetadata(): Record<string, string> {
  const rows = Array.from({ length: RUN.ranks }, (_, r) => partitionRows(RUN.ny, RUN.ranks, r).count);
  return {
    'cali.caliper.version': '2.10.0',
    'mpi.world.size': String(RUN.ranks),
    executable: 'heat',
    executablepath: '/home/hpc/heat-stencil/build/heat',
    cluster: 'demo-cluster',
    user: 'hpc',
    launchdate: '1767268800',
    compiler: 'gcc-12.2.0',
    problem_size: `${RUN.nx}x${RUN.ny}`,
    iterations: String(RUN.iterations),
    residual_every: String(RUN.residEvery),
    checkpoint_every: String(RUN.ckptEvery),
    rows_per_rank: rows.join(','),
    generator: 'scripts/generate-samples.ts: synthetic, from a cost model of samples/heat-stencil (not measured)',
  };
}

/** json-split layout: one data row per line, like cali-query; one node per line (cali-query puts them all on one). */
function jsonSplit(
  rows: string[],
  columns: string[],
  metadata: object[],
  nodes: JsonNode[],
  extra: Record<string, string>,
): string {
  const out = ['{', '  "data": ['];
  rows.forEach((r, i) => out.push(`    ${r}${i < rows.length - 1 ? ',' : ''}`));
  out.push('  ],');
  out.push(`  "columns": [ ${columns.map(c => JSON.stringify(c)).join(', ')} ],`);
  out.push(`  "column_metadata": [ ${metadata.map(inline).join(', ')} ],`);
  out.push('  "nodes": [');
  nodes.forEach((n, i) => out.push(`    ${inline(n)}${i < nodes.length - 1 ? ',' : ''}`));
  out.push('  ],');
  const keys = Object.entries(extra);
  keys.forEach(([k, v], i) =>
    out.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v)}${i < keys.length - 1 ? ',' : ''}`),
  );
  out.push('}');
  return out.join('\n') + '\n';
}

function inline(o: object): string {
  return `{ ${Object.entries(o)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ')} }`;
}

export interface GeneratedFile {
  name: string;
  text: string;
}

/** The profiles for the given C sources (by file name), without touching the disk. */
export function generateProfiles(sources: Record<string, string>): GeneratedFile[] {
  const prepared = prepare(sources);
  const time = modelRun();
  return [
    { name: SAMPLING_FILE, text: samplingProfile(prepared, time) },
    { name: REGIONS_FILE, text: regionsProfile(prepared, time) },
  ];
}

function main(): void {
  mkdirSync(PROFILE_DIR, { recursive: true });
  for (const f of generateProfiles(readSources())) {
    writeFileSync(join(PROFILE_DIR, f.name), f.text);
    console.log(`wrote ${join('samples', 'heat-stencil', 'profiles', f.name)} (${f.text.length} bytes)`);
  }
  const trace = generateOffloadTrace(readSources());
  writeFileSync(join(PROFILE_DIR, OFFLOAD_TRACE_FILE), trace);
  console.log(`wrote ${join('samples', 'heat-stencil', 'profiles', OFFLOAD_TRACE_FILE)} (${trace.length} bytes)`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
