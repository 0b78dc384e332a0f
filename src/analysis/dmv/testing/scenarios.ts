import { seededRandom } from '../../stats/seeded-random';
import { KinetoTraceWriter } from './kineto-writer';

/**
 * Seeded Kineto traces that plant the thesis' case-study findings (ch. 7; digest §4.2) with known
 * answers. Times in µs.
 */

const S = 1e6;

/**
 * A tall-and-skinny GEMM run (thesis §7.5): `runtimeS` seconds of batched kernels launched from
 * `gemm.py(40)`, one Python frame spanning the whole run (so the range is exactly [0, runtimeS]).
 * With `explicitCopies` (the EXP scheme) 3 GB move explicitly: 1.5 GB host→device inside sector 4 and
 * 1.5 GB device→host inside sector 11 of the 12-sector clock, from `gemm.py(31)` and `gemm.py(52)`.
 */
export function gemmRun(
  options: { seed?: number; runtimeS?: number; explicitCopies?: boolean } = {},
): KinetoTraceWriter {
  const rnd = seededRandom(options.seed ?? 7);
  const runtime = (options.runtimeS ?? 12) * S;
  const sector = runtime / 12;
  const w = new KinetoTraceWriter();
  w.device(0);
  w.python('gemm.py(40): run_batches', 0, runtime);
  const busy: [number, number][] = [];
  if (options.explicitCopies) {
    for (const [k, dir, line] of [
      [4, 'HtoD', 31],
      [11, 'DtoH', 52],
    ] as const) {
      const frameStart = k * sector + 0.1 * sector;
      w.python(`gemm.py(${line}): ${dir === 'HtoD' ? 'upload' : 'download'}`, frameStart, 0.7 * sector);
      for (let c = 0; c < 3; c++) {
        const ts = frameStart + 0.05 * sector + c * 0.2 * sector;
        w.launch('cudaMemcpyAsync', ts, 20, {
          kind: 'memcpy',
          direction: dir,
          ts: ts + 10,
          dur: 0.15 * sector,
          bytes: 0.5e9,
        });
        busy.push([ts + 10, ts + 10 + 0.15 * sector]);
      }
    }
  }
  // Kernels back to back with small gaps, skipping the copies' time.
  let t = 1000;
  while (t < runtime - 2000) {
    const dur = 2000 + Math.floor(rnd() * 8000);
    const clash = busy.find(([s, e]) => t < e && t + dur > s);
    if (clash) {
      t = clash[1] + 100;
      continue;
    }
    if (t + dur > runtime - 1000) break;
    w.launch('cudaLaunchKernel', t - 50, 10, { kind: 'kernel', ts: t, dur });
    t += dur + 200 + Math.floor(rnd() * 500);
  }
  return w;
}

/** The line whose copies alternate in {@link gpt2Run}. */
export const GPT2_FRAME = { file: '/home/user/gpt2/model.py', line: 123, name: 'get_output_embeddings' };

/**
 * GPT-2 training with TorchScript (thesis §7.5): 114 s. Until 60 s, four ordinary epochs (JIT tracing
 * on the CPU, long kernels, one hyper-parameter exchange per epoch from `train.py(88)`); from 60 s on,
 * `model.py(123): get_output_embeddings` fetches the output embeddings again and again: H→D copy,
 * short kernel, D→H copy every 100 ms (540 rounds). `optimised` (the fix: cache the embeddings) makes
 * ten times fewer of those events (a round every second).
 */
export function gpt2Run(options: { seed?: number; optimised?: boolean } = {}): KinetoTraceWriter {
  const rnd = seededRandom(options.seed ?? 11);
  const w = new KinetoTraceWriter();
  w.device(0);
  const end = 114 * S;
  w.python('/home/user/gpt2/train.py(200): main', 0, end);
  for (let epoch = 0; epoch < 4; epoch++) {
    const e0 = epoch * 15 * S;
    w.op('torch.jit.trace', e0 + 0.1 * S, 2 * S, 'user_annotation');
    for (let k = 0; k < 10; k++) {
      const ts = e0 + 2.2 * S + k * 1.1 * S;
      w.launch('cudaLaunchKernel', ts, 15, {
        kind: 'kernel',
        ts: ts + 20,
        dur: (0.9 + 0.1 * rnd()) * S,
        name: 'ampere_sgemm_128x64_nn',
      });
    }
    const x = e0 + 14 * S;
    w.python('/home/user/gpt2/train.py(88): exchange_hyperparameters', x, 0.5 * S);
    w.launch('cudaMemcpyAsync', x + 1000, 20, {
      kind: 'memcpy',
      direction: 'HtoD',
      ts: x + 1100,
      dur: 20_000,
      bytes: 64e6,
    });
    w.launch('cudaMemcpyAsync', x + 30_000, 20, {
      kind: 'memcpy',
      direction: 'DtoH',
      ts: x + 30_100,
      dur: 20_000,
      bytes: 64e6,
    });
  }
  const period = (options.optimised ? 1 : 0.1) * S;
  for (let ts = 60 * S; ts + 20_000 <= end; ts += period) {
    w.python(`${GPT2_FRAME.file}(${GPT2_FRAME.line}): ${GPT2_FRAME.name}`, ts, 16_000);
    w.launch('cudaMemcpyAsync', ts + 100, 20, {
      kind: 'memcpy',
      direction: 'HtoD',
      ts: ts + 200,
      dur: 4000,
      bytes: 50e6,
    });
    w.launch('cudaLaunchKernel', ts + 4300, 10, { kind: 'kernel', ts: ts + 4400, dur: 3000, name: 'lm_head_gemv' });
    w.launch('cudaMemcpyAsync', ts + 7500, 20, {
      kind: 'memcpy',
      direction: 'DtoH',
      ts: ts + 7600,
      dur: 4000,
      bytes: 50e6,
    });
  }
  return w;
}

/** `launches` kernel launches in one second, each a runtime call + kernel pair (for grouping tests). */
export function manyLaunches(launches: number): KinetoTraceWriter {
  const w = new KinetoTraceWriter();
  const step = S / launches;
  w.python('train.py(10): loop', 0, S);
  for (let k = 0; k < launches; k++) {
    const ts = k * step;
    w.launch('cudaLaunchKernel', ts + 1, 0.2 * step, { kind: 'kernel', ts: ts + 0.3 * step, dur: 0.5 * step });
  }
  return w;
}

/**
 * Counters whose variance in the whole run is known: series `c{k}` alternates mean ± a_k, so its
 * population variance is exactly a_k² (an even number of samples, all inside the run).
 */
export function countersWithVariances(amplitudes: readonly number[], samples = 100): KinetoTraceWriter {
  const w = new KinetoTraceWriter();
  w.op('step', 0, samples * 1000);
  for (let i = 0; i < samples; i++)
    amplitudes.forEach((a, k) => w.counter(`c${k}`, i * 1000, { value: 50 + (i % 2 === 0 ? a : -a) }));
  return w;
}

/** Rows of an Nsight Systems SQLite export (for test databases built with sql.js). */
export type NsysTables = Record<string, { cols: string[]; rows: (number | string | null)[][] }>;

/**
 * The UVM scheme of the GEMM run as an Nsight Systems export: the same kernels, no explicit copies,
 * and unified-memory GPU page-fault groups while the first kernels touch A and B (sectors 0–2 of a
 * 12 s run: 400 groups of 50 faults) and a few stray ones later.
 */
export function gemmUvmNsys(seed = 5): NsysTables {
  const rnd = seededRandom(seed);
  const ns = 1e9;
  const G_PID = 2 ** 48 + 77 * 2 ** 24,
    TID = G_PID + 77;
  const runtime: (number | string | null)[][] = [];
  const kernels: (number | string | null)[][] = [];
  const faults: (number | string | null)[][] = [];
  let corr = 1;
  runtime.push([0, 1000, TID, 0, 3]); // cudaMallocManaged at the very start
  for (let t = 1e6; t < 12 * ns - 20e6;) {
    const dur = 5e6 + Math.floor(rnd() * 10e6);
    runtime.push([t - 20_000, t - 10_000, TID, corr, 1]);
    kernels.push([t, t + dur, 0, 7, corr, G_PID, 2, 2]);
    corr++;
    t += dur + 100_000;
  }
  kernels.push([12 * ns - 2e6, 12 * ns, 0, 7, corr, G_PID, 2, 2]);
  runtime.push([12 * ns - 2.1e6, 12 * ns - 2.05e6, TID, corr, 1]);
  for (let k = 0; k < 400; k++) {
    const s = 0.05 * ns + k * 7e6;
    faults.push([s, s + 100_000, G_PID, 0, 0x7f0000000000 + k * 4096, 50, 1]);
  }
  for (let k = 0; k < 5; k++) faults.push([5 * ns + k * 1e9, 5 * ns + k * 1e9 + 50_000, G_PID, 0, 4096, 2, 1]);
  return {
    StringIds: {
      cols: ['id', 'value'],
      rows: [
        [1, 'cudaLaunchKernel'],
        [2, 'gemm_batched_kernel'],
        [3, 'cudaMallocManaged'],
      ],
    },
    CUPTI_ACTIVITY_KIND_RUNTIME: { cols: ['start', 'end', 'globalTid', 'correlationId', 'nameId'], rows: runtime },
    CUPTI_ACTIVITY_KIND_KERNEL: {
      cols: ['start', 'end', 'deviceId', 'streamId', 'correlationId', 'globalPid', 'demangledName', 'shortName'],
      rows: kernels,
    },
    CUDA_UM_GPU_PAGE_FAULT_EVENTS: {
      cols: ['start', 'end', 'globalPid', 'deviceId', 'address', 'numberOfPageFaults', 'faultAccessType'],
      rows: faults,
    },
  };
}
